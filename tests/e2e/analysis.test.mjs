// Browser end-to-end tests of the analysis in the page (dist/): choose a
// configuration, analyze Listing 2.1 of the octagon thesis, step through the
// CPA+ algorithm's events forward and back, run to the end, and hit a step
// limit while the page stays responsive.
//
//   node --test tests/e2e/        (after `trunk build --release`)
//
// Screenshots go to tests/e2e/artifacts/ (git-ignored).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analyze as analyzeIn, artifacts, atEvent, useBrowser } from './harness.mjs';

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-analysis-', timeout: 30_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);
const analyze = (preset, limit) => analyzeIn(page, preset, limit);

/**
 * The rows of a state list, one line per location header and state. Read
 * from the DOM's text, not `innerText`: rows out of view are not rendered
 * (`content-visibility: auto`), and `innerText` leaves those out.
 */
const rows = (id) =>
  byId(id).evaluate((el) => [...el.querySelectorAll('.loc, li')].map((e) => e.textContent.trim()).join('\n'));

/** What the analysis panels show, as text. */
async function view() {
  return {
    position: await byId('position').innerText(),
    step: await byId('step-text').innerText(),
    waitlist: await rows('waitlist'),
    reached: await rows('reached'),
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
  assert.match(await byId('step-text').innerText(), /merge .* replaces/);
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
  assert.equal(await byId('play').innerText(), 'Play', 'space paused the play');
  const paused = await byId('position').innerText();
  await page.waitForTimeout(200);
  assert.equal(await byId('position').innerText(), paused, 'nothing moves while paused');

  await byId('run-end').click();
  assert.match(await byId('verdict').innerText(), /^Verdict: TRUE/);
  await page.screenshot({ path: path.join(artifacts, 'analysis-3-end.png') });
});

test('octagon-sep with a step limit of 300 ends UNKNOWN and the page stays responsive', async () => {
  await analyze('octagon-sep', 300);
  const status = await byId('run-status').innerText();
  assert.match(status, /UNKNOWN/);
  assert.match(status, /300/);
  assert.match(status, /step/i);
  await byId('run-end').click();
  assert.match(await byId('verdict').innerText(), /UNKNOWN/);
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
  // While computing, the page renders progress and answers to input.
  await page.waitForFunction(() => /computing… \d+ steps/.test(document.querySelector('[data-testid=run-status]').innerText));
  const t0 = Date.now();
  const answered = await page.evaluate(() => new Promise((resolve) => setTimeout(() => resolve(true), 0)));
  assert.equal(answered, true);
  const latency = Date.now() - t0;
  console.log(`timer latency while computing: ${latency} ms`);
  assert.ok(latency < 500, `the page answered within 500 ms (took ${latency})`);
  await byId('cancel').click();
  assert.match(await byId('run-status').innerText(), /cancelled after \d+ steps/);
});

test('time to render one step with a large reached set', async () => {
  // Listing 2.1 under octagon-sep grows one state per loop iteration.
  await page.getByRole('button', { name: 'Reset example' }).click();
  // Analyze runs the program the pane was last rendered with: wait until
  // the example (one function) is back, not the edited program.
  await page.waitForFunction(() => {
    const status = document.querySelector('[data-testid=status]');
    return status.classList.contains('status-ok') && status.innerText.startsWith('1 function,');
  });
  await analyze('octagon-sep', 1100);
  await byId('run-end').click();
  const reached = await byId('stats').innerText();
  console.log(`large run: ${reached}`);
  const times = [];
  for (let i = 0; i < 5; i++) {
    const ms = await page.evaluate(async () => {
      const pos = document.querySelector('[data-testid=position]').innerText;
      const t = performance.now();
      document.querySelector('[data-testid=step-back]').click();
      while (document.querySelector('[data-testid=position]').innerText === pos) {
        await new Promise((r) => setTimeout(r, 0));
      }
      return performance.now() - t;
    });
    times.push(ms);
  }
  console.log(`render one step back with the large reached set: ${times.map((t) => t.toFixed(1)).join(', ')} ms`);
  await page.screenshot({ path: path.join(artifacts, 'analysis-5-large.png') });
});

test('the analysis raised no errors', () => {
  assert.deepEqual(pageErrors, [], 'uncaught exceptions or panics in the page');
  assert.deepEqual(consoleErrors, [], 'console errors');
});

