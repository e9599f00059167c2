/** random-js `Random#shuffle`: Durstenfeld with unbiased integers, on MT19937 seeded once per worker. */
import { Random, MersenneTwister19937 } from 'random-js';

export default {
  package: 'random-js',
  variants: [
    {
      id: 'random-js',
      algorithm: "Durstenfeld with unbiased (rejection) integers on MT19937",
      cause: "none found: dist/random-js.umd.js:430-445",
      call: 'new Random(MersenneTwister19937.seed(seed)).shuffle(deck)',
      seeding: 'MersenneTwister19937.seed(worker seed) once; every deck continues it',
      make: (seed) => {
        const random = new Random(MersenneTwister19937.seed(seed));
        return (deck) => random.shuffle(deck);
      },
    },
  ],
};
