// The package's shuffle audits (ESM): real runs, seeded, so every verdict
// below is what the library finds, the same on every run.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { assertFair, audit, defaultTrials, UserError, CHUNK_TRIALS } from "shuffle-audit";

const { worthCounting } = createRequire(import.meta.url)("../lib/counter.cjs");
const { seededRandom, chunkStreams } = createRequire(import.meta.url)("../lib/runner.cjs");
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

function fisherYates(a, random) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = a[i]; a[i] = a[j]; a[j] = t;
  }
}

function offByOne(a, random) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * i);
    const t = a[i]; a[i] = a[j]; a[j] = t;
  }
}

test("a fair Fisher–Yates passes at n = 10 with the library's default trials", () => {
  const result = assertFair(fisherYates, { n: 10 });
  assert.equal(result.verdict, "no bias detected");
  assert.equal(result.trials, defaultTrials(10));
  assert.equal(result.kind, "shuffle");
  assert.equal(result.counts.length, 10);
  assert.equal(result.counts[0].reduce((x, y) => x + y), result.trials);
  assert.equal(result.summary.audits[0].subject, "fisherYates");
  assert.ok(result.pAdjusted > 0.001 && result.pAdjusted <= 1);
  assert.match(String(result), /^fisherYates: no bias detected, p \(adj\.\) .*, n = 10, 18,500 trials/);
});

test("the off-by-one (Sattolo) throws AssertionError in the library's words", () => {
  assert.throws(() => assertFair(offByOne, { n: 10, reportDir: fs.mkdtempSync(path.join(os.tmpdir(), "sa-")) }),
    e => e instanceof assert.AssertionError && /^offByOne is biased \(n = 10, 18,500 shuffles, seed \d+\): decisive test/.test(e.message)
      && /report: /.test(e.message));
});

test("too few trials is inconclusive, and assertFair says how many a verdict needs", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sa-"));
  assert.throws(() => assertFair(fisherYates, { n: 10, trials: 200, reportDir: dir }),
    e => e instanceof assert.AssertionError && /is inconclusive/.test(e.message) && /\(trials: \d+\)/.test(e.message));
  assert.ok(fs.existsSync(path.join(dir, "summary.json")));
  const result = audit(fisherYates, { n: 10, trials: 200 });
  assert.equal(result.verdict, "inconclusive");
  assert.ok(result.trialsForVerdict > 200);
});

test("the same seed gives the same counts; another seed other counts", () => {
  const a = audit(fisherYates, { n: 8, trials: 30000, seed: 5 });
  const b = audit(fisherYates, { n: 8, trials: 30000, seed: 5 });
  const c = audit(fisherYates, { n: 8, trials: 30000, seed: 6 });
  assert.deepEqual(a.counts, b.counts);
  assert.notDeepEqual(a.counts, c.counts);
});

test("Math.random is the seeded generator during the run, and restored after (also on error)", () => {
  const before = Math.random;
  const mathy = a => {
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      const t = a[i]; a[i] = a[j]; a[j] = t;
    }
  };
  const viaMath = audit(mathy, { n: 8, trials: 30000, seed: 9 });
  const viaArg = audit(fisherYates, { n: 8, trials: 30000, seed: 9 });
  assert.deepEqual(viaMath.counts, viaArg.counts);
  assert.equal(Math.random, before);
  assert.throws(() => audit(() => { throw new Error("no"); }, { n: 8 }), UserError);
  assert.equal(Math.random, before);
  // random: "math" uses Math.random itself: a fair verdict, not reproducible counts.
  assert.equal(audit(mathy, { n: 8, trials: 30000, random: "math" }).verdict, "no bias detected");
});

test("a broken shuffle is an error naming the trial, never a verdict", () => {
  let calls = 0;
  const cases = [
    [a => a.slice(1), /at trial 1: it returned 9 items instead of 10 \(it lost 1\)/],
    [a => [...a, 0], /at trial 1: it returned 11 items instead of 10 \(it added 1\)/],
    [a => { a[3] = a[4]; }, /at trial 1: it lost item 3 and has 4 twice/],
    [() => "deck", /at trial 1: it returned "deck", not an array/],
    [() => { throw new RangeError("out of cards"); }, /shuffle threw an exception at trial 1: out of cards/],
    [a => { if (++calls === CHUNK_TRIALS + 7) a[0] = 99; }, new RegExp(`at trial ${CHUNK_TRIALS + 7}: 99 at position 0`)],
  ];
  for (const [broken, message] of cases) {
    assert.throws(() => audit(broken, { n: 10, trials: 2 * CHUNK_TRIALS }), e => e instanceof UserError && message.test(e.message), String(message));
  }
});

