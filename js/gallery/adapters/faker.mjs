/** @faker-js/faker `faker.helpers.shuffle`, on faker's Mersenne Twister seeded once per worker. */
import { faker } from '@faker-js/faker';

export default {
  package: '@faker-js/faker',
  variants: [
    {
      id: 'faker',
      algorithm: "Durstenfeld with faker.number.int(i) (0..i) on a 53-bit Mersenne Twister",
      cause: "none found: dist/base-BpJm8uRb.js:7 (minified: `shuffle(e,t={})`), randomizer nextF53 at :5",
      call: 'faker.seed(seed); faker.helpers.shuffle(deck)',
      seeding: "faker.seed(worker seed) once; every deck continues faker's Mersenne Twister",
      make: (seed) => {
        faker.seed(seed);
        return (deck) => faker.helpers.shuffle(deck);
      },
    },
  ],
};
