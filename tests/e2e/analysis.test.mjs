// Browser end-to-end tests of the analysis in the page (dist/): choose a
// configuration, analyze Listing 2.1 of the octagon thesis, step through the
// CPA+ algorithm's events forward and back, whole algorithm steps (pop …
// stop) and single events, run to the end, hit a step limit while the page
// stays responsive; the pane fits a laptop screen (1280×800, 1366×768), and
// the small things: disabled looks disabled, Escape closes dialogs, no
// console warning on load. (How long a step takes to render
// is measured by tests/bench/render-step.mjs, not here.)
//
//   node --test tests/e2e/        (after `trunk build --release`)
//
// Screenshots go to tests/e2e/artifacts/ (git-ignored).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analyze as analyzeIn, artifacts, atEvent, expectText, settled, shownEvent, stateRows, until, untilOk, useBrowser } from './harness.mjs';

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-analysis-', timeout: 30_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);
const analyze = (preset, limit) => analyzeIn(page, preset, limit);

/** What the analysis panels show, as text. */
async function view() {
  return {
    position: await byId('position').innerText(),
    step: await byId('step-text').innerText(),
    waitlist: await stateRows(byId('waitlist')),
    reached: await stateRows(byId('reached')),
    stats: await byId('stats').innerText(),
  };
}

