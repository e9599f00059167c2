/** crypto-shuffle: Durstenfeld with j = (one random byte) % (i + 1), bytes from crypto.getRandomValues. */
import shuffle from 'crypto-shuffle';

export default {
  package: 'crypto-shuffle',
  variants: [
    {
      id: 'crypto-shuffle',
      algorithm: "Durstenfeld, j = one random byte % (i + 1)",
      cause: "modulo of a small random int: index.js:5-9, r = new Uint8Array(n); k = r[n-1] % n: for i + 1 not dividing 256 the low indices are likelier (at i + 1 = 52, 0..47 get 5/256 each and 48..51 get 4/256), and past n = 256 no index above 255 is ever drawn",
      call: 'shuffle(deck)',
      seeding: 'crypto.getRandomValues (cannot be seeded; the run seed is ignored)',
      make: () => (deck) => shuffle(deck),
    },
  ],
};
