/** chance `chance.shuffle`: picks from the remaining items, on chance's Mersenne Twister seeded once per worker. */
import Chance from 'chance';

export default {
  package: 'chance',
  variants: [
    {
      id: 'chance',
      algorithm: "draw from the remaining items, the last moved into the hole (Fisher–Yates by selection)",
      cause: "none found: chance.js:695-716; natural() is floor(random() * range) (chance.js:283) on a 32-bit MT output / 2^32 (chance.js:11404-11406): a bias of at most n/2^32 per draw, far below what a run sees",
      call: 'new Chance(seed).shuffle(deck)',
      seeding: 'new Chance(worker seed) once; every deck continues its Mersenne Twister',
      make: (seed) => {
        const chance = new Chance(seed);
        return (deck) => chance.shuffle(deck);
      },
    },
  ],
};
