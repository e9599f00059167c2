#!/usr/bin/env perl
# Reproduces: the idiomatic Perl shuffle, List::Util::shuffle (core module),
# after seeding Perl's built-in generator once:
#     srand($seed);
#     for each deal: my @deck = shuffle(0 .. $n - 1);
#
# Expected verdict: FAIR (no bias detected). List::Util::shuffle (XS) is a
# Fisher-Yates shuffle with index int(rand() * i); Perl's rand() is drand48
# (48-bit doubles, the same on every platform since Perl 5.20), so the
# floating-point rounding bias is of order i / 2^48: unmeasurable.
#
# Deterministic for a seed: YES (Perl >= 5.20, List::Util shuffle uses the
# built-in generator unless $List::Util::RAND is set). Perl's srand keeps only
# 32 bits of its argument, so the 64-bit seed is reduced mod 2^32 explicitly
# (seeds that differ only above bit 31 give the same decks). Seeded once;
# `count` decks are dealt in sequence, each a shuffle of a fresh 0..n-1.
#
# Contract: perl examples/real-world/perl-shuffle.pl n count seed
# Output is written in chunks of 1000 decks (plus Perl's own buffering).
use strict;
use warnings;
use List::Util qw(shuffle);
use Math::BigInt;

my ($n, $count, $seed) = @ARGV;
die "usage: perl-shuffle.pl n count seed  (n >= 1, 0 <= seed < 2^64)\n"
    unless @ARGV == 3 && defined $seed
    && $n =~ /\A[0-9]+\z/ && $count =~ /\A[0-9]+\z/ && $seed =~ /\A[0-9]+\z/
    && $n >= 1 && length($seed) <= 20;

# Reduce the seed mod 2^32 exactly (Math::BigInt is core; the seed may be up
# to 2^64 - 1, beyond what a 32-bit Perl could hold).
srand(Math::BigInt->new($seed)->bmod(4294967296)->numify);

binmode STDOUT;
$SIG{PIPE} = sub { exit 0 };
my @chunk;
for my $d (1 .. $count) {
    push @chunk, join(' ', shuffle(0 .. $n - 1));
    if (@chunk == 1000) {
        print join("\n", @chunk), "\n";
        @chunk = ();
    }
}
print join("\n", @chunk), "\n" if @chunk;
close STDOUT or exit 0;
