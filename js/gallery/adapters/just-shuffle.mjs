/** just-shuffle: Durstenfeld on `Math.random`; `{shuffleAll: true}` redraws j = i (Sattolo's algorithm). */
import shuffle from 'just-shuffle';

export default {
  package: 'just-shuffle',
  variants: [
    {
      id: 'just-shuffle',
      algorithm: "Durstenfeld on a copy",
      cause: "none found: index.cjs:25-34",
      call: 'shuffle(deck)',
      seeding: 'Math.random (the run seed is ignored)',
      make: () => (deck) => shuffle(deck),
    },
    {
      id: 'just-shuffle-shuffleAll',
      algorithm: "Sattolo's algorithm (j = i redrawn)",
      cause: "by design, but not what it says: index.cjs:26-28 redraws j = i, which gives only the (n-1)! single n-cycles, not every arrangement with \"all [elements] in a new position\" (a derangement): at n = 4, 6 of the 9 derangements",
      call: 'shuffle(deck, {shuffleAll: true})',
      seeding: 'Math.random (the run seed is ignored)',
      make: () => (deck) => shuffle(deck, { shuffleAll: true }),
    },
  ],
};
