// Browser end-to-end tests of the compare view (dist/): Listing 2.1 with its
// loop bounded at 100 under octagon-sep, octagon-join and octagon-widening,
// stepped in sync; the summary rows (all TRUE; join keeps one state per
// reachable location; widening creates the fewest states); the divergence
// marker on the first merge that joined; and a share link that carries the
// compare set and its step.
//
//   DIST_DIR=dist node --test tests/e2e/compare.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { artifacts, expectCount, TWO_INPUT_PROGRAM, until, untilOk, useBrowser, withoutKnownZ3Errors } from './harness.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BOUNDED = fs.readFileSync(path.join(repo, 'static', 'examples', 'octagon-listing2-1-bounded.c'), 'utf8');

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-compare-', timeout: 60_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

async function summary() {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('[data-testid=compare-summary] tbody tr')].map((tr) => {
        const c = [...tr.querySelectorAll('td')].map((td) => td.innerText.trim());
        return [tr.dataset.preset, { terminates: c[1], verdict: c[2], reached: +c[3], created: +c[4], steps: +c[5], refinements: +c[6] }];
      }),
    ),
  );
}

async function panes() {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=compare-pane]')].map((p) => ({
      preset: p.dataset.preset,
      step: p.querySelector('[data-testid=compare-step-text]').innerText,
      diverges: p.classList.contains('diverges'),
    })),
  );
}

/** Per configuration: reached-state count per location (from the heat map). */
async function heat() {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('[data-testid=compare-heat] tbody tr')].map((tr) => [
        tr.dataset.preset,
        [...tr.querySelectorAll('td')].map((td) => Number(td.innerText || 0)),
      ]),
    ),
  );
}

const position = async () => Number((await byId('compare-position').innerText()).match(/^step (\d+) of/)[1]);
/** Waits until the compare view shows step `k` (it renders after the click or key). */
const atStep = (k) => until(page, position, k, `the compare view at step ${k}`);
/** Waits until the runs are computed: `n` configurations when given, else any number. */
const waitComputed = (n) =>
  page.waitForFunction(
    (n) => new RegExp(`^${n ?? '\\d+'} configurations`).test(document.querySelector('[data-testid=compare-status]')?.innerText ?? ''),
    n,
    { timeout: 60_000 },
  );

