// The browser page in headless Chromium: preset links reach the expected
// verdicts, broken functions get a message and no verdict, the page is fast
// enough, and its verdict is visible at 1280 and 400 px wide.
//
// Run by web/test/run (which builds the page and installs what is missing).
// Screenshots go to target/web-test/.
import { chromium } from "playwright-core";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import fs from "node:fs";
import assert from "node:assert/strict";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const page0 = pathToFileURL(path.join(root, "web/dist/index.html")).href;
const shots = path.join(root, "target/web-test");
fs.mkdirSync(shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
page.on("pageerror", e => console.error("page error:", e.message));

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
await screenshot(1280);
await screenshot(400);
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
const code = s => "code=" + encodeURIComponent(s);
await expectError(`${code("function shuffle(a) { a.pop(); }")}&n=10&trials=100&run=1`, "instead of 10");
await expectError(`${code("function shuffle(a) { throw new Error('no'); }")}&n=10&trials=100&run=1`, "threw");
await expectError(`${code("function shuffle(a) { while (true) {} }")}&n=10&trials=100&run=1`, "has not returned");
await expectError(`${code("function shufle(a) {}")}&n=10&trials=100&run=1`, "no function named shuffle");

// An unknown preset is refused with the library's suggestion, not run as
// another, and the link is kept as it was (issue 36).
await expectError("preset=fisher-yate&n=10&run=1", "did you mean 'fisher-yates'?");
assert.ok(page.url().includes("preset=fisher-yate&"), page.url());
// No trials in the link: the trials n needs, as on every front.
const deflt = await expect("preset=fisher-yates&n=52&run=1", "no bias detected");
assert.ok(deflt.status.startsWith("fisher-yates: 480,598 trials"), deflt.status);
await expectError("preset=fisher-yates&n=1&run=1", "n = 1 is too small");

await expect("preset=reservoir-off-by-one&mode=sampler&kind=sample&n=10&k=3&trials=100000&run=1", "biased");
await expect("preset=weighted-pick&mode=sampler&kind=pick&weights=1,2,3,4&trials=100000&run=1", "no bias detected");
await expect(`${code("function shuffle(a, random) { for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(random() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } }")}&n=5&trials=200&run=1`, "inconclusive");

await browser.close();
console.log(`browser test passed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
