/* The analysis kernel: see kernel.h for what it computes and analysis.py for why.
 *
 * Where the Python reference contracts the dealer's finals rank by rank to share work
 * between thousands of compositions (dealer.py), here each composition removed sums
 * its finals directly: with the falling factorials of its pool tabulated first, a final
 * costs about one multiplication (the finals' trie, below), and a few microseconds cover
 * the ~2,000 finals of the worst up card, memoised per composition. */
#include "kernel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ACE 0
#define TEN 9
#define BUST 5
#define NATURAL 6
/* More cards than the dealer ever draws (eleven, against a 2: aces and small cards) and
 * than any count a hand or a removed composition holds of one rank. */
#define MAX_CARDS 24

/* ---- a map from a packed composition to a slot number --------------------------------- */

/* Six bits a rank (no hand or dealer draw holds 64 cards of one rank), and a top bit so
 * that no key is 0, the empty mark. */
static uint64_t pack(const int32_t comp[BJ_RANKS]) {
    uint64_t key = 1ULL << 63;
    for (int r = 0; r < BJ_RANKS; r++)
        key |= (uint64_t)(comp[r] & 63) << (6 * r);
    return key;
}

typedef struct {
    uint64_t *keys; /* 0: empty */
    int32_t *slots;
    size_t mask; /* capacity - 1, a power of two less one */
    size_t used;
} map;

static int map_init(map *m, size_t capacity) {
    m->keys = calloc(capacity, sizeof *m->keys);
    m->slots = malloc(capacity * sizeof *m->slots);
    m->mask = capacity - 1;
    m->used = 0;
    if (!m->keys || !m->slots) {
        free(m->keys);
        free(m->slots);
        m->keys = NULL;
        m->slots = NULL;
        return -1;
    }
    return 0;
}

static void map_free(map *m) {
    free(m->keys);
    free(m->slots);
}

static size_t map_home(const map *m, uint64_t key) {
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 29) & m->mask;
}

/* The slot of `key`, or -1. */
static int32_t map_get(const map *m, uint64_t key) {
    for (size_t i = map_home(m, key);; i = (i + 1) & m->mask) {
        if (m->keys[i] == key)
            return m->slots[i];
        if (m->keys[i] == 0)
            return -1;
    }
}

/* Adds a key that is not there yet; -1 when out of memory. Kept under half full. */
static int map_put(map *m, uint64_t key, int32_t slot) {
    if (2 * (m->used + 1) > m->mask + 1) {
        map bigger;
        if (map_init(&bigger, 2 * (m->mask + 1)) < 0)
            return -1;
        for (size_t i = 0; i <= m->mask; i++)
            if (m->keys[i])
                map_put(&bigger, m->keys[i], m->slots[i]);
        map_free(m);
        *m = bigger;
    }
    size_t i = map_home(m, key);
    while (m->keys[i])
        i = (i + 1) & m->mask;
    m->keys[i] = key;
    m->slots[i] = slot;
    m->used++;
    return 0;
}

/* ---- a memo: a map to rows of `width` doubles -------------------------------------------- */

typedef struct {
    map index;
    double *rows;
    size_t count, capacity, width;
} memo;

static int memo_init(memo *m, size_t width) {
    m->width = width;
    m->count = 0;
    m->capacity = 256;
    m->rows = malloc(m->capacity * width * sizeof *m->rows);
    if (!m->rows)
        return -1;
    if (map_init(&m->index, 512) < 0) {
        free(m->rows);
        return -1;
    }
    return 0;
}

static void memo_free(memo *m) {
    map_free(&m->index);
    free(m->rows);
}

static const double *memo_get(const memo *m, uint64_t key) {
    int32_t slot = map_get(&m->index, key);
    return slot < 0 ? NULL : m->rows + (size_t)slot * m->width;
}

/* Copies `row` in under `key` (not there yet); -1 when out of memory. */
static int memo_put(memo *m, uint64_t key, const double *row) {
    if (m->count == m->capacity) {
        double *more = realloc(m->rows, 2 * m->capacity * m->width * sizeof *m->rows);
        if (!more)
            return -1;
        m->rows = more;
        m->capacity *= 2;
    }
    if (map_put(&m->index, key, (int32_t)m->count) < 0)
        return -1;
    memcpy(m->rows + m->count * m->width, row, m->width * sizeof *row);
    m->count++;
    return 0;
}

/* ---- hands ------------------------------------------------------------------------------ */