test('Listing 2.1 bounded at 100: octagon-sep, -join and -widening side by side', async () => {
  assert.match(BOUNDED, /ticks < 100/, 'the example bounds the loop at 100');
  await page.goto(baseUrl);
  // Wait for the app: its first render stores the program it shows.
  await byId('cfa-listing').waitFor();
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), BOUNDED);
  await page.goto('about:blank');
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  const t0 = Date.now();
  await byId('compare-open').click();
  await waitComputed();
  console.log(`three runs computed in ${Date.now() - t0} ms`);

  const rows = await summary();
  console.log(JSON.stringify(rows));
  assert.deepEqual(Object.keys(rows), ['octagon-sep', 'octagon-join', 'octagon-widening']);
  for (const [name, r] of Object.entries(rows)) {
    assert.equal(r.verdict, 'TRUE', name);
    assert.equal(r.terminates, 'yes', name);
    assert.equal(r.refinements, 0, name);
  }
  // At the end, join holds one state per reachable location.
  await byId('compare-end').click();
  await untilOk(page, () => byId('compare-position').innerText(), (t) => assert.match(t, /^step (\d+) of \1$/, 'at the last step'));
  const h = await heat();
  const reachable = h['octagon-sep'].filter((n) => n > 0).length;
  assert.ok(h['octagon-join'].every((n) => n <= 1), `join: at most one state per location ${h['octagon-join']}`);
  assert.equal(h['octagon-join'].filter((n) => n > 0).length, reachable, 'join reaches the locations sep reaches');
  assert.equal(rows['octagon-join'].reached, reachable, 'join reached = one state per reachable location');
  assert.ok(rows['octagon-sep'].reached > 100, 'sep keeps a state per value of ticks');
  assert.ok(rows['octagon-widening'].created < rows['octagon-join'].created, 'widening creates fewer states than join');
  assert.ok(rows['octagon-widening'].created < rows['octagon-sep'].created, 'widening creates fewer states than sep');
  // Each pane draws its CFA shaded by reached states; the loop head of sep is the hottest.
  assert.equal(await byId('compare-heat-cfa').count(), 3);
  await page.screenshot({ path: path.join(artifacts, 'compare-1-end.png'), fullPage: true });

  // Stepped in sync: each pane shows the same step number.
  await byId('compare-start').click();
  await atStep(0);
  for (let k = 1; k <= 3; k++) {
    await byId('compare-step-fwd').click();
    await atStep(k);
    for (const p of await panes()) assert.match(p.step, new RegExp(`^step ${k}: pop `), `${p.preset} at step ${k}`);
  }

  // The arrow keys step the compare view while it is open.
  await page.locator('.compare-head h2').click();
  await page.keyboard.press('ArrowRight');
  await atStep(4);
  await page.keyboard.press('ArrowLeft');
  await atStep(3);

  // The divergence marker is on the first merge that joined.
  const banner = await byId('compare-divergence').innerText();
  assert.match(banner, /First divergence at step \d+/);
  const d = Number(banner.match(/First divergence at step (\d+)/)[1]);
  await byId('compare-jump-divergence').click();
  await atStep(d);
  const at = await panes();
  const join = at.find((p) => p.preset === 'octagon-join');
  assert.match(join.step, /merge s\d+ with s\d+: join → s\d+ replaces s\d+/, 'octagon-join joins at the divergence');
  assert.ok(join.diverges || at.find((p) => p.preset === 'octagon-widening').diverges, 'a pane is marked as diverging');
  assert.equal(at.find((p) => p.preset === 'octagon-sep').diverges, false, 'the reference pane is the first');
  assert.doesNotMatch(at.find((p) => p.preset === 'octagon-sep').step, /replaces/, 'merge^sep never replaces');
  await page.screenshot({ path: path.join(artifacts, 'compare-2-divergence.png'), fullPage: true });
  // No merge joined before it.
  for (let k = 1; k < d; k++) {
    await byId('compare-step').fill(String(k));
    await atStep(k);
    for (const p of await panes()) assert.doesNotMatch(p.step, /replaces/, `${p.preset} at step ${k} < ${d}`);
  }
  console.log(`first divergence: step ${d}: ${join.step}`);
});

/** Pairs of boxes among `boxes` ([left, top, right, bottom]) that intersect. */
function intersecting(boxes) {
  const out = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      if (a.box[0] < b.box[2] && b.box[0] < a.box[2] && a.box[1] < b.box[3] && b.box[1] < a.box[3]) out.push(`"${a.text}" / "${b.text}"`);
    }
  }
  return out;
}