test('Listing 2.1 under octagon-widening: step, step back, run to the end', async () => {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  // Over mathematical integers, as the thesis (and the native view-model test) runs it.
  await byId('int-model').selectOption('math');
  await analyze('octagon-widening');
  assert.match(await byId('run-status').innerText(), /octagon-widening, math.*TRUE/);
  assert.match(await byId('position').innerText(), /^step 0 · event 0 \/ 176$/);

  const seen = [];
  for (let i = 1; i <= 20; i++) {
    await byId('event-next').click();
    await atEvent(page, i);
    seen[i] = await view();
  }
  const v20 = seen[20];
  assert.equal(v20.position, 'step 3 · event 20 / 176');
  // The same panels as the native view-model test at event 20
  // (crates/web/src/analysis.rs): step 3 pops s2 at N2 and transfers it
  // along the loop's `while` edge; the waitlist is empty (one path so far).
  assert.equal(v20.step, 'step 3: pop s2 @N2; transfer along N2→N3 `while` → s3; stop: s3 not covered');
  assert.equal(v20.waitlist.trim(), '');
  assert.deepEqual(v20.reached.split('\n').map((l) => l.trim()).filter(Boolean), [
    'N0 (1)', 's0 @N0 ⊤',
    'N1 (1)', 's1 @N1 ticks == 0',
    'N2 (1)', 's2 @N2 ticks == 0',
  ]);
  assert.equal(v20.stats, 'reached 3 · created 4 · steps 3');
  // The listing marks the current node and edge and counts reached states;
  // the gutter marks the while loop's line (10).
  const highlighted = await page.evaluate(() => {
    const gutter = [...document.querySelectorAll('[data-testid=editor] .cm-lineNumbers .cm-gutterElement.cpa-current-line')]
      .filter((n) => getComputedStyle(n).color === 'rgb(255, 255, 255)');
    const n1 = document.querySelector('.listing tbody[data-node="N1"] .node-count');
    const current = [...document.querySelectorAll('.listing tbody.current')].map((t) => t.dataset.node);
    const edge = [...document.querySelectorAll('.listing tr.current-edge')].map((r) => [r.closest('tbody').dataset.node, r.querySelector('.target').innerText]);
    const style = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
    return {
      lines: gutter.map((n) => n.innerText), n1badge: n1?.innerText, current, edge,
      currentBg: style('.listing tbody.current .node-row', 'backgroundColor'), edgeOutline: style('.listing tr.current-edge', 'outlineStyle'),
    };
  });
  assert.deepEqual(highlighted.lines, ['10']);
  assert.equal(highlighted.n1badge, '1', 'N1 holds one reached state');
  assert.deepEqual(highlighted.current, ['N2'], 'the state being processed is at N2');
  assert.deepEqual(highlighted.edge, [['N2', '→ N3']], 'the edge being processed: N2→N3');
  assert.equal(highlighted.currentBg, 'rgb(255, 243, 196)', 'the current node row has the current background');
  assert.equal(highlighted.edgeOutline, 'solid', 'the current edge row is outlined');
  // The current edge's source line is highlighted in the gutter, the node in the listing.
  await page.screenshot({ path: path.join(artifacts, 'analysis-1-step-20.png') });

  for (let i = 0; i < 5; i++) await byId('event-back').click();
  await atEvent(page, 15);
  assert.deepEqual(await view(), seen[15], 'five events back is the view seen at event 15');

  // Keyboard: Shift+→ one event, Shift+← one back (focus outside the editor).
  await page.locator('h1').click();
  // Each read waits for the position first: the page renders after the key.
  const at = (k) => atEvent(page, k);
  await page.keyboard.press('Shift+ArrowRight');
  await at(16);
  assert.deepEqual(await view(), seen[16]);
  await page.keyboard.press('Shift+ArrowLeft');
  await at(15);
  assert.deepEqual(await view(), seen[15]);
  // → and ← move whole algorithm steps: → ends the step shown, just
  // before the next pop; ← goes to the end of the step before.
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('[data-testid=position]').dataset.event !== '15');
  const [, n] = (await byId('position').innerText()).match(/^step (\d+) · event \d+ \/ 176$/);
  assert.match(await byId('step-text').innerText(), new RegExp(`^step ${n}: pop s\\d+ @N\\d+; transfer`));
  const end = await shownEvent(page);
  await page.keyboard.press('Shift+ArrowRight');
  await at(end + 1);
  assert.match(await byId('event-text').innerText(), new RegExp(`^event ${end + 1}: step ${Number(n) + 1} begins: s\\d+ is popped`));
  await page.keyboard.press('ArrowLeft');
  await at(end);
  await page.keyboard.press('ArrowLeft');
  await expectText(byId('position'), new RegExp(`^step ${Number(n) - 1} · `));
  await byId('timeline').fill('15');
  await at(15);

  // Breakpoint: the next merge that changed a state.
  await byId('bp-merge').click();
  await expectText(byId('step-text'), /merge .* replaces/);
  await page.screenshot({ path: path.join(artifacts, 'analysis-2-merge.png') });

  // The timeline slider seeks; space plays at the chosen speed and pauses.
  await byId('timeline').fill('15');
  await at(15);
  assert.deepEqual(await view(), seen[15], 'the slider at 15 shows event 15');
  await byId('speed').selectOption('30');
  await page.locator('h1').click();
  await page.keyboard.press(' ');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=position]').dataset.event) >= 17);
  await page.keyboard.press(' ');
  await expectText(byId('play'), 'Play', 'space paused the play');
  const paused = await byId('position').innerText();
  await page.waitForTimeout(200);
  assert.equal(await byId('position').innerText(), paused, 'nothing moves while paused');

  await byId('run-end').click();
  await expectText(byId('verdict'), /^Verdict: TRUE/);
  await page.screenshot({ path: path.join(artifacts, 'analysis-3-end.png') });
});

test('octagon-sep with a step limit of 300 ends UNKNOWN and the page stays responsive', async () => {
  await analyze('octagon-sep', 300);
  const status = await byId('run-status').innerText();
  assert.match(status, /UNKNOWN/);
  assert.match(status, /300/);
  assert.match(status, /step/i);
  await byId('run-end').click();
  await expectText(byId('verdict'), /UNKNOWN/);
  assert.match(await byId('verdict').getAttribute('class'), /verdict-unknown/);
  await page.screenshot({ path: path.join(artifacts, 'analysis-4-step-limit.png') });

  // An edit still updates the CFA.
  const before = await byId('status').innerText();
  await page.locator('[data-testid=editor] .cm-content').focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nint extra() { int e = 1; return e; }');
  // Wait for what the whole edit produces, not for any change: every
  // keystroke re-renders the status, and each prefix of the new function
  // is a syntax error ("1 error — fix it …"), so the status differs from
  // `before` from the first character on. The last keystroke's render can
  // still be pending when `type` returns (Yew yields to the browser within
  // a long render pass, a read can come first), and a read then saw the
  // previous keystroke's error. Only the complete text lowers again, to
  // something other than `before`.
  await page.waitForFunction((b) => {
    const status = document.querySelector('[data-testid=status]');
    return status.classList.contains('status-ok') && status.innerText !== b;
  }, before);
  assert.match(await byId('status').innerText(), /2 functions/);
  assert.match(await page.locator('.stale').innerText(), /program changed/);
});

