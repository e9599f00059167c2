#!/usr/bin/env node
/**
 * Reruns the npm shuffle gallery: every variant of every adapter, audited by the shuffle-audit CLI
 * through `--cmd 'node deal.mjs ...'` at n = 10 and n = 52, each to a verdict with
 * `--until-decisive` (see LOOKS; a biased one stops at the first look that decides it). Writes results.json (every figure) and results.md (the tables).
 *
 *   ./run [--only ID,ID...] [--seed S] [--cli PATH]
 *
 * --only reruns some variants and replaces their rows in the existing results. The CLI is --cli,
 * else $SHUFFLE_AUDIT, else the repository's target/release/shuffle-audit. Not run by CI.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { ADAPTERS, loadAdapter, installedVersion } from './gallery.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
/** Deck sizes audited: a small deck (every test, exact laws) and a card deck (birthday test on). */
const SIZES = [10, 52];
/**
 * First look and trial budget of --until-decisive, per deck size. A fair shuffle runs to the
 * budget, and the budget must see a 20% deviation of one cell at the level left for the last look
 * (α spent over the looks) or the verdict is inconclusive: at n = 52 that takes about 500,000 decks
 * with two looks (measured: 500,000 over five looks was still inconclusive).
 */
const LOOKS = { 10: { start: 31250, max: 125000 }, 52: { start: 300000, max: 600000 } };
/** Copies of deal.mjs run in parallel: the machine's cores. */
const JOBS = String(Math.max(1, cpus().length));

