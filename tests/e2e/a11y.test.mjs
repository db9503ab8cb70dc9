// Browser accessibility tests of the page (dist/): axe-core (npm, injected
// into the page) over the main views — the playground after a run with each
// of its tabs and both graphs, the configuration panel, the solver log, the
// compare view, the gallery and an exercise — with no violation of impact
// serious or critical (every violation found is printed); and the keyboard:
// Tab reaches the step controls, Enter and Space operate them, the
// focused control shows a visible outline, and the arrows move among the
// tabs of a tab list (each list one Tab stop).
//
//   DIST_DIR=dist node --test tests/e2e/a11y.test.mjs   (after `trunk build --release`)

import { test, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createRequire } from 'node:module';
import { analyze, artifacts, atEvent, settled, shownEvent, until, useBrowser } from './harness.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

let page, baseUrl;
const session = useBrowser({ profilePrefix: 'cpa-e2e-a11y-', timeout: 60_000 });
before(async () => ({ page, baseUrl } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);
const BLOCKING = new Set(['serious', 'critical']);

/** Serious or critical violations found by `checkAxe` in the running test. */
let found = [];
beforeEach(() => {
  found = [];
});
/** Fails the running test if `checkAxe` found a blocking violation in any view. */
function assertNoBlocking() {
  assert.deepEqual(found, [], 'no serious or critical accessibility violations');
}

/**
 * Runs axe-core over the page as it is now (injecting it if this document
 * does not have it yet), prints every violation, and records the serious
 * and critical ones for `assertNoBlocking`.
 */
async function checkAxe(view) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')} — ${n.failureSummary.replace(/\s+/g, ' ')}`),
    }));
  });
  console.log(`[${view}] ${violations.length} violation(s)`);
  for (const v of violations) {
    console.log(`[${view}] ${v.impact} ${v.id}: ${v.help} (${v.nodes.length} elements)`);
    for (const n of v.nodes.slice(0, 5)) console.log(`    ${n}`);
  }
  for (const v of violations.filter((v) => BLOCKING.has(v.impact))) found.push(`${view}: ${v.id}: ${v.help} — ${v.nodes[0]}`);
}

async function openPlayground(hash = '') {
  await page.goto('about:blank');
  await page.goto(`${baseUrl}${hash}`);
  await byId('cfa-listing').waitFor();
}

test('the playground after a run: every tab and both graphs', async () => {
  await openPlayground();
  await checkAxe('playground, before a run');
  await analyze(page, 'value');
  await byId('run-end').click();
  await byId('verdict').waitFor();
  for (const tab of ['state', 'waitlist', 'reached', 'predict']) {
    await byId(`tab-${tab}`).click();
    await byId(`tab-body-${tab}`).waitFor();
    await settled(page);
    await checkAxe(`playground, ${tab} tab`);
  }
  for (const graph of ['cfa', 'arg']) {
    await byId(`graph-tab-${graph}`).click();
    await settled(page);
    await checkAxe(`playground, ${graph.toUpperCase()} graph`);
  }
  await page.screenshot({ path: path.join(artifacts, 'a11y-playground.png') });
  assertNoBlocking();
});

test('the configuration panel and the solver log', async () => {
  await openPlayground();
  await page.locator('[data-testid=config-panel] > summary').click();
  await byId('config-text').waitFor();
  await checkAxe('configuration panel');
  await analyze(page, 'predicate');
  await byId('solver-log-toggle').click();
  await byId('solver-log').waitFor();
  await settled(page);
  await checkAxe('solver log (predicate analysis)');
  assertNoBlocking();
});

test('the CEGAR tab (value analysis with CEGAR on a gallery example)', async () => {
  await openPlayground();
  await byId('examples-button').click();
  await Promise.all([page.waitForEvent('load'), byId('open-cegar-footnote').click()]);
  await byId('cfa-listing').waitFor();
  if (await byId('compare-view').isVisible()) await byId('compare-close').click();
  await analyze(page, 'value-cegar');
  await byId('run-end').click();
  await byId('verdict').waitFor();
  await byId('tab-cegar').click();
  await byId('tab-body-cegar').waitFor();
  await settled(page);
  await checkAxe('CEGAR tab');
  assertNoBlocking();
});

test('the compare view', async () => {
  await openPlayground();
  await byId('compare-open').click();
  await byId('compare-view').waitFor();
  await page.waitForFunction(() => /configurations/.test(document.querySelector('[data-testid=compare-status]')?.innerText ?? ''));
  await settled(page);
  await checkAxe('compare view');
  assertNoBlocking();
});

