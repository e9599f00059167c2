/**
 * The gallery's one list of adapters, and the loading every script shares.
 *
 * Each module in adapters/ default-exports `{ package, variants: [...] }`; a variant is
 * `{ id, algorithm, cause, call, seeding, make }`: `package` is the npm name (its version is read
 * from node_modules, so package.json's exact pin is the one source), `algorithm` and `cause` what
 * reading the package's source found (the cause of bias with file:line, or "none found"), `call`
 * how the package is called, `seeding` where its randomness comes from, and `make(seed)` returns a
 * function that shuffles (or returns a shuffled copy of) one deck.
 */
import { readFileSync } from 'node:fs';

/** Adapter modules, in the order the results list them (by popularity, roughly). */
export const ADAPTERS = [
  'lodash', 'd3-array', 'underscore', 'es-toolkit', 'faker', 'remeda', 'chance',
  'knuth-shuffle-seeded', 'radash', 'random-js', 'shuffle-array', 'fast-shuffle',
  'array-shuffle', 'shuffle-seed', 'just-shuffle', 'crypto-shuffle', 'secure-shuffle',
];

/** Loads one adapter module by name; throws naming an unknown name. */
export async function loadAdapter(name) {
  if (!ADAPTERS.includes(name)) {
    throw new Error(`unknown adapter ${JSON.stringify(name)} (known: ${ADAPTERS.join(', ')})`);
  }
  return (await import(`./adapters/${name}.mjs`)).default;
}

/** Loads one variant of one adapter; throws naming an unknown variant. */
export async function loadVariant(adapterName, variantId) {
  const adapter = await loadAdapter(adapterName);
  const variant = adapter.variants.find((v) => v.id === variantId);
  if (!variant) {
    const known = adapter.variants.map((v) => v.id).join(', ');
    throw new Error(`adapter ${adapterName} has no variant ${JSON.stringify(variantId)} (known: ${known})`);
  }
  return variant;
}

/** The installed version of an npm package (what package-lock.json pinned). */
export function installedVersion(pkg) {
  const file = new URL(`./node_modules/${pkg}/package.json`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')).version;
}
