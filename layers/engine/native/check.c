/* The kernel as a program, for machines Python cannot load it on: built for
 * aarch64 and run under qemu-user, it answers the queries tests/integration/
 * test_layer_arm64.py also puts to the host's library, one line each on stdin:
 *
 *   solver COUNTS(10) TEN_OF_RANK UP PEEKED ANY_21 SAME_RANK_TENS H17 MAX_HANDS(10) LEGAL(100)
 *   dealer REMOVED(10)               -> the seven chances
 *   stand|hit|double|surrender EXTRA(10) HAND(10)
 *   best HAND(10)
 *   split PAIR EXTRA(10) HANDS
 *
 * and prints each value with 17 significant digits (every bit of a double). A `solver`
 * line replaces the solver the queries after it ask. */
#include <stdio.h>
#include <string.h>

#include "kernel.h"

static int read_comp(int32_t comp[BJ_RANKS]) {
    for (int r = 0; r < BJ_RANKS; r++)
        if (scanf("%d", &comp[r]) != 1)
            return -1;
    return 0;
}

static bj_solver *read_solver(bj_finals **finals) {
    bj_config config;
    memset(&config, 0, sizeof config);
    int h17;
    for (int r = 0; r < BJ_RANKS; r++)
        if (scanf("%lf", &config.counts[r]) != 1)
            return NULL;
    if (scanf("%lf %d %d %d %d %d", &config.ten_of_rank, &config.up, &config.peeked,
              &config.any_21_pays_3_2, &config.same_rank_tens, &h17) != 6)
        return NULL;
    for (int r = 0; r < BJ_RANKS; r++)
        if (scanf("%d", &config.max_hands[r]) != 1)
            return NULL;
    for (int p = 0; p < BJ_RANKS; p++)
        for (int r = 0; r < BJ_RANKS; r++) {
            unsigned legal;
            if (scanf("%u", &legal) != 1)
                return NULL;
            config.split_legal[p][r] = (uint8_t)legal;
        }
    bj_finals_free(*finals);
    *finals = bj_finals_new(config.up, h17);
    return *finals ? bj_solver_new(&config, *finals) : NULL;
}

int main(void) {
    bj_finals *finals = NULL;
    bj_solver *solver = NULL;
    char op[16];
    int32_t a[BJ_RANKS], b[BJ_RANKS];
    while (scanf("%15s", op) == 1) {
        if (strcmp(op, "solver") == 0) {
            bj_solver_free(solver);
            solver = read_solver(&finals);
            if (!solver)
                return 2;
            continue;
        }
        if (!solver)
            return 2;
        if (strcmp(op, "dealer") == 0) {
            double out[BJ_OUTCOMES];
            if (read_comp(a) < 0 || bj_dealer(solver, a, out) < 0)
                return 2;
            for (int o = 0; o < BJ_OUTCOMES; o++)
                printf(o ? " %.17g" : "%.17g", out[o]);
            printf("\n");
        } else if (strcmp(op, "best") == 0) {
            if (read_comp(a) < 0)
                return 2;
            printf("%.17g\n", bj_best(solver, a));
        } else if (strcmp(op, "split") == 0) {
            int pair, hands;
            if (scanf("%d", &pair) != 1 || read_comp(a) < 0 || scanf("%d", &hands) != 1)
                return 2;
            printf("%.17g\n", bj_split(solver, pair, a, hands));
        } else {
            double (*value)(bj_solver *, const int32_t *, const int32_t *) =
                strcmp(op, "stand") == 0       ? bj_stand
                : strcmp(op, "hit") == 0       ? bj_hit
                : strcmp(op, "double") == 0    ? bj_double
                : strcmp(op, "surrender") == 0 ? bj_surrender
                                               : NULL;
            if (!value || read_comp(a) < 0 || read_comp(b) < 0)
                return 2;
            printf("%.17g\n", value(solver, a, b));
        }
    }
    bj_solver_free(solver);
    bj_finals_free(finals);
    return 0;
}
