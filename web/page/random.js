// The page's seeded generator: xoshiro128** (Blackman and Vigna), its
// state filled from the seed by splitmix32, returning multiples of 2^-32
// in [0, 1). A run on it is reproducible: the same seed, the same decks.
// Numbers are made 1,024 at a time in a tight loop (as V8 makes
// Math.random's), which doubles the speed of a shuffle calling it.
"use strict";

/** MurmurHash3's 32-bit finaliser: a bijection that mixes every bit. */
function mix32(z) {
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * A seeded generator of numbers in [0, 1), as `Math.random` returns them.
 * `seed` is a whole number below 2^53; `stream` (a whole number below
 * 2^32, 0 by default) picks one of many independent streams of the same
 * seed (one per chunk of a run): stream 0 is the seed's own stream, and
 * every other stream's state is the seed's XORed with words hashed from
 * the stream's number, so that streams share nothing.
 *
 * `random.restart(s)` starts the same function over at the beginning of
 * stream `s` (the numbers of `seededRandom(seed, s)`), so that a run can
 * hand the user's code one function for all of its chunks: V8 inlines the
 * user's call to `random()` into its optimised code for the function it
 * saw, and a new function at every chunk threw that code away each time.
 */
function seededRandom(seed, stream = 0) {
  const state = new Int32Array(4);
  const made = new Float64Array(1024);
  let next = made.length;
  const refill = () => {
    let a = state[0], b = state[1], c = state[2], d = state[3];
    for (let i = 0; i < made.length; i++) {
      const m = Math.imul(b, 5);
      made[i] = (Math.imul((m << 7) | (m >>> 25), 9) >>> 0) / 4294967296;
      const t = b << 9;
      c ^= a; d ^= b; b ^= c; a ^= d; c ^= t;
      d = (d << 11) | (d >>> 21);
    }
    state[0] = a; state[1] = b; state[2] = c; state[3] = d;
    next = 0;
  };
  const random = function random() {
    if (next === made.length) refill();
    return made[next++];
  };
  random.restart = s => {
    // The seed (a whole number below 2^53) as two 32-bit halves.
    let x = ((seed % 4294967296) >>> 0) ^ Math.imul(Math.floor(seed / 4294967296), 0x9e3779b9);
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) | 0;
      state[i] = mix32(x);
    }
    if (s !== 0) {
      const h = mix32(s >>> 0);
      for (let i = 0; i < 4; i++) state[i] ^= mix32((h + Math.imul(i + 1, 0x632be5ab)) | 0);
    }
    next = made.length;
    return random;
  };
  return random.restart(stream);
}
