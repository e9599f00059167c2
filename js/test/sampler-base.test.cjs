// `base: 1`: samplers and picks whose items are numbered from 1, as
// Python's base=1 audits them; and the library's refusal of a draw as a
// UserError naming the draw. (Seeded runs: the default seed.)
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const sa = require("shuffle-audit");
const runner = require("../lib/runner.cjs");

/** k of 1..n by a partial Fisher–Yates: fair. */
function oneBased(n, k, random) {
  const a = Array.from({ length: n }, (_, i) => i + 1);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(random() * (n - i));
    const t = a[i]; a[i] = a[j]; a[j] = t;
  }
  return a.slice(0, k);
}

test("a sampler of 1..n is audited with base: 1, and refused without it", () => {
  const result = sa.auditSamples(oneBased, { n: 10, k: 3, base: 1, trials: 3000 });
  assert.equal(result.trials, 3000);
  assert.equal(result.counts.length, 10);
  assert.equal(result.counts.reduce((a, b) => a + b, 0), 9000);
  assert.notEqual(result.verdict, "biased");
  assert.throws(() => sa.auditSamples(oneBased, { n: 10, k: 3, trials: 3000 }),
    e => e instanceof sa.UserError && /expected 3 distinct items of 0\.\.9\./.test(e.message));
});

test("items of 0..n-1 with base: 1 are a UserError naming the draw and the range", () => {
  assert.throws(() => sa.auditSamples(() => [0, 1, 2], { n: 10, k: 3, base: 1, trials: 50 }),
    e => e instanceof sa.UserError && e.message === "sample returned [0, 1, 2] at draw 1: expected 3 distinct items of 1..10.");
  assert.throws(() => sa.auditPicks(() => 0, { weights: [1, 1, 1], base: 1, trials: 50 }),
    e => e instanceof sa.UserError && e.message === "pick returned 0 at draw 1: expected one index of 1..3.");
});

test("a pick numbered from 1 is judged against its weights", () => {
  const fair = sa.auditPicks((w, random) => 1 + Math.floor(random() * 3), { weights: [1, 1, 1], base: 1, trials: 3000 });
  assert.equal(fair.counts.length, 3);
  assert.equal(fair.counts.reduce((a, b) => a + b, 0), 3000);
  const wrong = sa.auditPicks((w, random) => 1 + Math.floor(random() * 3), { weights: [1, 2, 7], base: 1, trials: 3000 });
  assert.equal(wrong.verdict, "biased");
});

test("a draw the library refuses is a UserError naming the draw", () => {
  // A stand-in for the wasm Session whose reader refuses the batch's second line.
  const session = {
    n: () => 10,
    countText() { throw new Error("sample:2: item 7 is not in 1..5"); },
  };
  let t = 0;
  const draw = () => [t++ % 5, 9];
  const asked = { holds: "sample", k: "2", weights: "", base: "0" };
  assert.throws(() => runner.runSamplerChunk(session, draw, asked, 0, 5, Math.random),
    e => e instanceof runner.UserError && e.message === "sample returned [1, 9] at draw 2: item 7 is not in 1..5");
  session.countText = () => { throw new Error("something else"); };
  t = 0;
  assert.throws(() => runner.runSamplerChunk(session, draw, asked, 0, 5, Math.random),
    e => e instanceof runner.UserError && /draws 1\.\.5 that the library refuses: something else/.test(e.message));
});
