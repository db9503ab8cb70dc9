// Benchmark (run by hand, not a test): how long the page takes to render
// one step of the analysis when the reached set is large. Listing 2.1 under
// octagon-sep grows one state per loop iteration; with the default step
// limit of 1500 the run ends with ~1,500 reached states. The script then
// steps back STEPS times for every bottom tab (state, waitlist, reached
// set) with the CFA graph shown and with the ARG shown, and prints per
// combination the median and 95th percentile of the time from the click
// until the panels show the new position ("rendered") and until the next
// frame after that ("next frame": what the student sees).
//
//   trunk build --release
//   node tests/bench/render-step.mjs            (DIST_DIR, CHROMIUM as for tests/e2e)
//
// Environment: STEPS (step-backs per combination, default 200), LIMIT (the
// run's step limit, default 1500), GRAPHS (comma-separated, of cfa and arg;
// default both), TABS (comma-separated, of state, waitlist and reached;
// default all three). The figures depend on the machine and its
// load; nothing is asserted.

import { openLargeRun, stepBack } from './large-run.mjs';

const steps = Number(process.env.STEPS ?? 200);
const limit = Number(process.env.LIMIT ?? 1500);
const { page, byId, pageErrors, close } = await openLargeRun('cpa-bench-render-', limit);
try {
  console.log(`large run: ${await byId('stats').innerText()}`);
  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(1);
    return `median ${at(0.5)}, p95 ${at(0.95)}, max ${s.at(-1).toFixed(1)}`;
  };
  const graphs = (process.env.GRAPHS ?? 'cfa,arg').split(',');
  const tabs = (process.env.TABS ?? 'state,waitlist,reached').split(',');
  for (const [view, graphTab] of [['CFA graph', 'graph-tab-cfa'], ['ARG', 'graph-tab-arg']].filter(([, id]) => graphs.includes(id.slice('graph-tab-'.length)))) {
    await byId(graphTab).click();
    if (graphTab === 'graph-tab-arg') await page.locator('[data-testid=arg-graph] .arg-node').first().waitFor();
    for (const tab of tabs) {
      await byId(`tab-${tab}`).click();
      await byId('run-end').click();
      const times = await stepBack(page, steps);
      console.log(`step back, ${view} + ${tab} tab, ${steps} steps (ms):`);
      console.log(`  rendered:   ${stats(times.map((t) => t[0]))}`);
      console.log(`  next frame: ${stats(times.map((t) => t[1]))}`);
    }
  }
  if (pageErrors.length) console.log(`page errors: ${pageErrors.join('\n')}`);
} finally {
  await close();
}
