// What the package costs per trial: node js/bench.mjs (after js/build).
//
// Prints, side by side, ns per trial of (a) the same Fisher–Yates shuffle
// in a bare loop on the package's seeded generator, on a fresh deck
// 0..n-1 each trial (a reused array refilled, as the runner does, and a
// newly allocated array), and (b) through the package, counting included:
// the slope of audit()'s time between two trial counts, so that the fixed
// cost of judging (tests, report files) and of starting the counting
// thread is left out and shown apart. Both trial counts are long enough
// for the package to count on a second thread (counter.cjs), so (b) is
// wall-clock time with the counting overlapping the shuffles; the CPU
// time per trial, all threads together, is printed beside it, since the
// overlap hides work from the clock but not from the machine. Then the
// worker_threads speed-up of a module path for 1 vs 2 workers. Medians of
// REPEATS runs.
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const { audit } = require("./lib/index.cjs");
const { seededRandom } = require("./lib/runner.cjs");

const REPEATS = Number(process.env.REPEATS || 5);

/** The shuffle every row times: Fisher–Yates (Durstenfeld). */
function fisherYates(a, random) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = a[i]; a[i] = a[j]; a[j] = t;
  }
}

/** The median of `xs`. */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Seconds `fn` takes, wall-clock and CPU (all threads), medians of REPEATS runs (after one warm-up). */
function timed(fn) {
  fn();
  const wall = [], cpu = [];
  for (let r = 0; r < REPEATS; r++) {
    const t0 = performance.now(), c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    wall.push((performance.now() - t0) / 1000);
    cpu.push((c.user + c.system) / 1e6);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

/** Wall-clock seconds `fn` takes, median of REPEATS runs. */
function time(fn) {
  return timed(fn).wall;
}

/** (a): the bare loop on a refilled array, or (`allocate`) a new one each trial. */
function bare(n, trials, allocate) {
  const random = seededRandom(1, 0), deck = new Array(n);
  let sink = 0;
  for (let t = 0; t < trials; t++) {
    const a = allocate ? Array.from({ length: n }, (_, i) => i) : deck;
    if (!allocate) for (let i = 0; i < n; i++) a[i] = i;
    fisherYates(a, random);
    sink += a[0];
  }
  return sink;
}

/**
 * The once-cost column: the intercept of two timed runs, which the noise
 * of either can push below zero (said so rather than printed negative).
 */
function onceCost(seconds) {
  return seconds < 0 ? "below noise" : `${(seconds * 1000).toFixed(0)} ms`;
}

const rows = [];
for (const [n, small, large] of [[10, 1_200_000, 4_200_000], [52, 250_000, 1_000_000]]) {
  const refilled = timed(() => bare(n, large, false));
  const allocated = time(() => bare(n, large, true)) / large * 1e9;
  const t1 = timed(() => audit(fisherYates, { n, trials: small }));
  const t2 = timed(() => audit(fisherYates, { n, trials: large }));
  const perTrial = (t2.wall - t1.wall) / (large - small) * 1e9;
  const cpuPerTrial = (t2.cpu - t1.cpu) / (large - small) * 1e9;
  const fixed = t1.wall - perTrial * small / 1e9;
  rows.push({ n, refilled: refilled.wall / large * 1e9, refilledCpu: refilled.cpu / large * 1e9, allocated, perTrial, cpuPerTrial, fixed });
}

console.log(`CPU: ${os.cpus()[0].model} (${os.cpus().length} logical cores), Node ${process.version}, medians of ${REPEATS}`);
console.log("  n | bare, refilled | bare, new array | package (counting) | package - bare (refilled) | CPU: package - bare | judging, thread start (once)");
for (const r of rows) {
  console.log(`${String(r.n).padStart(3)} | ${r.refilled.toFixed(1).padStart(11)} ns | ${r.allocated.toFixed(1).padStart(12)} ns | ` +
    `${r.perTrial.toFixed(1).padStart(15)} ns | ${(r.perTrial - r.refilled).toFixed(1).padStart(22)} ns | ` +
    `${(r.cpuPerTrial - r.refilledCpu).toFixed(1).padStart(16)} ns | ${onceCost(r.fixed).padStart(13)}`);
}

const module = path.join(here, "test", "fixtures", "fisher-yates.cjs");
const trials = Number(process.env.WORKER_TRIALS || 2_000_000);
const speed = {};
for (const workers of [1, 2]) speed[workers] = time(() => audit(module, { n: 52, trials, workers }));
console.log(`worker_threads, a module path, n = 52, ${trials.toLocaleString("en-US")} trials (judging included): ` +
  `1 worker ${speed[1].toFixed(2)} s, 2 workers ${speed[2].toFixed(2)} s, speed-up ${(speed[1] / speed[2]).toFixed(2)}×`);
