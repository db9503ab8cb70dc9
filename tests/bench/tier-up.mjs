// Benchmark (run by hand, not a test): what V8's optimizing compiler
// (TurboFan) recompiles during a cold load of the gallery's Listing 1 link.
// V8 first compiles each wasm function with its baseline compiler and
// recompiles a function with TurboFan once it has run enough ("tier-up"),
// on background threads: on a 2-core machine those compete with Z3's
// download and compile and with the page's main thread. TurboFan's time
// grows faster than a function's size, so a few very large functions can
// cost most of it.
//
// Starts Debian's chromium itself (the tests' flags, a fresh profile) with
// V8's `--trace-wasm-compilation-times`, opens the link, waits SECONDS (the
// page starts, the link's compare view runs, Z3 loads; nothing is clicked),
// and reads V8's lines from the browser's output. Prints per run and module
// how many functions TurboFan compiled and how long that took in all, and
// the TOP most expensive, with their body size and, for a build that keeps
// the wasm name section, their names. Z3's module is the one whose
// functions have no names here.
//
//   trunk build --release
//   DIST_DIR=dist [RUNS=2] [SECONDS=20] [TOP=12] node tests/bench/tier-up.mjs
//
// For names, rebuild the release wasm keeping them (same code, same
// function numbers):
//   node_modules/binaryen/bin/wasm-opt -Oz -g --one-caller-inline-max-function-size=500 \
//     --enable-bulk-memory --enable-reference-types --enable-nontrapping-float-to-int \
//     --enable-sign-ext --enable-mutable-globals NAMES_BUILD.wasm -o named.wasm
// where NAMES_BUILD.wasm comes from a build with `data-wasm-opt="0" data-keep-debug`
// on index.html's rel="rust" link, and copy named.wasm over the _bg.wasm of a
// copy of dist/. Nothing is asserted; the figures vary with the machine's load.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../scripts/static-server.mjs';
import { CHROMIUM_ARGS, exampleFragment, executablePath } from '../e2e/harness.mjs';
import { pageFunctionNames, withoutHash } from './wasm-names.mjs';

const dist = process.env.DIST_DIR ?? 'dist';
const { wasmFile, names } = pageFunctionNames(dist);
const fragment = await exampleFragment('symexec-listing1');
const TOP = Number(process.env.TOP ?? 12);
if (names.size === 0) console.log(`${wasmFile} has no name section: modules and functions are shown by number (Z3's numbers run past 30,000)`);

/** One cold load: V8's TurboFan lines, grouped by module. */
async function coldLoad(baseUrl) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'cpa-bench-tier-up-'));
  const args = [...CHROMIUM_ARGS, `--user-data-dir=${profile}`, '--js-flags=--trace-wasm-compilation-times', `${baseUrl}${fragment}`];
  const browser = spawn(executablePath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  browser.stdout.on('data', (d) => (out += d));
  await new Promise((r) => setTimeout(r, Number(process.env.SECONDS ?? 20) * 1000));
  const exited = new Promise((r) => browser.once('exit', r));
  browser.kill();
  await exited;
  fs.rmSync(profile, { recursive: true, force: true });
  const byModule = new Map();
  for (const line of out.split('\n')) {
    const m = /Compiled function (0x[0-9a-f]+)#(\d+) using TurboFan, took (\d+) μs.*bodysize (\d+)/.exec(line);
    if (!m) continue;
    if (!byModule.has(m[1])) byModule.set(m[1], []);
    byModule.get(m[1]).push({ index: Number(m[2]), us: Number(m[3]), body: Number(m[4]) });
  }
  return byModule;
}

const { server, url } = await startServer(dist, 0);
try {
  for (let run = 1; run <= Number(process.env.RUNS ?? 2); run++) {
    const byModule = await coldLoad(url);
    if (byModule.size === 0) console.log(`run ${run}: no TurboFan compiles seen (is ${executablePath} a Chromium that prints V8's trace?)`);
    for (const fns of byModule.values()) {
      const ms = fns.reduce((a, f) => a + f.us, 0) / 1000;
      const named = fns.some((f) => names.has(f.index));
      const which = named ? "the page's module" : names.size > 0 ? 'a module without names here (Z3)' : 'a module';
      console.log(`run ${run}: ${which}: ${fns.length} functions, ${ms.toFixed(0)} ms of TurboFan`);
      for (const f of fns.sort((a, b) => b.us - a.us).slice(0, TOP)) {
        const name = withoutHash(names.get(f.index) ?? '');
        console.log(`  ${(f.us / 1000).toFixed(1).padStart(7)} ms  body ${String(f.body).padStart(6)} B  #${f.index} ${name.slice(0, 140)}`);
      }
    }
  }
} finally {
  server.close();
}
