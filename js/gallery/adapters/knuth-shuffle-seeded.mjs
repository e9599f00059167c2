/** knuth-shuffle-seeded: Durstenfeld on seed-random (RC4); without a seed, each call seeds itself from crypto. */
import shuffle from 'knuth-shuffle-seeded';

export default {
  package: 'knuth-shuffle-seeded',
  variants: [
    {
      id: 'knuth-shuffle-seeded',
      algorithm: "Durstenfeld on seed-random (RC4), a new generator per call",
      cause: "none found on Node ≥ 19: index.js:51-60; unseeded calls autoseed from global crypto (seed-random/index.js:37, 148-151); without a global crypto (Node 18 and older) the key falls back to the clock in ms, the global object and a pool that every generator's state is mixed into (seed-random/index.js:43, 153-154): not audited (2,000 decks of 52 with globalThis.crypto deleted held no repeat)",
      call: 'shuffle(deck)',
      seeding: 'no seed argument: seed-random seeds every call from crypto.getRandomValues (the run seed is ignored)',
      make: () => (deck) => shuffle(deck),
    },
  ],
};
