// Benchmark (run by hand, not a test): what Z3 costs the page's main thread,
// and how soon a student gets a solver-backed answer after a cold page load.
// Each run is a fresh browser profile (no HTTP cache, no service worker) that
// opens the gallery's Listing 1 example (`symexec-listing1`) by its link.
// First the link alone: it opens the compare view, which runs the example's
// configurations at once; printed is when the compare summary shows the
// `symbolic` verdict (what a student who opens the link sees first). Then,
// in another fresh profile, the page's own Analyze: it closes the compare
// view, picks `symbolic` and clicks Analyze as soon as the page is up.
// Printed per run, on the page's clock (ms since the navigation started):
//   - the first render, when Z3 was first needed, ready, its first answer,
//     and the verdict (the issue's goal: the verdict ≤ 1.5 s after the load);
//   - time to first answer from Z3 (first answer − need), or that the run
//     asked Z3 nothing (Listing 1's queries have one input each, which the
//     engine decides itself: its verdict does not wait for Z3);
//   - Analyze → verdict;
//   - main-thread tasks over 50 ms (PerformanceObserver `longtask`) while
//     Z3 loads (need → ready) and while the run solves (ready → verdict),
//     and before Z3 was needed (the page's own start, for scale).
// Then the median of the runs. Second, Z3's cost alone, on a page that has
// settled (no long task for a second; fresh profile again) and has not
// started Z3 (the playground's own start page, whose default analysis asks
// no solver — the example's link would start Z3 with the page): the Solver
// log's round trip loads Z3, then a symbolic run of the example's
// program (typed into the start page's editor) solves; long tasks while
// Z3 loads and while the run solves, and their medians.
//
//   trunk build --release
//   node tests/bench/z3-main-thread.mjs [RUNS]      (DIST_DIR, CHROMIUM as for tests/e2e; RUNS default 5;
//                                                    SETTLED=N settled-page runs, default RUNS)
//
// Compare two builds (e.g. before/after a change) by running it with each
// build's DIST_DIR on the same machine one after the other. The figures
// depend on the machine and its load; nothing is asserted.

import { readFileSync } from 'node:fs';
import { exampleFragment, openBrowser, setEditorText } from '../e2e/harness.mjs';

const runs = Number(process.argv[2] ?? 5);
const EXAMPLE = 'symexec-listing1';
const PRESET = 'symbolic';

/**
 * A fresh browser profile that records main-thread long tasks from the very
 * start of the page (`globalThis.__longTasks`), opened at the example's
 * fragment with the compare view closed.
 */
async function openTracked(profilePrefix, fragment, { keepCompare = false } = {}) {
  const browser = await openBrowser({ profilePrefix, timeout: 120_000 });
  const { page, baseUrl } = browser;
  const byId = (id) => page.locator(`[data-testid=${id}]`);
  try {
    await page.addInitScript(() => {
      globalThis.__longTasks = [];
      new PerformanceObserver((list) => globalThis.__longTasks.push(...list.getEntries().map((e) => ({ start: e.startTime, ms: e.duration })))).observe({
        type: 'longtask',
        buffered: true,
      });
    });
    await page.goto(`${baseUrl}${fragment}`);
    await byId('cfa-listing').waitFor();
    if (!keepCompare && (await byId('compare-view').isVisible())) await byId('compare-close').click();
  } catch (err) {
    await browser.close();
    throw err;
  }
  return { ...browser, byId };
}