static int cards_of(const int32_t comp[BJ_RANKS]) {
    int n = 0;
    for (int r = 0; r < BJ_RANKS; r++)
        n += comp[r];
    return n;
}

/* The best total of cards worth `hard` with every ace counted 1, and whether it is soft
   (cards.py's `best_total`): the one place the kernel writes this rule. */
static int best_total(int hard, int has_ace, int *soft) {
    int is_soft = has_ace && hard <= 11;
    if (soft)
        *soft = is_soft;
    return is_soft ? hard + 10 : hard;
}

/* The best total of a hand, and whether it is soft (dealer.py's `total`). */
static int total(const int32_t hand[BJ_RANKS], int *soft) {
    int hard = 0;
    for (int r = 0; r < BJ_RANKS; r++)
        hard += (r + 1) * hand[r];
    return best_total(hard, hand[ACE] > 0, soft);
}

static void merge(int32_t out[BJ_RANKS], const int32_t a[BJ_RANKS], const int32_t b[BJ_RANKS]) {
    for (int r = 0; r < BJ_RANKS; r++)
        out[r] = a[r] + b[r];
}

static int is_empty(const int32_t comp[BJ_RANKS]) {
    for (int r = 0; r < BJ_RANKS; r++)
        if (comp[r])
            return 0;
    return 1;
}

/* Hitting is at least as good as standing (analysis.py's `stand_dominated`). */
static int stand_dominated(const int32_t hand[BJ_RANKS]) {
    int soft;
    int points = total(hand, &soft);
    return soft ? points <= 16 : points <= 11;
}

/* ---- the dealer's finals ---------------------------------------------------------------- */

/* The finals' products share their factors: the finals are the nodes of a trie over their
 * (rank, count) terms, the ten-value rank first (few counts of it, so few branches near the
 * root), and a node's product is its parent's times one factor. Against a 2, 2,037 finals
 * then cost 2,164 multiplications where their terms are 7,092. The nodes are numbered by
 * depth and the finals sorted by outcome and cards drawn, so that neither loop of
 * `dealer_chances` waits on the result of its previous step. */
#define BUCKETS (BJ_OUTCOMES * MAX_CARDS)

struct bj_finals {
    int32_t count;
    uint16_t *bucket;  /* outcome * MAX_CARDS + cards drawn */
    double *orders;    /* the drawing orders that reach the final without stopping early */
    int32_t *node;     /* each final's node in the trie */
    int32_t run[BUCKETS + 1]; /* the finals of bucket b: run[b] to run[b + 1] - 1 */
    int32_t most[BJ_RANKS];   /* the most cards of each rank a final holds */
    int32_t longest;          /* the most cards a final holds */
    int32_t *start;    /* while building: count + 1 offsets into `terms` */
    uint16_t *terms;   /* while building: rank * MAX_CARDS + its count, tens first */
    int32_t nodes;     /* the trie's, node 0 its root (the empty product) */
    int32_t *parent;   /* each node's parent (nodes come after their parents) */
    uint16_t *factor;  /* each node's term: its factor's index in `dealer_chances` */
};

typedef struct {
    int32_t drawn[BJ_RANKS];
    double orders;
    int hard, aces;
} dealer_state;

typedef struct {
    dealer_state *states;
    size_t count, capacity;
} state_list;

static int states_push(state_list *list, const dealer_state *state) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? 2 * list->capacity : 1024;
        dealer_state *more = realloc(list->states, capacity * sizeof *more);
        if (!more)
            return -1;
        list->states = more;
        list->capacity = capacity;
    }
    list->states[list->count++] = *state;
    return 0;
}

