/** lodash `_.shuffle`: Durstenfeld-style swap loop on `Math.random` (unseedable). */
import _ from 'lodash';

export default {
  package: 'lodash',
  variants: [
    {
      id: 'lodash',
      algorithm: "forward Fisher–Yates (j uniform in [i, n-1])",
      cause: "none found: lodash.js:6806-6820 (shuffleSelf) draws j = lower + floor(Math.random() * (upper - lower + 1)) (lodash.js:3924-3925)",
      call: '_.shuffle(deck)',
      seeding: 'Math.random (cannot be seeded; the run seed is ignored)',
      make: () => (deck) => _.shuffle(deck),
    },
  ],
};
