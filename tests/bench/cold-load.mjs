// Shared by the trace benchmarks (run by hand): one cold load of the
// gallery's Listing 1 link and a `symbolic` run, traced with the DevTools
// protocol in a fresh browser profile.

import { exampleFragment, openBrowser } from '../e2e/harness.mjs';

const fragment = await exampleFragment('symexec-listing1');

/**
 * Opens the Listing 1 link in a fresh profile with tracing on (`categories`,
 * Chrome's trace categories), closes the compare view the link opens, picks
 * `symbolic`, presses Analyze, waits for the verdict and 300 ms more, and
 * returns every trace event recorded.
 */
export async function traceColdLoad({ categories, profilePrefix }) {
  const { page, baseUrl, context, close } = await openBrowser({ profilePrefix, timeout: 120_000 });
  const byId = (id) => page.locator(`[data-testid=${id}]`);
  try {
    const cdp = await context.newCDPSession(page);
    const events = [];
    cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
    const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
    await page.goto(`${baseUrl}${fragment}`);
    await byId('cfa-listing').waitFor();
    if (await byId('compare-view').isVisible()) await byId('compare-close').click();
    await byId('preset').selectOption('symbolic');
    await byId('analyze').click();
    await page.waitForFunction(() => /TRUE|FALSE|UNKNOWN/.test(document.querySelector('[data-testid=run-status]')?.innerText ?? ''), null, {
      timeout: 120_000,
      polling: 'raf',
    });
    await page.waitForTimeout(300);
    await cdp.send('Tracing.end');
    await done;
    return events;
  } finally {
    await close();
  }
}

/** A trace event's thread. */
export const threadOf = (e) => `${e.pid}:${e.tid}`;

/**
 * The page's own marks (`cpa-…`, set on its main thread, so that thread is
 * the page's), that thread, and the first mark's time (µs): the traces'
 * clock origin.
 */
export function pageMarks(events) {
  const marks = events.filter((e) => e.cat?.includes('blink.user_timing') && /cpa-/.test(e.name));
  return { marks, main: threadOf(marks[0]), t0: Math.min(...marks.map((m) => m.ts)) };
}
