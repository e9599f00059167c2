// Checks deal.mjs, the program shuffle-audit runs: every variant prints COUNT permutations of
// 0..N-1, a seeded variant repeats itself for the same seed and not for another, and bad
// arguments end with exit 2 and a line naming them. Run: node --test test/ (after npm ci).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ADAPTERS, loadAdapter } from '../gallery.mjs';

const DEAL = fileURLToPath(new URL('../deal.mjs', import.meta.url));

function deal(...args) {
  return execFileSync('node', [DEAL, ...args.map(String)], { encoding: 'utf8' });
}

const variants = [];
for (const name of ADAPTERS) {
  for (const v of (await loadAdapter(name)).variants) variants.push([name, v]);
}

for (const [name, v] of variants) {
  test(`${v.id} prints permutations of 0..n-1`, () => {
    const lines = deal(name, v.id, 12, 50, 7).trimEnd().split('\n');
    assert.equal(lines.length, 50);
    for (const line of lines) {
      assert.deepEqual(line.split(' ').map(Number).sort((a, b) => a - b), [...Array(12).keys()]);
    }
  });
}

for (const id of ['faker', 'chance', 'random-js', 'fast-shuffle-seeded', 'shuffle-seed-per-deck']) {
  test(`${id} is deterministic for its seed`, () => {
    const name = variants.find(([, v]) => v.id === id)[0];
    assert.equal(deal(name, id, 20, 30, 11), deal(name, id, 20, 30, 11));
    assert.notEqual(deal(name, id, 20, 30, 11), deal(name, id, 20, 30, 12));
  });
}

test('shuffle-seed without a seed prints the same deck every call', () => {
  const lines = deal('shuffle-seed', 'shuffle-seed', 20, 10, 1).trimEnd().split('\n');
  assert.equal(new Set(lines).size, 1);
});

for (const [args, message] of [
  [['lodash', 'lodash', 0, 1, 1], 'N must be a whole number from 1 to 100000, got "0"'],
  [['lodash', 'lodash', 5, 'x', 1], 'COUNT must be a whole number'],
  [['lodash', 'lodash', 5, 1, 2 ** 32], 'SEED must be a whole number from 0 to 4294967295, got "4294967296"'],
  [['nope', 'x', 5, 1, 1], 'unknown adapter "nope"'],
  [['lodash', 'nope', 5, 1, 1], 'adapter lodash has no variant "nope"'],
  [['lodash', 'lodash', 5, 1], 'usage: node deal.mjs ADAPTER VARIANT N COUNT SEED'],
]) {
  test(`refuses ${JSON.stringify(args)}`, () => {
    const r = spawnSync('node', [DEAL, ...args.map(String)], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  });
}