test('a long run computes in the engine\'s worker: the page answers while computing, and Cancel stops it', async () => {
  // The analysis runs in its own Web Worker (engine-worker), not on the page.
  const workers = page.workers().map((w) => w.url());
  page.on('worker', (w) => workers.push(w.url()));
  await byId('preset').selectOption('octagon-sep');
  await byId('step-limit').fill('0');
  await byId('step-limit').dispatchEvent('change');
  await byId('analyze').click();
  // Listing 2.1 under octagon-sep never finishes: it computes until cancelled.
  await page.waitForFunction(() => /computing… \d+ steps/.test(document.querySelector('[data-testid=run-status]').innerText));
  const steps = async () => Number((await byId('run-status').innerText()).match(/computing… (\d+) steps/)?.[1]);
  // The page answers while computing: a timer set now fires (it would never
  // fire if the run kept the main thread), and the run is still going then.
  const answered = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const t0 = performance.now();
        setTimeout(() => resolve({ status: document.querySelector('[data-testid=run-status]').innerText, ms: performance.now() - t0 }), 0);
      }),
  );
  console.log(`timer latency while computing: ${answered.ms.toFixed(1)} ms`);
  assert.match(answered.status, /computing… \d+ steps/, 'the timer fired while the run was computing');
  assert.ok(workers.some((u) => /engine-worker/.test(u)), `the engine's worker runs the analysis: ${workers.join(', ')}`);
  // ... and the run goes on after it answered: later slices add steps.
  const n = await steps();
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=run-status]').innerText.match(/computing… (\d+) steps/)?.[1]) > n, n);
  await byId('cancel').click();
  const stopped = await expectText(byId('run-status'), /cancelled after \d+ steps/);
  assert.equal(await byId('cancel').count(), 0, 'Cancel is gone once the run stopped');
  assert.equal(await byId('analyze').isEnabled(), true, 'Analyze is offered again');
  // No events arrive after Cancel (the worker drops the run; a few frames suffice).
  await settled(page);
  await settled(page);
  assert.equal(await byId('run-status').innerText(), stopped, 'the run stopped where it was cancelled');
});

/** Where an element is on the screen (getBoundingClientRect), and the viewport. */
function box(locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, vh: innerHeight, vw: innerWidth };
  });
}

/** Asserts that `locator` is drawn and starts within the viewport, with at least `min` px of it in view. */
async function inView(locator, what, min = 20) {
  const b = await box(locator);
  assert.ok(b.height > 0, `${what} is drawn: ${JSON.stringify(b)}`);
  assert.ok(b.top >= 0 && b.top + Math.min(min, b.height) <= b.vh, `${what} is within the viewport: ${JSON.stringify(b)}`);
  assert.ok(b.left >= 0 && b.right <= b.vw + 0.5, `${what} is not cut off at the side: ${JSON.stringify(b)}`);
  return b;
}

/** The page itself does not scroll (only the panes' insides do). */
async function pageDoesNotScroll() {
  const { scrollTop, scrollHeight, innerH } = await page.evaluate(() => ({
    scrollTop: document.scrollingElement.scrollTop,
    scrollHeight: document.scrollingElement.scrollHeight,
    innerH: innerHeight,
  }));
  assert.equal(scrollTop, 0, 'the page is not scrolled');
  assert.ok(scrollHeight <= innerH + 1, `the page fits the window: ${scrollHeight} > ${innerH}`);
}

