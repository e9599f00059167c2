# A shuffle written outside Rust, for the book's examples (docs/src): prints
# `count` shuffled decks of the items 0..n-1, one per line, drawn from Park
# and Miller's minimal standard generator seeded with `seed`. The arithmetic
# is exact in any awk (products below 2^53), so every awk prints the same.
#
#   awk -v n=10 -v count=1000 -v seed=1 -f docs/examples/shuffle.awk
#   awk -v n=10 -v count=1000 -v seed=1 -v naive=1 -f docs/examples/shuffle.awk
#
# The default is Fisher-Yates (swap a[i] with a[j], j uniform in 0..i, for
# i = n-1 down to 1); naive=1 is the naive swap (j uniform in 0..n-1 for
# every i from 0), which is biased.
BEGIN {
    x = seed % 2147483646 + 1
    for (t = 0; t < count; t++) {
        for (i = 0; i < n; i++) a[i] = i
        if (naive) {
            for (i = 0; i < n; i++) {
                x = (x * 16807) % 2147483647
                j = x % n
                s = a[i]; a[i] = a[j]; a[j] = s
            }
        } else {
            for (i = n - 1; i > 0; i--) {
                x = (x * 16807) % 2147483647
                j = x % (i + 1)
                s = a[i]; a[i] = a[j]; a[j] = s
            }
        }
        line = a[0]
        for (i = 1; i < n; i++) line = line " " a[i]
        print line
    }
}
