// The page: the form, the link in the URL fragment, the workers that run the
// audit (started from `shuffleAuditWorker`, the built worker script, through a
// Blob URL so that the page works from file:// too: one judge and one counter
// per core, sharing the run's chunks), and the drawing of what the library
// says. No statistics here: every verdict, word, colour and cell figure comes
// from the WebAssembly module.
"use strict";

/** Seconds a counter may stay silent (the user's code not returning). */
const HANG_SECONDS = 5;
/** Seconds between looks at the verdict so far (and the watchdog's checks). */
const LOOK_EVERY = 0.25;
/**
 * Seconds of counting a lease of chunks aims at: one message to a counter
 * and one back for a lease, so that this thread (which shares the cores
 * with the counters) wakes some forty times a second per counter rather
 * than at every chunk (4 ms at n = 10).
 */
const LEASE_SECONDS = 0.05;
const $ = id => document.getElementById(id);
const FIELDS = ["mode", "deck", "n", "k", "kind", "weights", "trials", "random", "seed"];

/** The run under way (null when none): its workers, chunks and state. */
let run = null;
/** The timer of the watchdog and the looks. */
let tick = null;
/** A preset the link names that the page does not have (refused by the library). */
let unknownPreset = null;
/** The link's `workers=`: how many workers count (null: one per core). */
let workersAsked = null;
/** The trials the library planned for the run under way. */
let planned = 0;

const CONTRACT = {
  shuffle: "Define shuffle(array) or shuffle(array, random): shuffle the array [0, 1, …, n-1] in place, or return the shuffled array. random() is the page's generator (Math.random is it too).",
  deal: "Define shuffle(array) or shuffle(array, random): shuffle the array of cards (\"AS\", \"2S\", …, \"KC\", deck after deck in a shoe) in place, or return it shuffled. random() is the page's generator (Math.random is it too).",
  sample: "Define sample(n, k, random): return k distinct items of 0..n-1.",
  ordered: "Define sample(n, k, random): return k distinct items of 0..n-1, in the order drawn.",
  pick: "Define pick(weights, random): return one index of weights, drawn in proportion to them.",
};

/** Fills the preset list and the form from the URL fragment. */
function setUp() {
  for (const p of PRESETS) {
    const o = document.createElement("option");
    o.value = p.name;
    o.textContent = `${p.mode === "sampler" ? "sampler: " : ""}${p.name} — ${p.title}`;
    $("preset").append(o);
  }
  const custom = document.createElement("option");
  custom.value = "";
  custom.textContent = "your own (edited)";
  $("preset").append(custom);
  const hash = new URLSearchParams(location.hash.slice(1));
  const wanted = hash.get("preset");
  const workers = Number(hash.get("workers"));
  workersAsked = Number.isInteger(workers) && workers > 0 ? workers : null;
  unknownPreset = wanted && !PRESETS.some(p => p.name === wanted) ? wanted : null;
  applyPreset(unknownPreset ? "" : wanted || (hash.has("code") ? "" : "fisher-yates"));
  if (unknownPreset) $("preset").value = "";
  // A deck the list does not offer is added as asked: the library reads
  // it (or refuses it, naming it), never silently another.
  const deck = hash.get("deck");
  if (deck && ![...$("deck").options].some(o => o.value === deck)) $("deck").add(new Option(deck, deck));
  for (const f of FIELDS) if (hash.has(f)) $(f).value = hash.get(f);
  if (hash.has("code")) {
    $("code").value = hash.get("code");
    $("preset").value = hash.get("preset") || "";
  }
  showMode();
  const edited = () => { unknownPreset = null; showMode(); saveLink(); };
  $("preset").onchange = () => { applyPreset($("preset").value); edited(); };
  $("code").oninput = () => { $("preset").value = ""; edited(); };
  for (const f of FIELDS) $(f).onchange = edited;
  $("form").onsubmit = e => { e.preventDefault(); start(); };
  $("heatmap").onpointermove = point;
  $("heatmap").onpointerdown = point;
  $("stop").onclick = () => stop("Stopped: no verdict (a verdict is reached at the planned trials).");
  // A link naming an unknown preset is kept as it is and refused at once,
  // with the library's suggestion, rather than run as something else.
  if (unknownPreset) start();
  else {
    saveLink();
    if (hash.get("run") === "1") start();
  }
}

