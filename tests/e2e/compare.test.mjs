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
import { artifacts, expectCount, until, untilOk, useBrowser, withoutKnownZ3Errors } from './harness.mjs';

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
  const program = `extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x > 5) {
    if (x < 3) {
ERROR:
      return 1;
    }
  }
  return 0;
}
`;
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), program);
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
  assert.equal(rows.symbolic.verdict, 'TRUE', 'x > 5 && x < 3 is infeasible (Z3 says unsat)');
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
