/** underscore `_.shuffle` (= `_.sample(deck, Infinity)`) on `Math.random` (unseedable). */
import _ from 'underscore';

export default {
  package: 'underscore',
  variants: [
    {
      id: 'underscore',
      algorithm: "forward Fisher–Yates (`_.sample(obj, Infinity)`)",
      cause: "none found: underscore.js:1555-1576 with random(min, max) = min + floor(Math.random() * (max - min + 1)) (underscore.js:813-819)",
      call: '_.shuffle(deck)',
      seeding: 'Math.random (cannot be seeded; the run seed is ignored)',
      make: () => (deck) => _.shuffle(deck),
    },
  ],
};
