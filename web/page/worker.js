// The page's workers, on runner.js (the chunk contract shared with the npm
// package): one script, two roles, chosen by the first message.
//
// - A counter compiles the user's function, makes its own Session and runs
//   the chunks the page hands it (`chunks`: a lease of consecutive chunks,
//   one message for many, so that the page's thread wakes a few dozen
//   times a second rather than at every chunk), each from its own
//   generator, so that the counts are the same whichever worker runs which
//   chunk. It posts `ready`, `alive` (a heartbeat from inside the user's
//   calls, at most ten a second, with the calls made so far),
//   `chunks-done` (a lease done), and
//   `counts`: what it counted since its last `counts` (whole chunks, as
//   JSON), after a chunk when a quarter of a second has passed since the
//   last, and when told to `finish`; then it counts into a fresh Session.
//   (Sending only what is new keeps the exports small: at n = 52 a
//   Session's counts hold a sample of the deals, which grows with the
//   trials, to megabytes.)
// - The judge resolves the request (`planned`: trials, n, chunks, and the
//   compiled WebAssembly module for the counters), merges
//   every `counts` it is sent into its own Session (counts add, so any
//   split into chunks and workers gives the same counts) and, on `look`,
//   judges them: `look` (the verdict so far) or `done` with the files.
// Either posts `error` for a request the library refuses or a broken
// function. (Built into one script with the wasm-bindgen glue, the module's
// bytes, random.js and runner.js by web/build.)
"use strict";

/** Seconds between a counter's exports of its counts (the page's looks). */
const EXPORT_EVERY = 0.25;
/** Milliseconds between heartbeats from inside the user's calls. */
const BEAT_EVERY = 100;
/** Milliseconds between looks at the clock inside the user's calls. */
const CLOCK_EVERY = 10;

let wasm = null;
/** The compiled WebAssembly module (the judge hands it to the counters). */
let wasmModule = null;

/**
 * The WebAssembly module, instantiated once: from `given` (the judge's
 * compiled module, which saves each counter decoding and compiling
 * megabytes), else from the embedded bytes.
 */
function module(given) {
  if (wasm === null) {
    if (given) {
      wasmModule = given;
    } else {
      const text = atob(WASM_BASE64), bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      wasmModule = new WebAssembly.Module(bytes);
    }
    wasm = wasm_bindgen.initSync({ module: wasmModule });
  }
  return wasm;
}

/** The request as the library resolves it (defaults, refusals). */
function session(asked) {
  try {
    return new wasm_bindgen.Session(JSON.stringify(asked));
  } catch (e) {
    throw new UserError(e && e.message ? e.message : String(e));
  }
}

/**
 * The user's function, compiled by runner.js; code written as a module
 * (`export function shuffle…`) is told what to change.
 */
function compiled(code, name, signature) {
  try {
    return compile(code, name, signature);
  } catch (e) {
    if (e instanceof UserError && /(^|[\s;])export\s/.test(code)) {
      throw new UserError(`${e.message.replace(/\.$/, "")}: remove \`export\`: the page defines the function itself.`);
    }
    throw e;
  }
}

/** The line in a stack of code compiled by `compile` (null if none). */
function compiledLine(stack) {
  const m = /<anonymous>:(\d+):\d+/.exec(String(stack || ""));
  return m ? Number(m[1]) : null;
}

/**
 * The line of the user's code behind a stack line of `compile`'s function:
 * found by throwing from the first line of a compiled probe, so that
 * whatever lines compile() (and the engine) put before the code count.
 */
let linesBefore = null;
function userLine(stack) {
  const line = compiledLine(stack);
  if (line === null) return null;
  if (linesBefore === null) {
    const probe = compile('function probe() { throw new Error("probe"); }', "probe", "probe()");
    try {
      probe();
    } catch (e) {
      linesBefore = (compiledLine(e.stack) || 1) - 1;
    }
  }
  return line - linesBefore;
}

// --- The counter ---------------------------------------------------------

let counter = null;

/**
 * Wraps the user's function: remembers what it throws (for the line in the
 * message) and, every CLOCK_EVERY ms of its calls, posts a heartbeat at
 * most every BEAT_EVERY ms, so that the page's watchdog tells a slow
 * function from one that never returns. The clock is read every `stride`
 * calls, the stride adapting to the calls' speed.
 */
