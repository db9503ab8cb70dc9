// Browser end-to-end tests of the integer model (dist/): C's integers are the
// page's default, and a TRUE over mathematical integers says, under the
// verdict, which operation could behave differently in C.
//
//   DIST_DIR=dist node --test tests/e2e/int-model.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analyze, artifacts, useBrowser } from './harness.mjs';

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-int-model-', timeout: 30_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

test('C integers are the default; a math TRUE carries the caveat naming ticks++', async () => {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  assert.equal(await byId('int-model').inputValue(), 'c', 'a fresh page analyses with C integers');

  // The built-in example (the octagon thesis's Listing 2.1) under C: TRUE, nothing to warn about.
  await analyze(page, 'octagon-widening');
  assert.match(await byId('run-status').innerText(), /^octagon-widening, c, /);
  await byId('run-end').click();
  await byId('verdict').waitFor();
  assert.match(await byId('verdict').innerText(), /^Verdict: TRUE/);
  assert.equal(await byId('int-model-caveat').count(), 0, 'no caveat under C');

  // The same over mathematical integers: TRUE, and `ticks++` is named.
  await byId('int-model').selectOption('math');
  await analyze(page, 'octagon-widening');
  assert.match(await byId('run-status').innerText(), /^octagon-widening, math, /);
  await byId('run-end').click();
  await byId('int-model-caveat').waitFor();
  const caveat = await byId('int-model-caveat').innerText();
  assert.match(caveat, /mathematical integers only/);
  assert.match(caveat, /line \d+, column \d+: `ticks \+ 1` may overflow `int`/);
  assert.doesNotMatch(await byId('verdict').innerText(), /mathematical integers only/, 'the verdict line does not repeat it');
  await page.screenshot({ path: path.join(artifacts, 'int-model-caveat.png') });

  // Back to C: the caveat is gone again.
  await byId('int-model').selectOption('c');
  await analyze(page, 'octagon-widening');
  await byId('run-end').click();
  await byId('verdict').waitFor();
  assert.equal(await byId('int-model-caveat').count(), 0);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(consoleErrors, []);
});