/** Puts a preset's code and settings in the form. */
function applyPreset(name) {
  const p = PRESETS.find(q => q.name === name);
  if (!p) return;
  $("preset").value = p.name;
  $("code").value = p.code;
  $("mode").value = p.mode;
  if (p.kind) $("kind").value = p.kind;
  if (p.n) $("n").value = p.n;
  if (p.k) $("k").value = p.k;
  if (p.weights) $("weights").value = p.weights;
}

/** Shows the fields of the mode and kind chosen. */
function showMode() {
  const sampler = $("mode").value === "sampler", pick = sampler && $("kind").value === "pick";
  const dealing = !sampler && $("deck").value !== "";
  document.body.classList.toggle("sampling", sampler);
  document.body.classList.toggle("picking", pick);
  document.body.classList.toggle("dealing", dealing);
  $("n-label").textContent = sampler ? "N" : "n";
  $("contract").textContent = CONTRACT[sampler ? $("kind").value : dealing ? "deal" : "shuffle"];
}

/** The form as a link: a preset's name, or the code itself. */
function saveLink() {
  const hash = new URLSearchParams();
  if ($("preset").value) hash.set("preset", $("preset").value);
  else hash.set("code", $("code").value);
  const sampler = $("mode").value === "sampler";
  for (const f of FIELDS) {
    if (f === "n" && sampler && $("kind").value === "pick") continue;
    if (f === "n" && !sampler && $("deck").value) continue;
    if (f === "deck" && (sampler || !$("deck").value)) continue;
    hash.set(f, $(f).value);
  }
  if (workersAsked) hash.set("workers", String(workersAsked));
  history.replaceState(null, "", "#" + hash.toString());
  hash.set("run", "1");
  $("link").href = "#" + hash.toString();
}

/**
 * The job the worker runs: the form's fields as typed, which the library
 * reads, defaults and refuses (an empty trials field is the trials n
 * needs), and the code to run.
 */
function job() {
  const mode = $("mode").value, kind = $("kind").value, random = $("random").value;
  const holds = mode === "sampler" ? kind : "deck";
  // A deck of cards or a shoe (what --deck takes) is handed to the shuffle
  // instead of 0..n-1; it sets n.
  const deck = holds === "deck" ? $("deck").value : "";
  const preset = PRESETS.find(p => p.name === $("preset").value && p.code === $("code").value);
  const source = random === "seeded"
    ? `the page's seeded generator (xoshiro128**, seed ${$("seed").value})` : "Math.random (not reproducible)";
  const asked = {
    holds,
    name: preset ? preset.name : holds === "deck" ? "your shuffle" : holds === "pick" ? "your pick" : "your sampler",
    from: `${holds === "deck" ? "shuffled" : "drawn"} in the browser by a JavaScript function on ${source}`,
    n: holds === "pick" || deck ? "" : $("n").value,
    deck,
    k: holds === "sample" || holds === "ordered" ? $("k").value : "",
    weights: holds === "pick" ? $("weights").value : "",
    base: holds === "deck" ? "" : "0",
    trials: $("trials").value,
    seed: $("seed").value,
    presets: PRESETS.map(p => p.name),
  };
  if (unknownPreset) asked.preset = unknownPreset;
  return { mode, random, code: $("code").value, asked };
}

/** The workers' script, as a Blob URL (made once). */
let workerUrl = null;
function workerScript() {
  if (workerUrl === null) {
    const source = `(${shuffleAuditWorker.toString()})();`;
    workerUrl = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  }
  return workerUrl;
}

/**
 * Workers that count: one per core (`navigator.hardwareConcurrency`), or
 * the link's `workers=`; never more than the run has chunks.
 */
function counters(chunks) {
  const cores = workersAsked || navigator.hardwareConcurrency || 1;
  return Math.max(1, Math.min(cores, chunks));
}

/**
 * Starts an audit: a judge (the library resolves the request and judges
 * the merged counts) and counters that take the run's chunks from a queue
 * the page keeps, each counting into its own Session; the page forwards
 * their counts to the judge for a look about four times a second, and for
 * the verdict and files at the end.
 */
function start() {
  stop(null);
  let j;
  try {
    j = job();
  } catch (e) {
    showError(e.message);
    return;
  }
  clearResult();
  planned = 0;
  j.name = j.asked.name;
  run = {
    j, judge: null, counters: [], chunks: 0, next: 0, finished: 0,
    fresh: false, judging: false, nextLook: 0, ended: false, last: 0, started: 0, shown: 0,
  };
  run.judge = hire(j, -1);
  run.judge.postMessage({ type: "judge", asked: j.asked });
  $("run").disabled = true;
  $("stop").disabled = false;
  $("status").textContent = `Starting ${j.name}…`;
  tick = setInterval(watch, LOOK_EVERY * 1000);
}

