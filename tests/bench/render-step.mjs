// Benchmark (run by hand, not a test): how long the page takes to render
// one step of the analysis when the reached set is large. Listing 2.1 under
// octagon-sep grows one state per loop iteration; with a step limit of 1100
// the run ends with ~1,100 reached states. The script then steps back
// several times with the CFA graph shown and with the ARG shown, and prints
// per step the time from the click until the panels show the new position
// ("rendered") and until the next frame after that ("next frame").
//
//   trunk build --release
//   node tests/bench/render-step.mjs            (DIST_DIR, CHROMIUM as for tests/e2e)
//
// Environment: STEPS (step-backs per view, default 10). The figures depend
// on the machine and its load; nothing is asserted.

import { analyze, openBrowser } from '../e2e/harness.mjs';

const steps = Number(process.env.STEPS ?? 10);
const { page, baseUrl, pageErrors, close } = await openBrowser({ profilePrefix: 'cpa-bench-render-', timeout: 120_000 });
try {
  const byId = (id) => page.locator(`[data-testid=${id}]`);
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await analyze(page, 'octagon-sep', 1100);
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
    return `median ${s[Math.floor(s.length / 2)].toFixed(1)}, min ${s[0].toFixed(1)}, max ${s.at(-1).toFixed(1)}`;
  };
  for (const [view, tab] of [['CFA graph', 'graph-tab-cfa'], ['ARG', 'graph-tab-arg']]) {
    await byId(tab).click();
    if (tab === 'graph-tab-arg') await page.locator('[data-testid=arg-graph] .arg-node').first().waitFor();
    const times = await measure(steps);
    console.log(`step back, ${view} shown, ${steps} steps (ms):`);
    console.log(`  rendered:   ${stats(times.map((t) => t[0]))}`);
    console.log(`  next frame: ${stats(times.map((t) => t[1]))}`);
  }
  if (pageErrors.length) console.log(`page errors: ${pageErrors.join('\n')}`);
} finally {
  await close();
}