static int finals_add(bj_finals *f, size_t *capacity, size_t *terms_capacity,
                      const dealer_state *s, int outcome, int cards) {
    if ((size_t)f->count + 1 >= *capacity) {
        size_t more = *capacity * 2;
        uint16_t *bucket = realloc(f->bucket, more * sizeof *bucket);
        if (bucket)
            f->bucket = bucket;
        double *orders = realloc(f->orders, more * sizeof *orders);
        if (orders)
            f->orders = orders;
        int32_t *start = realloc(f->start, (more + 1) * sizeof *start);
        if (start)
            f->start = start;
        if (!bucket || !orders || !start)
            return -1;
        *capacity = more;
    }
    if ((size_t)f->start[f->count] + BJ_RANKS > *terms_capacity) {
        uint16_t *terms = realloc(f->terms, 2 * *terms_capacity * sizeof *terms);
        if (!terms)
            return -1;
        f->terms = terms;
        *terms_capacity *= 2;
    }
    int32_t at = f->start[f->count];
    for (int r = 0; r < BJ_RANKS; r++)
        f->most[r] = s->drawn[r] > f->most[r] ? s->drawn[r] : f->most[r];
    f->longest = cards > f->longest ? cards : f->longest;
    for (int r = BJ_RANKS - 1; r >= 0; r--)
        if (s->drawn[r])
            f->terms[at++] = (uint16_t)(r * MAX_CARDS + s->drawn[r]);
    f->bucket[f->count] = (uint16_t)(outcome * MAX_CARDS + cards);
    f->orders[f->count] = s->orders;
    f->start[++f->count] = at;
    return 0;
}

/* Renumbers the trie's nodes by depth (a parent still comes before its children). */
static int by_depth(bj_finals *f) {
    int32_t *depth = malloc((size_t)f->nodes * sizeof *depth);
    int32_t *renumber = malloc((size_t)f->nodes * sizeof *renumber);
    int32_t *parent = malloc((size_t)f->nodes * sizeof *parent);
    uint16_t *factor = malloc((size_t)f->nodes * sizeof *factor);
    int ok = depth && renumber && parent && factor;
    if (ok) {
        int32_t deepest = 0, next = 0;
        depth[0] = 0;
        for (int32_t n = 1; n < f->nodes; n++) {
            depth[n] = depth[f->parent[n]] + 1;
            deepest = depth[n] > deepest ? depth[n] : deepest;
        }
        for (int32_t d = 0; d <= deepest; d++)
            for (int32_t n = 0; n < f->nodes; n++)
                if (depth[n] == d)
                    renumber[n] = next++;
        for (int32_t n = 0; n < f->nodes; n++) {
            parent[renumber[n]] = n ? renumber[f->parent[n]] : -1;
            factor[renumber[n]] = f->factor[n];
        }
        for (int32_t i = 0; i < f->count; i++)
            f->node[i] = renumber[f->node[i]];
        free(f->parent);
        free(f->factor);
        f->parent = parent;
        f->factor = factor;
    } else {
        free(parent);
        free(factor);
    }
    free(depth);
    free(renumber);
    return ok ? 0 : -1;
}

/* Sorts the finals by bucket (stably) and records where each bucket's run starts. */
static int by_bucket(bj_finals *f) {
    size_t count = f->count ? (size_t)f->count : 1;
    uint16_t *bucket = malloc(count * sizeof *bucket);
    double *orders = malloc(count * sizeof *orders);
    int32_t *node = malloc(count * sizeof *node);
    if (!bucket || !orders || !node) {
        free(bucket);
        free(orders);
        free(node);
        return -1;
    }
    int32_t at = 0;
    for (int b = 0; b < BUCKETS; b++) {
        f->run[b] = at;
        for (int32_t i = 0; i < f->count; i++)
            if (f->bucket[i] == b) {
                bucket[at] = f->bucket[i];
                orders[at] = f->orders[i];
                node[at++] = f->node[i];
            }
    }
    f->run[BUCKETS] = at;
    free(f->bucket);
    free(f->orders);
    free(f->node);
    f->bucket = bucket;
    f->orders = orders;
    f->node = node;
    return 0;
}

/* The trie of the finals' terms; the terms are freed, the nodes are what `dealer_chances`
 * reads. */
static int build_trie(bj_finals *f) {
    int32_t terms = f->start[f->count];
    map children; /* (parent, term) -> node */
    f->node = malloc((f->count ? f->count : 1) * sizeof *f->node);
    f->parent = malloc(((size_t)terms + 1) * sizeof *f->parent);
    f->factor = malloc(((size_t)terms + 1) * sizeof *f->factor);
    if (!f->node || !f->parent || !f->factor || map_init(&children, 4096) < 0)
        return -1;
    f->nodes = 1;
    f->parent[0] = -1;
    f->factor[0] = 0;
    int ok = 1;
    for (int32_t i = 0; ok && i < f->count; i++) {
        int32_t at = 0;
        for (int32_t t = f->start[i]; ok && t < f->start[i + 1]; t++) {
            uint64_t key = ((uint64_t)at << 16 | f->terms[t]) + 1; /* never 0 */
            int32_t child = map_get(&children, key);
            if (child < 0) {
                child = f->nodes++;
                f->parent[child] = at;
                f->factor[child] = f->terms[t];
                ok = map_put(&children, key, child) == 0;
            }
            at = child;
        }
        f->node[i] = at;
    }
    map_free(&children);
    free(f->start);
    free(f->terms);
    f->start = NULL;
    f->terms = NULL;
    return ok && by_depth(f) == 0 && by_bucket(f) == 0 ? 0 : -1;
}

