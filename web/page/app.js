// The page: the form, the link in the URL fragment, the worker that runs the
// audit (started from `shuffleAuditWorker`, the built worker script, through a
// Blob URL so that the page works from file:// too), and the drawing of what
// the library says. No statistics here: every verdict, word and colour comes
// from the WebAssembly module.
"use strict";

/** Seconds the user's code may run without finishing a batch. */
const HANG_SECONDS = 5;
const $ = id => document.getElementById(id);
const FIELDS = ["mode", "n", "k", "kind", "weights", "trials", "random", "seed"];

let worker = null, watchdog = null, started = 0, lastLook = null;
/** A preset the link names that the page does not have (refused by the library). */
let unknownPreset = null;
/** The trials the library planned for the run under way. */
let planned = 0;

const CONTRACT = {
  shuffle: "Define shuffle(array) or shuffle(array, random): shuffle the array [0, 1, …, n-1] in place, or return the shuffled array. random() is the page's generator (Math.random is it too).",
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
  unknownPreset = wanted && !PRESETS.some(p => p.name === wanted) ? wanted : null;
  applyPreset(unknownPreset ? "" : wanted || (hash.has("code") ? "" : "fisher-yates"));
  if (unknownPreset) $("preset").value = "";
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
  document.body.classList.toggle("sampling", sampler);
  document.body.classList.toggle("picking", pick);
  $("n-label").textContent = sampler ? "N" : "n";
  $("contract").textContent = CONTRACT[sampler ? $("kind").value : "shuffle"];
}

/** The form as a link: a preset's name, or the code itself. */
function saveLink() {
  const hash = new URLSearchParams();
  if ($("preset").value) hash.set("preset", $("preset").value);
  else hash.set("code", $("code").value);
  for (const f of FIELDS) {
    if (f === "n" && $("mode").value === "sampler" && $("kind").value === "pick") continue;
    hash.set(f, $(f).value);
  }
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
  const preset = PRESETS.find(p => p.name === $("preset").value && p.code === $("code").value);
  const source = random === "seeded"
    ? `the page's seeded generator (xoshiro128**, seed ${$("seed").value})` : "Math.random (not reproducible)";
  const asked = {
    holds,
    name: preset ? preset.name : holds === "deck" ? "your shuffle" : holds === "pick" ? "your pick" : "your sampler",
    from: `${holds === "deck" ? "shuffled" : "drawn"} in the browser by a JavaScript function on ${source}`,
    n: holds === "pick" ? "" : $("n").value,
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

/** Starts an audit in a fresh worker. */
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
  const source = `(${shuffleAuditWorker.toString()})();`;
  worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
  worker.onmessage = e => receive(e.data, j);
  worker.onerror = e => { e.preventDefault(); finish(); showError(`The audit failed: ${e.message}`); };
  started = performance.now();
  $("run").disabled = true;
  $("stop").disabled = false;
  $("status").textContent = `Starting ${j.name}…`;
  arm(j);
  worker.postMessage(j);
}

/** Ends a worker that has not finished a batch for HANG_SECONDS. */
function arm(j) {
  clearTimeout(watchdog);
  watchdog = setTimeout(() => {
    stop(null);
    showError(`${j.mode === "sampler" ? "The sampler" : "The shuffle"} has not returned for ${HANG_SECONDS} s ` +
      `(it may loop forever): the audit was stopped, with no verdict.`);
  }, HANG_SECONDS * 1000);
}

/** Stops the worker; `message` (if any) says why. */
function stop(message) {
  clearTimeout(watchdog);
  if (worker) worker.terminate();
  worker = null;
  $("run").disabled = false;
  $("stop").disabled = true;
  if (message) {
    $("status").textContent = message;
    $("verdict").textContent = "";
    $("verdict").className = "verdict";
  }
}

function finish() {
  clearTimeout(watchdog);
  if (worker) worker.terminate();
  worker = null;
  $("run").disabled = false;
  $("stop").disabled = true;
}

/** Handles one message of the worker. */
function receive(m, j) {
  if (m.type === "planned") {
    planned = m.trials;
    $("status").textContent = `Running ${j.name}: 0 of ${planned.toLocaleString("en")} trials…`;
  } else if (m.type === "progress") {
    arm(j);
    const rate = m.done / Math.max(m.seconds, 1e-9);
    $("bar").style.width = `${(100 * m.done / planned).toFixed(1)}%`;
    $("status").textContent = `${j.name}: ${m.done.toLocaleString("en")} of ${planned.toLocaleString("en")} ` +
      `trials, ${rateWords(rate)} per second`;
    $("status").dataset.rate = String(Math.round(rate));
  } else if (m.type === "judging") {
    clearTimeout(watchdog);
  } else if (m.type === "look" || m.type === "done") {
    arm(j);
    show(m, j, m.type === "done");
    if (m.type === "done") {
      finish();
      const rate = m.done / Math.max(m.seconds, 1e-9);
      $("status").textContent = `${j.name}: ${m.done.toLocaleString("en")} trials in ${m.seconds.toFixed(2)} s ` +
        `(${rateWords(rate)} per second).`;
      $("status").dataset.rate = String(Math.round(rate));
      offer(m);
    }
  } else if (m.type === "error") {
    finish();
    showError(m.message);
  }
}

/** 2.4M, 310k, 950. */
function rateWords(r) {
  return r >= 1e6 ? `${(r / 1e6).toFixed(1)}M` : r >= 1e3 ? `${(r / 1e3).toFixed(0)}k` : r.toFixed(0);
}

function clearResult() {
  $("verdict").textContent = "";
  $("verdict").className = "verdict";
  $("figures").textContent = "";
  $("tests").tBodies[0].textContent = "";
  $("downloads").textContent = "";
  $("bar").style.width = "0";
  $("heat-title").textContent = "";
  $("scale").textContent = "";
  for (const c of [$("heatmap"), $("legend")]) c.getContext("2d").clearRect(0, 0, c.width, c.height);
}

function showError(message) {
  $("verdict").textContent = "error";
  $("verdict").className = "verdict error";
  $("status").textContent = message;
  $("status").classList.add("error-text");
}

/** Shows the verdict (so far, or final), its figures, heatmap and tests. */
function show(m, j, final) {
  const v = m.view;
  lastLook = m;
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
  draw($("heatmap"), m.rgba, v.cols, v.rows);
  draw($("legend"), m.legend, 1, m.legend.length / 4, true);
  $("scale").textContent = v.scale;
  $("heat-title").textContent = `${v.title.join(" · ")} — ${v.axes[0]} across, ${v.axes[1]} down; ` +
    `blue: fewer than expected, red: more`;
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

/** Draws RGBA cells (`cols` × `rows`) scaled up to the canvas; a legend bottom-up. */
function draw(canvas, rgba, cols, rows, upward) {
  const image = new ImageData(cols, rows);
  for (let r = 0; r < rows; r++) {
    const from = (upward ? rows - 1 - r : r) * cols * 4;
    image.data.set(rgba.subarray(from, from + cols * 4), r * cols * 4);
  }
  const off = new OffscreenCanvas(cols, rows);
  off.getContext("2d").putImageData(image, 0, 0);
  const ctx = canvas.getContext("2d");
  ctx.imageSmoothingEnabled = false;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(off, 0, 0, canvas.width, canvas.height);
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
