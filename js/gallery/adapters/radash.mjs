/** radash `shuffle`: sorts by a `Math.random()` key per item (unseedable). */
import { shuffle } from 'radash';

export default {
  package: 'radash',
  variants: [
    {
      id: 'radash',
      algorithm: "sort by a Math.random() key per item",
      cause: "none found: dist/cjs/random.cjs:16-18 (ties between two 53-bit keys are negligible)",
      call: 'shuffle(deck)',
      seeding: 'Math.random (cannot be seeded; the run seed is ignored)',
      make: () => (deck) => shuffle(deck),
    },
  ],
};
