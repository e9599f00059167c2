// The one JavaScript core that runs a user's shuffle or sampler for the
// library: the page's workers and the npm package (Node) both use it. It
// calls the user's function, checks what it returns, writes decks straight
// into the WebAssembly module's memory (or sampler draws as text lines)
// and lets the wasm `Session` count them; verdicts, defaults and words are
// the library's.
//
// The chunk contract: a run of T trials is cut into chunks of
// CHUNK_TRIALS; chunk c holds trials [c*CHUNK_TRIALS, min(T, (c+1)*CHUNK_TRIALS))
// and draws from its own generator, stream c of the run's seed
// (chunkStreams). A worker counts
// each chunk it takes into its own Session as one stream, in batches of a
// fixed size, the last counted with `last`; so the counts are the same for
// any number of workers taking the chunks in any order, and add up with
// countsJson()/mergeCounts().
//
// A plain script (no import or export; needs random.js's seededRandom):
// web/build puts it into the page's worker, js/build wraps it as a
// CommonJS module.
"use strict";

/**
 * Trials per chunk: a multiple of 3, so that every chunk but the last
 * holds whole serial-test triples (the Session counts decks three by
 * three within a stream).
 */
const CHUNK_TRIALS = 3 << 13;

/**
 * Decks or draws per batch handed to the Session (fewer when the
 * Session's maxBatch() is smaller): fixed, so that a chunk is cut the same
 * way on every machine.
 */
const BATCH_TRIALS = 1 << 13;

/** A user error: a clear message about the request or the user's function, not a verdict. */
class UserError extends Error {}
UserError.prototype.name = "UserError";

/** The number of chunks a run of `trials` trials is cut into. */
function chunkCount(trials) {
  return Math.ceil(trials / CHUNK_TRIALS);
}

/** The trials of chunk `chunk` of a run of `trials`: [first, end). */
function chunkTrials(chunk, trials) {
  return [chunk * CHUNK_TRIALS, Math.min(trials, (chunk + 1) * CHUNK_TRIALS)];
}

/**
 * The run's chunk generators: `streams(c)` is chunk `c`'s own seeded
 * generator, stream `c` of the run's seed (random.js), given as one
 * function restarted at each chunk. (One function for the whole run: V8
 * inlines the user's call to `random()` for the function it has seen, and
 * a new function at every chunk threw the optimised code away each time,
 * a tenth of a second of compiling per worker at the start of every run.)
 */
function chunkStreams(seed) {
  const random = seededRandom(seed, 0);
  return chunk => random.restart(chunk);
}

/**
 * The function named `name` defined by the user's `code` (the page's text
 * box); a UserError naming `signature` when the code does not run or
 * defines no such function.
 */
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

/**
 * A value the user's function returned, for a message: strings quoted,
 * BigInts with their `n`, arrays as arrays (`[0]`, not `0`; `[…]` three
 * arrays deep, `depth` the arrays around it).
 */
function valueWords(x, depth = 0) {
  if (typeof x === "string") return JSON.stringify(x);
  if (typeof x === "bigint") return `${x}n`;
  if (Array.isArray(x) || ArrayBuffer.isView(x)) return depth < 3 ? shown(x, depth) : "[…]";
  return String(x);
}

/** Items for a message: at most 12 of them, each as valueWords writes it. */
function shown(items, depth = 0) {
  const list = Array.from(items).slice(0, 12).map(x => valueWords(x, depth + 1));
  return "[" + list.join(", ") + (items.length > 12 ? ", …" : "") + "]";
}