function fail(message) {
  process.stderr.write(`run: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const args = { only: null, seed: '20261121', cli: null };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (!['--only', '--seed', '--cli'].includes(flag)) fail(`unknown argument ${JSON.stringify(flag)}`);
    if (value === undefined) fail(`${flag} needs a value`);
    i++;
    if (flag === '--only') args.only = value.split(',');
    if (flag === '--seed') {
      if (!/^\d+$/.test(value)) fail(`--seed must be a whole number, got ${JSON.stringify(value)}`);
      args.seed = value;
    }
    if (flag === '--cli') args.cli = value;
  }
  return args;
}

function findCli(given) {
  const candidates = [given, process.env.SHUFFLE_AUDIT, resolve(HERE, '../../target/release/shuffle-audit')];
  const found = candidates.find((c) => c && existsSync(c));
  if (!found) {
    fail('no shuffle-audit binary: build it (cargo build --release) or give --cli PATH / $SHUFFLE_AUDIT');
  }
  return found;
}

/** Runs a program, resolving with its exit code, stdout and stderr. */
function execute(program, args) {
  return new Promise((done, reject) => {
    const child = spawn(program, args, { cwd: HERE });
    const out = [];
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => done({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
  });
}

/** Audits one variant at one n; returns the figures results.json keeps. */
async function audit(cli, adapterName, variant, n, seed) {
  const command = `node deal.mjs ${adapterName} ${variant.id} {n} {count} {seed}`;
  const args = ['audit', '--cmd', command, '-n', String(n), '-t', String(LOOKS[n].start), '--max-trials', String(LOOKS[n].max),
    '--until-decisive', '--jobs', JOBS, '--seed', seed, '--name', variant.id, '--quiet', '--json', '--color', 'never'];
  const started = process.hrtime.bigint();
  const { code, stdout, stderr } = await execute(cli, args);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) fail(`${variant.id} at n = ${n}: shuffle-audit exited ${code}:\n${stderr.slice(-2000)}`);
  const a = JSON.parse(stdout).audits[0];
  return {
    n,
    verdict: a.verdict,
    p_adjusted: a.p_adjusted,
    p_adjusted_is_bound: a.p_adjusted_is_bound,
    trials: a.trials,
    looks: a.looks.length,
    seen_by: a.seen_by,
    could_detect: a.could_detect,
    largest_deviation: a.largest_deviation,
    inconclusive_reason: a.inconclusive_reason,
    seconds: Math.round(seconds * 10) / 10,
    command: `shuffle-audit ${args.map((x) => (/[ {]/.test(x) ? `'${x}'` : x)).join(' ')}`,
  };
}

/** A table cell's text: a `|` would end the cell. */
function esc(text) {
  return String(text).replace(/\|/g, '\\|');
}

/** Inline code that may itself hold backticks. */
function code(text) {
  return text.includes('`') ? `\`\` ${esc(text)} \`\`` : `\`${esc(text)}\``;
}

const VERDICT = { biased: '✗ **biased**', 'no-bias-detected': '✓ no bias detected', inconclusive: '? inconclusive' };

function p(r) {
  return r.p_adjusted_is_bound ? '< 1e-12' : r.p_adjusted < 0.001 ? r.p_adjusted.toExponential(1) : r.p_adjusted.toFixed(3);
}

function cell(r) {
  if (!r) return '—';
  const seen = r.seen_by.length ? `, seen by ${r.seen_by[0]}` : '';
  return `${VERDICT[r.verdict] ?? r.verdict} (p ${p(r)}, ${r.trials.toLocaleString('en-US')} decks${seen})`;
}

/** The Markdown of results.md, made from results.json's content. */
function markdown(results) {
  const m = results.meta;
  const lines = [
    '# Real npm shuffles, audited',
    '',
    `Written by \`js/gallery/run\` (${m.date}; ${m.tool}; node ${m.node}; ${m.cpu}, ${m.cores} cores;`,
    `${m.total_seconds} s in all). Each row is one package's shuffle called as shown, printed by`,
    '`deal.mjs` and audited through `shuffle-audit audit --cmd` with `--until-decisive`',
    `(${SIZES.map((n) => `n = ${n}: from ${LOOKS[n].start.toLocaleString('en-US')} decks, doubling up to ${LOOKS[n].max.toLocaleString('en-US')}`).join('; ')};`,
    `α = ${m.alpha} spent over the looks), each audit judged on its own. "Could detect" is the smallest one-cell`,
    'deviation the deciding run would have seen with 90% power. Seeds: the run seed',
    `${m.seed}; a seeded package takes the \`{seed}\` that shuffle-audit derives for each copy.`,
    ...(m.rerun.length ? ['', `Rows rerun since with \`--only\`: ${m.rerun.join(', ')}.`] : []),
    '',
    '| package | call | n = 10 | n = 52 | could detect (n = 10 / 52) | largest deviation (n = 52) |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const v of results.variants) {
    const [a, b] = SIZES.map((n) => v.audits.find((r) => r.n === n));
    lines.push(`| ${v.package}@${v.version} | ${code(v.call)} | ${cell(a)} | ${cell(b)} | ${a?.could_detect ?? '—'} / ${b?.could_detect ?? '—'} | ${esc(b?.largest_deviation ?? '—')} |`);
  }
  lines.push('', '## What the source says', '', '| package | randomness | algorithm | cause of bias read from the source |', '| --- | --- | --- | --- |');
  for (const v of results.variants) {
    lines.push(`| ${v.package}@${v.version} (${code(v.id)}) | ${esc(v.seeding)} | ${esc(v.algorithm)} | ${esc(v.cause)} |`);
  }
  lines.push('', 'Every audit\'s full command is in results.json (`command`); the copies\' seeds follow from the run seed.', '');
  return lines.join('\n');
}

function writeAtomic(path, text) {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const cli = findCli(args.cli);
  const tool = (await execute(cli, ['--version'])).stdout.trim();
  const jsonPath = join(HERE, 'results.json');
  const before = args.only && existsSync(jsonPath) ? JSON.parse(readFileSync(jsonPath, 'utf8')) : null;
  const previous = before?.variants ?? [];
  const adapters = [];
  for (const name of ADAPTERS) adapters.push([name, await loadAdapter(name)]);
  const known = adapters.flatMap(([, adapter]) => adapter.variants.map((v) => v.id));
  const unknown = (args.only ?? []).filter((id) => !known.includes(id));
  if (unknown.length) fail(`--only names no variant ${unknown.join(', ')} (known: ${known.join(', ')})`);
  const started = Date.now();
  const variants = [];
  for (const [name, adapter] of adapters) {
    for (const v of adapter.variants) {
      if (args.only && !args.only.includes(v.id)) {
        const old = previous.find((p) => p.id === v.id);
        if (old) variants.push(old);
        continue;
      }
      const row = {
        id: v.id, package: adapter.package, version: installedVersion(adapter.package),
        call: v.call, seeding: v.seeding, algorithm: v.algorithm, cause: v.cause, audits: [],
      };
      for (const n of SIZES) {
        const r = await audit(cli, name, v, n, args.seed);
        process.stderr.write(`${v.id} n = ${n}: ${r.verdict} (p ${p(r)}, ${r.trials} decks, ${r.seconds} s)\n`);
        row.audits.push(r);
      }
      variants.push(row);
    }
  }
  const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU';
  const results = {
    meta: {
      date: new Date().toISOString().slice(0, 10), tool, node: process.versions.node, cpu, cores: cpus().length,
      seed: args.seed, alpha: 0.001, looks: LOOKS, jobs: Number(JOBS),
      // A partial rerun keeps the whole run's time and says which rows it replaced.
      total_seconds: before ? before.meta.total_seconds : Math.round((Date.now() - started) / 1000),
      rerun: args.only ? [...new Set([...(before?.meta.rerun ?? []), ...args.only])] : [],
    },
    variants,
  };
  writeAtomic(jsonPath, JSON.stringify(results, null, 1) + '\n');
  writeAtomic(join(HERE, 'results.md'), markdown(results));
  process.stderr.write(`wrote results.json and results.md (${Math.round((Date.now() - started) / 1000)} s)\n`);
}

main();
