// What a user writes to test a shuffle and a sampler with vitest
// (`npx vitest run`), after `npm install shuffle-audit`.
import { AssertionError } from "node:assert";
import { expect, test } from "vitest";
import { assertFair, assertFairSamples, audit } from "shuffle-audit";

/** A correct Fisher–Yates (Durstenfeld) shuffle. */
function fisherYates(a, random) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
}

/** The naive swap: every position swapped with any position. */
function naiveSwap(a, random) {
  for (let i = 0; i < a.length; i++) {
    const j = Math.floor(random() * a.length);
    [a[i], a[j]] = [a[j], a[i]];
  }
}

/** Floyd's algorithm: k distinct items of 0..n-1. */
function floyd(n, k, random) {
  const chosen = new Set();
  for (let j = n - k; j < n; j++) {
    const t = Math.floor(random() * (j + 1));
    chosen.add(chosen.has(t) ? j : t);
  }
  return [...chosen];
}

test("Fisher–Yates is fair", () => {
  const result = assertFair(fisherYates, { n: 10 });
  expect(result.passed).toBe(true);
});

test("the naive swap is biased, and the result says where", () => {
  expect(() => assertFair(naiveSwap, { n: 10 })).toThrow(AssertionError);
  const result = audit(naiveSwap, { n: 10 });
  expect(result.verdict).toBe("biased");
  expect(result.seenBy.length).toBeGreaterThan(0);
});

test("Floyd's sampler is fair", () => {
  assertFairSamples(floyd, { n: 10, k: 3 });
});