/* Card count by card count over multisets, as dealer.py builds them: the orders of a
 * multiset are the sum of those of the multisets one card short that do not stop. */
bj_finals *bj_finals_new(int32_t up, int32_t hits_soft_17) {
    bj_finals *f = calloc(1, sizeof *f);
    size_t capacity = 1024, terms_capacity = 4096;
    state_list level = {0}, following = {0};
    map seen = {0};
    int ok = f != NULL;
    if (ok) {
        f->bucket = malloc(capacity * sizeof *f->bucket);
        f->orders = malloc(capacity * sizeof *f->orders);
        f->start = malloc((capacity + 1) * sizeof *f->start);
        f->terms = malloc(terms_capacity * sizeof *f->terms);
        ok = f->bucket && f->orders && f->start && f->terms;
    }
    if (ok) {
        f->start[0] = 0;
        dealer_state first = {{0}, 1.0, up + 1, up == ACE};
        ok = states_push(&level, &first) == 0;
    }
    for (int cards = 1; ok && level.count; cards++) {
        following.count = 0;
        ok = map_init(&seen, 4096) == 0;
        for (size_t i = 0; ok && i < level.count; i++) {
            const dealer_state *s = &level.states[i];
            for (int r = 0; ok && r < BJ_RANKS; r++) {
                dealer_state more = *s;
                more.drawn[r]++;
                uint64_t key = pack(more.drawn);
                int32_t slot = map_get(&seen, key);
                if (slot >= 0) {
                    following.states[slot].orders += s->orders;
                    continue;
                }
                more.hard += r + 1;
                more.aces = more.aces || r == ACE;
                ok = map_put(&seen, key, (int32_t)following.count) == 0 &&
                     states_push(&following, &more) == 0;
            }
        }
        map_free(&seen);
        level.count = 0;
        for (size_t i = 0; ok && i < following.count; i++) {
            const dealer_state *s = &following.states[i];
            int soft;
            int best = best_total(s->hard, s->aces, &soft);
            if (cards == 1 && best == 21)
                ok = finals_add(f, &capacity, &terms_capacity, s, NATURAL, cards) == 0;
            else if (best > 21)
                ok = finals_add(f, &capacity, &terms_capacity, s, BUST, cards) == 0;
            else if (best >= 17 && !(hits_soft_17 && soft && best == 17))
                ok = finals_add(f, &capacity, &terms_capacity, s, best - 17, cards) == 0;
            else
                ok = states_push(&level, s) == 0;
        }
    }
    free(level.states);
    free(following.states);
    if (!ok || build_trie(f) < 0) {
        bj_finals_free(f);
        return NULL;
    }
    return f;
}

void bj_finals_free(bj_finals *f) {
    if (!f)
        return;
    free(f->bucket);
    free(f->orders);
    free(f->start);
    free(f->terms);
    free(f->node);
    free(f->parent);
    free(f->factor);
    free(f);
}

int32_t bj_finals_count(const bj_finals *f) { return f->count; }

int32_t bj_config_size(void) { return (int32_t)sizeof(bj_config); }

/* ---- the solver ------------------------------------------------------------------------- */

struct bj_solver {
    bj_config config;
    const bj_finals *finals;
    double size;
    double natural_loss; /* what a dealer natural costs in U: 0 once the dealer has peeked */
    memo dealer;         /* removed composition -> the dealer's BJ_OUTCOMES chances */
    memo best;           /* hand -> its best value */
    double *products;    /* per node of the finals' trie, `dealer_chances`'s scratch */
    int failed;          /* a memo could not grow: every value is NaN from then on */
};

bj_solver *bj_solver_new(const bj_config *config, const bj_finals *finals) {
    bj_solver *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->config = *config;
    s->finals = finals;
    for (int r = 0; r < BJ_RANKS; r++)
        s->size += config->counts[r];
    s->natural_loss = config->peeked ? 0.0 : 1.0;
    if (memo_init(&s->dealer, BJ_OUTCOMES) < 0) {
        free(s);
        return NULL;
    }
    s->products = malloc((size_t)finals->nodes * sizeof *s->products);
    if (!s->products || memo_init(&s->best, 1) < 0) {
        free(s->products);
        memo_free(&s->dealer);
        free(s);
        return NULL;
    }
    return s;
}

