// The counting thread of counter.cjs: counts each FULL slot of the ring,
// in order, into its own wasm Session (as the Session of the thread that
// wrote it would have), marks it EMPTY, and at STOP answers once with its
// counts (countsJson), or with an error whatever happens, so that the
// writing thread never waits for ever.
"use strict";

const { workerData } = require("node:worker_threads");
const { EMPTY, FULL, STOP, DONE } = require("./counter.cjs");

const { asked, control, ring, slots, slotBytes, port } = workerData;
let answered = false;

/** Answers the writing thread once, and wakes it. */
function answer(message) {
  if (answered) return;
  answered = true;
  port.postMessage(message);
  Atomics.store(control, 3 * slots + DONE, 1);
  Atomics.notify(control, 3 * slots + DONE);
}

/** Answers with an error. */
function fail(e) {
  answer({ error: e && e.message ? e.message : String(e) });
}

process.on("uncaughtException", fail);
process.on("exit", () => fail(new Error("the counting thread exited before it finished")));

try {
  const wasm = require("../wasm/shuffle_audit_web.js");
  const session = new wasm.Session(asked);
  const memory = wasm.wasmMemory();
  const bytes = new Uint8Array(ring);
  try {
    for (let next = 0; ; next++) {
      const slot = next % slots;
      let state;
      while ((state = Atomics.load(control, slot)) === EMPTY) Atomics.wait(control, slot, EMPTY, 1000);
      if (state === STOP) break;
      if (state !== FULL) throw new Error(`slot ${slot} in state ${state}`);
      const decks = control[slots + slot], last = control[2 * slots + slot] === 1;
      const length = decks * session.n() * session.width();
      const at = session.batch(decks);
      new Uint8Array(memory.buffer, at, length).set(bytes.subarray(slot * slotBytes, slot * slotBytes + length));
      session.count(decks, last);
      Atomics.store(control, slot, EMPTY);
      Atomics.notify(control, slot);
    }
    answer({ counts: session.counted() > 0 ? session.countsJson() : null });
  } finally {
    session.free();
  }
} catch (e) {
  fail(e);
}
