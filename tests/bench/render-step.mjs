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
// run's step limit, default 1500). The figures depend on the machine and its
// load; nothing is asserted.

import { analyze, openBrowser } from '../e2e/harness.mjs';

const steps = Number(process.env.STEPS ?? 200);
const limit = Number(process.env.LIMIT ?? 1500);
const { page, baseUrl, pageErrors, close } = await openBrowser({ profilePrefix: 'cpa-bench-render-', timeout: 120_000 });
try {
  const byId = (id) => page.locator(`[data-testid=${id}]`);
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await analyze(page, 'octagon-sep', limit);
  await byId('run-end').click();
  await byId('verdict').waitFor();
  console.log(`large run: ${await byId('stats').innerText()}`);

  /** Steps back `n` times; per step [click → new position shown, click → next frame] in ms. */
  const measure = (n) =>
    page.evaluate(async (n) => {
      const position = () => document.querySelector('[data-testid=position]').innerText;
      const times = [];
      for (let i = 0; i < n; i++) {
        const before = position();
        const t = performance.now();
        document.querySelector('[data-testid=step-back]').click();
        while (position() === before) await new Promise((r) => setTimeout(r, 0));
        const rendered = performance.now() - t;
        await new Promise((r) => requestAnimationFrame(() => r()));
        times.push([rendered, performance.now() - t]);
      }
      return times;
    }, n);

  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(1);
    return `median ${at(0.5)}, p95 ${at(0.95)}, max ${s.at(-1).toFixed(1)}`;
  };
  for (const [view, graphTab] of [['CFA graph', 'graph-tab-cfa'], ['ARG', 'graph-tab-arg']]) {
    await byId(graphTab).click();
    if (graphTab === 'graph-tab-arg') await page.locator('[data-testid=arg-graph] .arg-node').first().waitFor();
    for (const tab of ['state', 'waitlist', 'reached']) {
      await byId(`tab-${tab}`).click();
      await byId('run-end').click();
      const times = await measure(steps);
      console.log(`step back, ${view} + ${tab} tab, ${steps} steps (ms):`);
      console.log(`  rendered:   ${stats(times.map((t) => t[0]))}`);
      console.log(`  next frame: ${stats(times.map((t) => t[1]))}`);
    }
  }
  if (pageErrors.length) console.log(`page errors: ${pageErrors.join('\n')}`);
} finally {
  await close();
}
