/*
 * Reproduces: the standard Java shuffle with one seeded generator reused for
 * every deal,
 *     Random rnd = new Random(seed);
 *     for each deal: Collections.shuffle(deck, rnd);
 *
 * Expected verdict: FAIR (no bias detected). Collections.shuffle is a
 * Fisher-Yates shuffle (swap(i - 1, rnd.nextInt(i)) for i = size..2) and
 * Random.nextInt(bound) rejects the uneven tail, so each step is exactly
 * uniform. Caveat: java.util.Random is a 48-bit LCG, so a deck of 52 (52! ~
 * 2^226 orderings) can only ever reach a vanishing fraction of the orderings;
 * that is a real weakness (predictability) but not one that position or cycle
 * statistics can see.
 *
 * Deterministic for a seed: YES (Random's algorithm is specified by the Java
 * API, so across JVMs too). The seed is parsed with Long.parseUnsignedLong;
 * new Random(long) only keeps the low 48 bits of the seed, so seeds that
 * differ only above bit 47 give the same decks. Every deal starts from a
 * fresh deck 0..n-1.
 *
 * Contract: java examples/real-world/JavaShuffle.java n count seed
 * (single-file source launch, Java 11+; expect ~1 s of compile/startup).
 * Output is buffered (1 MiB buffer).
 */
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

public class JavaShuffle {
    public static void main(String[] args) {
        int n;
        long count;
        long seed;
        try {
            if (args.length != 3) throw new IllegalArgumentException();
            n = Integer.parseInt(args[0]);
            count = Long.parseLong(args[1]);
            seed = Long.parseUnsignedLong(args[2]);
            if (n < 1 || count < 0) throw new IllegalArgumentException();
        } catch (IllegalArgumentException e) {
            System.err.println("usage: java JavaShuffle.java n count seed  (n >= 1, 0 <= seed < 2^64)");
            System.exit(2);
            return;
        }

        byte[][] label = new byte[n][];
        for (int i = 0; i < n; i++) label[i] = Integer.toString(i).getBytes(StandardCharsets.US_ASCII);

        Random rnd = new Random(seed);
        List<Integer> deck = new ArrayList<>(n);
        OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 20);
        try {
            for (long d = 0; d < count; d++) {
                deck.clear();
                for (int i = 0; i < n; i++) deck.add(i);
                Collections.shuffle(deck, rnd); // the shuffle being reproduced
                for (int i = 0; i < n; i++) {
                    out.write(label[deck.get(i)]);
                    out.write(i + 1 < n ? ' ' : '\n');
                }
            }
            out.flush();
        } catch (IOException e) {
            // Broken pipe: the reader has what it needs.
            System.exit(0);
        }
    }
}
