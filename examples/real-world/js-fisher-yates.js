#!/usr/bin/env node
// Reproduces: the textbook (Durstenfeld) Fisher-Yates shuffle as usually
// written in JavaScript,
//     for (let i = a.length - 1; i > 0; i--) {
//       const j = Math.floor(Math.random() * (i + 1));
//       [a[i], a[j]] = [a[j], a[i]];
//     }
//
// Expected verdict: FAIR (no bias detected). Math.random() in V8 is
// xorshift128+ returning 52-bit doubles, so Math.floor(r * (i + 1)) has a
// bias of order (i + 1) / 2^52: far below anything measurable.
//
// Deterministic for a seed: NO. Math.random() cannot be seeded from
// JavaScript; the seed argument is accepted and ignored.
//
// Contract: node js-fisher-yates.js n count seed
// Prints `count` lines, each a shuffle of a fresh deck 0..n-1, items separated
// by single spaces. Output is written in chunks (one write per 1000 decks).
'use strict';

function parseArgs() {
  const [n, count, seed] = process.argv.slice(2);
  if (seed === undefined || !/^\d+$/.test(n) || !/^\d+$/.test(count) || !/^\d+$/.test(seed) || Number(n) < 1) {
    process.stderr.write('usage: node js-fisher-yates.js n count seed  (n >= 1; seed is ignored)\n');
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
      const a = Array.from({ length: n }, (_, i) => i);
      for (let i = a.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [a[i], a[j]] = [a[j], a[i]];
      }
      lines[d] = a.join(' ');
    }
    done += m;
    if (!out.write(lines.join('\n') + '\n')) {
      await new Promise((resolve) => out.once('drain', resolve));
    }
  }
}

main();
