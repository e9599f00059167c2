// auditOrders reads decks handed over as the command line reads a file
// (--input) and Python's audit_orders reads them: a shoe of card labels
// takes categories: "cards" and the tests of decks. npm alone once refused
// both, treating the decks as a function's 0..n-1 ("your function's decks
// hold the items 0..103").
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const sa = require("shuffle-audit");

/** A seeded generator (mulberry32), so the decks are the same every run. */
function mulberry(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `trials` shuffles (Fisher–Yates) of a two-deck shoe of card labels. */
function shoes(trials) {
  const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const cards = ["S", "H", "D", "C"].flatMap(s => ranks.map(r => r + s));
  const shoe = [...cards, ...cards], random = mulberry(7);
  return Array.from({ length: trials }, () => {
    const a = shoe.slice();
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  });
}

test("a shoe of card labels is audited with categories: \"cards\" and the tests of decks", () => {
  const given = shoes(600);
  const cards = sa.auditOrders(given, { categories: "cards" });
  assert.equal(cards.n, 104);
  assert.equal(cards.trials, 600);
  assert.match(cards.summary.audits[0].tests_run, /position-category/);
  const asked = sa.auditOrders(given, { tests: "position-kind,adjacency" });
  assert.equal(asked.summary.audits[0].tests_run, "position-kind,adjacency");
});

test("categories other than cards are refused in JavaScript's words, naming what it takes", () => {
  assert.throws(() => sa.auditOrders(shoes(30), { categories: "nope.csv" }),
    e => e instanceof sa.UserError &&
      /^categories: "nope\.csv": JavaScript takes only categories: "cards"/.test(e.message));
  assert.throws(() => sa.audit(a => a, { n: 10, trials: 10, categories: "cards" }),
    e => e instanceof sa.UserError && /^categories: cards: your function's decks/.test(e.message) &&
      !/ {2}/.test(e.message));
});