/** A worker of the run: `index` −1 is the judge, 0, 1, … the counters. */
function hire(j, index) {
  const w = new Worker(workerScript());
  // A counter is working from the start (compiling the user's code, which
  // may loop too) until its last chunk is done.
  const state = {
    w, index, starting: index >= 0, outstanding: 0, chunks: 0, chunkSeconds: 0, calls: 0, heard: Date.now(), done: false,
  };
  w.onmessage = e => receive(e.data, state, j);
  w.onerror = e => { e.preventDefault(); end(); showError(`The audit failed: ${e.message}`); };
  if (index >= 0) run.counters.push(state);
  return w;
}

/**
 * Hands `state`'s counter leases of chunks until it holds two (or none are
 * left). A lease is one chunk until the counter has timed one, then about
 * LEASE_SECONDS of chunks, and never more than a quarter of each counter's
 * share of the chunks left, so that the counters finish together.
 */
function handOut(state) {
  while (state.outstanding < 2 && run.next < run.chunks) {
    const left = run.chunks - run.next;
    const byTime = state.chunkSeconds > 0 ? Math.floor(LEASE_SECONDS / state.chunkSeconds) : 1;
    const size = Math.max(1, Math.min(byTime, Math.ceil(left / (4 * run.counters.length))));
    state.outstanding++;
    state.heard = Date.now();
    state.w.postMessage({ type: "chunks", first: run.next, end: run.next + size });
    run.next += size;
  }
}

/**
 * Every LOOK_EVERY s: the watchdog, on real (wall-clock) time, ends a run
 * whose counter has been silent for HANG_SECONDS while working (its
 * heartbeats come from inside the user's calls); then a look, if there are
 * new counts and the judge is free.
 */
function watch() {
  if (!run || run.ended) return;
  const now = Date.now();
  const silent = run.counters.find(c => (c.starting || c.outstanding > 0) && now - c.heard > HANG_SECONDS * 1000);
  if (silent) {
    const what = run.j.mode === "sampler" ? "The sampler" : "The shuffle";
    stop(null);
    showError(`${what} has not returned for ${HANG_SECONDS} s (it may loop forever): the audit was stopped, ` +
      "with no verdict.");
    return;
  }
  if (run.fresh && !run.judging && run.finished < run.chunks && now >= run.nextLook) askJudge(false);
}

/** Asks the judge for a look (or, `last`, the verdict and files). */
function askJudge(last) {
  run.fresh = false;
  run.judging = true;
  run.judge.postMessage({ type: "look", seconds: seconds(), last });
}

/** Seconds the counting has taken so far (wall clock, from the first chunk). */
function seconds() {
  return run.started ? (Date.now() - run.started) / 1000 : 0;
}

/** Stops the run's workers; `message` (if any) says why. */
function stop(message) {
  end();
  if (message) {
    $("status").textContent = message;
    $("verdict").textContent = "";
    $("verdict").className = "verdict";
  }
}

/** Ends the run: every worker stops. */
function end() {
  clearInterval(tick);
  if (run) {
    run.ended = true;
    if (run.judge) run.judge.terminate();
    for (const c of run.counters) c.w.terminate();
  }
  run = null;
  $("run").disabled = false;
  $("stop").disabled = true;
}

