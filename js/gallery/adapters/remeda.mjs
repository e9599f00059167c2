/** remeda `shuffle`: a copy, forward Fisher–Yates on `Math.random` (unseedable). */
import { shuffle } from 'remeda';

export default {
  package: 'remeda',
  variants: [
    {
      id: 'remeda',
      algorithm: "forward Fisher–Yates on a copy",
      cause: "none found: dist/shuffle.js:6-13",
      call: 'R.shuffle(deck)',
      seeding: 'Math.random (cannot be seeded; the run seed is ignored)',
      make: () => (deck) => shuffle(deck),
    },
  ],
};
