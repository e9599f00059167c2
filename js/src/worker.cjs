// One worker thread of an audit (see workers.cjs): loads the user's
// module, takes chunks from the shared counter, counts them into its own
// wasm Session and answers once with its counts or an error, whatever
// happens (an exception, even one thrown later by the user's code, still
// answers, so the waiting thread never hangs).
"use strict";

const { workerData } = require("node:worker_threads");
const { pathToFileURL } = require("node:url");
const runner = require("./runner.cjs");
const wasm = require("../wasm/shuffle_audit_web.js");
const { DONE, NEXT } = require("./workers.cjs");

const { control, port, file, exportName, asked, seeded, chunks } = workerData;
const mathRandom = Math.random;
let answered = false;
/** The chunk being run (to order errors by where they happened). */
let current = -1;

/** Answers the waiting thread once, and wakes it. */
function answer(message) {
  if (answered) return;
  answered = true;
  port.postMessage(message);
  Atomics.add(control, DONE, 1);
  Atomics.notify(control, DONE);
}

/** Answers with an error, and stops the other workers taking chunks. */
function fail(e) {
  if (answered) return;
  Atomics.store(control, NEXT, chunks);
  answer({
    error: e && e.message ? e.message : String(e),
    user: e instanceof runner.UserError || !(e instanceof Error),
    chunk: current,
  });
}

process.on("uncaughtException", fail);
process.on("unhandledRejection", fail);
process.on("exit", () => fail(new Error("the worker thread exited before it finished")));

/** The user's function: the module's export `exportName` (or its default export's). */
async function load() {
  let mod;
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (e) {
    throw new runner.UserError(`${file}: the module does not load: ${e && e.message ? e.message : e}`);
  }
  const found = typeof mod[exportName] === "function" ? mod[exportName]
    : mod.default && typeof mod.default[exportName] === "function" ? mod.default[exportName] : undefined;
  if (!found) throw new runner.UserError(`${file}: the module exports no function named ${exportName}`);
  return found;
}

(async () => {
  const fn = await load();
  const session = new wasm.Session(JSON.stringify(asked));
  try {
    const trials = session.trials(), memory = wasm.wasmMemory();
    const streams = seeded ? runner.chunkStreams(session.seed()) : null;
    for (let c; (c = Atomics.add(control, NEXT, 1)) < chunks;) {
      current = c;
      const random = streams ? streams(c) : mathRandom;
      if (asked.holds === "deck") runner.runShuffleChunk(session, fn, c, trials, random, memory);
      else runner.runSamplerChunk(session, fn, asked, c, trials, random);
    }
    answer({ counts: session.counted() > 0 ? session.countsJson() : null });
  } finally {
    session.free();
  }
})().catch(fail);