/** The page's marks (page time; NaN when not set) and its long tasks so far. */
function pageTimes(page) {
  return page.evaluate(() => {
    const at = (n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN;
    return {
      render: at('cpa-playground:first-render'),
      editor: at('cpa-playground:editor'),
      need: at('cpa-z3:need'),
      download: at('cpa-z3:download'),
      compile: at('cpa-z3:compile'),
      ready: at('cpa-z3:ready'),
      first: at('cpa-z3:first-answer'),
      longTasks: globalThis.__longTasks,
    };
  });
}

/** Presses Analyze and waits for the verdict: when each happened (page time). */
async function analyzeToVerdict(page, byId) {
  const analyzeAt = await page.evaluate(() => performance.now());
  await byId('analyze').click();
  const verdictAt = await (
    await page.waitForFunction(() => /TRUE|FALSE|UNKNOWN/.test(document.querySelector('[data-testid=run-status]')?.innerText ?? '') && performance.now(), null, {
      timeout: 120_000,
      polling: 'raf',
    })
  ).jsonValue();
  return { analyzeAt, verdictAt };
}

/** One cold load of the example and one symbolic run; the page's timings. */
async function coldRun(fragment) {
  const { page, byId, pageErrors, close } = await openTracked('cpa-bench-z3-', fragment);
  try {
    await byId('preset').selectOption(PRESET);
    const { analyzeAt, verdictAt } = await analyzeToVerdict(page, byId);
    const status = await byId('run-status').innerText();
    const t = await pageTimes(page);
    // A task counts for the window it started in.
    const within = (from, to) => t.longTasks.filter((l) => l.start >= from && l.start < to).map((l) => l.ms);
    return {
      status,
      // Every long task: when it began (page clock) and how long it took.
      all: t.longTasks.map((l) => `${l.start.toFixed(0)}:${l.ms.toFixed(0)}`).join(' '),
      render: t.render,
      editor: t.editor,
      analyze: analyzeAt,
      need: t.need,
      download: t.download,
      compile: t.compile,
      ready: t.ready,
      first: t.first,
      verdict: verdictAt,
      firstAnswer: t.first - t.need,
      startup: within(0, t.need),
      // A run whose queries the engine decides itself (Listing 1's) ends
      // before Z3 is ready: Z3 is still loading during the whole run.
      loading: within(t.need, Number.isNaN(t.ready) ? verdictAt : t.ready),
      solving: within(Number.isNaN(t.ready) ? analyzeAt : t.ready, verdictAt),
      errors: pageErrors.length,
    };
  } finally {
    await close();
  }
}

/**
 * What a student sees first: the example's link opens the compare view,
 * which starts its configurations at once (no click); when the compare
 * summary shows the symbolic run's verdict (page time), and the long tasks
 * until then.
 */
async function linkRun(fragment) {
  const { page, pageErrors, close } = await openTracked('cpa-bench-z3-link-', fragment, { keepCompare: true });
  try {
    const verdictAt = await (
      await page.waitForFunction(
        (preset) => {
          const cell = document.querySelector(`[data-testid=compare-summary] tr[data-preset=${preset}] td[class^=verdict-]`);
          return /TRUE|FALSE|UNKNOWN/.test(cell?.innerText ?? '') && performance.now();
        },
        PRESET,
        { timeout: 120_000, polling: 'raf' },
      )
    ).jsonValue();
    const t = await pageTimes(page);
    return { verdict: verdictAt, ...t, tasks: t.longTasks.filter((l) => l.start < verdictAt).map((l) => l.ms), errors: pageErrors.length };
  } finally {
    await close();
  }
}

/**
 * Z3's cost alone: a fresh profile opens the start page (no link, so
 * nothing starts Z3), types the example's program into its editor, opens
 * the Solver log, waits until the page has
 * settled (no long task for a second), then the log's round trip loads
 * Z3; once Z3 is ready, a symbolic run of that program solves. Long tasks while Z3 loads (click → first answer) and while the
 * run solves (Analyze → verdict).
 */
async function settledRun() {
  const { page, byId, pageErrors, close } = await openTracked('cpa-bench-z3-settled-', '');
  try {
    // The example's program, typed into the start page's editor (one input).
    const program = await page.evaluate((name) => fetch(`examples/${name}.c`).then((r) => r.text()), EXAMPLE);
    await page.locator('[data-testid=editor] .cm-content').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(program);
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.classList.contains('status-ok'));
    await byId('solver-log-toggle').click();
    // Settled: no long task for a second.
    await page.waitForFunction(() => performance.now() - Math.max(0, ...globalThis.__longTasks.map((l) => l.start + l.ms)) > 1000, null, { polling: 100 });
    const clickAt = await page.evaluate(() => performance.now());
    await byId('solver-round-trip').click();
    await page.waitForFunction(() => performance.getEntriesByName('cpa-z3:first-answer').length > 0, null, { timeout: 120_000 });
    await byId('preset').selectOption(PRESET);
    const { analyzeAt, verdictAt } = await analyzeToVerdict(page, byId);
    const t = await pageTimes(page);
    const within = (from, to) => t.longTasks.filter((l) => l.start >= from && l.start < to).map((l) => l.ms);
    const from = Math.min(clickAt, t.need);
    return {
      // When each task began, after the round trip's click, and how long it took.
      loadingAt: t.longTasks.filter((l) => l.start >= from && l.start < t.first).map((l) => `+${(l.start - from).toFixed(0)}: ${l.ms.toFixed(0)}`),
      readyAfter: t.ready - from,
      firstAnswer: t.first - t.need,
      loading: within(Math.min(clickAt, t.need), t.first),
      solving: within(analyzeAt, verdictAt),
      solveMs: verdictAt - analyzeAt,
      errors: pageErrors.length,
      // Z3 was asked for before the click (the measurement is then not Z3's load alone).
      early: t.need < clickAt,
    };
  } finally {
    await close();
  }
}

const median = (xs) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};
const longest = (xs) => (xs.length ? Math.max(...xs) : 0);
const tasks = (xs) => (xs.length ? `${xs.length} (longest ${longest(xs).toFixed(0)} ms)` : 'none');

/**
 * A share link (its fragment) to `program` under `symbolic`, made in the
 * page itself: the editor gets the program, the chooser the configuration,
 * and the Share button the link.
 */
async function programFragment(program) {
  const { page, baseUrl, close } = await openBrowser({ profilePrefix: 'cpa-bench-z3-share-', timeout: 60_000 });
  try {
    const byId = (id) => page.locator(`[data-testid=${id}]`);
    await page.goto(baseUrl);
    await byId('cfa-listing').waitFor();
    await setEditorText(page, program);
    await byId('preset').selectOption(PRESET);
    await byId('share').click();
    return new URL(await byId('share-link').inputValue()).hash;
  } finally {
    await close();
  }
}

