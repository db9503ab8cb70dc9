// Profile (run by hand, not a test): what the page's main thread does in
// its long tasks during one analysis run — the same run as page-run.mjs
// (the file becomes the editor's program, the preset is chosen, Analyze is
// clicked; fresh browser profile), with a CPU profile (Chrome DevTools
// protocol) from the click to the verdict. For every main-thread task over
// 50 ms (PerformanceObserver `longtask`) it prints the functions on the
// stack in that task, by how many samples they appear in (inclusive), the
// most first; TOTAL=1 also prints the same for the whole run. How the
// Solver log's redraws were found to be the long tasks of a long
// `predicate` run.
//
// WebAssembly functions have names only in a build that keeps them:
//   sed 's/data-wasm-opt="z"/data-keep-debug data-wasm-opt="0"/' www/index.html > www/index-prof.html
//   trunk build --release --dist /tmp/dist-prof www/index-prof.html; rm www/index-prof.html
//   DIST_DIR=/tmp/dist-prof node tests/bench/profile-run.mjs FILE.c [PRESET]
// (Trunk names the page after its input: copy index-prof.html to index.html
// in that folder if needed.)
//
// Environment: LIMIT, SET as for page-run.mjs; TOP (rows per task, default
// 25); TOTAL=1. Nothing is asserted; the figures depend on the machine and
// its load ("(idle)" samples inside a task are time the thread did not run).

import { analyzeToVerdict, openProgram } from './program-run.mjs';
import { withoutHash } from './wasm-names.mjs';

const [file, preset = 'predicate'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tests/bench/profile-run.mjs FILE.c [PRESET]');
  process.exit(2);
}
const top = Number(process.env.TOP ?? 25);
const timeout = 600_000;
const { page, context, byId, close } = await openProgram({ file, preset, profilePrefix: 'cpa-bench-profile-run-', timeout });
let profile, longTasks, startedAt, endedAt;
try {
  await page.evaluate(() => {
    globalThis.__longTasks = [];
    new PerformanceObserver((list) => globalThis.__longTasks.push(...list.getEntries().map((e) => ({ start: e.startTime, ms: e.duration })))).observe({
      type: 'longtask',
    });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  startedAt = await page.evaluate(() => performance.now());
  await analyzeToVerdict(page, preset, timeout);
  ({ profile } = await cdp.send('Profiler.stop'));
  longTasks = await page.evaluate(() => globalThis.__longTasks);
  endedAt = await page.evaluate(() => performance.now());
  console.log(`status: ${await byId('run-status').innerText()}`);
} finally {
  await close();
}

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
let at = profile.startTime;
const samples = profile.samples.map((id, i) => ({ id, at: (at += profile.timeDeltas[i]) }));
// The profile's clock (µs) against the page's (ms): the profiler started
// just before `startedAt` was read.
const offset = profile.startTime - startedAt * 1000;

/** Functions on the stack in the samples between `from` and `to` (µs), inclusive counts. */
function inclusive(from, to) {
  const counts = new Map();
  let n = 0;
  for (const s of samples) {
    if (s.at < from || s.at > to) continue;
    n += 1;
    const seen = new Set();
    for (let id = s.id; id !== undefined; id = parent.get(id)) {
      const name = withoutHash(nodes.get(id).callFrame.functionName) || '(anonymous)';
      if (!seen.has(name)) {
        seen.add(name);
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
    }
  }
  return { n, rows: [...counts].sort((a, b) => b[1] - a[1]).slice(0, top) };
}

const print = (title, { n, rows }) => {
  console.log(`${title}, ${n} samples:`);
  for (const [name, count] of rows) console.log(`  ${String(count).padStart(5)}  ${name.slice(0, 160)}`);
};
console.log(`Analyze → verdict ${(endedAt - startedAt).toFixed(0)} ms; main-thread tasks over 50 ms: ${longTasks.length}`);
for (const t of longTasks) print(`task at +${(t.start - startedAt).toFixed(0)} ms (${t.ms.toFixed(0)} ms)`, inclusive(t.start * 1000 + offset, (t.start + t.ms) * 1000 + offset));
if (process.env.TOTAL === '1') print('the whole run', inclusive(startedAt * 1000 + offset, endedAt * 1000 + offset));
