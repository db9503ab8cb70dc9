// Shared by the benchmarks that run one analysis of a C file in the page as
// a student would (page-run.mjs, profile-run.mjs): the file becomes the
// editor's program, the preset is chosen, the step limit (LIMIT) and extra
// configuration lines (SET, `;`-separated) are applied; then Analyze and
// the wait for the verdict. Not a benchmark itself.

import fs from 'node:fs';
import { openBrowser } from '../e2e/harness.mjs';

/**
 * A fresh browser profile on the playground with `file`'s text as the
 * program and `preset` chosen (LIMIT and SET from the environment applied).
 * `beforeLoad(page)` runs before the page is first opened (e.g. an init
 * script). Returns what `openBrowser` returns and `byId`.
 */
export async function openProgram({ file, preset, profilePrefix, timeout, beforeLoad = async () => {} }) {
  const program = fs.readFileSync(file, 'utf8');
  const browser = await openBrowser({ profilePrefix, timeout });
  const { page, baseUrl } = browser;
  const byId = (id) => page.locator(`[data-testid=${id}]`);
  try {
    await beforeLoad(page);
    await page.goto(baseUrl);
    await byId('cfa-listing').waitFor();
    await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), program);
    await page.reload();
    await byId('cfa-listing').waitFor();
    await byId('preset').selectOption(preset);
    if (process.env.LIMIT) {
      await byId('step-limit').fill(process.env.LIMIT);
      await byId('step-limit').dispatchEvent('change');
    }
    if (process.env.SET) {
      const lines = process.env.SET.split(';').map((l) => l.trim()).filter(Boolean);
      await page.locator('[data-testid=config-panel] > summary').click();
      await byId('config-text').fill([`#include ${preset}.properties`, ...lines, ''].join('\n'));
      await page.waitForFunction(() => !document.querySelector('[data-testid=config-error]'));
    }
  } catch (err) {
    await browser.close();
    throw err;
  }
  return { ...browser, byId };
}

/** Clicks Analyze and waits until the run of `preset` has its verdict. */
export async function analyzeToVerdict(page, preset, timeout) {
  await page.locator('[data-testid=analyze]').click();
  await page.waitForFunction(
    (p) => {
      const status = document.querySelector('[data-testid=run-status]');
      const t = status?.innerText ?? '';
      return status && !status.classList.contains('computing') && (t.startsWith(`${p}, `) || t.startsWith(`custom (from ${p}), `));
    },
    preset,
    { timeout },
  );
}