void bj_solver_free(bj_solver *s) {
    if (!s)
        return;
    memo_free(&s->dealer);
    memo_free(&s->best);
    free(s->products);
    free(s);
}

static double left(const bj_solver *s, const int32_t removed[BJ_RANKS], int rank) {
    return s->config.counts[rank] - removed[rank];
}

static double remaining(const bj_solver *s, const int32_t removed[BJ_RANKS]) {
    return s->size - cards_of(removed);
}

/* The chance the dealer's hole (or second) card makes a natural. */
static double natural_chance(const bj_solver *s, const int32_t removed[BJ_RANKS]) {
    int need;
    if (s->config.up == ACE)
        need = TEN;
    else if (s->config.up == TEN)
        need = ACE;
    else
        return 0.0;
    return left(s, removed, need) / remaining(s, removed);
}

/* P(K | R) = c(K) * prod_r ff(n_r - R_r, k_r) / ff(N - |R|, |K|) summed per outcome
 * (dealer.py's docstring), the falling factorials of this pool tabulated once. */
static int dealer_chances(bj_solver *s, const int32_t removed[BJ_RANKS], double out[BJ_OUTCOMES]) {
    uint64_t key = pack(removed);
    const double *known = memo_get(&s->dealer, key);
    if (known) {
        memcpy(out, known, BJ_OUTCOMES * sizeof *out);
        return 0;
    }
    const bj_finals *f = s->finals;
    double factor[BJ_RANKS * MAX_CARDS];
    for (int r = 0; r < BJ_RANKS; r++) {
        double n = left(s, removed, r);
        double *row = factor + r * MAX_CARDS;
        row[0] = 1.0;
        for (int k = 1; k <= f->most[r]; k++)
            row[k] = row[k - 1] * (n - (k - 1));
    }
    /* 1 / ff(N', m), 0 where ff is 0: at whole counts more cards drawn than are left,
     * where some rank's factor is 0 too. */
    double inverse[MAX_CARDS] = {0.0};
    double rest = remaining(s, removed), falling = 1.0;
    for (int m = 0; m <= f->longest; m++) {
        inverse[m] = falling == 0.0 ? 0.0 : 1.0 / falling;
        falling *= rest - m;
    }
    double *product = s->products;
    product[0] = 1.0;
    for (int32_t n = 1; n < f->nodes; n++)
        product[n] = product[f->parent[n]] * factor[f->factor[n]];
    for (int o = 0; o < BJ_OUTCOMES; o++) {
        double chance = 0.0;
        for (int m = 1; m <= f->longest; m++) {
            /* Four partial sums: each addition need not wait for the one before. */
            double part[4] = {0.0, 0.0, 0.0, 0.0};
            int32_t i = f->run[o * MAX_CARDS + m], end = f->run[o * MAX_CARDS + m + 1];
            for (; i + 4 <= end; i += 4)
                for (int j = 0; j < 4; j++)
                    part[j] += f->orders[i + j] * product[f->node[i + j]];
            for (; i < end; i++)
                part[0] += f->orders[i] * product[f->node[i]];
            chance += ((part[0] + part[1]) + (part[2] + part[3])) * inverse[m];
        }
        out[o] = chance;
    }
    if (memo_put(&s->dealer, key, out) < 0)
        s->failed = 1;
    return 0;
}

int32_t bj_dealer(bj_solver *s, const int32_t removed[BJ_RANKS], double out[BJ_OUTCOMES]) {
    dealer_chances(s, removed, out);
    return s->failed ? -1 : 0;
}

static double bust(const bj_solver *s, const int32_t removed[BJ_RANKS]) {
    if (!s->config.peeked)
        return -1.0; /* a dealer natural would have taken the stake as well */
    return -1.0 + (1.0 - s->natural_loss) * natural_chance(s, removed);
}

