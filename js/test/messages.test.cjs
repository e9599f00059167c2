// What a broken function or a bad option is told: a UserError naming the
// trial and the value as the function returned it (BigInts, nested
// arrays), the options object itself when it is null, and an empty list
// of tests refused as Python's tests=[] is, not read as the default.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const sa = require("shuffle-audit");

/** Whether `e` is the package's UserError with a message matching `pattern`. */
const userError = pattern => e => e instanceof sa.UserError && pattern.test(e.message);

test("a deck of BigInts is a UserError naming the trial, at any n", () => {
  for (const n of [5, 40]) {
    assert.throws(() => sa.audit(a => a.map(BigInt), { n, trials: 10 }),
      userError(new RegExp(`at trial 1: 0n at position 0 is not one of the items 0\\.\\.${n - 1}: \\[0n, 1n, `)));
  }
  let calls = 0;
  assert.throws(() => sa.audit(a => (++calls === 7 ? a.map(BigInt) : a), { n: 40, trials: 10 }),
    userError(/at trial 7: 0n at position 0/));
});

test("arrays a function returns are shown as arrays", () => {
  assert.throws(() => sa.audit(() => [[0], 1, 2, 3, 4], { n: 5, trials: 10 }),
    userError(/at trial 1: \[0\] at position 0 is not one of the items 0\.\.4: \[\[0\], 1, 2, 3, 4\]\.$/));
  assert.throws(() => sa.auditPicks(() => [1], { weights: [1, 1, 1] }),
    userError(/^pick returned \[1\] at draw 1: expected one index of 0\.\.2\.$/));
  assert.throws(() => sa.auditSamples(() => [[0], 1], { n: 5, k: 2 }),
    userError(/^sample returned \[\[0\], 1\] at draw 1/));
  // An array holding itself is shown a few arrays deep, not without end.
  const cyclic = [0, 1, 2, 3, 4];
  cyclic[0] = cyclic;
  assert.throws(() => sa.audit(() => cyclic, { n: 5, trials: 10 }), userError(/\[…\]/));
});

test("null options are no options", () => {
  // The library's refusal of the request (no n), not "random: null".
  assert.throws(() => sa.audit(a => a, null), userError(/^n is needed/));
  assert.equal(sa.audit(a => a.reverse(), Object.assign(Object.create(null), { n: 5, trials: 30 })).n, 5);
});

test("an empty list of tests is refused, naming tests", () => {
  assert.throws(() => sa.audit(a => a, { n: 5, trials: 10, tests: [] }), userError(/^tests names no test/));
  assert.equal(sa.audit(a => a.reverse(), { n: 5, trials: 30, tests: ["position-value"] }).tests.length, 1);
});
