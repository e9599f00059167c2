// The audit's worker: runs the user's shuffle or sampler a batch at a time,
// checks what it returns, writes permutations straight into the
// WebAssembly module's memory and lets the library count and judge them.
// Posts `planned` (the trials and n the library resolved the request to)
// first, `progress` after every batch, `look` (the verdict so far) about
// four times a second, `done` with the files at the end, or `error` (a
// request the library refuses, or a broken function).
// (Built into one script with the wasm-bindgen glue and the module's bytes,
// `wasm_bindgen` and `WASM_BASE64`, by web/build.)
"use strict";

/** Seconds between looks at the verdict so far. */
const LOOK_EVERY = 0.25;
/** Seconds a batch should take (then progress is smooth). */
const BATCH_SECONDS = 0.05;

let wasm = null;

/** The WebAssembly module, instantiated once from the embedded bytes. */
function module() {
  if (wasm === null) {
    const bytes = Uint8Array.from(atob(WASM_BASE64), ch => ch.charCodeAt(0));
    wasm = wasm_bindgen.initSync({ module: bytes });
  }
  return wasm;
}

/** A user error: a clear message for the page, not a verdict. */
class UserError extends Error {}

/** The function named `name` defined by the user's `code`. */
function compile(code, name, signature) {
  let found;
  try {
    found = new Function(`"use strict";\n${code}\n;return typeof ${name} === "function" ? ${name} : undefined;`)();
  } catch (e) {
    throw new UserError(`The code does not run: ${e.message}`);
  }
  if (typeof found !== "function") {
    throw new UserError(`Define a function ${signature}: the code has no function named ${name}.`);
  }
  return found;
}

/** Items in messages: at most 12 of them. */
function shown(items) {
  const list = Array.from(items).slice(0, 12).map(x => (typeof x === "string" ? JSON.stringify(x) : String(x)));
  return "[" + list.join(", ") + (items.length > 12 ? ", …" : "") + "]";
}

/** Why `deck` is not a permutation of 0..n-1 (null if it is). */
function notAPermutation(deck, n) {
  if (!deck || typeof deck.length !== "number") return `it returned ${String(deck)}, not an array`;
  if (deck.length !== n) {
    return `it returned ${deck.length} items instead of ${n} (${deck.length < n ? "it lost" : "it added"} ` +
      `${Math.abs(n - deck.length)}): ${shown(deck)}`;
  }
  const seen = new Array(n).fill(0);
  for (let i = 0; i < n; i++) {
    const v = deck[i];
    if (!Number.isInteger(v) || v < 0 || v >= n) {
      return `${typeof v === "string" ? JSON.stringify(v) : String(v)} at position ${i} is not one of the items ` +
        `0..${n - 1}: ${shown(deck)}`;
    }
    seen[v]++;
  }
  const twice = seen.findIndex(c => c > 1), lost = seen.findIndex(c => c === 0);
  return `it lost item ${lost} and has ${twice} twice: ${shown(deck)}`;
}

/** Tells the page how far the run is. */
function progress(done, start) {
  postMessage({ type: "progress", done, seconds: (performance.now() - start) / 1000 });
}

/** Judges what was counted and posts it: a look, or the end with files. */
function post(run, done, start, last) {
  postMessage({ type: "judging" });
  const seconds = (performance.now() - start) / 1000;
  const shown = run.judge(seconds, last);
  const files = shown.fileNames().map(name => [name, shown.file(name)]);
  const message = {
    type: last ? "done" : "look", done, seconds,
    view: JSON.parse(shown.view), rgba: shown.rgba, legend: shown.legend, files,
  };
  shown.free();
  postMessage(message, [message.rgba.buffer, message.legend.buffer, ...files.map(f => f[1].buffer)]);
}

/** The next batch's size: about BATCH_SECONDS of work at the rate so far. */
function nextBatch(size, took, most) {
  const ideal = took > 0 ? size * BATCH_SECONDS / took : size * 4;
  return Math.max(1, Math.min(most, Math.round(Math.min(ideal, size * 4))));
}

/**
 * Runs `trials` trials in batches, `batch(count, done)` making and counting
 * each: the batches grow towards a steady size (at most `most`), and after
 * each come the progress and, when due, a look at the verdict.
 */
function inBatches(run, trials, most, batch) {
  let done = 0, size = 1, lastLook = performance.now();
  const start = performance.now();
  while (done < trials) {
    const count = Math.min(size, trials - done);
    const t0 = performance.now();
    batch(count, done);
    done += count;
    const now = performance.now();
    size = nextBatch(count, (now - t0) / 1000, most);
    progress(done, start);
    if (done === trials || (now - lastLook) / 1000 >= LOOK_EVERY) {
      post(run, done, start, done === trials);
      lastLook = performance.now();
    }
  }
}

