// Benchmark (run by hand, not a test): where the browser spends one step
// back, by its own phases — the same run as render-step.mjs, then a DevTools
// trace (CDP `Tracing`) over STEPS step-backs with the given bottom tab and
// graph, printed as the total and per-step time of style recalculation
// (UpdateLayoutTree), Layout, Paint, PrePaint, Commit, script (FunctionCall)
// and the rest. profile-step.mjs says which functions run; this says which
// of the browser's phases a step pays for. With INVALIDATIONS=1 it also
// prints what invalidated layout during the steps (element and reason, the
// most frequent first): how the graph views' layout cost was found.
//
//   trunk build --release
//   node tests/bench/trace-step.mjs    (DIST_DIR, CHROMIUM as for tests/e2e)
//
// Environment: STEPS (default 60), LIMIT (default 1500), TAB (state |
// waitlist | reached, default state), GRAPH (cfa | arg, default arg),
// INVALIDATIONS (1: list layout invalidations), HIDE (a CSS selector list
// hidden with display: none before tracing, to see what a region of the
// page costs: the difference to a run without it). Nothing is asserted; the
// figures depend on the machine and its load.

import { openLargeRun, stepBack } from './large-run.mjs';

const steps = Number(process.env.STEPS ?? 60);
const limit = Number(process.env.LIMIT ?? 1500);
const tab = process.env.TAB ?? 'state';
const graph = process.env.GRAPH ?? 'arg';
const invalidations = process.env.INVALIDATIONS === '1';
const hide = process.env.HIDE ?? '';
const PHASES = ['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'RasterTask', 'FunctionCall', 'RunMicrotasks', 'EventDispatch', 'HitTest', 'MinorGC', 'MajorGC'];

const { page, context, byId, close } = await openLargeRun('cpa-bench-trace-', limit);
try {
  await byId(`graph-tab-${graph}`).click();
  await byId(`tab-${tab}`).click();
  if (hide) await page.addStyleTag({ content: `${hide} { display: none !important; }` });
  await page.waitForTimeout(500);
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];
  if (invalidations) categories.push('disabled-by-default-devtools.timeline.invalidationTracking');
  await cdp.send('Tracing.start', { categories: categories.join(','), transferMode: 'ReportEvents' });
  await stepBack(page, steps);
  await cdp.send('Tracing.end');
  await complete;

  const totals = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur || !PHASES.includes(e.name)) continue;
    const t = totals.get(e.name) ?? { count: 0, us: 0 };
    t.count++;
    t.us += e.dur;
    totals.set(e.name, t);
  }
  console.log(`${steps} step-backs, tab ${tab}, graph ${graph}${hide ? `, hidden: ${hide}` : ''}:`);
  for (const [name, t] of [...totals].sort((a, b) => b[1].us - a[1].us)) {
    console.log(`  ${name.padEnd(18)} ${String(t.count).padStart(5)}×  total ${(t.us / 1000).toFixed(1).padStart(8)} ms   per step ${(t.us / 1000 / steps).toFixed(2).padStart(6)} ms`);
  }
  // How much of the page each style recalculation and layout touched.
  const mean = (xs) => (xs.length ? (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(0) : '-');
  const styled = events.filter((e) => e.name === 'UpdateLayoutTree' && e.ph === 'X').map((e) => e.args?.elementCount ?? e.args?.data?.elementCount ?? 0);
  const layouts = events.filter((e) => e.name === 'Layout' && e.ph === 'X').map((e) => e.args?.beginData ?? {});
  console.log(`  style recalculation: ${mean(styled)} elements on average; layout: ${mean(layouts.map((d) => d.dirtyObjects ?? 0))} dirty of ${mean(layouts.map((d) => d.totalObjects ?? 0))} objects on average`);
  if (invalidations) {
    const why = new Map();
    for (const e of events) {
      if (e.name !== 'LayoutInvalidationTracking') continue;
      const d = e.args.data ?? {};
      const key = `${d.reason ?? '?'} | ${d.nodeName ?? '?'}`;
      why.set(key, (why.get(key) ?? 0) + 1);
    }
    console.log('layout invalidations (count | reason | element):');
    for (const [key, n] of [...why].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${String(n).padStart(6)}  ${key}`);
  }
} finally {
  await close();
}