for (const [width, height] of [[1280, 800], [1366, 768]]) {
  test(`the algorithm fits a ${width}×${height} screen: toolbar, verdict, state, waitlist and reached set without scrolling`, async () => {
    await page.setViewportSize({ width, height });
    await page.goto(baseUrl);
    await byId('cfa-listing').waitFor();
    await byId('reset').click();
    await byId('int-model').selectOption('math');
    await analyze('octagon-widening');
    // Mid-run: a waitlist to show. Then the end: the verdict.
    await byId('step-number').fill('12');
    await byId('step-number').press('Enter');
    await expectText(byId('position'), /^step 12 · /);
    await pageDoesNotScroll();
    await inView(byId('step-toolbar'), 'the step toolbar');
    for (const tab of ['state', 'waitlist', 'reached']) {
      await byId(`tab-${tab}`).click();
      await untilOk(page, () => byId(`tab-body-${tab}`).isVisible(), (v) => assert.ok(v, `the ${tab} tab shows`));
      await inView(byId(`tab-body-${tab}`), `the ${tab} tab's body`, 60);
      await pageDoesNotScroll();
    }
    await page.screenshot({ path: path.join(artifacts, `analysis-layout-${width}x${height}-step12.png`) });
    await byId('run-end').click();
    await expectText(byId('verdict'), /^Verdict: TRUE/);
    const verdict = await inView(byId('verdict'), 'the verdict');
    assert.ok(verdict.bottom <= verdict.vh, 'the whole verdict line is in view');
    await inView(byId('step-toolbar'), 'the step toolbar at the end');
    // The solver log is one closed line below the pane; opened, the verdict stays.
    const log = await box(byId('solver-panel'));
    assert.ok(log.height < 44 && log.bottom <= log.vh, `the closed solver log is one line: ${JSON.stringify(log)}`);
    await byId('solver-log-toggle').click();
    await untilOk(page, () => byId('solver-round-trip').isVisible(), (v) => assert.ok(v));
    await inView(byId('verdict'), 'the verdict with the solver log open');
    await inView(byId('step-toolbar'), 'the step toolbar with the solver log open');
    await byId('solver-log-toggle').click();
    // Predict mode: its questions are a tab; the toolbar and the verdict stay.
    await byId('tab-predict').click();
    await byId('predict-toggle').check();
    await inView(byId('predict'), 'predict mode');
    await inView(byId('step-toolbar'), 'the step toolbar in predict mode');
    await byId('predict-toggle').uncheck();
    await byId('tab-reached').click();
    await pageDoesNotScroll();
    await page.screenshot({ path: path.join(artifacts, `analysis-layout-${width}x${height}-end.png`) });
  });
}

test('Step ▶ moves to the next pop, the event buttons one event; ends are disabled; a step number can be typed', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await byId('step-start').click();
  await atEvent(page, 0);
  for (const id of ['step-back', 'event-back']) {
    await untilOk(page, () => byId(id).isDisabled(), (d) => assert.equal(d, true, `${id} at the start`));
  }
  await byId('step').click();
  await expectText(byId('position'), /^step 0 · event \d+ \/ 176$/);
  assert.match(await byId('step-text').innerText(), /^start: .*create the initial state s0 @N0; add s0$/);
  await byId('step').click();
  await expectText(byId('position'), /^step 1 · event \d+ \/ 176$/);
  assert.match(await byId('step-text').innerText(), /^step 1: pop s0 @N0; transfer along N0→N1 .*; stop: s1 not covered; add s1$/);
  // The next event is the next pop.
  const end1 = await shownEvent(page);
  await byId('event-next').click();
  await atEvent(page, end1 + 1);
  assert.equal(await byId('position').innerText(), `step 2 · event ${end1 + 1} / 176`);
  assert.match(await byId('event-text').innerText(), /step 2 begins: s1 is popped from the waitlist/);
  // Every event is described: the transfer, then the state it created.
  const texts = [];
  for (let k = end1 + 2; k <= end1 + 6; k++) {
    await byId('event-next').click();
    await atEvent(page, k);
    texts.push(await byId('event-text').innerText());
  }
  assert.ok(texts.every((t) => /^event \d+: \S/.test(t)), texts.join('\n'));
  assert.ok(texts.some((t) => /^event \d+: transfer from s1 along N1→N2 .* gives s2$/.test(t)), texts.join('\n'));
  assert.ok(texts.some((t) => /^event \d+: state s2 @N2 created: a successor of s1 \(transfer\)$/.test(t)), texts.join('\n'));
  // A typed step number shows that step whole.
  await byId('step-number').fill('7');
  await byId('step-number').press('Enter');
  await expectText(byId('position'), /^step 7 · event \d+ \/ 176$/);
  assert.match(await byId('step-text').innerText(), /^step 7: pop /);
  await until(page, () => byId('step-number').inputValue(), '7', 'the box shows the step');
  // At the end, the forward buttons are disabled.
  await byId('run-end').click();
  await atEvent(page, 176);
  for (const id of ['step', 'event-next']) {
    await untilOk(page, () => byId(id).isDisabled(), (d) => assert.equal(d, true, `${id} at the end`));
  }
  assert.equal(await byId('step-back').isDisabled(), false);
});