test("a shoe of cards: the shuffle is handed the cards; riffles and a cut are caught by the order tests", () => {
  // Four Gilbert–Shannon–Reeds riffles of two stacked decks and one cut:
  // far too few, as the adjacency and successor tests of repeated cards see.
  function riffles(a, random) {
    for (let r = 0; r < 4; r++) {
      let cut = 0;
      for (let i = 0; i < a.length; i++) if (random() < 0.5) cut++;
      const left = a.slice(0, cut), right = a.slice(cut);
      let i = 0, j = 0;
      for (let k = 0; k < a.length; k++) {
        const l = left.length - i, m = right.length - j;
        a[k] = random() * (l + m) < l ? left[i++] : right[j++];
      }
    }
    const c = Math.floor(random() * a.length);
    return a.slice(c).concat(a.slice(0, c));
  }
  let handed = null;
  const fair = audit(a => { handed ??= a.slice(); fisherYates(a, Math.random); }, { deck: "shoe:decks=2", trials: 12000 });
  assert.deepEqual([handed.length, handed[0], handed[51], handed[52]], [104, "AS", "KC", "AS"]);
  assert.notEqual(fair.verdict, "biased");
  assert.match(fair.summary.audits[0].tests_run, /^position-kind,position-category,adjacency,successor/);
  const riffled = audit(riffles, { deck: "shoe:decks=2", trials: 12000 });
  assert.equal(riffled.verdict, "biased");
  assert.ok(riffled.seenBy.some(t => /adjacency|successor/.test(t)), riffled.seenBy.join(", "));
  assert.throws(() => audit(a => { a[0] = "ZZ"; }, { deck: "shoe:decks=2", trials: 10 }),
    /at trial 1: "ZZ" at position 0 is not one of the deck's cards/);
});

test("bad requests are refused naming the value", () => {
  assert.throws(() => audit(fisherYates, { n: 1 }), /n = 1 is too small/);
  // Neither n nor a deck: the library's refusal, not an error from inside the WebAssembly.
  assert.throws(() => audit(fisherYates, {}), e => e instanceof UserError && /^n is needed: .* \(or deck, /.test(e.message));
  assert.throws(() => audit(fisherYates), /^UserError: n is needed/);
  assert.throws(() => audit(fisherYates, { n: 10, trails: 5 }), /trails: not an option here/);
  assert.throws(() => audit(fisherYates, { n: 10, random: "crypto" }), /random: "crypto"/);
  assert.throws(() => audit(fisherYates, { n: 10, workers: 2 }), /workers: a function runs in this thread/);
  assert.throws(() => audit(42, { n: 10 }), /shuffle: expected a function or the path of a module/);
});

test("a module on worker threads: identical counts and verdict for 1, 2 and 3 workers", () => {
  const file = path.join(fixtures, "fisher-yates.cjs");
  const opts = { n: 10, trials: 4 * CHUNK_TRIALS + 1000, seed: 3 };
  const here = audit(fisherYates, opts);
  for (const workers of [1, 2, 3]) {
    const result = audit(file, { ...opts, workers });
    assert.deepEqual(result.counts, here.counts, `${workers} workers`);
    assert.equal(result.verdict, here.verdict);
    assert.equal(result.pAdjusted, here.pAdjusted);
  }
  // An ES module calling Math.random, from a file: URL.
  const mathy = audit(new URL(`file://${path.join(fixtures, "math-random.mjs")}`), { ...opts, workers: 2 });
  assert.deepEqual(mathy.counts, here.counts);
});

test("a module's broken shuffle or missing export is an error, not a hang", () => {
  assert.throws(() => audit(path.join(fixtures, "broken.mjs"), { n: 10, trials: 50000, workers: 1 }),
    e => e instanceof UserError && /at trial \d+: it returned 9 items/.test(e.message));
  assert.throws(() => audit(path.join(fixtures, "no-shuffle.mjs"), { n: 10, workers: 2 }),
    /exports no function named shuffle/);
  assert.throws(() => audit(path.join(fixtures, "missing.mjs"), { n: 10, workers: 2 }), /the module does not load/);
});

test("a long run counted on a second thread: the same counts as counting in one thread", () => {
  // 1.2M decks of 10 are worth a counting thread (counter.cjs); a module
  // on one worker thread counts in that thread's own Session.
  const opts = { n: 10, trials: 1_200_000, seed: 5 };
  assert.equal(worthCounting(opts.trials, opts.n), os.availableParallelism() > 1);
  const piped = audit(fisherYates, opts);
  const one = audit(path.join(fixtures, "fisher-yates.cjs"), { ...opts, workers: 1 });
  assert.deepEqual(piped.counts, one.counts);
  assert.deepEqual(piped.tests, one.tests);
  assert.equal(piped.verdict, one.verdict);
  // A deck broken late in the run is still an error naming its trial.
  let calls = 0;
  const late = a => { if (++calls === 1_100_001) return a.slice(2); };
  assert.throws(() => audit(late, opts), e => e instanceof UserError && /at trial 1100001: it returned 8 items/.test(e.message));
});

test("writeReport writes summary.json and the report's files", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sa-"));
  const result = audit(fisherYates, { n: 6, trials: 6000 });
  result.writeReport(dir);
  const summary = JSON.parse(fs.readFileSync(path.join(dir, "summary.json"), "utf8"));
  assert.deepEqual(summary, result.summary);
  assert.ok(fs.readdirSync(dir).some(f => f.endsWith(".png")));
});

test("one random restarted at each chunk draws each chunk's own stream", () => {
  const draw = (random, count) => Array.from({ length: count }, () => random());
  // 2,500 numbers: past two refills of the generator's block of 1,024.
  const own = draw(seededRandom(7, 3), 2500);
  const used = seededRandom(7, 0);
  draw(used, 1500);
  assert.deepEqual(draw(used.restart(3), 2500), own);
  const streams = chunkStreams(7);
  const first = streams(0);
  assert.deepEqual(draw(first, 10), draw(seededRandom(7, 0), 10));
  assert.equal(streams(3), first, "the same function for every chunk");
  assert.deepEqual(draw(first, 2500), own);
  assert.notDeepEqual(draw(streams(4), 10), own.slice(0, 10));
});