static double stand(bj_solver *s, const int32_t extra[BJ_RANKS], const int32_t hand[BJ_RANKS]) {
    int32_t removed[BJ_RANKS];
    merge(removed, extra, hand);
    int points = total(hand, NULL);
    if (points > 21)
        return bust(s, removed);
    if (s->config.any_21_pays_3_2 && points == 21 && cards_of(hand) >= 3)
        return 1.5;
    double p[BJ_OUTCOMES];
    dealer_chances(s, removed, p);
    /* Totals of 16 or less lose to every dealer total, as 16 does. */
    int player = points < 16 ? 16 : points;
    double value = 0.0;
    for (int o = 0; o < 5; o++) {
        int dealer = 17 + o;
        value += (double)((player > dealer) - (player < dealer)) * p[o];
    }
    return value + p[BUST] - s->natural_loss * p[NATURAL];
}

static double best(bj_solver *s, const int32_t hand[BJ_RANKS]);

/* Take a card, then play on at best: the hand's successors in rank order. */
static double hit_on(bj_solver *s, const int32_t hand[BJ_RANKS]) {
    double rest = remaining(s, hand), value = 0.0;
    int32_t more[BJ_RANKS];
    memcpy(more, hand, sizeof more);
    for (int r = 0; r < BJ_RANKS; r++) {
        double n = left(s, hand, r);
        if (n == 0.0)
            continue;
        more[r]++;
        double p = n / rest;
        /* A bust is valued at once: memoising it would cost more than it saves. */
        value += p * (total(more, NULL) > 21 ? bust(s, more) : best(s, more));
        more[r]--;
    }
    return value;
}

static double best(bj_solver *s, const int32_t hand[BJ_RANKS]) {
    uint64_t key = pack(hand);
    const double *known = memo_get(&s->best, key);
    if (known)
        return *known;
    static const int32_t none[BJ_RANKS] = {0};
    int points = total(hand, NULL);
    double value;
    if (points > 21) {
        value = bust(s, hand);
    } else if (points == 21) {
        value = stand(s, none, hand);
    } else {
        value = hit_on(s, hand);
        if (!stand_dominated(hand)) {
            double standing = stand(s, none, hand);
            value = standing >= value ? standing : value;
        }
    }
    if (memo_put(&s->best, key, &value) < 0)
        s->failed = 1;
    return value;
}

/* Scale a U computed with `known` removed to the no-natural chance of `removed`. */
static double renormalise(const bj_solver *s, const int32_t known[BJ_RANKS],
                          const int32_t removed[BJ_RANKS]) {
    if (!s->config.peeked)
        return 1.0;
    return (1.0 - natural_chance(s, removed)) / (1.0 - natural_chance(s, known));
}

static double hit(bj_solver *s, const int32_t extra[BJ_RANKS], const int32_t hand[BJ_RANKS]) {
    if (is_empty(extra))
        return hit_on(s, hand);
    /* A split hand's third card with its sibling's card removed; from there on, an
     * ordinary hand renormalised to the no-natural chance (the stated approximation). */
    int32_t removed[BJ_RANKS], more[BJ_RANKS], with_extra[BJ_RANKS];
    merge(removed, extra, hand);
    double rest = remaining(s, removed), value = 0.0;
    for (int r = 0; r < BJ_RANKS; r++) {
        double n = left(s, removed, r);
        if (n == 0.0)
            continue;
        double p = n / rest;
        memcpy(more, hand, sizeof more);
        more[r]++;
        double standing = stand(s, extra, more);
        if (total(more, NULL) >= 21) {
            value += p * standing;
        } else {
            merge(with_extra, extra, more);
            double on = hit_on(s, more) * renormalise(s, more, with_extra);
            value += p * (standing >= on ? standing : on);
        }
    }
    return value;
}

static double double_down(bj_solver *s, const int32_t extra[BJ_RANKS],
                          const int32_t hand[BJ_RANKS]) {
    int32_t removed[BJ_RANKS], more[BJ_RANKS];
    merge(removed, extra, hand);
    double rest = remaining(s, removed), value = 0.0;
    for (int r = 0; r < BJ_RANKS; r++) {
        double n = left(s, removed, r);
        if (n == 0.0)
            continue;
        double p = n / rest;
        memcpy(more, hand, sizeof more);
        more[r]++;
        value += p * stand(s, extra, more);
    }
    return 2.0 * value;
}

static double surrender(const bj_solver *s, const int32_t extra[BJ_RANKS],
                        const int32_t hand[BJ_RANKS]) {
    if (!s->config.peeked)
        return -0.5;
    int32_t removed[BJ_RANKS];
    merge(removed, extra, hand);
    return -0.5 * (1.0 - natural_chance(s, removed));
}