test('the gallery', async () => {
  await openPlayground();
  await byId('examples-button').click();
  await byId('gallery').waitFor();
  await settled(page);
  await checkAxe('gallery');
  assertNoBlocking();
});

test('the exercise sets and an exercise', async () => {
  await openPlayground('#exercises');
  await byId('exercise-pane').waitFor();
  await settled(page);
  await checkAxe('exercise sets');
  await openPlayground('#exercise=cpa-basics');
  await byId('exercise').waitFor();
  await settled(page);
  await checkAxe('exercise');
  assertNoBlocking();
});

test('the keyboard: Tab reaches the step controls, Enter and Space step, the focus is visible', async () => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await openPlayground();
  await analyze(page, 'value');
  await byId('step-start').click();
  await atEvent(page, 0);
  // From the top of the page, Tab until the Step button has the focus.
  await page.evaluate(() => document.activeElement?.blur());
  let reached = false;
  for (let i = 0; i < 200 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.dataset?.testid === 'step');
  }
  assert.ok(reached, 'Tab reaches the Step button');
  const outline = await page.evaluate(() => {
    const s = getComputedStyle(document.activeElement);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
  });
  assert.notEqual(outline.style, 'none', 'the focused Step button has an outline');
  assert.ok(outline.width >= 2, `the outline is at least 2px wide (${outline.width})`);
  await page.screenshot({ path: path.join(artifacts, 'a11y-focus-step.png') });

  const before = await shownEvent(page);
  await page.keyboard.press('Enter');
  const afterEnter = await until(page, async () => (await shownEvent(page)) > before, true, 'Enter on Step advances').then(() => shownEvent(page));
  await page.keyboard.press('Space');
  await until(page, async () => (await shownEvent(page)) > afterEnter, true, 'Space on Step advances one step (and does not start playing)');
  assert.equal(await byId('play').innerText(), 'Play', 'Space on a focused button presses it, not the play shortcut');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.testid), 'step', 'the focus stays on Step');
});

test('the keyboard: the arrows move among a tab list\'s tabs (ARIA tabs), each tab list is one Tab stop', async () => {
  await openPlayground();
  await analyze(page, 'value');
  await byId('step-start').click();
  await atEvent(page, 0);
  const selected = () => page.evaluate(() => [...document.querySelectorAll('[data-testid=tabs] [role=tab]')].find((t) => t.getAttribute('aria-selected') === 'true')?.dataset.testid);
  const focused = () => page.evaluate(() => document.activeElement?.dataset?.testid);
  const stops = () => page.evaluate(() => [...document.querySelectorAll('[role=tablist] [role=tab]')].filter((t) => t.tabIndex >= 0).map((t) => t.dataset.testid));

  await byId('tab-state').click();
  await byId('graph-tab-cfa').click();
  await until(page, stops, ['graph-tab-cfa', 'tab-state'], 'only the selected tab of each list is in the Tab order');
  await byId('tab-state').focus();
  await page.keyboard.press('ArrowRight');
  await until(page, selected, 'tab-waitlist', '→ on the State tab selects the Waitlist tab');
  assert.equal(await focused(), 'tab-waitlist', 'and moves the focus there');
  await page.keyboard.press('End');
  const last = await page.evaluate(() => [...document.querySelectorAll('[data-testid=tabs] [role=tab]')].at(-1).dataset.testid);
  assert.notEqual(last, 'tab-waitlist');
  await until(page, selected, last, 'End selects the last tab');
  assert.equal(await focused(), last);
  await page.keyboard.press('ArrowRight');
  await until(page, selected, 'tab-state', '→ on the last tab wraps to the first');
  await page.keyboard.press('ArrowLeft');
  await until(page, selected, last, '← on the first tab wraps to the last');
  await page.keyboard.press('Home');
  await until(page, selected, 'tab-state', 'Home selects the first tab');
  assert.equal(await shownEvent(page), 0, 'moving among tabs does not step the analysis');
  assert.deepEqual(await stops(), ['graph-tab-cfa', 'tab-state']);

  await byId('graph-tab-cfa').focus();
  await page.keyboard.press('ArrowRight');
  await until(page, () => byId('graph-tab-arg').getAttribute('aria-selected'), 'true', '→ on the CFA graph tab selects the ARG');
  assert.equal(await focused(), 'graph-tab-arg');
  assert.equal(await shownEvent(page), 0);

  // Elsewhere the arrows still step.
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowRight');
  await until(page, async () => (await shownEvent(page)) > 0, true, '→ outside the tab lists steps');
});