/** Handles one message of a worker (`state`: which). */
function receive(m, state, j) {
  if (!run || run.ended || run.j !== j) return;
  state.heard = Date.now();
  if (m.type === "planned") {
    planned = m.trials;
    run.chunks = m.chunks;
    const n = counters(m.chunks);
    for (let i = 0; i < n; i++) hire(j, i).postMessage({ type: "count", job: j, module: m.module });
    $("status").textContent = `Running ${j.name}: 0 of ${planned.toLocaleString("en")} trials…`;
    $("status").dataset.workers = String(n);
  } else if (m.type === "ready") {
    state.starting = false;
    if (!run.started) run.started = Date.now();
    handOut(state);
  } else if (m.type === "alive") {
    state.calls = m.calls;
    progress();
  } else if (m.type === "chunks-done") {
    state.calls = m.calls;
    state.outstanding--;
    state.chunks += m.chunks;
    state.chunkSeconds = m.seconds / m.chunks;
    run.finished += m.chunks;
    handOut(state);
    progress();
    if (run.finished === run.chunks) {
      // The chunks each counter ran, for the page test (every core used).
      $("status").dataset.chunks = run.counters.map(c => c.chunks).join(",");
      run.last = seconds();
      for (const c of run.counters) c.w.postMessage({ type: "finish" });
    }
  } else if (m.type === "counts") {
    if (m.json !== null) {
      run.judge.postMessage({ type: "counts", json: m.json });
      run.fresh = true;
    }
    if (m.last) {
      state.done = true;
      if (run.counters.every(c => c.done)) {
        run.judging = true;
        run.fresh = false;
        run.judge.postMessage({ type: "look", seconds: run.last, last: true });
      }
    }
  } else if (m.type === "look" || m.type === "done") {
    run.judging = false;
    // A look that takes long (at n = 52 the deals' sample is sorted) waits
    // three times as long before the next, so that the judge keeps to a
    // quarter of a core or less; when the counters hold every core, twenty
    // times (a twentieth of a core, taken from them): at n = 10 a look
    // takes about 30 ms, so the page still shows the counts twice a second.
    const busy = run.counters.length >= (navigator.hardwareConcurrency || 1);
    run.nextLook = Date.now() + (busy ? 20000 : 3000) * m.took;
    show(m, j, m.type === "done");
    if (m.type === "done") {
      end();
      $("bar").style.width = "100%";
      const rate = m.done / Math.max(m.seconds, 1e-9);
      $("status").textContent = `${j.name}: ${m.done.toLocaleString("en")} trials in ${m.seconds.toFixed(2)} s ` +
        `(${rateWords(rate)} per second).`;
      $("status").dataset.rate = String(Math.round(rate));
      offer(m);
    }
  } else if (m.type === "error") {
    end();
    showError(m.message);
  }
}

/**
 * The bar and the trials so far (every counter's calls), with the rate:
 * at most four times a second, as often as the looks, so that drawing
 * the page (its own thread and the compositor's) takes little from the
 * workers' cores.
 */
function progress() {
  const now = Date.now();
  if (now - run.shown < LOOK_EVERY * 1000) return;
  run.shown = now;
  const done = Math.min(planned, run.counters.reduce((sum, c) => sum + c.calls, 0));
  const rate = done / Math.max(seconds(), 1e-9);
  $("bar").style.width = `${(100 * done / Math.max(planned, 1)).toFixed(1)}%`;
  $("status").textContent = `${run.j.name}: ${done.toLocaleString("en")} of ${planned.toLocaleString("en")} ` +
    `trials, ${rateWords(rate)} per second`;
  $("status").dataset.rate = String(Math.round(rate));
}

/** 2.4M, 310k, 950. */
function rateWords(r) {
  return r >= 1e6 ? `${(r / 1e6).toFixed(1)}M` : r >= 1e3 ? `${(r / 1e3).toFixed(0)}k` : r.toFixed(0);
}

/** Empties what the last run showed. */
function clearResult() {
  $("verdict").textContent = "";
  $("verdict").className = "verdict";
  $("figures").textContent = "";
  $("tests").tBodies[0].textContent = "";
  $("downloads").textContent = "";
  $("bar").style.width = "0";
  $("heat-title").textContent = "";
  $("scale").textContent = "";
  heat = null;
  pointed = null;
  readout();
  for (const c of [$("heatmap"), $("legend")]) c.getContext("2d").clearRect(0, 0, c.width, c.height);
}

/** Shows `message` as the run's end: an error, no verdict. */
function showError(message) {
  $("verdict").textContent = "error";
  $("verdict").className = "verdict error";
  $("status").textContent = message;
  $("status").classList.add("error-text");
}