/* Expected final hands (drew a non-pair card, drew a pair card with no resplit left)
 * once `waiting` hands are still to get their second card and the box holds `made`,
 * each new hand pairing again with chance q (analysis.py's `split_hand_counts`). */
static void split_hand_counts(double q, int waiting, int made, int max_hands, double *other,
                              double *pair) {
    if (waiting == 0) {
        *other = 0.0;
        *pair = 0.0;
        return;
    }
    double o, p, resplit_other, resplit_pair;
    split_hand_counts(q, waiting - 1, made, max_hands, &o, &p);
    o += 1.0;
    if (made < max_hands) {
        split_hand_counts(q, waiting + 1, made + 1, max_hands, &resplit_other, &resplit_pair);
    } else {
        resplit_other = o - 1.0;
        resplit_pair = p + 1.0;
    }
    *other = (1 - q) * o + q * resplit_other;
    *pair = (1 - q) * p + q * resplit_pair;
}

/* The best of a two-card hand made by splitting `pair` cards, without a further split. */
static double split_hand(bj_solver *s, int pair, int second, const int32_t extra[BJ_RANKS]) {
    int32_t hand[BJ_RANKS] = {0};
    hand[pair]++;
    hand[second]++;
    int legal = s->config.split_legal[pair][second];
    double value = stand(s, extra, hand);
    if ((legal & BJ_SPLIT_MAY_HIT) && total(hand, NULL) < 21) {
        double hitting = hit(s, extra, hand);
        value = hitting > value ? hitting : value;
    }
    if (legal & BJ_SPLIT_MAY_DOUBLE) {
        double doubling = double_down(s, extra, hand);
        value = doubling > value ? doubling : value;
    }
    return value;
}

static double split(bj_solver *s, int pair, const int32_t extra[BJ_RANKS], int hands) {
    int32_t removed[BJ_RANKS], after[BJ_RANKS];
    memcpy(removed, extra, sizeof removed);
    removed[pair] += 2;
    memcpy(after, extra, sizeof after);
    after[pair]++; /* each new hand also lacks its sibling's first card */
    double rest = remaining(s, removed);
    double q;
    if (s->config.same_rank_tens && pair == TEN) {
        /* Two of one ten-value rank: only that rank pairs them again. */
        double of_rank = s->config.ten_of_rank - removed[TEN];
        q = (of_rank > 0.0 ? of_rank : 0.0) / rest;
    } else {
        q = left(s, removed, pair) / rest;
    }
    double other = 0.0, pair_hand = 0.0;
    for (int r = 0; r < BJ_RANKS; r++) {
        double n = left(s, removed, r);
        if (n == 0.0)
            continue;
        double p = n / rest;
        double value = split_hand(s, pair, r, after);
        if (r == pair) {
            pair_hand = value;
            other += (p - q) * value; /* a ten of another rank makes a 20 that pairs nothing */
        } else {
            other += p * value;
        }
    }
    double n_other, n_pair;
    split_hand_counts(q, 2, hands + 1, s->config.max_hands[pair], &n_other, &n_pair);
    double per_other = q < 1.0 ? other / (1.0 - q) : 0.0;
    return n_other * per_other + n_pair * pair_hand;
}

/* ---- the API: NaN once a memo failed to grow -------------------------------------------- */

static double checked(const bj_solver *s, double value) { return s->failed ? NAN : value; }

double bj_stand(bj_solver *s, const int32_t extra[BJ_RANKS], const int32_t hand[BJ_RANKS]) {
    return checked(s, stand(s, extra, hand));
}

double bj_hit(bj_solver *s, const int32_t extra[BJ_RANKS], const int32_t hand[BJ_RANKS]) {
    return checked(s, hit(s, extra, hand));
}

double bj_best(bj_solver *s, const int32_t hand[BJ_RANKS]) { return checked(s, best(s, hand)); }

double bj_double(bj_solver *s, const int32_t extra[BJ_RANKS], const int32_t hand[BJ_RANKS]) {
    return checked(s, double_down(s, extra, hand));
}

double bj_surrender(bj_solver *s, const int32_t extra[BJ_RANKS], const int32_t hand[BJ_RANKS]) {
    return checked(s, surrender(s, extra, hand));
}

double bj_split(bj_solver *s, int32_t pair, const int32_t extra[BJ_RANKS], int32_t hands) {
    return checked(s, split(s, pair, extra, hands));
}