/** Why `deck` is not a permutation of 0..n-1, in words (null if it is one). */
function notAPermutation(deck, n) {
  if (!deck || typeof deck !== "object" || typeof deck.length !== "number") {
    return `it returned ${valueWords(deck)}, not an array`;
  }
  if (deck.length !== n) {
    return `it returned ${deck.length} items instead of ${n} (${deck.length < n ? "it lost" : "it added"} ` +
      `${Math.abs(n - deck.length)}): ${shown(deck)}`;
  }
  const seen = new Array(n).fill(0);
  for (let i = 0; i < n; i++) {
    const v = deck[i];
    if (!Number.isInteger(v) || v < 0 || v >= n) {
      return `${valueWords(v)} at position ${i} is not one of the items ` +
        `0..${n - 1}: ${shown(deck)}`;
    }
    seen[v]++;
  }
  const twice = seen.findIndex(c => c > 1), lost = seen.findIndex(c => c === 0);
  if (twice < 0) return null;
  return `it lost item ${lost} and has ${twice} twice: ${shown(deck)}`;
}

/** An exception's message, whatever was thrown. */
function messageOf(e) {
  return e && e.message ? e.message : String(e);
}

/**
 * Runs `fn` with `Math.random` replaced by `random` (so that a function
 * calling Math.random itself draws from the chunk's seeded generator),
 * restoring it afterwards, also when `fn` throws.
 */
function withMathRandom(random, fn) {
  const saved = Math.random;
  Math.random = random;
  try {
    return fn();
  } finally {
    Math.random = saved;
  }
}

/**
 * The deck `shuffle(deck, random)` leaves: `deck` shuffled in place, or
 * what it returned. Throws a UserError naming trial `trial` + 1 when the
 * call throws. (Small, so that V8 inlines it into both batch loops.)
 */
function shuffled(shuffle, deck, random, trial) {
  let result;
  try {
    result = shuffle(deck, random);
  } catch (e) {
    throw new UserError(`shuffle threw an exception at trial ${trial + 1}: ${messageOf(e)}`);
  }
  return result === undefined ? deck : result;
}

/**
 * Shuffles and checks `count` decks into `out` (n items each) from trial
 * `done` on: the hot loop, kept apart with locals only (no captured
 * variables) so that V8 optimises it as it does a bare loop. `seen` and
 * `stamp` mark the items seen in a deck above 31 items; returns the next
 * stamp. Throws a UserError naming the (1-based) trial of a broken deck.
 */
function shuffleBatch(shuffle, random, deck, out, count, done, n, seen, stamp) {
  const small = n <= 31, full = small ? (1 << n) - 1 : 0;
  // The trial and its deck, outside the loop for the catch below.
  let t = 0, a = null;
  try {
    for (let o = 0; t < count; t++, o += n) {
      if (deck.length !== n) deck.length = n;
      for (let i = 0; i < n; i++) deck[i] = i;
      a = shuffled(shuffle, deck, random, done + t);
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
      if (!ok) break;
    }
  } catch (e) {
    if (e instanceof UserError) throw e; // the shuffle threw
    // An item no number takes (a BigInt: a TypeError in the checks).
    throw new UserError(notTheItems(done + t, notAPermutation(a, n) || messageOf(e)));
  }
  if (t < count) throw new UserError(notTheItems(done + t, notAPermutation(a, n)));
  return stamp;
}

/** The message for trial `trial` (0-based) whose deck is not the items, `why`. */
function notTheItems(trial, why) {
  return `shuffle returned a deck that is not the items it was given, at trial ${trial + 1}: ${why}.`;
}

/**
 * How a declared deck's `items` (its labels by item index, `AS`, `2S`, …
 * for a shoe, from the Session's items()) are written back: `kindOf` maps
 * a label to its kind, `itemsOf[kind]` lists that kind's item indices
 * (each copy in turn), `copies[kind]` how many there are.
 */
function deckKinds(items) {
  const kindOf = new Map(), itemsOf = [];
  items.forEach((label, i) => {
    if (!kindOf.has(label)) {
      kindOf.set(label, itemsOf.length);
      itemsOf.push([]);
    }
    itemsOf[kindOf.get(label)].push(i);
  });
  return { kindOf, itemsOf, copies: Uint32Array.from(itemsOf, list => list.length) };
}

