/**
 * fast-shuffle: Fisher–Yates on PCG32 (package `pcg`). `shuffle(deck)` seeds a fresh PCG32 from
 * 32 bits of `Math.random` on every call; `createShuffle(seed)` keeps one generator going.
 */
import { shuffle, createShuffle } from 'fast-shuffle';

export default {
  package: 'fast-shuffle',
  variants: [
    {
      id: 'fast-shuffle',
      algorithm: "Fisher–Yates on PCG32 with unbiased bounded integers; a new PCG32 per call",
      cause: "small seed space: dist/cjs/index.js:59 seeds every call from randomInt() = (Math.random() * 2**32) | 0 (:26), so at most 2^32 distinct decks (52! ≈ 2^225.6)",
      call: 'shuffle(deck)',
      seeding: 'a new PCG32 per call, seeded with (Math.random() * 2**32) | 0 (the run seed is ignored)',
      make: () => (deck) => shuffle(deck),
    },
    {
      id: 'fast-shuffle-seeded',
      algorithm: "Fisher–Yates on one PCG32, unbiased bounded integers (pcg/dist/index.cjs:288-299)",
      cause: "none found: dist/cjs/index.js:29-35 (createShuffle(seed) keeps one generator)",
      call: 'createShuffle(seed)(deck)',
      seeding: 'createShuffle(worker seed) once; every deck continues its PCG32',
      make: (seed) => createShuffle(seed),
    },
  ],
};
