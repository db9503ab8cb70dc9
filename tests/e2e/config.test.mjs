// Browser end-to-end tests of the configuration panel (dist/): the form and
// the properties text stay in sync both ways, the composed configuration is
// what Analyze runs, a broken text is reported, and a share link carries it.
//
//   DIST_DIR=dist node --test tests/e2e/config.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, expectCount, expectText, setEditorText, until, untilOk, useBrowser } from './harness.mjs';

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-config-', timeout: 30_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);
const text = () => byId('config-text').inputValue();
const done = () => page.waitForFunction(() => !document.querySelector('[data-testid=run-status]')?.classList.contains('computing'));

test('form changes edit the properties text, and the text drives the form', async () => {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await byId('preset').selectOption('octagon-widening');
  await page.locator('[data-testid=config-panel] > summary').click();
  await untilOk(page, text, (t) => assert.match(t, /^#include octagon-widening\.properties$/m));
  assert.equal(await byId('config-domain').inputValue(), 'octagon');
  assert.equal(await byId('config-merge').inputValue(), 'WIDENING');

  // Form → text.
  await byId('config-merge').selectOption('JOIN');
  await page.waitForFunction(() => /cpa\.octagon\.mergeop\.type = JOIN/.test(document.querySelector('[data-testid=config-text]').value));
  // octagon-widening merges only at loop heads; let join merge everywhere.
  assert.equal(await byId('config-loop-heads').isChecked(), true);
  await byId('config-loop-heads').uncheck();
  await page.waitForFunction(() => /onlyMergeAtLoopHeads = false/.test(document.querySelector('[data-testid=config-text]').value));
  await byId('config-order').selectOption('BFS');
  await page.waitForFunction(() => /analysis\.traversal\.order = BFS/.test(document.querySelector('[data-testid=config-text]').value));
  assert.equal((await text()).match(/mergeop\.type/g).length, 1);
  await page.screenshot({ path: path.join(artifacts, 'config-1-form.png') });

  // What runs is the composed configuration.
  await byId('analyze').click();
  await done();
  // merge^join on the unbounded loop never stabilizes (Table 3.1): the step limit ends it.
  assert.match(await byId('run-status').innerText(), /custom \(from octagon-widening\), c, ≤ 2000 steps: UNKNOWN — step limit/);
  await byId('bp-merge').click();
  await expectText(byId('step-text'), /join → s\d+ replaces/, 'the run merges with join, not widening');

  // Text → form.
  await byId('config-text').fill('#include value.properties\n# mine\ncpa.value.merge = JOIN\n');
  await page.waitForFunction(() => document.querySelector('[data-testid=config-domain]')?.value === 'value');
  assert.equal(await byId('config-merge').inputValue(), 'JOIN');
  assert.equal(await byId('config-order').inputValue(), 'DFS');
  // The value analysis offers no widening.
  assert.deepEqual(await byId('config-merge').locator('option').allInnerTexts(), ['sep', 'join']);

  // A broken text is reported with its line; Analyze says what is wrong.
  await byId('config-text').fill('#include value.properties\ncpa.value.merge = MAYBE\n');
  await byId('config-error').waitFor();
  assert.match(await byId('config-error').innerText(), /panel\.properties:2: bad value for `cpa\.value\.merge`/);
  await byId('analyze').click();
  await page.waitForFunction(() => /bad value/.test(document.querySelector('[data-testid=run-status]')?.innerText ?? ''));
  await page.screenshot({ path: path.join(artifacts, 'config-2-error.png') });

  // Back to the preset.
  await byId('config-reset').click();
  await untilOk(page, text, (t) => assert.match(t, /^#include octagon-widening\.properties$/m));
  await expectCount(byId('config-error'), 0);
});

test('a configuration the engine cannot run soundly is refused, in the panel and by Analyze', async () => {
  // Live: a composite without LocationCPA is named in the panel.
  await byId('config-text').fill('#include value.properties\nCompositeCPA.cpas = cpa.callstack.CallstackCPA, cpa.value.ValueAnalysisCPA\n');
  await expectText(byId('config-invalid').first(), /LocationCPA/);
  await byId('analyze').click();
  await expectText(byId('run-status'), /configuration: /);
  // Depending on the program: a program with calls needs CallstackCPA.
  await byId('config-reset').click();
  await untilOk(page, text, (t) => assert.match(t, /^#include octagon-widening\.properties$/m));
  const calls = 'int f(int a) { return a + 1; }\nint main() { int x = f(1); return x; }\n';
  await setEditorText(page, calls);
  await page.waitForFunction(() => document.querySelector('[data-testid=cfa-listing]')?.innerText.includes('return from f'));
  await byId('config-text').fill('#include octagon-widening.properties\nCompositeCPA.cpas = cpa.location.LocationCPA, cpa.octagon.OctagonCPA\n');
  await expectCount(byId('config-invalid'), 0);
  await byId('analyze').click();
  await expectText(byId('config-invalid').first(), /calls functions \(line \d+: f\).*CallstackCPA/);
  await page.screenshot({ path: path.join(artifacts, 'config-3-invalid.png') });
  await byId('config-reset').click();
  await untilOk(page, text, (t) => assert.match(t, /^#include octagon-widening\.properties$/m));
});

test('a share link carries the composed configuration', async () => {
  await byId('config-merge').selectOption('SEP');
  await page.waitForFunction(() => /mergeop\.type = SEP/.test(document.querySelector('[data-testid=config-text]').value));
  const composed = await text();
  await byId('share').click();
  const url = await byId('share-link').inputValue();
  await page.evaluate(() => localStorage.clear());
  await page.goto('about:blank');
  await page.goto(url);
  await byId('config-text').waitFor({ state: 'attached' });
  await until(page, text, composed);
  assert.equal(await byId('config-merge').inputValue(), 'SEP');
});

test('the configuration panel raised no errors', () => {
  assert.deepEqual(pageErrors, [], 'uncaught exceptions or panics in the page');
  assert.deepEqual(consoleErrors, [], 'console errors');
});