/** Why `deck` is not the declared deck's `items` rearranged, in words (null if it is). */
function notTheDeck(deck, items, kinds) {
  const n = items.length;
  if (!deck || typeof deck !== "object" || typeof deck.length !== "number") {
    return `it returned ${valueWords(deck)}, not an array`;
  }
  if (deck.length !== n) {
    return `it returned ${deck.length} cards instead of ${n} (${deck.length < n ? "it lost" : "it added"} ` +
      `${Math.abs(n - deck.length)}): ${shown(deck)}`;
  }
  const held = new Uint32Array(kinds.copies.length);
  for (let i = 0; i < n; i++) {
    const k = kinds.kindOf.get(deck[i]);
    if (k === undefined) {
      return `${valueWords(deck[i])} at position ${i} is not ` +
        `one of the deck's cards: ${shown(deck)}`;
    }
    if (++held[k] > kinds.copies[k]) {
      return `it holds more than ${kinds.copies[k]} of ${JSON.stringify(items[kinds.itemsOf[k][0]])} ` +
        `(the deck has ${kinds.copies[k]}): ${shown(deck)}`;
    }
  }
  return null;
}

/**
 * shuffleBatch for a declared deck (a shoe): each trial shuffles a fresh
 * copy of `items` (the cards, in the deck's order) and writes the deck it
 * returns as item indices, each kind's copies in turn (`kinds`:
 * deckKinds). Throws a UserError naming the (1-based) trial of a deck
 * that is not the cards it was given.
 */
function shoeBatch(shuffle, random, deck, out, count, done, items, kinds, held) {
  const n = items.length, { kindOf, itemsOf, copies } = kinds;
  for (let t = 0, o = 0; t < count; t++, o += n) {
    if (deck.length !== n) deck.length = n;
    for (let i = 0; i < n; i++) deck[i] = items[i];
    const a = shuffled(shuffle, deck, random, done + t);
    let ok = a !== null && typeof a === "object" && a.length === n;
    held.fill(0);
    for (let i = 0; ok && i < n; i++) {
      const k = kindOf.get(a[i]);
      if (k !== undefined && held[k] < copies[k]) out[o + i] = itemsOf[k][held[k]++];
      else ok = false;
    }
    if (!ok) {
      throw new UserError(`shuffle returned a deck that is not the cards it was given, at trial ${done + t + 1}: ` +
        notTheDeck(a, items, kinds) + ".");
    }
  }
}

/**
 * Runs chunk `chunk` of a run of `trials` shuffles: `shuffle(deck, random)`
 * on a fresh deck 0..n-1 each trial (or, for a declared deck such as a
 * shoe, a fresh copy of its cards, `session.items()`) (in place, or returning the shuffled
 * deck), each deck checked and written into `session`'s batch in the wasm
 * `memory` (a WebAssembly.Memory), counted as one stream. `Math.random` is
 * `random` meanwhile (restored after, also on error). `onBatch(decks)`, if
 * given, is called after each batch counted. Throws a UserError naming the
 * (1-based) trial whose deck loses, adds or repeats an item, is not an
 * array, or whose call throws.
 */
function runShuffleChunk(session, shuffle, chunk, trials, random, memory, onBatch) {
  const [first, end] = chunkTrials(chunk, trials);
  const n = session.n(), wide = session.width() === 2;
  const most = Math.max(1, Math.min(BATCH_TRIALS, session.maxBatch()));
  // `new Array(n)`, not `[]` filled by push: with a packed array, Chromium's
  // sort with a random comparator gave counts that changed run to run
  // (measured on the page; Node was unaffected).
  const deck = new Array(n), seen = new Uint32Array(n);
  const items = session.items(), kinds = items.length > 0 ? deckKinds(items) : null;
  const held = kinds ? new Uint32Array(kinds.copies.length) : null;
  let stamp = 0;
  const saved = Math.random;
  Math.random = random;
  try {
    for (let done = first; done < end;) {
      const count = Math.min(most, end - done);
      const at = session.batch(count);
      const out = wide ? new Uint16Array(memory.buffer, at, count * n) : new Uint8Array(memory.buffer, at, count * n);
      if (kinds) shoeBatch(shuffle, random, deck, out, count, done, items, kinds, held);
      else stamp = shuffleBatch(shuffle, random, deck, out, count, done, n, seen, stamp);
      done += count;
      session.count(count, done === end);
      if (onBatch) onBatch(count);
    }
  } finally {
    Math.random = saved;
  }
}

