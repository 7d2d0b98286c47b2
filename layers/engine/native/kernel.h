/* The exact analysis of one composition against one up card, in plain C (no Python API):
 * the engine loads it through ctypes (blackjack/strategy/native.py), which holds the
 * reference semantics in Python (blackjack/strategy/analysis.py, dealer.py); every
 * function here is the one of the same name there, to rounding.
 *
 * A composition is ten counts indexed by rank: 0 the ace, 1..8 the ranks 2..9, 9 every
 * ten-value card. The pool's counts are real numbers: at whole counts every value is the
 * exact one; at fractional counts (an index generator's average shoe) every chance is the
 * same rational function of the counts, the next card being rank r with chance
 * (n_r - taken_r) / (N - taken), so the chances of every draw still sum to one. A hand,
 * and what else is known gone (`extra`), are whole cards: ten int32 counts.
 *
 * Values are U (analysis.py's docstring): per unit of the hand's original bet, and at a
 * peek table against an ace or a ten, E[result * 1{no dealer natural}]. */
#ifndef BLACKJACK_KERNEL_H
#define BLACKJACK_KERNEL_H

#include <stdint.h>

#define BJ_RANKS 10
#define BJ_OUTCOMES 7 /* dealer totals 17..21, bust, natural */

/* What a split hand of (pair, second card) may do: analysis.py's `legal`, from the
 * engine's rules, computed by the caller once per rule set and up card. */
#define BJ_SPLIT_MAY_HIT 1
#define BJ_SPLIT_MAY_DOUBLE 2

/* Every final multiset of the dealer's drawn cards for one up card and soft-17 rule
 * (dealer.py's `dealer_finals`): independent of the pool, shared by its solvers. */
typedef struct bj_finals bj_finals;

/* One pool against one up card, with its memos: the dealer's chances per composition
 * removed, and each hand's best value. Not thread-safe: one caller at a time (Python
 * loads the library as a ctypes.PyDLL, whose calls hold the GIL). */
typedef struct bj_solver bj_solver;

typedef struct {
    double counts[BJ_RANKS]; /* the pool the player's cards come from (less the up card) */
    double ten_of_rank;      /* same-rank splits of tens: the tens of the pair's own rank */
    int32_t up;
    int32_t peeked;              /* the dealer has checked for a natural: U excludes it */
    int32_t any_21_pays_3_2;     /* `classic`: a 21 of three or more cards pays at once */
    int32_t same_rank_tens;      /* only a ten of the same rank pairs a pair of tens */
    int32_t max_hands[BJ_RANKS]; /* hands a box may hold after splitting each rank */
    uint8_t split_legal[BJ_RANKS][BJ_RANKS]; /* BJ_SPLIT_* of (pair, second card) */
} bj_config;

/* sizeof(bj_config): the caller's mirror of it must agree (a library built from older
 * sources is refused, not misread). */
int32_t bj_config_size(void);

/* NULL when out of memory. */
bj_finals *bj_finals_new(int32_t up, int32_t hits_soft_17);
void bj_finals_free(bj_finals *finals);
int32_t bj_finals_count(const bj_finals *finals);

/* `finals` must outlive the solver. NULL when out of memory. */
bj_solver *bj_solver_new(const bj_config *config, const bj_finals *finals);
void bj_solver_free(bj_solver *solver);

/* The values below return NaN when out of memory (the memo could not grow). */

/* The dealer's chance of each outcome with `removed` gone from the pool. */
int32_t bj_dealer(bj_solver *solver, const int32_t removed[BJ_RANKS], double out[BJ_OUTCOMES]);
double bj_stand(bj_solver *solver, const int32_t extra[BJ_RANKS], const int32_t hand[BJ_RANKS]);
/* Take a card and play on at best (for a split hand, `extra` its sibling's card: its
 * third card is valued with it removed, the rest as an ordinary hand). */
double bj_hit(bj_solver *solver, const int32_t extra[BJ_RANKS], const int32_t hand[BJ_RANKS]);
/* A hand not made by a split, standing or hitting at best, played to the end. */
double bj_best(bj_solver *solver, const int32_t hand[BJ_RANKS]);
double bj_double(bj_solver *solver, const int32_t extra[BJ_RANKS], const int32_t hand[BJ_RANKS]);
double bj_surrender(bj_solver *solver, const int32_t extra[BJ_RANKS], const int32_t hand[BJ_RANKS]);
/* Split a pair of `pair` cards from a box holding `hands` hands (the stated estimate). */
double bj_split(bj_solver *solver, int32_t pair, const int32_t extra[BJ_RANKS], int32_t hands);

#endif
