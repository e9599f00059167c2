#!/usr/bin/env node
/**
 * Prints decks shuffled by one npm package, for `shuffle-audit audit --cmd`.
 *
 *   node deal.mjs ADAPTER VARIANT N COUNT SEED
 *
 * ADAPTER names a module in adapters/ (without .mjs), VARIANT one of its variants' ids. Prints COUNT
 * lines, each the package's shuffle of a fresh deck [0, 1, ..., N-1], items separated by spaces.
 * SEED (an integer below 2^32, the `{seed}` that shuffle-audit derives for each worker) seeds the
 * packages that take a seed; the others draw from Math.random or the OS and ignore it.
 * Exit 2 with one line naming the bad argument.
 */
import { once } from 'node:events';
import { loadVariant } from './gallery.mjs';

/** Decks per write: large enough to be cheap, small enough to keep the pipe busy. */
const CHUNK = 1000;

function fail(message) {
  process.stderr.write(`deal.mjs: ${message}\n`);
  process.exit(2);
}

/** Parses a whole number in [min, max] or fails naming the argument and its value. */
function wholeNumber(name, text, min, max) {
  if (text === undefined || !/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    fail(`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

async function main() {
  const [adapter, variantId, nText, countText, seedText, ...rest] = process.argv.slice(2);
  if (rest.length > 0 || seedText === undefined) {
    fail('usage: node deal.mjs ADAPTER VARIANT N COUNT SEED');
  }
  const n = wholeNumber('N', nText, 1, 100000);
  const count = wholeNumber('COUNT', countText, 0, Number.MAX_SAFE_INTEGER);
  const seed = wholeNumber('SEED', seedText, 0, 2 ** 32 - 1);
  let variant;
  try {
    variant = await loadVariant(adapter, variantId);
  } catch (e) {
    fail(e.message);
  }
  const shuffle = variant.make(seed);
  const out = process.stdout;
  out.on('error', (e) => process.exit(e.code === 'EPIPE' ? 0 : 1));
  for (let done = 0; done < count; ) {
    const m = Math.min(CHUNK, count - done);
    let text = '';
    for (let d = 0; d < m; d++) {
      const deck = new Array(n);
      for (let i = 0; i < n; i++) deck[i] = i;
      text += shuffle(deck).join(' ') + '\n';
    }
    done += m;
    if (!out.write(text)) await once(out, 'drain');
  }
}

main();