/**
 * What a sampler request hands the user's function, from the request
 * `asked` (the Form's text fields, which the library has already read and
 * accepted): `pick` (whether it is a weighted pick), `weights` (numbers;
 * n ones for uniform picks of `n` items given without weights), `k`, the
 * `base` items are numbered from (0 or 1) and the function's `name`.
 */
function samplerArgs(asked, n) {
  const pick = asked.holds === "pick", weights = String(asked.weights).trim();
  return {
    pick,
    name: pick ? "pick" : "sample",
    weights: !pick ? [] : weights === "" ? new Array(n).fill(1) : weights.split(",").map(w => Number(w.trim())),
    k: pick ? 1 : Number(asked.k),
    base: String(asked.base).trim() === "1" ? 1 : 0,
  };
}

/**
 * Counts `lines` (draws `done` + 1 on, one per line) into `session`; the
 * library's refusal of a line as a UserError naming its draw.
 */
function countDrawn(session, lines, done, name) {
  try {
    session.countText(lines.join("\n") + "\n");
  } catch (e) {
    // The library names the line of the batch it refused (`sample:3: …`).
    const m = /^[^:\n]*:(\d+): ([^]*)$/.exec(messageOf(e));
    const line = m ? Number(m[1]) : 0;
    throw new UserError(line >= 1 && line <= lines.length
      ? `${name} returned [${lines[line - 1].split(" ").join(", ")}] at draw ${done + line}: ${m[2]}`
      : `${name} returned draws ${done + 1}..${done + lines.length} that the library refuses: ${messageOf(e)}`);
  }
}

/**
 * Runs chunk `chunk` of a run of `trials` draws of a sampler:
 * `draw(n, k, random)` returning k distinct items of base..base+n-1 (a
 * sample), or `draw(weights, random)` returning one index (a pick, from
 * base), as the request `asked` (the Form's fields) holds; each draw
 * checked and counted into `session` as a text line. `Math.random` is
 * `random` meanwhile; `onBatch(draws)` as for runShuffleChunk. Throws a
 * UserError naming the (1-based) draw that is wrong or throws.
 */
function runSamplerChunk(session, draw, asked, chunk, trials, random, onBatch) {
  const [first, end] = chunkTrials(chunk, trials);
  const n = session.n(), { pick, name, weights, k, base } = samplerArgs(asked, n);
  const last = base + n - 1;
  withMathRandom(random, () => {
    for (let done = first; done < end;) {
      const count = Math.min(BATCH_TRIALS, end - done);
      const lines = new Array(count);
      for (let t = 0; t < count; t++) {
        let r;
        try {
          r = pick ? draw(weights, random) : draw(n, k, random);
        } catch (e) {
          throw new UserError(`${name} threw an exception at draw ${done + t + 1}: ${messageOf(e)}`);
        }
        const items = pick ? [r] : r;
        if (!items || typeof items !== "object" || typeof items.length !== "number" || items.length !== k ||
            !Array.from(items).every(v => Number.isInteger(v) && v >= base && v <= last) ||
            new Set(items).size !== items.length) {
          throw new UserError(`${name} returned ${valueWords(r)} at draw ${done + t + 1}: ` +
            (pick ? `expected one index of ${base}..${last}.` : `expected ${k} distinct items of ${base}..${last}.`));
        }
        lines[t] = Array.prototype.join.call(items, " ");
      }
      countDrawn(session, lines, done, name);
      done += count;
      if (onBatch) onBatch(count);
    }
  });
}
