// Shared by the step benchmarks (render-step.mjs, profile-step.mjs,
// trace-step.mjs): the page with a large run at its end, and stepping back
// through it as a student clicks "◀ Step".

import { analyze, openBrowser } from '../e2e/harness.mjs';

/**
 * A fresh browser profile with Listing 2.1 analysed under `octagon-sep` up
 * to `limit` steps (one reached state per loop iteration: ~2,000 states at
 * the default 1,500), shown at the run's end. Returns what `openBrowser`
 * does, plus `byId`.
 */
export async function openLargeRun(profilePrefix, limit) {
  const browser = await openBrowser({ profilePrefix, timeout: 120_000 });
  const { page, baseUrl } = browser;
  const byId = (id) => page.locator(`[data-testid=${id}]`);
  try {
    await page.goto(baseUrl);
    await byId('cfa-listing').waitFor();
    await analyze(page, 'octagon-sep', limit);
    await byId('run-end').click();
    await byId('verdict').waitFor();
  } catch (err) {
    await browser.close();
    throw err;
  }
  return { ...browser, byId };
}

/**
 * Steps back `n` times in the page; per step [click → new position shown,
 * click → the frame after it] in ms.
 */
export function stepBack(page, n) {
  return page.evaluate(async (n) => {
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
}