function watched(f, arity) {
  let stride = 1, countdown = 1, lastClock = performance.now(), lastBeat = lastClock;
  const beat = () => {
    const now = performance.now();
    stride = now - lastClock < CLOCK_EVERY ? Math.min(stride * 2, 1024) : Math.max(1, stride >> 1);
    countdown = stride;
    lastClock = now;
    if (now - lastBeat >= BEAT_EVERY) {
      lastBeat = now;
      postMessage({ type: "alive", calls: counter.calls });
    }
  };
  const call = arity === 3
    ? (x, y, z) => { try { return f(x, y, z); } catch (e) { counter.thrown = e; throw e; } }
    : (x, y) => { try { return f(x, y); } catch (e) { counter.thrown = e; throw e; } };
  return arity === 3
    ? (x, y, z) => { counter.calls++; if (--countdown === 0) beat(); return call(x, y, z); }
    : (x, y) => { counter.calls++; if (--countdown === 0) beat(); return call(x, y); };
}

/** Starts a counter: the request, the user's function, its own Session. */
function startCounter(job, given) {
  module(given);
  const run = session(job.asked);
  const holds = job.asked.holds;
  const name = holds === "deck" ? "shuffle" : holds === "pick" ? "pick" : "sample";
  const signature = holds === "deck" ? "shuffle(array) or shuffle(array, random)"
    : holds === "pick" ? "pick(weights, random)" : "sample(n, k, random)";
  counter = {
    job, run, calls: 0, thrown: null, lastExport: performance.now(),
    trials: run.trials(), holds,
    streams: job.random === "seeded" ? chunkStreams(run.seed()) : null,
  };
  counter.f = watched(compiled(job.code, name, signature), holds === "deck" || holds === "pick" ? 2 : 3);
  postMessage({ type: "ready" });
}

/**
 * Runs chunks `first` to `end` (excluded) of the run into the counter's
 * Session, exporting its counts between chunks every EXPORT_EVERY s.
 */
function runChunks(first, end) {
  const { job, trials } = counter, start = performance.now();
  for (let c = first; c < end; c++) {
    // (runner.js makes Math.random the chunk's generator meanwhile.)
    const random = counter.streams ? counter.streams(c) : MATH_RANDOM;
    if (counter.holds === "deck") runShuffleChunk(counter.run, counter.f, c, trials, random, module().memory);
    else runSamplerChunk(counter.run, counter.f, job.asked, c, trials, random);
    if ((performance.now() - counter.lastExport) / 1000 >= EXPORT_EVERY) exportCounts(false);
  }
  const seconds = (performance.now() - start) / 1000;
  postMessage({ type: "chunks-done", chunks: end - first, seconds, calls: counter.calls });
}

/**
 * Posts what the counter counted since its last export (`last`: the end)
 * and starts a fresh Session for what comes next.
 */
function exportCounts(last) {
  counter.lastExport = performance.now();
  let json = null;
  if (counter.run.counted() > 0) {
    json = counter.run.countsJson();
    counter.run.free();
    counter.run = session(counter.job.asked);
  }
  postMessage({ type: "counts", json, last });
}

// --- The judge -----------------------------------------------------------

let judge = null;

/** Starts the judge: the request as the library resolves it. */
function startJudge(asked) {
  module();
  const run = session(asked);
  const trials = run.trials();
  judge = { run };
  postMessage({ type: "planned", trials, n: run.n(), chunks: chunkCount(trials), module: wasmModule });
}

/** Judges every count merged so far: a look, or the end with files. */
function look(seconds, last) {
  const start = performance.now();
  const shown = judge.run.judge(seconds, last);
  const files = shown.fileNames().map(name => [name, shown.file(name)]);
  const message = {
    type: last ? "done" : "look", done: judge.run.counted(), seconds,
    view: JSON.parse(shown.view), rgba: shown.rgba, legend: shown.legend, files,
    took: (performance.now() - start) / 1000,
  };
  shown.free();
  postMessage(message, [message.rgba.buffer, message.legend.buffer, ...files.map(f => f[1].buffer)]);
}

/** Math.random itself, for runs on it (runner.js replaces it during a chunk). */
const MATH_RANDOM = Math.random.bind(Math);

onmessage = event => {
  const m = event.data;
  try {
    if (m.type === "count") startCounter(m.job, m.module);
    else if (m.type === "chunks") runChunks(m.first, m.end);
    else if (m.type === "finish") exportCounts(true);
    else if (m.type === "judge") startJudge(m.asked);
    else if (m.type === "counts") judge.run.mergeCounts(m.json);
    else if (m.type === "look") look(m.seconds, m.last);
  } catch (e) {
    let message = e instanceof UserError ? e.message : `${e && e.message ? e.message : e}`;
    const thrown = counter && counter.thrown;
    const line = e instanceof UserError && thrown ? userLine(thrown.stack) : null;
    if (line !== null && line > 0) message = `${message.replace(/\.$/, "")} (line ${line} of your code).`;
    postMessage({ type: "error", message, user: e instanceof UserError });
  }
};
