// Browser end-to-end test of CEGAR in the page (dist/): the octagon
// thesis's footnote program under octagon-cegar — the iterations appear as
// segments of the timeline, the spurious counterexample is spelled out and
// painted on the CFA graph, and the precision shows `x` tracked (marked new
// when the refinement adds it) and never the loop counter `n`. Then a
// value-cegar run whose explicit-value interpolants are drawn on the CFA
// graph from the first refinement on (on the folded box when chains fold).
//
//   DIST_DIR=dist node --test tests/e2e/cegar.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, artifacts, atEvent, expectCount, expectText, shownEvent, untilOk, useBrowser } from './harness.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FOOTNOTE = fs.readFileSync(path.join(repo, 'static', 'examples', 'cegar-footnote.c'), 'utf8');

let page, baseUrl, pageErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-cegar-', timeout: 60_000 });
before(async () => ({ page, baseUrl, pageErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

test('octagon-cegar on the footnote program: iterations, the spurious path on the CFA, the precision', async () => {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), FOOTNOTE);
  await page.reload();
  await byId('cfa-listing').waitFor();
  await analyze(page, 'octagon-cegar');
  assert.match(await byId('run-status').innerText(), /octagon-cegar.*TRUE/);
  await byId('run-end').click();
  // The last event shows the verdict; the CEGAR panels come with the same render.
  await byId('verdict').waitFor();
  // CEGAR numbers each iteration's steps from 1; the position says which
  // iteration and how many steps in all (what the statistics count).
  const [, iteration, here, all] = (await byId('position').innerText()).match(/^iteration (\d+), step (\d+) \((\d+) in all\) · event \d+ \/ \d+$/);
  assert.ok(Number(iteration) >= 2 && Number(here) < Number(all), `iteration ${iteration}, step ${here} of ${all}`);
  assert.match(await byId('stats').innerText(), new RegExp(`steps ${all}$`));
  await byId('tab-cegar').click();

  const iterations = await page.locator('[data-testid=iterations] .iteration').count();
  assert.ok(iterations >= 2, `a refinement starts a new iteration (${iterations})`);
  assert.match(await byId('cegar-verdict').innerText(), /infeasible/);
  const tracked = await page.locator('[data-testid=cegar-precision] li').allInnerTexts();
  assert.ok(tracked.some((t) => /\bx @/.test(t)), `x is tracked: ${tracked}`);
  assert.ok(!tracked.some((t) => /::n @|\bn @/.test(t)), `the loop counter is never tracked: ${tracked}`);

  // The counterexample's edges are painted on the CFA graph.
  // (The graph follows the shown position through an effect: it may come a render later.)
  await untilOk(
    page,
    () => page.evaluate(() => [...document.querySelectorAll('g.cfa-edge path.line')].filter((p) => getComputedStyle(p).strokeWidth === '3px').length),
    (painted) => assert.ok(painted >= 3, `the spurious path is drawn on the CFA (${painted} edges)`),
  );
  await page.screenshot({ path: path.join(artifacts, 'cegar-1-end.png') });

  // The first segment seeks to the first iteration, before any refinement.
  await page.locator('[data-testid=iterations] .iteration').first().click();
  await atEvent(page, 0);
  await expectCount(byId('cegar'), 0, 'nothing of CEGAR is shown before it did anything');
});

// `x` is constant, the loop irrelevant (the gallery example
// cegar-interpolants): value-cegar refutes the path through `x != 6` with the
// interpolant {x=6} along it (crates/web/tests/cfa_interpolants.rs checks the
// same run natively).
const CONSTANT = fs.readFileSync(path.join(repo, 'static', 'examples', 'cegar-interpolants.c'), 'utf8');

test("value-cegar: the latest refinement's interpolants are labels on the CFA graph, gone before it", async () => {
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), CONSTANT);
  await page.reload();
  await byId('cfa-listing').waitFor();
  await analyze(page, 'value-cegar');
  const labels = page.locator('[data-testid=cfa-graph] g.cfa-interpolant');
  const texts = () => labels.evaluateAll((els) => els.map((e) => [e.getAttribute('data-node'), e.querySelector('text').textContent]));

  await byId('step-start').click();
  await atEvent(page, 0);
  await byId('bp-refinement').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=position]').dataset.event !== '0');
  const at = await shownEvent(page);
  assert.match(await byId('step-text').innerText(), /refinement/);
  await labels.first().waitFor();
  assert.deepEqual(await texts(), [
    ['N1', '{x=6}'], ['N2', '{x=6}'], ['N3', '{x=6}'], ['N4', '{x=6}'], ['N6', '{x=6}'], ['N7', 'false'],
  ]);
  const head = page.locator('[data-testid=cfa-graph] .cfa-interpolant[data-node=N4]');
  assert.match(await head.locator('title').textContent(), /^interpolant at N4[\s\S]*\{main::x=6\}/);
  // No label covers a node's circle or box.
  const overlaps = await page.evaluate(() => {
    const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const shapes = [...document.querySelectorAll('[data-testid=cfa-graph] g.cfa-node .shape')].map((e) => e.getBoundingClientRect());
    return [...document.querySelectorAll('[data-testid=cfa-graph] g.cfa-interpolant rect')]
      .filter((r) => shapes.some((s) => meet(r.getBoundingClientRect(), s))).length;
  });
  assert.equal(overlaps, 0, 'labels sit beside the nodes');
  await page.locator('[data-testid=graphs] [data-testid=graph-fit]').click();
  await page.screenshot({ path: path.join(artifacts, 'cegar-interpolants.png') });

  // Folded, N1–N3 is one box that carries its nodes' labels, one per row.
  await byId('graph-fold').click();
  await page.locator('[data-testid=cfa-graph] g.cfa-node.folded').first().waitFor();
  assert.deepEqual((await texts()).slice(0, 3), [['N1', 'N1: {x=6}'], ['N2', 'N2: {x=6}'], ['N3', 'N3: {x=6}']]);
  await page.screenshot({ path: path.join(artifacts, 'cegar-interpolants-folded.png') });
  await byId('graph-fold').click();
  await page.locator('[data-testid=cfa-graph] g.cfa-node.folded').first().waitFor({ state: 'detached' });

  // One event back, before the refinement: no interpolant is drawn.
  await byId('event-back').click();
  await atEvent(page, at - 1);
  await labels.first().waitFor({ state: 'detached' });
  assert.equal(await labels.count(), 0);
  await byId('event-next').click();
  await atEvent(page, at);
  await labels.first().waitFor();
  assert.equal(await labels.count(), 6);
});

test('the CEGAR view raised no page errors', () => {
  assert.deepEqual(pageErrors, []);
});
