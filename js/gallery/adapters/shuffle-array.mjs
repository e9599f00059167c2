/** shuffle-array 1.0.1 (2.0.0, the `latest` tag, is an empty placeholder): Durstenfeld on `Math.random`. */
import shuffle from 'shuffle-array';

export default {
  package: 'shuffle-array',
  variants: [
    {
      id: 'shuffle-array',
      algorithm: "Durstenfeld",
      cause: "none found: index.js:29-35 (1.0.1; shuffle-array@2.0.0, the `latest` tag, is an empty placeholder publish with no index.js)",
      call: 'shuffle(deck)',
      seeding: 'Math.random (the rng option is not used; the run seed is ignored)',
      make: () => (deck) => shuffle(deck),
    },
  ],
};
