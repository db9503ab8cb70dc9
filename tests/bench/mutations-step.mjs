// Benchmark (run by hand, not a test): which parts of the page one step back
// rebuilds — the same large run as render-step.mjs, then a MutationObserver
// over STEPS step-backs that counts, per region of the page (the nearest
// ancestor with a data-testid), the elements added and removed, the text
// nodes changed and the attributes set. A step's view update should touch
// what the step changed; an element rebuilt at every step (instead of
// updated in place) costs layout and paint for no new pixels.
//
//   trunk build --release
//   node tests/bench/mutations-step.mjs    (DIST_DIR, CHROMIUM as for tests/e2e)
//
// Environment: STEPS (default 60), LIMIT (default 1500), TAB (state |
// waitlist | reached, default state), GRAPH (cfa | arg, default cfa), TOP
// (rows printed, default 25). Nothing is asserted.

import { openLargeRun, stepBack } from './large-run.mjs';

const steps = Number(process.env.STEPS ?? 60);
const limit = Number(process.env.LIMIT ?? 1500);
const tab = process.env.TAB ?? 'state';
const graph = process.env.GRAPH ?? 'cfa';
const top = Number(process.env.TOP ?? 25);

const { page, byId, close } = await openLargeRun('cpa-bench-mutations-', limit);
try {
  await byId(`graph-tab-${graph}`).click();
  await byId(`tab-${tab}`).click();
  await page.waitForTimeout(500);
  await page.evaluate(() => {
    const region = (n) => {
      const el = n.nodeType === 1 ? n : n.parentElement;
      const owner = el?.closest('[data-testid]');
      return owner ? owner.dataset.testid : '(page)';
    };
    const describe = (n) => (n.nodeType === 1 ? n.tagName.toLowerCase() + (n.classList.length ? '.' + [...n.classList].join('.') : '') : '#text');
    globalThis.__mutations = new Map();
    const count = (key) => globalThis.__mutations.set(key, (globalThis.__mutations.get(key) ?? 0) + 1);
    globalThis.__observer = new MutationObserver((records) => {
      for (const r of records) {
        const where = region(r.target);
        if (r.type === 'childList') {
          for (const n of r.addedNodes) count(`${where} | added ${describe(n)}`);
          for (const n of r.removedNodes) count(`${where} | removed ${describe(n)}`);
        } else if (r.type === 'characterData') count(`${where} | text changed`);
        else count(`${where} | attribute ${r.attributeName} on ${describe(r.target)}`);
      }
    });
    globalThis.__observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await stepBack(page, steps);
  const rows = await page.evaluate(() => {
    globalThis.__observer.disconnect();
    return [...globalThis.__mutations].sort((a, b) => b[1] - a[1]);
  });
  console.log(`${steps} step-backs, tab ${tab}, graph ${graph}: mutations per step (region | kind)`);
  for (const [key, n] of rows.slice(0, top)) console.log(`  ${(n / steps).toFixed(2).padStart(7)}  ${key}`);
} finally {
  await close();
}
