// The browser page in headless Chromium: preset links reach the expected
// verdicts, broken functions get a message (with the line, or a hint) and no
// verdict, a slow function is not taken for a hung one, one or two workers
// give the same counts and verdict, two workers are faster than one, the
// heatmap is large with a readout for every cell, and the verdict is
// visible at 1280 and 400 px wide.
//
// Run by web/test/run (which builds the page and installs what is missing).
// Screenshots go to target/web-test/.
import { chromium } from "playwright-core";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import fs from "node:fs";
import os from "node:os";
import assert from "node:assert/strict";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const page0 = pathToFileURL(path.join(root, "web/dist/index.html")).href;
const shots = path.join(root, "target/web-test");
/**
 * The speed test's deck and trials: about three and a half seconds a run on
 * one worker (5.9M trials/s), so that what every run pays once (a worker's
 * start and its code's warm-up, 20 to 50 ms each) weighs little beside the
 * counting.
 */
const SPEED_N = 10, SPEED_TRIALS = 20000000;
/**
 * Run pairs (one worker, then two) the speed test takes the best of: eight,
 * so that one clean run of each is likely on a machine whose cores slow
 * down in spells (best of five read 1.68 once where the machine's own
 * speed-up was 1.85; best of eight still read 1.67 once, in a half-hour
 * when every run was slowed).
 */
const SPEED_PAIRS = 8;
/** The fisher-yates preset's code (web/page/presets.js). */
const FISHER_YATES = new Function(`${fs.readFileSync(path.join(root, "web/page/presets.js"), "utf8")}
  ;return PRESETS;`)().find(p => p.name === "fisher-yates").code;
fs.mkdirSync(shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
page.on("pageerror", e => console.error("page error:", e.message));

/** A link's fragment for the user's own code `s`. */
const code = s => "code=" + encodeURIComponent(s);
/**
 * A riffle-and-cut shuffler: four Gilbert–Shannon–Reeds riffles of the
 * whole shoe, then one random cut (far too few riffles: pairs of the
 * starting order survive, which the order tests of repeated cards see).
 */
const RIFFLES = "function shuffle(a, random) {\n  for (let r = 0; r < 4; r++) {\n" +
  "    let cut = 0;\n    for (let i = 0; i < a.length; i++) if (random() < 0.5) cut++;\n" +
  "    const left = a.slice(0, cut), right = a.slice(cut);\n    let i = 0, j = 0;\n" +
  "    for (let k = 0; k < a.length; k++) {\n      const l = left.length - i, m = right.length - j;\n" +
  "      a[k] = random() * (l + m) < l ? left[i++] : right[j++];\n    }\n  }\n" +
  "  const c = Math.floor(random() * a.length), b = a.slice(c).concat(a.slice(0, c));\n" +
  "  for (let k = 0; k < a.length; k++) a[k] = b[k];\n}";

/** Opens the page at `fragment` and waits for a final verdict or an error. */
async function audit(fragment, seconds = 60) {
  await page.goto("about:blank");
  await page.goto(`${page0}#${fragment}`);
  await page.waitForSelector("#verdict.final, #verdict.error", { timeout: seconds * 1000 });
  const verdict = (await page.textContent("#verdict")).trim();
  const status = (await page.textContent("#status")).trim();
  const rate = Number(await page.getAttribute("#status", "data-rate"));
  return { verdict, status, rate };
}

/** Checks one audit's verdict word and prints it. */
async function expect(fragment, word) {
  const r = await audit(fragment);
  console.log(`${fragment}\n  -> ${r.verdict} | ${r.status}`);
  assert.ok(r.verdict.endsWith(word), `${fragment}: expected "${word}", got "${r.verdict}" (${r.status})`);
  return r;
}

/** The text of the downloadable file called `name` of the audit shown. */
async function download(name) {
  return page.evaluate(async id => (await fetch(document.getElementById(id).href)).text(),
    "download-" + name.replace(/[^a-z0-9]/gi, "-"));
}

/** Checks that an audit stops with an error mentioning `words`. */
async function expectError(fragment, words, seconds = 30) {
  const r = await audit(fragment, seconds);
  console.log(`${fragment.slice(0, 90)}\n  -> ${r.verdict} | ${r.status}`);
  assert.equal(r.verdict, "error");
  assert.ok(r.status.includes(words), `expected "${words}" in "${r.status}"`);
}

/** Checks that the verdict is on screen, then saves a screenshot. */
async function screenshot(width) {
  await page.setViewportSize({ width, height: 900 });
  await page.locator("#verdict").scrollIntoViewIfNeeded();
  const box = await page.locator("#verdict").boundingBox();
  const text = (await page.textContent("#verdict")).trim();
  assert.ok(text.length > 0, "the verdict is empty");
  assert.ok(box && box.width > 0 && box.height > 0, "the verdict has no size");
  assert.ok(box.x >= 0 && box.x + box.width <= width && box.y >= 0 && box.y + box.height <= 900,
    `the verdict lies outside the ${width} px viewport: ${JSON.stringify(box)}`);
  const file = path.join(shots, `page-${width}.png`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage: true });
  console.log(`  screenshot ${width} px: ${path.relative(root, file)} (verdict at ${Math.round(box.x)},${Math.round(box.y)})`);
}

