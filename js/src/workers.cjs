// Runs an audit's chunks on worker threads, synchronously: each worker
// loads the user's module and its own wasm Session, takes chunks from a
// shared counter until none is left, and hands back its counts
// (countsJson) on a message port. The calling thread sleeps in
// Atomics.wait until every worker is done and reads the ports with
// receiveMessageOnPort, so that audit() of a module path returns its
// result as audit() of a function does. Counts add, and each chunk draws
// from its own generator, so any number of workers gives the same counts.
"use strict";

const path = require("node:path");
const { fileURLToPath } = require("node:url");
const { Worker, MessageChannel, receiveMessageOnPort } = require("node:worker_threads");
const { UserError } = require("./runner.cjs");

/** Slots of the shared control array: workers done, next chunk to take. */
const DONE = 0, NEXT = 1;

/** The absolute path of a module given as a path (from the working folder) or a file: URL. */
function modulePath(subject) {
  if (subject instanceof URL || subject.startsWith("file:")) return fileURLToPath(subject);
  return path.resolve(subject);
}

/**
 * Runs chunks 0..chunks-1 of the request `asked` on `workers` threads
 * (at most one per chunk), each calling the function `exportName` of the
 * module `file`; returns each worker's counts (JSON). Throws the error of
 * the earliest chunk that failed (a UserError for a broken function or a
 * module that cannot be loaded).
 */
function runOnWorkers({ file, exportName, asked, seeded, chunks, workers }) {
  const count = Math.max(1, Math.min(workers, chunks));
  const control = new Int32Array(new SharedArrayBuffer(8));
  const started = [];
  try {
    for (let i = 0; i < count; i++) {
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(path.join(__dirname, "worker.cjs"), {
        workerData: { control, port: port2, file, exportName, asked, seeded, chunks },
        transferList: [port2],
      });
      started.push({ worker, port: port1 });
    }
    // Sleep until every worker has said it is done.
    for (let done; (done = Atomics.load(control, DONE)) < count;) Atomics.wait(control, DONE, done);
    const answers = started.map(({ port }) => {
      const got = receiveMessageOnPort(port);
      return got ? got.message : { error: "a worker thread ended without an answer", chunk: -1 };
    });
    const failed = answers.filter(a => a.error !== undefined).sort((a, b) => a.chunk - b.chunk);
    if (failed.length > 0) {
      throw failed[0].user ? new UserError(failed[0].error) : new Error(failed[0].error);
    }
    return answers.map(a => a.counts).filter(c => c !== null);
  } finally {
    for (const { worker, port } of started) {
      port.close();
      worker.terminate();
    }
  }
}

module.exports = { DONE, NEXT, modulePath, runOnWorkers };