test('run-to buttons without a target say "none in this run" instead of jumping to the end', async () => {
  await byId('timeline').fill('30');
  await atEvent(page, 30);
  for (const id of ['bp-refinement', 'bp-solver', 'bp-target']) {
    await untilOk(page, () => byId(id).isDisabled(), (d) => assert.equal(d, true, `${id} has no target in Listing 2.1`));
    assert.match(await byId(id).innerText(), /none in this run$/);
  }
  assert.equal(await byId('bp-widening').isDisabled(), false);
  assert.doesNotMatch(await byId('bp-widening').innerText(), /none/);
  await byId('bp-widening').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=position]').dataset.event !== '30');
  assert.ok((await shownEvent(page)) < 176, 'a widening before the end');
  assert.match(await byId('step-text').innerText(), /widening/);
});

test('keyboard shortcuts are listed in a help popover, and Escape closes it and the dialogs', async () => {
  await byId('help').click();
  const help = await expectText(byId('help-pop'), /Keyboard shortcuts/);
  for (const keys of ['→ / ←', 'Shift+→ / Shift+←', 'Space', 'Esc']) assert.ok(help.includes(keys), `${keys} listed: ${help}`);
  await page.screenshot({ path: path.join(artifacts, 'analysis-5-help.png') });
  await page.locator('h1').click();
  await page.keyboard.press('Escape');
  await untilOk(page, () => byId('help-pop').count(), (n) => assert.equal(n, 0, 'Escape closed the help'));
  await page.keyboard.press('?');
  await byId('help-pop').waitFor();
  await page.keyboard.press('Escape');
  await untilOk(page, () => byId('help-pop').count(), (n) => assert.equal(n, 0));
  // The examples gallery and the compare view close on Escape too.
  await byId('examples-button').click();
  await byId('gallery').waitFor();
  await page.keyboard.press('Escape');
  await untilOk(page, () => byId('gallery').count(), (n) => assert.equal(n, 0, 'Escape closed the gallery'));
  await byId('compare-open').click();
  await byId('compare-close').waitFor();
  await page.keyboard.press('Escape');
  await untilOk(page, () => byId('compare-close').count(), (n) => assert.equal(n, 0, 'Escape closed the compare view'));
});

test('the waitlist marks the state popped next', async () => {
  await byId('step-number').fill('3');
  await byId('step-number').press('Enter');
  await expectText(byId('position'), /^step 3 · /);
  await byId('tab-waitlist').click();
  await untilOk(page, () => byId('popped-next').count(), (n) => assert.equal(n, 1));
  const marked = await page.locator('[data-testid=waitlist] li.next').getAttribute('data-state');
  await byId('step').click();
  await expectText(byId('position'), /^step 4 · /);
  assert.match(await byId('step-text').innerText(), new RegExp(`^step 4: pop ${marked} `), 'the marked state is popped next');
  await byId('tab-reached').click();
});

