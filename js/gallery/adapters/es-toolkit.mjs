/** es-toolkit `shuffle`: a copy, Durstenfeld on `Math.random` (unseedable). */
import { shuffle } from 'es-toolkit';

export default {
  package: 'es-toolkit',
  variants: [
    {
      id: 'es-toolkit',
      algorithm: "Durstenfeld on a copy",
      cause: "none found: dist/array/shuffle.mjs:21-22",
      call: 'shuffle(deck)',
      seeding: 'Math.random (cannot be seeded; the run seed is ignored)',
      make: () => (deck) => shuffle(deck),
    },
  ],
};