const t0 = Date.now();
await expect("preset=sort-random-comparator&n=10&trials=100000&run=1", "biased");
await heatmap();
await screenshot(1280);
await screenshot(400);
await sameForAnyWorkers();
await speedUp();
const fy = await expect("preset=fisher-yates&n=10&trials=1000000&run=1", "no bias detected");
console.log(`  speed: a JavaScript Fisher–Yates at n = 10 audited at ${(fy.rate / 1e6).toFixed(2)}M permutations/s`);
assert.ok(fy.rate > 2e5, "far too slow: something is wrong");
const summary = await page.evaluate(async () => {
  const a = document.getElementById("download-summary-json");
  return (await fetch(a.href)).text();
});
const json = JSON.parse(summary);
assert.equal(json.schema, 3);
assert.equal(json.audits[0].kind, "shuffle");
assert.equal(json.audits[0].verdict, "no-bias-detected");
assert.equal(json.audits[0].trials, 1000000);
const counts = await page.evaluate(async () =>
  (await fetch(document.getElementById("download-counts-csv").href)).text());
assert.ok(counts.startsWith("position,v0,v1,v2"), counts.slice(0, 40));

await expectError("preset=loses-an-item&n=10&trials=1000&run=1", "not the items it was given");
await expectError(`${code("function shuffle(a) { a.pop(); }")}&n=10&trials=100&run=1`, "instead of 10");
await expectError(`${code("function shuffle(a) { throw new Error('no'); }")}&n=10&trials=100&run=1`, "threw");
await expectError(`${code("function shuffle(a) { while (true) {} }")}&n=10&trials=100&run=1`, "has not returned");
await expectError(`${code("function shufle(a) {}")}&n=10&trials=100&run=1`, "no function named shuffle");
// Code written as a module is told what to change; a throw names its line.
await expectError(`${code("export function shuffle(a) {}")}&n=10&trials=100&run=1`,
  "remove `export`: the page defines the function itself");
await expectError(`${code("// a comment\nfunction shuffle(a) {\n  throw new Error('no');\n}")}&n=10&trials=100&run=1`,
  "threw an exception at trial 1: no (line 3 of your code)");
// A slow but finite function (20 ms a call, 7 s in all on one worker) is
// not stopped by the 5-second watchdog: its heartbeats come from inside its
// calls, on the wall clock.
const slow = "function shuffle(a, random) { const t = Date.now(); while (Date.now() - t < 20) {} " +
  "for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(random() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } }";
const tSlow = Date.now();
const r = await expect(`${code(slow)}&n=5&trials=350&workers=1&run=1`, "inconclusive");
assert.ok(Date.now() - tSlow > 6000, `the slow run took ${Date.now() - tSlow} ms: not slow enough to test the watchdog`);
assert.ok(r.status.includes("350 trials"), r.status);

// An unknown preset is refused with the library's suggestion, not run as
// another, and the link is kept as it was (issue 36).
await expectError("preset=fisher-yate&n=10&run=1", "did you mean 'fisher-yates'?");
assert.ok(page.url().includes("preset=fisher-yate&"), page.url());
// No trials in the link: the trials n needs, as on every front.
const deflt = await expect("preset=fisher-yates&n=52&run=1", "no bias detected");
assert.ok(deflt.status.startsWith("fisher-yates: 480,598 trials"), deflt.status);
await expectError("preset=fisher-yates&n=1&run=1", "n = 1 is too small");

