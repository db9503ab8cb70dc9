// Browser end-to-end test of CEGAR in the page (dist/): the octagon
// thesis's footnote program under octagon-cegar — the iterations appear as
// segments of the timeline, the spurious counterexample is spelled out and
// painted on the CFA graph, and the precision shows `x` tracked (marked new
// when the refinement adds it) and never the loop counter `n`.
//
//   DIST_DIR=dist node --test tests/e2e/cegar.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, artifacts, useBrowser } from './harness.mjs';

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

  const iterations = await page.locator('[data-testid=iterations] .iteration').count();
  assert.ok(iterations >= 2, `a refinement starts a new iteration (${iterations})`);
  assert.match(await byId('cegar-verdict').innerText(), /infeasible/);
  const tracked = await page.locator('[data-testid=cegar-precision] li').allInnerTexts();
  assert.ok(tracked.some((t) => /\bx @/.test(t)), `x is tracked: ${tracked}`);
  assert.ok(!tracked.some((t) => /::n @|\bn @/.test(t)), `the loop counter is never tracked: ${tracked}`);

  // The counterexample's edges are painted on the CFA graph.
  const painted = await page.evaluate(() =>
    [...document.querySelectorAll('g.cfa-edge path.line')].filter((p) => getComputedStyle(p).strokeWidth === '3px').length,
  );
  assert.ok(painted >= 3, `the spurious path is drawn on the CFA (${painted} edges)`);
  await page.screenshot({ path: path.join(artifacts, 'cegar-1-end.png') });

  // The first segment seeks to the first iteration, before any refinement.
  await page.locator('[data-testid=iterations] .iteration').first().click();
  assert.match(await byId('position').innerText(), /^event 0 of/);
  assert.equal(await byId('cegar').count(), 0, 'nothing of CEGAR is shown before it did anything');
});

test('the CEGAR view raised no page errors', () => {
  assert.deepEqual(pageErrors, []);
});
