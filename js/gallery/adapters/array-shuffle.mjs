/** array-shuffle (sindresorhus) `arrayToShuffled`: a copy, Durstenfeld on `Math.random`. */
import arrayToShuffled from 'array-shuffle';

export default {
  package: 'array-shuffle',
  variants: [
    {
      id: 'array-shuffle',
      algorithm: "Durstenfeld on a copy",
      cause: "none found: index.js:18-21",
      call: 'arrayToShuffled(deck)',
      seeding: 'Math.random (the run seed is ignored)',
      make: () => (deck) => arrayToShuffled(deck),
    },
  ],
};