/** Shows the verdict (so far, or final), its figures, heatmap and tests. */
function show(m, j, final) {
  const v = m.view;
  $("status").classList.remove("error-text");
  const verdict = $("verdict");
  verdict.textContent = `${v.symbol} ${v.verdict}${final ? "" : " so far"}`;
  verdict.className = `verdict ${v.verdict.replace(/ /g, "-")}${final ? " final" : ""}`;
  const figures = [
    ["trials", v.trials.toLocaleString("en") + (final ? "" : ` of ${planned.toLocaleString("en")}`)],
    ["p (adjusted)", v.p],
    ["seen by", v.seen_by.length ? v.seen_by.join(", ") : "–"],
    ["could detect", v.could_detect],
    ["largest deviation", v.deviation],
  ];
  if (v.inconclusive) figures.push(["inconclusive", v.inconclusive]);
  if (v.trials_for_verdict) figures.push(["trials a verdict needs", v.trials_for_verdict.toLocaleString("en")]);
  if (!final) figures.push(["note", "a verdict so far is a look, not a verdict: the verdict is the one at the planned trials"]);
  $("figures").textContent = "";
  for (const [term, text] of figures) {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = term;
    dd.textContent = text;
    $("figures").append(dt, dd);
  }
  heat = { v, rgba: m.rgba };
  drawHeatmap();
  draw($("legend"), m.legend, 1, m.legend.length / 4, true);
  $("scale").textContent = v.scale;
  $("heat-title").textContent = `${v.title.join(" · ")} — ${v.axes[0]} across, ${v.axes[1]} down; ` +
    `blue: fewer than expected, red: more`;
  readout();
  const body = $("tests").tBodies[0];
  body.textContent = "";
  for (const t of v.tests) {
    const tr = body.insertRow();
    for (const text of [t.name, t.statistic.toFixed(1), t.df ? String(+t.df.toFixed(1)) : "–", t.p, t.p_holm]) {
      tr.insertCell().textContent = text;
    }
    tr.title = t.method;
  }
}

/** Draws RGBA cells (`cols` × `rows`) over a canvas (or a part of it); a legend bottom-up. */
function draw(canvas, rgba, cols, rows, upward, at = [0, 0, canvas.width, canvas.height]) {
  const image = new ImageData(cols, rows);
  for (let r = 0; r < rows; r++) {
    const from = (upward ? rows - 1 - r : r) * cols * 4;
    image.data.set(rgba.subarray(from, from + cols * 4), r * cols * 4);
  }
  const off = new OffscreenCanvas(cols, rows);
  off.getContext("2d").putImageData(image, 0, 0);
  const ctx = canvas.getContext("2d");
  ctx.imageSmoothingEnabled = false;
  if (at[0] === 0 && at[1] === 0) ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(off, ...at);
}

/** The heatmap's side in CSS pixels (Bostock's shuffle pictures are about as big). */
const MAP = 640;
/** The latest look's view and colours, for the heatmap and its readout. */
let heat = null;
/** The cell pointed at (`[row, column]`), kept from look to look. */
let pointed = null;

/** The heatmap's layout: the map's place on the canvas and its ticks. */
function layout(ctx, v) {
  const names = (list, count) => list.length ? list : Array.from({ length: count }, (_, i) => String(i));
  const rows = names(v.row_names, v.rows), cols = names(v.column_names, v.cols);
  ctx.font = "12px system-ui, sans-serif";
  const widest = list => Math.max(...list.map(t => ctx.measureText(t).width));
  // Named columns (cards, bins) are labelled upright when they would not
  // fit across; index ticks are spaced out instead.
  const upright = v.column_names.length > 0 && widest(cols) + 6 > MAP / v.cols;
  const left = Math.ceil(22 + widest(rows) + 6);
  const top = Math.ceil(22 + (upright ? widest(cols) + 6 : 16));
  return { left, top, rows, cols, upright, width: left + MAP + 8, height: top + MAP + 8 };
}

/** Every how many cells a tick goes: 1, 2, 5, 10, 20, 50… so that labels `room` px wide fit. */
function tickEvery(cell, room) {
  for (let step = 1; ; step *= 10) {
    for (const k of [1, 2, 5]) if (cell * step * k >= room) return step * k;
  }
}

