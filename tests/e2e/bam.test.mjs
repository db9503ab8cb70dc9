// Browser end-to-end test of block-abstraction memoization in the page
// (dist/): a function with a loop called five times with the same argument,
// under `bam-value-predicate` (value ∥ predicate inside BAM; its queries
// answered by the page's z3-solver, so a block analysis parks on queries
// like any run). The run is TRUE; stepping finds a step whose text reports
// a cache hit (the summary of `count` reused) and the statistics count the
// hits. The block view itself (call tree, cache) is not built yet; this
// checks that the page runs BAM and words its events.
//
//   DIST_DIR=dist node --test tests/e2e/bam.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analyze, artifacts, expectText, untilOk, useBrowser, withoutKnownZ3Errors } from './harness.mjs';

const LOOP5 = `extern void reach_error(void);
int count(int n) {
  int i = 0;
  while (i < n) {
    i = i + 1;
  }
  return i;
}
int main(void) {
  int a = count(3);
  int b = count(3);
  int c = count(3);
  int d = count(3);
  int e = count(3);
  if (a + b + c + d + e != 15) {
    reach_error();
  }
  return 0;
}
`;

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-bam-', timeout: 120_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

test('a BAM run in the page reuses the block summary and says so', async () => {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), LOOP5);
  await page.reload();
  await byId('cfa-listing').waitFor();
  const presets = await byId('preset').locator('option').evaluateAll((os) => os.map((o) => o.value));
  for (const p of ['bam-value', 'bam-predicate', 'bam-value-predicate']) {
    assert.ok(presets.includes(p), `${p} offered: ${presets}`);
  }
  await analyze(page, 'bam-value-predicate');
  await expectText(byId('cegar-verdict').or(byId('run-status')), /true/i, 'the run is TRUE');
  // Step until a step's text reports a cache hit.
  let found = 0;
  for (let step = 1; step <= 60 && !found; step++) {
    await byId('step-number').fill(String(step));
    await byId('step-number').press('Enter');
    await untilOk(page, () => byId('step-number').inputValue(), (v) => assert.equal(v, String(step)));
    const text = await byId('step-text').innerText();
    if (/cache hit/.test(text)) found = step;
  }
  assert.ok(found > 0, 'some step reports a cache hit');
  await expectText(byId('step-text'), /summary is reused, count is not analysed again/, 'the hit in words');
  await page.screenshot({ path: path.join(artifacts, 'bam-cache-hit.png'), fullPage: false });
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors), []);
});