/** Audits `shuffle(array, random)` over the run's decks of n. */
function auditShuffle(job, run, random) {
  const n = run.n(), trials = run.trials();
  const shuffle = compile(job.code, "shuffle", "shuffle(array) or shuffle(array, random)");
  const wide = run.width() === 2, most = run.maxBatch(), deck = new Array(n);
  const seen = new Uint32Array(n), small = n <= 31, full = small ? (1 << n) - 1 : 0;
  let stamp = 0;
  inBatches(run, trials, most, (count, done) => {
    const at = run.batch(count);
    const buffer = module().memory.buffer;
    const out = wide ? new Uint16Array(buffer, at, count * n) : new Uint8Array(buffer, at, count * n);
    for (let t = 0, o = 0; t < count; t++, o += n) {
      if (deck.length !== n) deck.length = n;
      for (let i = 0; i < n; i++) deck[i] = i;
      let result;
      try {
        result = shuffle(deck, random);
      } catch (e) {
        throw new UserError(`shuffle threw an exception at trial ${done + t + 1}: ${e && e.message ? e.message : e}`);
      }
      const a = result === undefined ? deck : result;
      let ok = a !== null && typeof a === "object" && a.length === n;
      if (ok && small) {
        // Up to 31 items: one bit per item seen.
        let bits = 0;
        for (let i = 0; i < n; i++) {
          const v = a[i];
          out[o + i] = v;
          bits |= v === (v & 31) ? 1 << v : 0x80000000;
        }
        ok = bits === full;
      } else if (ok) {
        stamp++;
        for (let i = 0; ok && i < n; i++) {
          const v = a[i];
          if (v >= 0 && v < n && v === (v | 0) && seen[v] !== stamp) {
            seen[v] = stamp;
            out[o + i] = v;
          } else {
            ok = false;
          }
        }
      }
      if (!ok) {
        throw new UserError(`shuffle returned a deck that is not the items it was given, at trial ${done + t + 1}: ` +
          notAPermutation(a, n) + ".");
      }
    }
    run.count(count, done + count === trials);
  });
}

/** Audits a sampler: `sample(n, k, random)` or `pick(weights, random)`. */
function auditSampler(job, run, random) {
  const n = run.n(), trials = run.trials(), pick = job.asked.holds === "pick";
  // The library has read the weights and k: here they are handed to the
  // user's function as numbers.
  const weights = pick ? job.asked.weights.split(",").map(w => Number(w.trim())) : [];
  const k = pick ? 1 : Number(job.asked.k);
  const draw = pick
    ? compile(job.code, "pick", "pick(weights, random)")
    : compile(job.code, "sample", "sample(n, k, random)");
  const name = pick ? "pick" : "sample";
  inBatches(run, trials, 1 << 16, (count, done) => {
    const lines = new Array(count);
    for (let t = 0; t < count; t++) {
      let r;
      try {
        r = pick ? draw(weights, random) : draw(n, k, random);
      } catch (e) {
        throw new UserError(`${name} threw an exception at draw ${done + t + 1}: ${e && e.message ? e.message : e}`);
      }
      const items = pick ? [r] : r;
      if (!items || typeof items.length !== "number" || items.length !== (pick ? 1 : k) ||
          !Array.from(items).every(v => Number.isInteger(v) && v >= 0 && v < n) ||
          new Set(items).size !== items.length) {
        throw new UserError(`${name} returned ${pick ? String(r) : shown(items || [])} at draw ${done + t + 1}: ` +
          (pick ? `expected one index of 0..${n - 1}.` : `expected ${k} distinct items of 0..${n - 1}.`));
      }
      lines[t] = Array.prototype.join.call(items, " ");
    }
    run.countText(lines.join("\n") + "\n");
  });
}

onmessage = event => {
  const job = event.data;
  let run = null;
  try {
    module();
    // The request as the library resolves it (defaults, refusals).
    try {
      run = new wasm_bindgen.Session(JSON.stringify(job.asked));
    } catch (e) {
      throw new UserError(e && e.message ? e.message : String(e));
    }
    postMessage({ type: "planned", trials: run.trials(), n: run.n() });
    const random = job.random === "seeded" ? seededRandom(run.seed()) : Math.random.bind(Math);
    // A shuffle that calls Math.random itself is seeded too.
    Math.random = random;
    if (job.asked.holds === "deck") auditShuffle(job, run, random);
    else auditSampler(job, run, random);
  } catch (e) {
    const message = e instanceof UserError ? e.message : `${e && e.message ? e.message : e}`;
    postMessage({ type: "error", message, user: e instanceof UserError });
  } finally {
    if (run) run.free();
  }
};