/** Draws the heatmap with its axes, ticks and the named deviation's cell outlined. */
function drawHeatmap() {
  const canvas = $("heatmap"), v = heat.v, ctx = canvas.getContext("2d");
  const g = layout(ctx, v), ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(g.width * ratio);
  canvas.height = Math.round(g.height * ratio);
  canvas.style.width = `${g.width}px`;
  heat.layout = g;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, g.width, g.height);
  draw(canvas, heat.rgba, v.cols, v.rows, false, [g.left, g.top, MAP, MAP]);
  ctx.strokeStyle = "#888";
  ctx.lineWidth = 1;
  ctx.strokeRect(g.left - 0.5, g.top - 0.5, MAP + 1, MAP + 1);
  ctx.fillStyle = "#333";
  ctx.font = "12px system-ui, sans-serif";
  const across = MAP / v.cols, down = MAP / v.rows;
  // Column ticks along the top, row ticks down the left.
  const colStep = tickEvery(across, g.upright ? 13 : Math.max(...g.cols.map(t => ctx.measureText(t).width)) + 6);
  for (let c = 0; c < v.cols; c += colStep) {
    const x = g.left + (c + 0.5) * across;
    ctx.fillRect(x - 0.5, g.top - 4, 1, 4);
    ctx.save();
    if (g.upright) {
      ctx.translate(x, g.top - 6);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = "left";
      ctx.textBaseline = "middle";
      ctx.fillText(g.cols[c], 0, 0);
    } else {
      ctx.textAlign = "center";
      ctx.textBaseline = "bottom";
      ctx.fillText(g.cols[c], x, g.top - 6);
    }
    ctx.restore();
  }
  const rowStep = tickEvery(down, 14);
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (let r = 0; r < v.rows; r += rowStep) {
    const y = g.top + (r + 0.5) * down;
    ctx.fillRect(g.left - 4, y - 0.5, 4, 1);
    ctx.fillText(g.rows[r], g.left - 6, y);
  }
  // The axes' titles: columns above, rows turned up on the left.
  ctx.font = "600 13px system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  ctx.fillText(`${v.axes[0]} →`, g.left + MAP / 2, 2);
  ctx.save();
  ctx.translate(2, g.top + MAP / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(`${v.axes[1]} →`, 0, 0);
  ctx.restore();
  // The named deviation's cell in black on white, the pointed one in
  // white on black: both show on any colour.
  for (const [cell, outer, inner] of [[v.deviation_cell, "#fff", "#000"], [pointed, "#000", "#fff"]]) {
    if (!cell) continue;
    for (const [colour, width] of [[outer, 3], [inner, 1.5]]) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.strokeRect(g.left + cell[1] * across, g.top + cell[0] * down, across, down);
    }
  }
}

/** The cell under a pointer event (`[row, column]`), or null outside the map. */
function cellAt(event) {
  const canvas = $("heatmap"), box = canvas.getBoundingClientRect(), g = heat.layout;
  const x = (event.clientX - box.left) * g.width / box.width - g.left;
  const y = (event.clientY - box.top) * g.height / box.height - g.top;
  if (x < 0 || y < 0 || x >= MAP || y >= MAP) return null;
  return [Math.floor(y * heat.v.rows / MAP), Math.floor(x * heat.v.cols / MAP)];
}

/** Points at the cell under the pointer (hover or tap) and shows its figures. */
function point(event) {
  if (!heat) return;
  const cell = cellAt(event);
  if (String(cell) === String(pointed)) return;
  pointed = cell;
  drawHeatmap();
  readout();
}

/** 1,234; 10,000.5; 0.52×; −3.1: the readout's numbers. */
function figure(x, kind) {
  if (x === null || x === undefined) return "–";
  if (kind === "count") return x.toLocaleString("en", { maximumFractionDigits: 1 });
  if (kind === "ratio") return `${x.toFixed(Math.abs(x - 1) < 0.01 ? 4 : 2)}×`;
  return x.toFixed(1).replace("-", "−");
}

/** The pointed cell's figures from the library's view (or how to get them). */
function readout() {
  const box = $("readout");
  if (!heat || !pointed) {
    box.textContent = heat ? "Point at a cell (or tap it) for its counts." : "";
    return;
  }
  const v = heat.v, g = heat.layout, [r, c] = pointed, i = r * v.cols + c, f = v.cells;
  if (f.ratio.length === 0) {
    box.textContent = `${v.axes[1]} ${g.rows[r]}, ${v.axes[0]} ${g.cols[c]}: the library sends cell figures ` +
      `for pictures of up to 128 × 128 cells (this one has ${v.rows.toLocaleString("en")} × ` +
      `${v.cols.toLocaleString("en")}); counts.csv has every count.`;
    box.dataset.cell = `${r},${c}`;
    return;
  }
  box.textContent = `${v.axes[1]} ${g.rows[r]}, ${v.axes[0]} ${g.cols[c]}: ` +
    `observed ${figure(f.observed[i], "count")} · expected ${figure(f.expected[i], "count")} · ` +
    `O/E ${figure(f.ratio[i], "ratio")} · z ${figure(f.z[i], "z")}`;
  box.dataset.cell = `${r},${c}`;
}

/** Links to every file the library wrote for the audit (summary.json first). */
function offer(m) {
  const box = $("downloads");
  box.textContent = "Download: ";
  const types = { json: "application/json", csv: "text/csv", png: "image/png" };
  for (const [name, bytes] of m.files) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([bytes], { type: types[name.split(".").pop()] || "text/plain" }));
    a.download = name;
    a.textContent = name;
    a.id = "download-" + name.replace(/[^a-z0-9]/gi, "-");
    box.append(a, " ");
  }
}

setUp();
