// auditPicks: uniform picks of n items (no weights), as its own refusal
// and Python's audit_picks(f, n=6) offer; and weights as JavaScript
// writes numbers, exponents included (String(1e-7) is "1e-7").
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const sa = require("shuffle-audit");

/** A weighted pick by prefix sums: fair. */
function pick(weights, random) {
  let r = random() * weights.reduce((x, y) => x + y, 0);
  for (let i = 0; i < weights.length; i++) if ((r -= weights[i]) < 0) return i;
  return weights.length - 1;
}

test("uniform picks of n items: the function gets n equal weights", () => {
  let handed = null;
  const result = sa.auditPicks((weights, random) => { handed = weights; return pick(weights, random); },
    { n: 6, trials: 3000 });
  assert.deepEqual(handed, [1, 1, 1, 1, 1, 1]);
  assert.equal(result.n, 6);
  assert.equal(result.counts.length, 6);
  assert.notEqual(result.verdict, "biased");
  // A pick that never returns the last item is caught against uniform.
  assert.equal(sa.auditPicks((w, random) => Math.floor(random() * 5), { n: 6, trials: 3000 }).verdict, "biased");
  // Without weights or n the library says to give one of them, and both are options.
  assert.throws(() => sa.auditPicks(pick, {}), e => e instanceof sa.UserError && /give weights .* or n /.test(e.message));
});

test("weights JavaScript writes with an exponent are read", () => {
  let handed = null;
  const result = sa.auditPicks((weights, random) => { handed = weights; return pick(weights, random); },
    { weights: [1e-7, 1], trials: 500 });
  assert.deepEqual(handed, [1e-7, 1]);
  assert.equal(result.counts.length, 2);
  assert.equal(result.counts[0], 0);
  assert.equal(sa.auditPicks(pick, { weights: "2.5E-3, 7.5e-3", trials: 500 }).counts.length, 2);
  assert.throws(() => sa.auditPicks(pick, { weights: [1, -1e-7] }), e => e instanceof sa.UserError && /'-1e-7'/.test(e.message));
});