test('a broken program: Analyze looks disabled and says why, and the old run is greyed out and cannot be stepped', async () => {
  const analyzeBg = () => byId('analyze').evaluate((b) => getComputedStyle(b).backgroundColor);
  const enabledBg = await analyzeBg();
  const before = await byId('position').innerText();
  await page.locator('[data-testid=editor] .cm-content').focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nint broken( {');
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.classList.contains('status-error'));
  await untilOk(page, () => byId('analyze').isDisabled(), (d) => assert.equal(d, true));
  assert.notEqual(await analyzeBg(), enabledBg, 'a disabled Analyze does not look like the enabled one');
  await expectText(byId('analyze-why'), /fix the program's errors/);
  await expectText(byId('run-blocked'), /cannot be stepped until they are fixed/);
  for (const id of ['step', 'step-back', 'event-next', 'play', 'timeline']) assert.equal(await byId(id).isDisabled(), true, `${id} is disabled`);
  const opacity = await byId('now').evaluate((el) => Number(getComputedStyle(el).opacity));
  assert.ok(opacity < 0.8, `the old run is greyed out (opacity ${opacity})`);
  await page.locator('h1').click();
  await page.keyboard.press('ArrowLeft');
  await settled(page);
  assert.equal(await byId('position').innerText(), before, 'the ← key does not step it either');
  await page.screenshot({ path: path.join(artifacts, 'analysis-6-broken-program.png') });
  await byId('reset').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.classList.contains('status-ok'));
  await untilOk(page, () => byId('step-back').isDisabled(), (d) => assert.equal(d, false, 'steppable again'));
});

test("the configuration panel's properties label is not clipped at 1280×800", async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.locator('[data-testid=config-panel] > summary').click();
  const label = page.locator('.config-text-label');
  await label.waitFor();
  const fit = await label.evaluate((el) => {
    const pane = el.closest('.analysis').getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return { overflow: el.scrollWidth - el.clientWidth, right: r.right, paneRight: pane.right };
  });
  assert.ok(fit.overflow <= 0 && fit.right <= fit.paneRight, `the label wraps inside the pane: ${JSON.stringify(fit)}`);
  await page.locator('[data-testid=config-panel] > summary').click();
});

test('a page load logs no console warning (no unused or mismatched preloads)', async () => {
  const warnings = [];
  const listener = (msg) => {
    if (msg.type() === 'warning' || msg.type() === 'error') warnings.push(msg.text());
  };
  page.on('console', listener);
  await page.goto('about:blank');
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  // Preload warnings come a few seconds after load when a preload is unused.
  await page.waitForTimeout(3500);
  page.off('console', listener);
  assert.deepEqual(warnings, []);
});

/** A fresh page, octagon-sep run for 60 steps, at its end, State tab open. */
async function octagonRunWithStateTab() {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await analyze('octagon-sep', 60);
  await byId('run-end').click();
  await byId('verdict').waitFor();
  await byId('tab-state').click();
}

test("the state inspector's chooser lists its states while the student is at it, and keeps a chosen state shown while stepping", async () => {
  await octagonRunWithStateTab();
  const chooser = byId('inspect-state');
  const options = () => chooser.locator('option').count();
  // Away from it: only the entry that names the shown state (the options
  // are not rewritten at every step).
  await page.mouse.move(5, 5);
  await untilOk(page, options, (n) => assert.equal(n, 1, 'options while nobody is at the chooser'));
  // A pointer over it brings the states in before it can open.
  await chooser.hover();
  await untilOk(page, options, (n) => assert.ok(n > 5, `options under the pointer: ${n}`));
  await page.mouse.move(5, 5);
  await untilOk(page, options, (n) => assert.equal(n, 1, 'options after the pointer left'));
  // So does the keyboard's focus; choosing a state shows it.
  await chooser.focus();
  await untilOk(page, options, (n) => assert.ok(n > 5, `options with the focus: ${n}`));
  const [value, label] = await chooser.locator('option').nth(3).evaluate((o) => [o.value, o.textContent]);
  await chooser.selectOption(value);
  await expectText(page.locator('[data-testid=inspector] .insp-head .sid'), value, 'the chosen state is inspected');
  // Focus and pointer gone, a step back keeps the chosen state in the list,
  // chosen, and shown.
  await chooser.blur();
  await byId('step-back').click();
  await untilOk(page, () => chooser.evaluate((el) => [el.options.length, el.value, el.selectedOptions[0]?.textContent]), (got) =>
    assert.deepEqual(got, [2, value, label], 'the chooser after a step back: the first entry and the chosen state'));
  await expectText(page.locator('[data-testid=inspector] .insp-head .sid'), value, 'still inspected after the step');
});

