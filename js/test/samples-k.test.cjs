// auditSamples without k: the library refuses the request naming k
// before the function is called (k once became 0, and the run failed
// with a plain Error, "no samples found").
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const sa = require("shuffle-audit");

/** Floyd's algorithm: k distinct items of 0..n-1. */
function floyd(n, k, random) {
  const s = new Set();
  for (let j = n - k; j < n; j++) {
    const t = Math.floor(random() * (j + 1));
    s.add(s.has(t) ? j : t);
  }
  return [...s];
}

test("a sampler audited without k is a UserError naming k, before any call", () => {
  for (const ordered of [false, true]) {
    let calls = 0;
    const counted = (n, k, random) => { calls++; return floyd(n, k, random); };
    assert.throws(() => sa.auditSamples(counted, { n: 10, ordered }),
      e => e instanceof sa.UserError && /need k, .*give k \(k: 6 for 6 of 49\)/.test(e.message));
    assert.equal(calls, 0);
  }
  assert.equal(sa.auditSamples(floyd, { n: 10, k: 3, trials: 3000 }).counts.length, 10);
});

test("a sampler asked for more items than n is a UserError naming k, before any call", () => {
  // The sampler was once called, then blamed: "expected 11 items ... found 3".
  for (const ordered of [false, true]) {
    let calls = 0;
    const three = () => { calls++; return [0, 1, 2]; };
    assert.throws(() => sa.auditSamples(three, { n: 10, k: 11, trials: 100, ordered }),
      e => e instanceof sa.UserError && /^k: 11: cannot take 11 distinct items of a population of n: 10$/.test(e.message));
    assert.equal(calls, 0);
  }
});