// PROGRAM=file.c: instead of Listing 1's link, a share link to that program
// (e.g. one whose queries need Z3: what a link's run pays when Z3 loads at
// its first query); the link-alone runs are skipped (such a link opens no
// compare view).
const programFile = process.env.PROGRAM;
const fragment = programFile ? await programFragment(readFileSync(programFile, 'utf8')) : await exampleFragment(EXAMPLE);
console.log(`build: ${process.env.DIST_DIR ?? 'dist'}; ${programFile ? `program ${programFile}` : `example ${EXAMPLE}`} under ${PRESET}; ${runs} cold runs`);
const results = [];
const links = [];
for (let i = 0; i < runs; i++) {
  const l = programFile ? null : await linkRun(fragment);
  if (l) links.push(l);
  const r = await coldRun(fragment);
  results.push(r);
  console.log(
    (l
      ? `run ${i + 1}: the link alone (compare view): ${PRESET}'s verdict ${l.verdict.toFixed(0)} ms after the navigation; ` +
        `Z3 needed ${l.need.toFixed(0)}, downloading ${l.download.toFixed(0)}` +
        (Number.isNaN(l.first) ? ', not asked' : `, first answer ${l.first.toFixed(0)}`) +
        `; main-thread tasks > 50 ms until then ${tasks(l.tasks)}` +
        (l.errors ? `; ${l.errors} page errors` : '') +
        '\n'
      : '') +
      `run ${i + 1}: ${r.status.split(' — ')[0]}\n` +
      `  first render ${r.render.toFixed(0)} ms, editor ${r.editor.toFixed(0)}, Analyze ${r.analyze.toFixed(0)}, Z3 needed ${r.need.toFixed(0)}, downloading ${r.download.toFixed(0)}, compiling ${r.compile.toFixed(0)}, ready ${r.ready.toFixed(0)}, first answer ${r.first.toFixed(0)}, verdict ${r.verdict.toFixed(0)} ms after the navigation\n` +
      `  Analyze → verdict ${(r.verdict - r.analyze).toFixed(0)} ms; ` +
      (Number.isNaN(r.first) ? 'Z3 not asked by the run (not ready by the verdict)' : `time to first Z3 answer ${r.firstAnswer.toFixed(0)} ms`) +
      `; main-thread tasks > 50 ms: before Z3 ${tasks(r.startup)}, while Z3 loads ${tasks(r.loading)}, while the run solves ${tasks(r.solving)}` +
      (r.errors ? `; ${r.errors} page errors` : '') +
      `\n  all tasks > 50 ms (began at: ms): ${r.all}`,
  );
}
console.log(
  `median of ${runs}: ` +
    (links.length ? `the link's own ${PRESET} verdict (compare view) ${median(links.map((l) => l.verdict)).toFixed(0)} ms after a cold load; ` : '') +
    `verdict ${median(results.map((r) => r.verdict)).toFixed(0)} ms after a cold load; ` +
    `Analyze → verdict ${median(results.map((r) => r.verdict - r.analyze)).toFixed(0)} ms; ` +
    `first Z3 answer ${median(results.map((r) => r.firstAnswer)).toFixed(0)} ms after the need (NaN: no run asked Z3); ` +
    `longest main-thread task while Z3 loads ${median(results.map((r) => longest(r.loading))).toFixed(0)} ms, ` +
    `while solving ${median(results.map((r) => longest(r.solving))).toFixed(0)} ms, before Z3 ${median(results.map((r) => longest(r.startup))).toFixed(0)} ms`,
);

const settled = [];
const settledRuns = Number(process.env.SETTLED ?? runs);
for (let i = 0; i < settledRuns; i++) {
  const r = await settledRun();
  settled.push(r);
  console.log(
    `settled page, run ${i + 1}: round trip → first Z3 answer ${r.firstAnswer.toFixed(0)} ms, main-thread tasks > 50 ms meanwhile ${tasks(r.loading)}` +
      (r.loadingAt.length ? ` [ms after the click: duration ${r.loadingAt.join(', ')}; Z3 ready at +${r.readyAfter.toFixed(0)}]` : '') +
      '; ' +
      `symbolic run with Z3 ready ${r.solveMs.toFixed(0)} ms, tasks > 50 ms meanwhile ${tasks(r.solving)}` +
      (r.errors ? `; ${r.errors} page errors` : '') +
      (r.early ? '; NOTE: Z3 was started before the click' : ''),
  );
}
if (settledRuns) console.log(
  `median of ${settledRuns} (settled page): first Z3 answer ${median(settled.map((r) => r.firstAnswer)).toFixed(0)} ms; ` +
    `longest main-thread task while Z3 loads ${median(settled.map((r) => longest(r.loading))).toFixed(0)} ms, while solving ${median(settled.map((r) => longest(r.solving))).toFixed(0)} ms`,
);