test('a hidden State tab is left alone while stepping, and shows the shown position once opened again', async () => {
  await octagonRunWithStateTab();
  const end = await byId('position').getAttribute('data-event');
  const inspector = page.locator('[data-testid=inspector]');
  const stepBack = async (n) => {
    for (let i = 0; i < n; i++) {
      const before = await byId('position').getAttribute('data-event');
      await byId('step-back').click();
      await untilOk(page, () => byId('position').getAttribute('data-event'), (at) => assert.notEqual(at, before));
    }
  };
  // What the State tab shows three steps back, read with the tab open.
  await stepBack(3);
  const back = await byId('position').getAttribute('data-event');
  const shown = await inspector.innerText();
  await byId('run-end').click();
  await until(page, () => byId('position').getAttribute('data-event'), end, 'back at the end');
  await untilOk(page, () => inspector.innerText(), (text) => assert.notEqual(text, shown, 'the end shows another state'));
  // The same three steps with the Waitlist tab open: the State tab's
  // elements are not touched.
  await byId('tab-waitlist').click();
  await page.evaluate(() => {
    window.stateTabChanges = 0;
    new MutationObserver((m) => (window.stateTabChanges += m.length)).observe(document.querySelector('[data-testid=tab-body-state]'), {
      subtree: true, childList: true, attributes: true, characterData: true,
    });
  });
  await stepBack(3);
  assert.equal(await byId('position').getAttribute('data-event'), back);
  assert.equal(await page.evaluate(() => window.stateTabChanges), 0, 'changes inside the hidden State tab');
  // Opened again, it shows the state of the position shown.
  await byId('tab-state').click();
  await untilOk(page, () => inspector.innerText(), (text) => assert.equal(text, shown, 'the State tab after it was opened again'));
});

test('the analysis raised no errors', () => {
  assert.deepEqual(pageErrors, [], 'uncaught exceptions or panics in the page');
  assert.deepEqual(consoleErrors, [], 'console errors');
});

test('the top bar stays one line from a 1,024-pixel window up: the title and every button on it, none wrapped', async () => {
  for (const [width, height] of [[1024, 700], [1280, 800], [1366, 768]]) {
    await page.setViewportSize({ width, height });
    await page.goto(baseUrl);
    await byId('cfa-listing').waitFor();
    const bar = await page.evaluate(() => {
      const bar = document.querySelector('header.topbar').getBoundingClientRect();
      const items = [...document.querySelectorAll('header.topbar h1, header.topbar button, header.topbar a')]
        .filter((el) => el.getClientRects().length > 0)
        .map((el) => ({ name: el.textContent.trim(), lines: el.getClientRects().length, top: el.getBoundingClientRect().top, bottom: el.getBoundingClientRect().bottom, right: el.getBoundingClientRect().right, height: el.getBoundingClientRect().height }));
      return { height: bar.height, bottom: bar.bottom, width: document.documentElement.clientWidth, items };
    });
    assert.ok(bar.items.length >= 6, `the title and the buttons: ${JSON.stringify(bar.items)}`);
    assert.ok(bar.height <= 50, `${width}px: the top bar is one line (${bar.height}px high)`);
    for (const item of bar.items) {
      assert.ok(item.bottom <= bar.bottom && item.right <= bar.width, `${width}px: "${item.name}" is inside the bar: ${JSON.stringify(item)}`);
      assert.ok(item.height <= 32, `${width}px: "${item.name}" is on one line: ${JSON.stringify(item)}`);
    }
  }
});
