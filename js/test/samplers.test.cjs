// The package from CommonJS: samplers, picks and decks already made, real
// seeded runs (every verdict is the library's).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const sa = require("shuffle-audit");

/** k of n by a partial Fisher–Yates: fair. */
function partial(n, k, random) {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(random() * (n - i));
    const t = a[i]; a[i] = a[j]; a[j] = t;
  }
  return a.slice(0, k);
}

/** Reservoir sampling with j = uniform[0, i-1]: biased. */
function reservoirOffByOne(n, k, random) {
  const r = Array.from({ length: k }, (_, i) => i);
  for (let i = k; i < n; i++) {
    const j = Math.floor(random() * i);
    if (j < k) r[j] = i;
  }
  return r;
}

/** A weighted pick by prefix sums: fair. */
function pick(weights, random) {
  let r = random() * weights.reduce((x, y) => x + y, 0);
  for (let i = 0; i < weights.length; i++) if ((r -= weights[i]) < 0) return i;
  return weights.length - 1;
}

test("a fair sampler passes, an off-by-one reservoir is biased", () => {
  const fair = sa.assertFairSamples(partial, { n: 10, k: 3 });
  assert.equal(fair.kind, "sampler");
  assert.equal(fair.counts.length, 10);
  assert.throws(() => sa.assertFairSamples(reservoirOffByOne, { n: 10, k: 3, reportDir: require("node:os").tmpdir() + "/sa-res" }),
    e => e instanceof assert.AssertionError && /is biased/.test(e.message));
  assert.equal(sa.auditSamples(partial, { n: 10, k: 3, ordered: true }).verdict, "no bias detected");
});

test("a weighted pick is judged against its weights", () => {
  const fair = sa.assertFairPicks(pick, { weights: [1, 2, 3, 4] });
  assert.equal(fair.counts.length, 4);
  const wrong = sa.auditPicks((w, random) => pick([1, 1, 1, 1], random), { weights: [1, 2, 3, 4] });
  assert.equal(wrong.verdict, "biased");
  assert.throws(() => sa.auditPicks(() => 9, { weights: [1, 2] }), /pick returned 9 at draw 1: expected one index of 0..1/);
  assert.throws(() => sa.auditSamples(() => [1, 1, 2], { n: 10, k: 3 }), /at draw 1: expected 3 distinct items/);
});

/**
 * `trials` decks of n shuffled by a seeded Fisher–Yates, or (`naive`) the
 * naive swap (the package's own generator is not exported: an LCG here).
 */
function decks(n, trials, naive = false) {
  let s = 12345;
  const random = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
  return Array.from({ length: trials }, () => {
    const d = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (naive ? n : i + 1));
      const t = d[i]; d[i] = d[j]; d[j] = t;
    }
    return d;
  });
}

test("decks already made: arrays, labels, 1..n and typed arrays give the same counts", () => {
  const n = 10, given = decks(n, 20000);
  const flat = new Uint8Array(given.flat());
  const ways = [
    sa.auditOrders(given),
    sa.auditOrders(given.map(d => d.map(i => "ABCDEFGHIJ"[i]))),
    sa.auditOrders(given.map(d => d.map(i => i + 1))),
    sa.auditOrders(flat, { n }),
    sa.auditOrders(new Uint16Array(flat), { n }),
    sa.auditOrders(new Uint32Array(flat), { n }),
  ];
  for (const r of ways) {
    assert.deepEqual(r.counts, ways[0].counts);
    assert.equal(r.verdict, ways[0].verdict);
    assert.equal(r.trials, 20000);
  }
  assert.equal(ways[0].verdict, "no bias detected");
  assert.equal(sa.auditOrders(flat, { n, trials: 9000 }).trials, 9000);
});

test("a shoe (items that repeat) is read whole: fair passes, a naive swap is biased", () => {
  // Two decks of six kinds shuffled together, as a lab's shoe.
  const kinds = "AAKKQQJJTT99".split("");
  const shoes = (naive, trials) => decks(12, trials, naive).map(d => d.map(i => kinds[i]));
  const fair = sa.auditOrders(shoes(false, 20000));
  assert.equal(fair.trials, 20000);
  assert.notEqual(fair.verdict, "biased");
  const naive = sa.auditOrders(shoes(true, 20000));
  assert.equal(naive.verdict, "biased");
  // Read as a shoe (six kinds, the tests of repeated cards), not as 12
  // distinct items (the permutation battery).
  for (const r of [fair, naive]) {
    assert.match(r.summary.audits[0].tests_run, /^position-kind,adjacency,/);
  }
});

test("bad decks are refused naming the deck", () => {
  const given = decks(6, 100);
  given[41] = [0, 1, 2, 3, 3, 5];
  assert.throws(() => sa.auditOrders(given), /orders\[41\] \(deck 42\): "3" appears twice/);
  const flat = new Uint8Array(decks(6, 100).flat());
  flat[6 * 17 + 2] = 77;
  assert.throws(() => sa.auditOrders(flat, { n: 6 }), /deck 18 .* 77 at position 2 is not one of the items 0..5/);
  assert.throws(() => sa.auditOrders(flat, {}), /needs n/);
  assert.throws(() => sa.auditOrders(flat, { n: 7 }), /not whole decks of n = 7/);
  assert.throws(() => sa.auditOrders("decks"), /expected an array of decks/);
});