test('a compare pane inspects a clicked state; the heat map names nodes by id and marks the error node; chart labels do not overlap', async () => {
  // At the divergence: octagon-join has just joined at the loop head.
  const join = page.locator('[data-testid=compare-pane][data-preset=octagon-join]');
  const chip = join.locator('[data-testid=compare-state]').last();
  const id = await chip.getAttribute('data-state');
  await chip.click();
  const card = join.locator('[data-testid=compare-inspect] [data-testid=state-card]');
  await untilOk(page, () => card.locator('.insp-head .sid').innerText(), (t) => assert.equal(t, id, 'the clicked state is inspected'));
  assert.match(await card.locator('.insp-head').innerText(), new RegExp(`^${id} @N\\d+ — `));
  assert.ok((await card.locator('[data-testid=inspect-constraints] li').count()) >= 1, 'its octagon constraints are shown');
  assert.equal(await chip.evaluate((e) => e.classList.contains('inspected')), true);
  // Only that pane inspects it.
  assert.equal(await page.locator('[data-testid=compare-inspect]').count(), 1);

  // Heat map: every node is labelled by its id; the error location is marked.
  for (const cfa of await byId('compare-heat-cfa').all()) {
    const labels = await cfa.locator('.heat-label').allTextContents();
    assert.ok(labels.length > 5 && labels.every((l) => /^N\d+(–N\d+)?$/.test(l)), `labels are ids: ${labels}`);
    const errors = await cfa.locator('.heat-g.error').evaluateAll((els) => els.map((e) => e.querySelector('.heat-label').textContent));
    assert.equal(errors.length, 1, 'one error node');
    assert.match(errors[0], /^N\d+$/);
  }
  const errorColumns = await page.locator('[data-testid=compare-heat] thead th.error').allTextContents();
  assert.equal(errorColumns.length, 1, `the heat table marks the error location's column: ${errorColumns}`);

  // Chart labels (ticks and line ends) do not overlap, at the divergence and at the end.
  const labelBoxes = (testid) =>
    page.locator(`[data-testid=${testid}] svg text`).evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { text: e.textContent, box: [r.left, r.top, r.right, r.bottom] };
      }),
    );
  for (const testid of ['compare-plot-reached', 'compare-plot-created']) {
    assert.deepEqual(intersecting(await labelBoxes(testid)), [], `${testid}: labels overlap`);
  }
  await join.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'compare-3-inspect.png') });
  // Clicked again: no longer inspected.
  await chip.click();
  await expectCount(page.locator('[data-testid=compare-inspect]'), 0);
  await byId('compare-end').click();
  await untilOk(page, () => byId('compare-position').innerText(), (t) => assert.match(t, /^step (\d+) of \1$/));
  for (const testid of ['compare-plot-reached', 'compare-plot-created']) {
    await untilOk(page, () => labelBoxes(testid), (b) => assert.deepEqual(intersecting(b), [], `${testid} at the end: labels overlap`));
  }
  await byId('compare-plot-reached').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'compare-4-plots.png') });
});

test('a share link carries the compare set and its step', async () => {
  await byId('compare-step').fill('7');
  await atStep(7);
  await byId('share').click();
  const url = await byId('share-link').inputValue();
  const before = await panes();
  await page.evaluate(() => localStorage.clear());
  await page.goto('about:blank');
  await page.goto(url);
  await byId('compare-view').waitFor();
  await waitComputed();
  await page.waitForFunction(() => /^step 7 of/.test(document.querySelector('[data-testid=compare-position]')?.innerText ?? ''));
  assert.deepEqual(await panes(), before);
  await byId('compare-close').click();
  await expectCount(byId('compare-view'), 0);
  await byId('cfa-listing').waitFor();
});

test('a symbolic configuration in the compare set asks Z3 in the page and finishes', async () => {
  // Two inputs in one comparison: the engine decides no query itself
  // (it does those over one input), so Z3 answers them.
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), TWO_INPUT_PROGRAM);
  await page.goto('about:blank');
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await byId('compare-open').click();
  await waitComputed();
  await byId('compare-preset-0').selectOption('value');
  await byId('compare-preset-1').selectOption('symbolic');
  await byId('compare-preset-2').selectOption('');
  await byId('compare-run').click();
  // Two configurations now (the status of the three before said three).
  await waitComputed(2);
  const rows = await summary();
  assert.deepEqual(Object.keys(rows), ['value', 'symbolic']);
  assert.equal(rows.symbolic.verdict, 'TRUE', 'x > y && x < y is infeasible (Z3 says unsat)');
  assert.equal(rows.value.verdict, 'FALSE', 'the value analysis cannot tell (an unconfirmed alarm)');
  await byId('compare-close').click();
  await expectCount(byId('compare-view'), 0);
  // textContent: the solver log may be closed (then nothing in it is rendered).
  const log = await page.evaluate(() => [...document.querySelectorAll('[data-testid=solver-entry] .solver-origin')].map((e) => e.textContent));
  assert.ok(log.some((o) => /^compare \(symbolic\): query \d+$/.test(o)), `the queries are in the solver log: ${log}`);
});

test('the compare view raised no errors', () => {
  assert.deepEqual(pageErrors, [], 'uncaught exceptions or panics in the page');
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors), [], 'console errors');
});
