/**
 * shuffle-seed: picks from the remaining items (splice) on seedrandom seeded by its second argument.
 * Called without a seed it uses the seed 'none', so every call returns the same deck.
 */
import shuffleSeed from 'shuffle-seed';

export default {
  package: 'shuffle-seed',
  variants: [
    {
      id: 'shuffle-seed',
      algorithm: "draw from the remaining items (splice) on seedrandom 2.4.4",
      cause: "same deck every call: shuffle-seed.js:27, `seed = seedify(seed) || 'none'`: without a seed (or with seed 0) every call uses the seed 'none'",
      call: 'shuffle(deck)',
      seeding: "none given: the package falls back to the seed 'none' on every call",
      make: () => (deck) => shuffleSeed.shuffle(deck),
    },
    {
      id: 'shuffle-seed-per-deck',
      algorithm: "draw from the remaining items (splice) on seedrandom 2.4.4, a new generator per call",
      cause: "none found: shuffle-seed.js:21-40 (a fresh ARC4 per call, keyed by the seed string)",
      call: 'shuffle(deck, `${seed}:${i}`)',
      seeding: 'a fresh string seed per deck: the worker seed and the deck number',
      make: (seed) => {
        let i = 0;
        return (deck) => shuffleSeed.shuffle(deck, `${seed}:${i++}`);
      },
    },
  ],
};
