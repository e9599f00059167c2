// The page's seeded generator: xoshiro128** (Blackman and Vigna), its
// state filled from the seed by splitmix32, returning multiples of 2^-32
// in [0, 1). A run on it is reproducible: the same seed, the same decks.
"use strict";

function seededRandom(seed) {
  // The seed (a whole number below 2^53) as two 32-bit halves.
  let x = ((seed % 4294967296) >>> 0) ^ Math.imul(Math.floor(seed / 4294967296), 0x9e3779b9);
  const splitmix32 = () => {
    x = (x + 0x9e3779b9) | 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix32(), b = splitmix32(), c = splitmix32(), d = splitmix32();
  return function random() {
    const r = Math.imul(((Math.imul(b, 5) << 7) | (Math.imul(b, 5) >>> 25)), 9);
    const t = b << 9;
    c ^= a; d ^= b; b ^= c; a ^= d; c ^= t;
    d = (d << 11) | (d >>> 21);
    return (r >>> 0) / 4294967296;
  };
}
