/*
 * Reproduces: the classic reseeding bug,
 *     for each deal: { srand(time(NULL)); shuffle(deck); }
 * where the shuffle is the usual Fisher-Yates with j = rand() % (i + 1).
 * time(NULL) only changes once a second, so every deal dealt within the same
 * second is the SAME deck (and a player who knows the clock knows the deck).
 *
 * Simulated clock: to keep the program reproducible and independent of how
 * fast it runs, the "clock" is not time(NULL) but
 *     clock = seed + deal_index / 1000      (integer division, mod 2^64)
 * i.e. a clock that ticks once every 1000 deals, starting at `seed`. srand
 * takes an unsigned int, so it receives clock mod 2^32 (as time_t would be
 * truncated). Consequence: `count` deals contain only ceil(count / 1000)
 * distinct decks, each repeated 1000 times. If the tool gives parallel
 * workers nearby seeds (seed, seed + 1, ...), their clocks overlap too and
 * they deal the very same decks, like two servers started in the same second.
 *
 * Expected verdict: BIASED, grossly: the decks are 1000-fold repeats, so
 * position counts scatter far beyond multinomial noise (at 100,000 decks of
 * n = 10 the position-0 chi-square is in the thousands instead of ~9).
 *
 * Deterministic for a seed: YES (for a given libc).
 *
 * Contract: c-srand-time n count seed   (run through c-srand-time.sh, which
 * compiles this file on first use). Output is buffered (one write per ~1 MiB).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEALS_PER_TICK 1000ULL

static unsigned long long parse_u64(const char *s, const char *what)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno == ERANGE) {
        fprintf(stderr, "c-srand-time: bad %s: %s\n", what, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: c-srand-time n count seed\n");
        return 2;
    }
    unsigned long long n = parse_u64(argv[1], "n");
    unsigned long long count = parse_u64(argv[2], "count");
    unsigned long long seed = parse_u64(argv[3], "seed");
    if (n < 1 || n > 1000000) {
        fprintf(stderr, "c-srand-time: n must be in 1..1000000\n");
        return 2;
    }

    char (*label)[8] = malloc(n * sizeof *label);
    unsigned char *len = malloc(n);
    int *deck = malloc(n * sizeof *deck);
    size_t line_max = n * 8;
    size_t cap = line_max > (1u << 20) ? 2 * line_max : (1u << 20) + line_max;
    char *buf = malloc(cap);
    if (!label || !len || !deck || !buf) {
        perror("c-srand-time: malloc");
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        len[i] = (unsigned char)snprintf(label[i], sizeof label[i], "%zu", i);

    size_t used = 0;
    for (unsigned long long d = 0; d < count; d++) {
        unsigned long long fake_time = seed + d / DEALS_PER_TICK; /* simulated time(NULL) */
        srand((unsigned)fake_time);                               /* the bug: reseed every deal */
        for (size_t i = 0; i < n; i++)
            deck[i] = (int)i;
        for (size_t i = n - 1; i > 0; i--) {
            size_t j = (size_t)rand() % (i + 1);
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
