// The page's presets: every built-in shuffle of `shuffle-audit list` and the
// samplers of the samplers chapter, written in JavaScript. Each preset's code
// is what the editor shows; `random()` is the page's generator (seeded, or
// Math.random), uniform on [0, 1).
"use strict";

const PRESETS = [
  { name: "fisher-yates", mode: "shuffle", title: "Fisher–Yates (Durstenfeld): fair", code:
`function shuffle(a, random) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}` },
  { name: "sort-random-comparator", mode: "shuffle", title: "sort(() => Math.random() - 0.5): biased", code:
`function shuffle(a) {
  return a.sort(() => Math.random() - 0.5);
}` },
  { name: "naive-swap", mode: "shuffle", title: "the naive swap, a[uniform[0, n-1]] for every i: biased", code:
`function shuffle(a, random) {
  for (let i = 0; i < a.length; i++) {
    const j = Math.floor(random() * a.length);
    [a[i], a[j]] = [a[j], a[i]];
  }
}` },
  { name: "forward-off-by-one", mode: "shuffle", title: "forward Fisher–Yates with its range one short: biased", code:
`function shuffle(a, random) {
  const n = a.length;
  for (let i = 0; i < n - 1; i++) {
    const j = i + Math.floor(random() * (n - 1 - i)); // should be n - i
    [a[i], a[j]] = [a[j], a[i]];
  }
}` },
  { name: "sattolo", mode: "shuffle", title: "Sattolo, j = uniform[0, i-1]: only n-cycles, biased", code:
`function shuffle(a, random) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * i);
    [a[i], a[j]] = [a[j], a[i]];
  }
}` },
  { name: "random-swap", mode: "shuffle", title: "k = n swaps of two random cells: biased", code:
`function shuffle(a, random) {
  const n = a.length, k = n;
  for (let t = 0; t < k; t++) {
    const i = Math.floor(random() * n), j = Math.floor(random() * n);
    [a[i], a[j]] = [a[j], a[i]];
  }
}` },
  { name: "fisher-yates-forward", mode: "shuffle", title: "forward Fisher–Yates, j = uniform[i, n-1]: fair", code:
`function shuffle(a, random) {
  const n = a.length;
  for (let i = 0; i < n - 1; i++) {
    const j = i + Math.floor(random() * (n - i));
    [a[i], a[j]] = [a[j], a[i]];
  }
}` },
  { name: "inside-out", mode: "shuffle", title: "inside-out Fisher–Yates into a new array: fair", code:
`function shuffle(a, random) {
  const out = [];
  for (let i = 0; i < a.length; i++) {
    const j = Math.floor(random() * (i + 1));
    out[i] = out[j];
    out[j] = a[i];
  }
  return out;
}` },
  { name: "fisher-yates-original", mode: "shuffle", title: "Fisher and Yates' original: strike a random remaining item: fair", code:
`function shuffle(a, random) {
  const left = a.slice(), out = [];
  while (left.length > 0) {
    out.push(left.splice(Math.floor(random() * left.length), 1)[0]);
  }
  return out;
}` },
  { name: "pick-until-unused", mode: "shuffle", title: "draw until an unused item comes up: fair", code:
`function shuffle(a, random) {
  const n = a.length, used = new Array(n).fill(false), out = [];
  while (out.length < n) {
    const j = Math.floor(random() * n);
    if (!used[j]) { used[j] = true; out.push(a[j]); }
  }
  return out;
}` },
  { name: "sort-random-keys", mode: "shuffle", title: "sort by independent random keys: fair", code:
`function shuffle(a, random) {
  return a.map(x => [random(), x]).sort((p, q) => p[0] - q[0]).map(p => p[1]);
}` },
  { name: "shrinking-range", mode: "shuffle", title: "j = uniform[0, n-1-i]: biased", code:
`function shuffle(a, random) {
  const n = a.length;
  for (let i = 0; i < n; i++) {
    const j = Math.floor(random() * (n - i));
    [a[i], a[j]] = [a[j], a[i]];
  }
}` },
  { name: "insert-last", mode: "shuffle", title: "n times: move the last item to a random index: biased", code:
`function shuffle(a, random) {
  const n = a.length;
  for (let t = 0; t < n; t++) {
    const x = a.pop();
    a.splice(Math.floor(random() * n), 0, x);
  }
}` },
  { name: "top-to-random", mode: "shuffle", title: "n times: move the top item to a random index: biased", code:
`function shuffle(a, random) {
  const n = a.length;
  for (let t = 0; t < n; t++) {
    const x = a.shift();
    a.splice(Math.floor(random() * n), 0, x);
  }
}` },
  { name: "rotation", mode: "shuffle", title: "rotate by a random amount: fair marginals, only n orders: biased", code:
`function shuffle(a, random) {
  const r = Math.floor(random() * a.length);
  return a.slice(r).concat(a.slice(0, r));
}` },
  { name: "riffle", mode: "shuffle", title: "one Gilbert–Shannon–Reeds riffle: biased", code:
`function shuffle(a, random) {
  const n = a.length;
  let cut = 0;
  for (let i = 0; i < n; i++) if (random() < 0.5) cut++;
  const left = a.slice(0, cut), right = a.slice(cut), out = [];
  while (left.length + right.length > 0) {
    const fromLeft = random() * (left.length + right.length) < left.length;
    out.push(fromLeft ? left.shift() : right.shift());
  }
  return out;
}` },
  { name: "loses-an-item", mode: "shuffle", title: "a broken shuffle that sometimes loses an item: an error, not a verdict", code:
`function shuffle(a, random) {
  const j = Math.floor(random() * a.length);
  a[j] = a[0]; // overwrites instead of swapping
}` },
  // Samplers: sample(n, k, random) returns k distinct items of 0..n-1;
  // pick(weights, random) returns one index, drawn in proportion to weights.
  { name: "reservoir", mode: "sampler", kind: "sample", n: 10, k: 3, title: "reservoir sampling (Algorithm R): fair", code:
`function sample(n, k, random) {
  const res = [];
  for (let i = 0; i < k; i++) res.push(i);
  for (let i = k; i < n; i++) {
    const j = Math.floor(random() * (i + 1));
    if (j < k) res[j] = i;
  }
  return res;
}` },
  { name: "sample-range", mode: "sampler", kind: "sample", n: 10, k: 3, title: "the article's sample(lo, hi, k), at lo = 12, shifted to 0..n-1: fair", code:
`// k distinct integers of lo..hi-1, as the article writes it.
function sampleRange(lo, hi, k, random) {
  const res = [];
  for (let i = lo; i < lo + k; i++) res.push(i);
  for (let i = lo + k; i < hi; i++) {
    const j = Math.floor(random() * (i - lo + 1));
    if (j < k) res[j] = i;
  }
  return res;
}

function sample(n, k, random) {
  return sampleRange(12, 12 + n, k, random).map(x => x - 12);
}` },
  { name: "reservoir-off-by-one", mode: "sampler", kind: "sample", n: 10, k: 3, title: "reservoir with j = uniform[0, i-1]: biased", code:
`function sample(n, k, random) {
  const res = [];
  for (let i = 0; i < k; i++) res.push(i);
  for (let i = k; i < n; i++) {
    const j = Math.floor(random() * i); // should be i + 1
    if (j < k) res[j] = i;
  }
  return res;
}` },
  { name: "floyd", mode: "sampler", kind: "sample", n: 10, k: 3, title: "Floyd's algorithm: fair", code:
`function sample(n, k, random) {
  const chosen = new Set();
  for (let j = n - k; j < n; j++) {
    const t = Math.floor(random() * (j + 1));
    chosen.add(chosen.has(t) ? j : t);
  }
  return [...chosen];
}` },
  { name: "weighted-pick", mode: "sampler", kind: "pick", weights: "1,2,3,4", title: "a weighted pick by prefix sums: fair", code:
`function pick(weights, random) {
  const total = weights.reduce((s, w) => s + w, 0);
  let r = random() * total;
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i];
    if (r < 0) return i;
  }
  return weights.length - 1;
}` },
  { name: "weighted-off-by-one", mode: "sampler", kind: "pick", weights: "1,2,3,4", title: "a weighted pick that compares with <= : biased", code:
`function pick(weights, random) {
  const total = weights.reduce((s, w) => s + w, 0);
  const r = Math.floor(random() * total);
  let prefix = 0;
  for (let i = 0; i < weights.length; i++) {
    prefix += weights[i];
    if (r <= prefix) return i; // should be r < prefix
  }
  return weights.length - 1;
}` },
];
