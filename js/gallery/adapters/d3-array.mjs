/** d3-array `shuffle` (= `shuffler(Math.random)`), in place, on `Math.random` (unseedable). */
import { shuffle } from 'd3-array';

export default {
  package: 'd3-array',
  variants: [
    {
      id: 'd3-array',
      algorithm: "Durstenfeld (backward Fisher–Yates)",
      cause: "none found: dist/d3-array.mjs:1186-1192, i = random() * m-- | 0",
      call: 'd3.shuffle(deck)',
      seeding: 'Math.random (cannot be seeded; the run seed is ignored)',
      make: () => (deck) => shuffle(deck),
    },
  ],
};
