/** secure-shuffle: forward Fisher–Yates with rejection-sampled integers from libsodium (sodium-native). */
import shuffle from 'secure-shuffle';

export default {
  package: 'secure-shuffle',
  variants: [
    {
      id: 'secure-shuffle',
      algorithm: "forward Fisher–Yates with rejection-sampled integers from libsodium",
      cause: "none found: index.js:6-7 with secure-random-uniform/index.js:17-26 (rejection below a multiple of the limit)",
      call: 'shuffle(deck)',
      seeding: 'libsodium randombytes_buf (cannot be seeded; the run seed is ignored)',
      make: () => (deck) => shuffle(deck),
    },
  ],
};
