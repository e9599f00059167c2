// auditOrders: permutations already made, handed over from JavaScript and
// counted by the library's own readers through a wasm Session. An array of
// decks is read as the command line reads a text file of decks (one deck
// per line: integers 0..n-1 or 1..n, or distinct labels such as "AS"); a
// typed array of trials × n items as binary records (u8 for n <= 256,
// else u16), each deck checked first so that an error names it.
"use strict";

const { UserError, notAPermutation } = require("./runner.cjs");

/** Decks per text batch: a multiple of 3, so serial-test triples fall as in one file. */
const TEXT_BATCH = 3 << 14;

/** A label the text format cannot carry (separators, quotes, brackets, comments). */
const AWKWARD = /[\s,"#[\]]/;

/** Deck `t` (0-based) of `orders` as a line of the text format. */
function line(deck, t) {
  if (!deck || typeof deck !== "object" || typeof deck.length !== "number") {
    throw new UserError(`orders[${t}]: ${String(deck)} is not a deck (an array of items)`);
  }
  const items = new Array(deck.length);
  for (let i = 0; i < deck.length; i++) {
    const v = deck[i];
    if (typeof v === "number" || typeof v === "bigint") {
      items[i] = String(v);
    } else if (typeof v === "string" && v !== "" && !AWKWARD.test(v)) {
      items[i] = v;
    } else {
      throw new UserError(`orders[${t}][${i}]: ${JSON.stringify(v)}: an item is a number or a label without ` +
        "spaces, commas, quotes, brackets or #");
    }
  }
  return items.join(" ");
}

/** Whether `deck`'s items repeat (a shoe: several decks shuffled together). */
function repeats(deck) {
  const seen = new Set();
  for (const v of deck) {
    const key = typeof v === "string" ? v : String(v);
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** The trials to read: `trials` if given (at most what there is), else every deck. */
function trialsOf(opts, available) {
  if (opts.trials === undefined) return available;
  const trials = opts.trials;
  if (!Number.isInteger(trials) || trials < 1) throw new UserError(`trials: ${String(trials)}: a whole number, at least 1`);
  if (trials > available) throw new UserError(`trials: ${trials}: only ${available} decks were given`);
  return trials;
}

/** Counts the first `trials` decks of a typed array of items into `run` as binary records. */
function countTyped(run, orders, n, trials, memory) {
  const wide = run.width() === 2, most = run.maxBatch();
  for (let done = 0; done < trials;) {
    const count = Math.min(most, trials - done);
    const at = run.batch(count);
    const out = wide ? new Uint16Array(memory.buffer, at, count * n) : new Uint8Array(memory.buffer, at, count * n);
    for (let t = 0; t < count; t++) {
      const first = (done + t) * n, deck = orders.subarray(first, first + n);
      const why = notAPermutation(deck, n);
      if (why !== null) {
        throw new UserError(`orders: deck ${done + t + 1} (items ${first}..${first + n - 1}) is not a permutation ` +
          `of 0..${n - 1}: ${why}`);
      }
      out.set(deck, t * n);
    }
    done += count;
    run.count(count, done === trials);
  }
}

/** Counts the first `trials` decks of an array into `run` as lines of the text format. */
function countText(run, orders, trials, name) {
  for (let first = 0; first < trials; first += TEXT_BATCH) {
    const end = Math.min(trials, first + TEXT_BATCH), lines = new Array(end - first);
    for (let t = first; t < end; t++) lines[t - first] = line(orders[t], t);
    try {
      run.countText(lines.join("\n") + "\n");
    } catch (e) {
      // The library names the line of the batch (NAME:LINE: ...): here, the deck.
      const message = e && e.message ? e.message : String(e), prefix = `${name}:`;
      const at = message.startsWith(prefix) ? /^(\d+): /.exec(message.slice(prefix.length)) : null;
      if (!at) throw new UserError(`orders: ${message}`);
      const deck = first + Number(at[1]);
      throw new UserError(`orders[${deck - 1}] (deck ${deck}): ${message.slice(prefix.length + at[0].length)}`);
    }
  }
}

/**
 * Judges the first `trials` decks of a shoe (items that repeat) read whole
 * as lines of the text format, as `shuffle-audit audit --input FILE` reads
 * a file: the kinds and the order tests come from the whole input.
 */
function judgeShoe(run, orders, trials) {
  const lines = new Array(trials);
  for (let t = 0; t < trials; t++) lines[t] = line(orders[t], t);
  return run.judgeText(lines.join("\n") + "\n");
}

/**
 * Audits `orders` (see index.cjs's auditOrders), with index.cjs's request
 * helpers `form`, `session`, `judged`, `result` (an AuditResult of a
 * judged Shown) and the wasm `memory`.
 */
function auditOrders(orders, opts, { form, session, judged, result, memory }) {
  opts = opts === undefined || opts === null ? {} : opts;
  const typed = orders instanceof Uint8Array || orders instanceof Uint16Array || orders instanceof Uint32Array;
  let n = opts.n, available;
  if (typed) {
    if (!Number.isInteger(n) || n < 2) {
      throw new UserError(`n: ${String(n)}: a ${orders.constructor.name} of decks needs n, the items per deck ` +
        "(at least 2)");
    }
    if (orders.length % n !== 0) throw new UserError(`orders: ${orders.length} items are not whole decks of n = ${n}`);
    available = orders.length / n;
  } else if (Array.isArray(orders)) {
    available = orders.length;
    if (available > 0) {
      line(orders[0], 0);
      // Items per deck: the first deck's unless given (the library checks every deck against it).
      if (n === undefined) n = orders[0].length;
    }
  } else {
    throw new UserError("orders: expected an array of decks or a Uint8Array, Uint16Array or Uint32Array of " +
      `trials × n items, got ${orders === null ? "null" : typeof orders}`);
  }
  if (available === 0) throw new UserError("orders: no decks were given");
  const trials = trialsOf(opts, available);
  // Decks handed over are read as a file is (given: the library's rule for
  // decks read, as the command line's --input and Python's audit_orders),
  // not as a function's decks of 0..n-1.
  const asked = Object.assign(
    form("deck", "orders", Object.assign({}, opts, { n, trials }), "orders", "handed over from JavaScript"),
    { given: true });
  const run = session(asked);
  try {
    const start = Date.now();
    if (!typed && repeats(orders[0])) return result(judgeShoe(run, orders, trials));
    if (typed) countTyped(run, orders, run.n(), trials, memory);
    else countText(run, orders, trials, asked.name);
    return judged(run, (Date.now() - start) / 1000);
  } catch (e) {
    throw e instanceof UserError ? e : new UserError(`orders: ${e && e.message ? e.message : e}`);
  } finally {
    run.free();
  }
}

module.exports = { auditOrders };
