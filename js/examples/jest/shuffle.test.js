// What a user writes to test a shuffle with jest (`npx jest`), after
// `npm install shuffle-audit`: assertFair throws node:assert's
// AssertionError, which jest reports with the library's verdict.
const { AssertionError } = require("node:assert");
const { assertFair, assertFairPicks } = require("shuffle-audit");

/** A correct Fisher–Yates (Durstenfeld) shuffle. */
function fisherYates(a, random) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
}

/** Sorting by a random comparator: a well-known biased shuffle. */
function randomComparator(a) {
  return a.sort(() => Math.random() - 0.5);
}

/** A weighted pick by prefix sums. */
function pick(weights, random) {
  let r = random() * weights.reduce((x, y) => x + y, 0);
  for (let i = 0; i < weights.length; i++) if ((r -= weights[i]) < 0) return i;
  return weights.length - 1;
}

test("Fisher–Yates is fair", () => {
  expect(assertFair(fisherYates, { n: 10 }).verdict).toBe("no bias detected");
});

test("sort with a random comparator is biased (Math.random is seeded during the run)", () => {
  expect(() => assertFair(randomComparator, { n: 10 })).toThrow(AssertionError);
  expect(() => assertFair(randomComparator, { n: 10 })).toThrow(/is biased/);
});

test("a weighted pick follows its weights", () => {
  assertFairPicks(pick, { weights: [1, 2, 3, 4] });
});