// Shoes: the shuffle is handed two decks of cards; a fair one is not
// called biased, riffles and a cut are caught by the order tests of
// repeated cards (issue 37), and a shuffle that duplicates a card is
// stopped, naming the card.
const shoe = await audit("preset=fisher-yates&deck=shoe:decks=2&trials=20000&run=1");
console.log(`fisher-yates, shoe of 2 decks\n  -> ${shoe.verdict} | ${shoe.status}`);
assert.ok(!/(^|\s)biased$/.test(shoe.verdict), shoe.verdict);
const fairShoe = JSON.parse(await download("summary.json")).audits[0];
assert.equal(fairShoe.n, 104);
assert.ok(/^position-kind,position-category,adjacency,successor/.test(fairShoe.tests_run), fairShoe.tests_run);
assert.ok(page.url().includes("deck=shoe%3Adecks%3D2") && !page.url().includes("&n="), page.url());
await expect(`${code(RIFFLES)}&deck=shoe:decks=2&trials=20000&run=1`, "biased");
const riffled = JSON.parse(await download("summary.json")).audits[0];
assert.ok(riffled.seen_by.some(t => t === "adjacency" || t === "successor"), JSON.stringify(riffled.seen_by));
await expectError(`${code("function shuffle(a) { a[0] = a[1]; }")}&deck=shoe:decks=2&trials=100&run=1`,
  'holds more than 2 of "2S"');
await expectError("preset=fisher-yates&deck=shoe:decks=0&run=1", "deck 'shoe:decks=0': decks must be");

await expect("preset=reservoir-off-by-one&mode=sampler&kind=sample&n=10&k=3&trials=100000&run=1", "biased");
await expect("preset=weighted-pick&mode=sampler&kind=pick&weights=1,2,3,4&trials=100000&run=1", "no bias detected");
await expect(`${code("function shuffle(a, random) { for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(random() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } }")}&n=5&trials=200&run=1`, "inconclusive");

await browser.close();

/**
 * The heatmap is at least 640 px, with ticks, and pointing at a cell shows
 * the library's figures for it: the named deviation's cell here, whose O/E
 * the findings state.
 */
async function heatmap() {
  await page.locator("#heatmap").scrollIntoViewIfNeeded();
  const box = await page.locator("#heatmap").boundingBox();
  assert.ok(box.width >= 640 && box.height >= 640, `the heatmap is ${box.width}×${box.height} px`);
  const v = await page.evaluate(() => heat.v);
  assert.ok(v.deviation_cell, v.deviation);
  const [r, c] = v.deviation_cell;
  const g = await page.evaluate(() => heat.layout);
  await page.mouse.move(box.x + (g.left + (c + 0.5) * 640 / v.cols) * box.width / g.width,
    box.y + (g.top + (r + 0.5) * 640 / v.rows) * box.height / g.height);
  const text = (await page.textContent("#readout")).trim();
  console.log(`  heatmap ${Math.round(box.width)}×${Math.round(box.height)} px; deviation: ${v.deviation}\n  readout: ${text}`);
  const i = r * v.cols + c;
  assert.equal(await page.getAttribute("#readout", "data-cell"), `${r},${c}`);
  assert.ok(text.startsWith(`position ${r}, value ${c}: observed ${v.cells.observed[i].toLocaleString("en")} · expected `), text);
  assert.ok(text.includes(`O/E ${v.cells.ratio[i].toFixed(2)}×`) && text.includes(" · z "), text);
  // The darkest cell on the picture's log scale is the one named.
  assert.ok(v.deviation.includes(`${v.cells.ratio[i].toFixed(2)}× expected`), v.deviation);
  await page.evaluate(() => window.scrollTo(0, 0));
}

/**
 * One worker and two give the same counts, p-values and verdict: a biased
 * run at n = 10 and a fair one at n = 52 (whose counts hold the deals'
 * sample, merged from however the workers' exports fell).
 */
async function sameForAnyWorkers() {
  for (const [fragment, word] of [["preset=sort-random-comparator&n=10&trials=300000", "biased"],
    ["preset=fisher-yates&n=52&trials=150000", "inconclusive"],
    [`${code(RIFFLES)}&deck=shoe:decks=2&trials=60000`, "biased"]]) {
    const runs = [];
    for (const workers of [1, 2]) {
      const r = await expect(`${fragment}&workers=${workers}&run=1`, word);
      assert.equal(await page.getAttribute("#status", "data-workers"), String(workers));
      const summary = JSON.parse(await download("summary.json")).audits[0];
      runs.push({ r, counts: await download("counts.csv"), tests: summary.tests });
    }
    assert.equal(runs[0].counts, runs[1].counts, `${fragment}: the counts differ between 1 and 2 workers`);
    assert.deepEqual(runs[0].tests, runs[1].tests, `${fragment}: the tests differ between 1 and 2 workers`);
    assert.equal(runs[0].r.verdict, runs[1].r.verdict);
    console.log(`  workers=1 and workers=2: identical counts and tests (${runs[0].tests.map(t => t.test).join(", ")})`);
  }
}

