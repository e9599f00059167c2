// Counting on a second thread while this one runs the user's function: a
// long audit of a function in this thread (which cannot move to a worker:
// closures do not cross threads) hands its batches of decks to a
// `CountingThread`, which counts them in its own wasm Session, in the
// order they were written, and hands the counts back at the end. The
// calls, the batches and their order are those of counting here, so the
// counts are identical; the shuffles and the counting overlap, so the run
// takes about the longer of the two rather than their sum (on a machine
// with a second core to spare).
//
// The batches pass through a ring of slots in a SharedArrayBuffer. Each
// slot's state says who holds it: this thread fills an EMPTY slot and
// marks it FULL; the counting thread counts a FULL slot and marks it
// EMPTY. Either side sleeps in Atomics.wait when the other is behind.
"use strict";

const os = require("node:os");
const path = require("node:path");
const { Worker, MessageChannel, receiveMessageOnPort } = require("node:worker_threads");

/** A slot's states (and STOP: no more batches, hand the counts back). */
const EMPTY = 0, FULL = 1, STOP = 2;

/** The control array's fields after the slots' states: set once when the counting thread is done. */
const DONE = 0;

/**
 * Bytes of decks the ring holds at most: room for the batches written
 * while the counting thread starts (about 0.1 s, loading its own wasm).
 */
const RING_BYTES = 16 << 20;

/**
 * The least work (trials × n) worth a counting thread: below it, the
 * thread's start (about 0.1 s) costs more than the overlap saves.
 */
const MIN_WORK = 10_000_000;

/** Whether a run of `trials` decks of `n` items is counted on a second thread. */
function worthCounting(trials, n) {
  const cores = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
  return cores > 1 && trials * n >= MIN_WORK;
}

/**
 * A counting thread for the request `asked` (the JSON text of its Form):
 * stands in for a wasm Session in runner.js's runShuffleChunk (n, width,
 * maxBatch, items, batch, count) with `memory` (its ring) for the wasm
 * memory; `finish()` returns the counts (countsJson) to merge into the
 * Session that judges.
 */
class CountingThread {
  /** Starts the thread; `session` is this thread's Session of the same request (for the run's shape). */
  constructor(asked, session) {
    this.shape = { n: session.n(), width: session.width(), items: session.items() };
    this.most = Math.max(1, Math.min(session.maxBatch(), 1 << 13));
    const slotBytes = this.most * this.shape.n * this.shape.width;
    const slots = Math.max(2, Math.floor(RING_BYTES / slotBytes));
    this.slotBytes = slotBytes;
    /** Per slot: its state, then the decks it holds and whether it ends a chunk; then DONE. */
    this.control = new Int32Array(new SharedArrayBuffer(4 * (3 * slots + 1)));
    this.slots = slots;
    this.memory = { buffer: new SharedArrayBuffer(slots * slotBytes) };
    this.next = 0;
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(path.join(__dirname, "counter-thread.cjs"), {
      workerData: { asked, control: this.control, ring: this.memory.buffer, slots, slotBytes, port: port2 },
      transferList: [port2],
    });
    // A run never waits on the thread's events; it must not keep Node alive either.
    this.worker.unref();
  }

  n() { return this.shape.n; }
  width() { return this.shape.width; }
  maxBatch() { return this.most; }
  items() { return this.shape.items; }

  /** The offset in the ring of room for the next `decks` decks, once the counting thread has freed it. */
  batch(decks) {
    if (decks > this.most) throw new Error(`a batch of ${decks} decks is larger than ${this.most}`);
    return this.emptySlot() * this.slotBytes;
  }

  /** The next slot, once the counting thread has counted what it held (throwing the thread's error). */
  emptySlot() {
    const slot = this.next % this.slots;
    while (Atomics.load(this.control, slot) !== EMPTY) {
      this.failed();
      Atomics.wait(this.control, slot, FULL, 1000);
    }
    return slot;
  }

  /** Hands the slot just filled, `decks` decks (the chunk's last batch with `last`), to the counting thread. */
  count(decks, last) {
    const slot = this.next % this.slots;
    this.control[this.slots + slot] = decks;
    this.control[2 * this.slots + slot] = last ? 1 : 0;
    Atomics.store(this.control, slot, FULL);
    Atomics.notify(this.control, slot);
    this.next++;
  }

  /** Throws the counting thread's error, if it has stopped with one. */
  failed() {
    if (Atomics.load(this.control, 3 * this.slots + DONE) === 0) return;
    const got = receiveMessageOnPort(this.port);
    const message = got ? got.message : { error: "the counting thread ended without an answer" };
    if (message.error !== undefined) throw new Error(`counting thread: ${message.error}`);
    this.answer = message;
  }

  /** Waits for every batch to be counted; returns the counts (countsJson), or null if none. */
  finish() {
    const slot = this.emptySlot();
    Atomics.store(this.control, slot, STOP);
    Atomics.notify(this.control, slot);
    const done = 3 * this.slots + DONE;
    while (Atomics.load(this.control, done) === 0) Atomics.wait(this.control, done, 0, 1000);
    this.failed();
    return this.answer.counts;
  }

  /** Stops the thread (after finish, or when the run failed). */
  close() {
    this.port.close();
    this.worker.terminate();
  }
}

module.exports = { EMPTY, FULL, STOP, DONE, CountingThread, worthCounting };
