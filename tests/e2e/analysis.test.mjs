// Browser end-to-end tests of the analysis in the page (dist/): choose a
// configuration, analyze Listing 2.1 of the octagon thesis, step through the
// CPA+ algorithm's events forward and back, run to the end, and hit a step
// limit while the page stays responsive. (How long a step takes to render
// is measured by tests/bench/render-step.mjs, not here.)
//
//   node --test tests/e2e/        (after `trunk build --release`)
//
// Screenshots go to tests/e2e/artifacts/ (git-ignored).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analyze as analyzeIn, artifacts, atEvent, expectText, settled, stateRows, useBrowser } from './harness.mjs';

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
  assert.match(await byId('position').innerText(), /^event 0 of \d+$/);

  const seen = [];
  for (let i = 1; i <= 20; i++) {
    await byId('step').click();
    await atEvent(page, i);
    seen[i] = await view();
  }
  const v20 = seen[20];
  assert.match(v20.position, /^event 20 of /);
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
    const n1 = document.querySelector('.listing tbody[data-node="N1"] .node-id');
    return { lines: gutter.map((n) => n.innerText), n1badge: getComputedStyle(n1, '::after').content };
  });
  assert.deepEqual(highlighted.lines, ['10']);
  assert.equal(highlighted.n1badge, '" 1"');
  // The current edge's source line is highlighted in the gutter, the node in the listing.
  await page.screenshot({ path: path.join(artifacts, 'analysis-1-step-20.png') });

  for (let i = 0; i < 5; i++) await byId('step-back').click();
  await atEvent(page, 15);
  assert.deepEqual(await view(), seen[15], 'five steps back is the view seen at event 15');

  // Keyboard: → steps, ← steps back (focus outside the editor).
  await page.locator('h1').click();
  // Each read waits for the position first: the page renders after the key.
  const at = (k) => atEvent(page, k);
  await page.keyboard.press('ArrowRight');
  await at(16);
  assert.deepEqual(await view(), seen[16]);
  await page.keyboard.press('ArrowLeft');
  await at(15);
  assert.deepEqual(await view(), seen[15]);

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
  await page.waitForFunction(() => /^event (1[7-9]|[2-9]\d|\d{3}) /.test(document.querySelector('[data-testid=position]').innerText));
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

test('a long run computes in slices: the page answers while computing, and Cancel stops it', async () => {
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
  // ... and the run goes on after it answered: later slices add steps.
  const n = await steps();
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=run-status]').innerText.match(/computing… (\d+) steps/)?.[1]) > n, n);
  await byId('cancel').click();
  const stopped = await expectText(byId('run-status'), /cancelled after \d+ steps/);
  assert.equal(await byId('cancel').count(), 0, 'Cancel is gone once the run stopped');
  assert.equal(await byId('analyze').isEnabled(), true, 'Analyze is offered again');
  // No slice runs after Cancel (a slice is one timer task, so a few frames suffice).
  await settled(page);
  await settled(page);
  assert.equal(await byId('run-status').innerText(), stopped, 'the run stopped where it was cancelled');
});

test('the analysis raised no errors', () => {
  assert.deepEqual(pageErrors, [], 'uncaught exceptions or panics in the page');
  assert.deepEqual(consoleErrors, [], 'console errors');
});

