// Benchmark (run by hand, not a test): one analysis of a C file in the page,
// as a student would start it — the file becomes the editor's program, the
// preset is chosen, Analyze is clicked — with a fresh browser profile, so the
// time includes Z3's first download and start when the analysis asks the
// solver. Prints the wall time from the click to the verdict, the verdict,
// the page's statistics, and the main thread's tasks over 50 ms during the
// run (the longest is what a student feels as a frozen page).
//
//   trunk build --release
//   node tests/bench/page-run.mjs FILE.c [PRESET]      (DIST_DIR, CHROMIUM as for tests/e2e)
//
// PRESET defaults to `predicate`. Environment: LIMIT (the page's step limit;
// the page's default otherwise), SET (properties lines added to the preset in
// the configuration panel, `;`-separated, e.g.
// SET='restartAlgorithm.stageTimeMs = 60000'), TIMEOUT_MS (default 600000),
// MESSAGES=1 (also list the page's handling of the engine worker's messages:
// count, bytes, and the longest handlers with their sizes).
// The figures depend on the machine and its load; nothing is asserted.

import { analyzeToVerdict, openProgram } from './program-run.mjs';

const [file, preset = 'predicate'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tests/bench/page-run.mjs FILE.c [PRESET]');
  process.exit(2);
}
const timeout = Number(process.env.TIMEOUT_MS ?? 600_000);
/** With MESSAGES=1: times every handler of a worker's text messages (the
 * engine's worker posts JSON text; Z3's worker posts objects, which are not
 * counted). */
async function timeMessages(page) {
  await page.addInitScript(() => {
    globalThis.__messages = [];
    const timed = (handler) => (e) => {
      const t0 = performance.now();
      const r = handler(e);
      if (typeof e.data === 'string') globalThis.__messages.push({ bytes: e.data.length, ms: performance.now() - t0, kind: e.data.slice(2, 12) });
      return r;
    };
    const proto = Worker.prototype;
    const desc = Object.getOwnPropertyDescriptor(proto, 'onmessage');
    Object.defineProperty(proto, 'onmessage', {
      configurable: true,
      get() {
        return desc.get.call(this);
      },
      set(h) {
        desc.set.call(this, h ? timed(h) : h);
      },
    });
  });
}
const beforeLoad = process.env.MESSAGES === '1' ? timeMessages : undefined;
const { page, byId, pageErrors, close } = await openProgram({ file, preset, profilePrefix: 'cpa-bench-page-run-', timeout, beforeLoad });
try {
  await page.evaluate(() => {
    globalThis.__longTasks = [];
    new PerformanceObserver((list) => globalThis.__longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
  const start = Date.now();
  await analyzeToVerdict(page, preset, timeout);
  const wall = Date.now() - start;
  const longTasks = await page.evaluate(() => globalThis.__longTasks);
  console.log(`file: ${file}`);
  console.log(`preset: ${preset}`);
  console.log(`status: ${await byId('run-status').innerText()}`);
  console.log(`wall time from Analyze to the verdict (Z3's first load included): ${(wall / 1000).toFixed(1)} s`);
  console.log(
    `main-thread tasks over 50 ms: ${longTasks.length}; longest ${Math.max(0, ...longTasks).toFixed(0)} ms; ` +
      `sum ${longTasks.reduce((a, b) => a + b, 0).toFixed(0)} ms`,
  );
  if (process.env.MESSAGES === '1') {
    const m = await page.evaluate(() => globalThis.__messages);
    const bytes = m.reduce((a, x) => a + x.bytes, 0);
    console.log(`engine worker messages: ${m.length}, ${(bytes / 1e6).toFixed(1)} MB of JSON, handled in ${m.reduce((a, x) => a + x.ms, 0).toFixed(0)} ms in all`);
    for (const x of [...m].sort((a, b) => b.ms - a.ms).slice(0, 10)) console.log(`  ${x.ms.toFixed(0)} ms for ${(x.bytes / 1e3).toFixed(0)} kB (${x.kind}…)`);
  }
  await byId('run-end').click();
  await byId('verdict').waitFor();
  console.log(`statistics:\n${await byId('stats').innerText()}`);
  if (pageErrors.length) console.log(`page errors: ${pageErrors.join('\n')}`);
} finally {
  await close();
}
