/*
 * Reproduces: the C programmer's Fisher-Yates with the C library generator
 * and a modulo,
 *     srand(seed);
 *     for (i = n - 1; i > 0; i--) { j = rand() % (i + 1); swap(deck[i], deck[j]); }
 * on glibc (Linux).
 *
 * Expected verdict: no bias detectable at practical trial counts, although
 * the shuffle IS slightly biased in theory. rand() % (i + 1) favours small j
 * because 2^31 (glibc RAND_MAX = 2^31 - 1) is not a multiple of i + 1: the
 * relative excess is at most about (i + 1) / 2^31, i.e. < 2.5e-8 at n = 52,
 * and seeing it would take on the order of 10^16 or more shuffles. (With
 * RAND_MAX = 32767, as on MSVC, the same code is detectably biased at
 * ~10^8 shuffles.) glibc rand() is an additive lagged-Fibonacci generator
 * (TYPE_3, 34 words of state) with no known defect that this test would see.
 *
 * Deterministic for a seed: YES (for a given libc). srand takes an unsigned
 * int, so the 64-bit seed argument is reduced mod 2^32 (seeds that differ
 * only above bit 31 give the same decks). Seeded once; `count` decks are
 * dealt in sequence, each from a fresh deck 0..n-1.
 *
 * Contract: c-rand-mod n count seed   (run through c-rand-mod.sh, which
 * compiles this file on first use). Output is buffered (one write per ~1 MiB).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long parse_u64(const char *s, const char *what)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno == ERANGE) {
        fprintf(stderr, "c-rand-mod: bad %s: %s\n", what, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: c-rand-mod n count seed\n");
        return 2;
    }
    unsigned long long n = parse_u64(argv[1], "n");
    unsigned long long count = parse_u64(argv[2], "count");
    unsigned long long seed = parse_u64(argv[3], "seed");
    if (n < 1 || n > 1000000) {
        fprintf(stderr, "c-rand-mod: n must be in 1..1000000\n");
        return 2;
    }

    srand((unsigned)(seed & 0xffffffffu)); /* seed mod 2^32 */

    /* Decimal labels 0..n-1, so a deck is written with memcpy only. */
    char (*label)[8] = malloc(n * sizeof *label);
    unsigned char *len = malloc(n);
    int *deck = malloc(n * sizeof *deck);
    size_t line_max = n * 8;
    size_t cap = line_max > (1u << 20) ? 2 * line_max : (1u << 20) + line_max;
    char *buf = malloc(cap);
    if (!label || !len || !deck || !buf) {
        perror("c-rand-mod: malloc");
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        len[i] = (unsigned char)snprintf(label[i], sizeof label[i], "%zu", i);

    size_t used = 0;
    for (unsigned long long d = 0; d < count; d++) {
        for (size_t i = 0; i < n; i++)
            deck[i] = (int)i;
        for (size_t i = n - 1; i > 0; i--) {
            size_t j = (size_t)rand() % (i + 1); /* the shuffle being reproduced */
            int t = deck[i];
            deck[i] = deck[j];
            deck[j] = t;
        }
        for (size_t i = 0; i < n; i++) {
            memcpy(buf + used, label[deck[i]], len[deck[i]]);
            used += len[deck[i]];
            buf[used++] = i + 1 < n ? ' ' : '\n';
        }
        if (cap - used < line_max) {
            if (fwrite(buf, 1, used, stdout) != used)
                return 1;
            used = 0;
        }
    }
    if (fwrite(buf, 1, used, stdout) != used || fflush(stdout) != 0)
        return 1;
    return 0;
}