/**
 * Two workers share the run: each counts chunks of it (a fact, checked on
 * every run). How much faster two are than one is a measurement, printed:
 * the best of SPEED_PAIRS runs of each, interleaved, beside the machine's
 * own speed-up measured between them (machineSpeed), so that a low
 * figure says whether the page or the machine fell short. (This VM's two
 * cores each have spells of running at 55 to 75% of their speed, for up to
 * a few seconds, in plain C code too: a single run pair can read low on a
 * machine that is not quiet.) With SHUFFLE_AUDIT_SPEED=1 the test also
 * asserts issue 39's target, a speed-up of at least 1.7 on two cores with
 * nothing else running. (A timed threshold is not asserted in CI, where a
 * shared machine's other work makes it flaky.)
 */
async function speedUp() {
  const fragment = w => `preset=fisher-yates&n=${SPEED_N}&trials=${SPEED_TRIALS}&workers=${w}&run=1`;
  const best = { 1: 0, 2: 0 }, plain = { 1: 0, 2: 0 };
  for (let pair = 0; pair < SPEED_PAIRS; pair++) {
    for (const w of [1, 2]) {
      best[w] = Math.max(best[w], (await expect(fragment(w), "no bias detected")).rate);
      const chunks = (await page.getAttribute("#status", "data-chunks")).split(",").map(Number);
      assert.equal(chunks.length, w, `${w} workers were asked for, ${chunks.length} counted`);
      assert.ok(chunks.every(c => c > 0), `a worker counted no chunk: ${chunks.join(", ")}`);
      plain[w] = Math.max(plain[w], await machineSpeed(w));
    }
  }
  const ratio = best[2] / best[1], machine = plain[2] / plain[1];
  console.log(`  speed at n = ${SPEED_N}: ${(best[1] / 1e6).toFixed(2)}M trials/s on 1 worker, ` +
    `${(best[2] / 1e6).toFixed(2)}M on 2: ${ratio.toFixed(2)}× (best of ${SPEED_PAIRS} each; ` +
    `${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}); the machine's own: ` +
    `${machine.toFixed(2)}× (a plain loop, ${(plain[1] / 1e6).toFixed(1)}M and ${(plain[2] / 1e6).toFixed(1)}M ` +
    `shuffles/s); both workers counted chunks of every 2-worker run`);
  if (process.env.SHUFFLE_AUDIT_SPEED === "1") {
    assert.ok(ratio >= 1.7, `two workers are only ${ratio.toFixed(2)}× as fast as one ` +
      `(the machine's own speed-up was ${machine.toFixed(2)}×)`);
  }
}

/**
 * The machine's own speed: shuffles per second, all told, of `workers`
 * Web Workers each running the speed test's shuffle (the fisher-yates
 * preset, drawing from the page's seeded generator, random.js) in a plain
 * loop for a second, with no page, no checking and no counting. Its
 * speed-up from one worker to two is what the machine gives that code at
 * that moment.
 */
async function machineSpeed(workers) {
  await page.goto("about:blank");
  const script = `${fs.readFileSync(path.join(root, "web/page/random.js"), "utf8")}\n` +
    `const shuffle = (${FISHER_YATES});\nonmessage = e => postMessage((${plainLoop})(e.data));`;
  return page.evaluate(([script, workers]) => new Promise(resolve => {
    const url = URL.createObjectURL(new Blob([script], { type: "text/javascript" }));
    let total = 0, left = workers;
    for (let i = 0; i < workers; i++) {
      const w = new Worker(url);
      w.onmessage = e => {
        total += e.data;
        w.terminate();
        if (--left === 0) resolve(total);
      };
      w.postMessage(i + 1);
    }
  }), [script, workers]);
}

/**
 * machineSpeed's loop, run in a worker beside random.js and `shuffle`:
 * shuffles of 10 items per second over one second.
 */
function plainLoop(seed) {
  /* global seededRandom, shuffle */
  const random = seededRandom(seed), deck = new Array(10);
  const start = performance.now();
  let now = start, shuffles = 0, sink = 0;
  while (now - start < 1000) {
    for (let k = 0; k < 4096; k++) {
      for (let i = 0; i < 10; i++) deck[i] = i;
      shuffle(deck, random);
      sink += deck[0];
    }
    shuffles += 4096;
    now = performance.now();
  }
  return sink >= 0 ? shuffles / ((now - start) / 1000) : 0;
}
console.log(`browser test passed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
