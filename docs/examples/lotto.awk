# A 6-of-49 lottery written outside Rust, for the book's samplers chapter:
# prints `count` draws of 6 distinct numbers from 1..49, one per line, each
# number made from one random byte (the low 8 bits of Park and Miller's
# minimal standard generator, seeded with `seed`; exact in any awk).
#
#   awk -v count=1000 -v seed=1 -f docs/examples/lotto.awk            # fair
#   awk -v count=1000 -v seed=1 -v modulo=1 -f docs/examples/lotto.awk
#
# Fair: a byte of 245 or more (256 - 256 % 49) is drawn again, so every
# number is equally likely. modulo=1 takes `byte % 49 + 1` of every byte:
# 256 = 5 * 49 + 11, so the numbers 1..11 are reached by six bytes each and
# the others by five, the classic modulo bias.
BEGIN {
    x = seed % 2147483646 + 1
    for (t = 0; t < count; t++) {
        split("", taken)
        line = ""
        for (k = 0; k < 6; ) {
            x = (x * 16807) % 2147483647
            b = x % 256
            if (!modulo && b >= 245) continue
            v = b % 49 + 1
            if (v in taken) continue
            taken[v] = 1
            line = line (k ? " " : "") v
            k++
        }
        print line
    }
}
