#!/usr/bin/env node
// Reproduces: the famous "shuffle" by sorting with a random comparator,
//     deck.sort(() => Math.random() - 0.5)
// found in countless StackOverflow answers, tutorials and production code.
//
// Expected verdict: BIASED. A comparator that answers at random is not a
// consistent ordering, so the result depends on which comparisons the sort
// algorithm happens to make. V8 (Node >= 11) uses TimSort (binary insertion
// sort for short arrays), which leaves items strongly biased towards their
// starting positions: the bias is visible at n = 10 in a few thousand decks.
//
// Deterministic for a seed: NO. Math.random() cannot be seeded from
// JavaScript; the seed argument is accepted and ignored. (Node's V8 flag
// `--random-seed=<int32>` does fix the Math.random stream, but a fixed value
// would make every worker print the same decks, so it is not used here.)
//
// Contract: node js-sort-random.js n count seed
// Prints `count` lines, each a shuffle of a fresh deck 0..n-1, items separated
// by single spaces. Output is written in chunks (one write per 1000 decks).
'use strict';

function parseArgs() {
  const [n, count, seed] = process.argv.slice(2);
  if (seed === undefined || !/^\d+$/.test(n) || !/^\d+$/.test(count) || !/^\d+$/.test(seed) || Number(n) < 1) {
    process.stderr.write('usage: node js-sort-random.js n count seed  (n >= 1; seed is ignored)\n');
    process.exit(2);
  }
  return [Number(n), Number(count)];
}

async function main() {
  const [n, count] = parseArgs();
  const out = process.stdout;
  out.on('error', (e) => process.exit(e.code === 'EPIPE' ? 0 : 1));
  const CHUNK = 1000;
  for (let done = 0; done < count; ) {
    const m = Math.min(CHUNK, count - done);
    const lines = new Array(m);
    for (let d = 0; d < m; d++) {
      const deck = Array.from({ length: n }, (_, i) => i);
      deck.sort(() => Math.random() - 0.5); // the bug being reproduced
      lines[d] = deck.join(' ');
    }
    done += m;
    if (!out.write(lines.join('\n') + '\n')) {
      await new Promise((resolve) => out.once('drain', resolve));
    }
  }
}

main();
