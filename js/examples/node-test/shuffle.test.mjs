// What a user writes to test their shuffles with Node's own test runner
// (`node --test`), after `npm install shuffle-audit`. Every audit is
// seeded: the same verdict on every run, never flaky.
import test from "node:test";
import assert from "node:assert/strict";
import { assertFair, auditOrders, UserError } from "shuffle-audit";

/** A correct Fisher–Yates (Durstenfeld) shuffle. */
function fisherYates(a, random = Math.random) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** The off-by-one: j in [0, i) never leaves an item where it is. */
function offByOne(a, random) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * i);
    [a[i], a[j]] = [a[j], a[i]];
  }
}

/** A shuffle whose own generator is seeded with 16 bits: at most 65,536 orders. */
function seeded16(a, random) {
  let s = Math.floor(random() * 65536);
  const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
}

/** A random byte reduced modulo i + 1: small indices come up too often. */
function byteModulo(a, random) {
  for (let i = a.length - 1; i > 0; i--) {
    const byte = Math.floor(random() * 256);
    const j = byte % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
}

test("Fisher–Yates is fair (n = 10, the trials a verdict needs)", () => {
  const result = assertFair(fisherYates, { n: 10 });
  console.log(`  ${result}`);
});

// Biased shuffles of a 52-card deck fail with node:assert's AssertionError,
// its message the library's verdict. 60,000 trials see each decisively.
for (const shuffle of [offByOne, seeded16, byteModulo]) {
  test(`${shuffle.name} is caught at n = 52`, () => {
    assert.throws(() => assertFair(shuffle, { n: 52, trials: 60000 }), e => {
      console.log(`  ${e.message.split("\n")[0]}`);
      return e instanceof assert.AssertionError && e.message.includes("is biased");
    });
  });
}

test("decks made elsewhere, as a typed array of trials × n", () => {
  const n = 10, trials = 20000, decks = new Uint8Array(trials * n);
  for (let t = 0; t < trials; t++) {
    decks.set(fisherYates(Array.from({ length: n }, (_, i) => i)), t * n);
  }
  const result = auditOrders(decks, { n });
  assert.equal(result.verdict, "no bias detected");
  assert.equal(result.trials, trials);
});

test("a broken shuffle is an error naming the trial, not a verdict", () => {
  let calls = 0;
  const losesACard = a => (++calls === 1234 ? a.slice(1) : fisherYates(a));
  assert.throws(() => assertFair(losesACard, { n: 52 }), e => {
    console.log(`  ${e.message.slice(0, 100)}…`);
    return e instanceof UserError && /at trial 1234: it returned 51 items instead of 52/.test(e.message);
  });
});
