// Browser end-to-end tests of the way back to a replaced program (dist/):
// opening a gallery example, a share link or "Reset example" over the
// student's own program keeps it, offers "Restore your previous program",
// and lists it under "Previous programs"; an opened example keeps its
// "What to look at" guidance next to the editor until dismissed.
//
//   DIST_DIR=dist node --test tests/e2e/program-history.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, editorReady, editorText as editorTextOf, expectCount, until, useBrowser } from './harness.mjs';

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-history-', timeout: 30_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

/** The student's own program: not the built-in example, not a gallery one. */
const MINE = `// my homework
int main(void) {
  int x = 1;
  if (x != 1) {
ERROR:
    return 1;
  }
  return 0;
}
`;

const editorText = () => editorTextOf(page);
const storedProgram = () => page.evaluate(() => localStorage.getItem('cpa-playground.program'));
const kept = () => page.evaluate(() => JSON.parse(localStorage.getItem('cpa-playground.previous-programs') ?? '{"programs":[]}').programs);

/** A fresh page whose stored program is MINE (nothing else kept). */
async function startWithMine() {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await page.evaluate((p) => {
    localStorage.clear();
    localStorage.setItem('cpa-playground.program', p);
  }, MINE);
  await page.goto('about:blank');
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  assert.equal(await editorText(), MINE);
}

test('opening a gallery example keeps the student program and restores it on request', async () => {
  await startWithMine();
  await expectCount(byId('replaced-notice'), 0, 'nothing was replaced yet');
  await byId('examples-button').click();
  await byId('gallery').waitFor();
  await Promise.all([page.waitForEvent('load'), byId('open-cegar-footnote').click()]);
  await byId('cfa-listing').waitFor();
  // This example opens its two configurations in the compare view, which
  // keeps the program and the example's guidance in view beside the panes.
  await page.setViewportSize({ width: 1280, height: 800 });
  const aside = byId('compare-source');
  await aside.waitFor();
  const asideText = await aside.innerText();
  assert.match(asideText, /extern int systemCall\(void\);/, 'the compared program is shown');
  assert.match(await byId('compare-guide').innerText(), /What to look at/);
  const asideBox = await aside.boundingBox();
  const paneBox = await byId('compare-pane').first().boundingBox();
  assert.ok(asideBox.x + asideBox.width <= paneBox.x + 1, 'the program sits beside the panes, not over them');
  assert.ok(asideBox.y >= 0 && asideBox.y < 200, 'at the top of the view');
  await page.screenshot({ path: path.join(artifacts, 'history-0-compare-with-source.png') });
  await byId('compare-close').click();
  const notice = byId('replaced-notice');
  await notice.waitFor();
  assert.match(await notice.innerText(), /The opened link replaced your program \(9 lines · int main\(void\) \{\)/);
  assert.deepEqual(await kept(), [MINE], 'the replaced program is kept in local storage');
  assert.notEqual(await editorText(), MINE);

  // The example's guidance is next to the program.
  const guide = byId('example-guide');
  await guide.waitFor();
  const guideText = await guide.innerText();
  assert.match(guideText, /A path explicit values cannot refute/);
  assert.match(guideText, /What to look at/);
  assert.doesNotMatch(guideText, /Both analyses start by tracking nothing/, 'only the guidance, not the introduction');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(artifacts, 'history-1-replaced-with-guide.png') });
  const box = await guide.boundingBox();
  const editor = await byId('editor').boundingBox();
  assert.ok(box && editor && box.y + box.height <= editor.y + 1, 'the guidance sits above the editor');
  assert.ok(Math.abs(box.x - editor.x) < 40, 'in the program pane');

  // Edits keep the guidance; dismissing removes it.
  await editorReady(page);
  await page.evaluate(() => {
    const v = CpaEditor.find(document.querySelector('[data-testid=editor]'));
    CpaEditor.setText(v, CpaEditor.getText(v) + '\n// a note\n');
  });
  await until(page, async () => (await storedProgram()).endsWith('// a note\n'), true, 'the edit is stored');
  assert.equal(await guide.count(), 1, 'an edit does not hide the guidance');
  await byId('dismiss-guide').click();
  await expectCount(byId('example-guide'), 0, 'dismissed');

  await byId('restore-program').click();
  await until(page, editorText, MINE, 'the student program is back in the editor');
  await expectCount(byId('replaced-notice'), 0, 'the notice is gone after restoring');
  await until(page, storedProgram, MINE, 'and stored again');
  assert.ok(!page.url().includes('#'), 'the link is dropped from the address, so a reload keeps the restored program');
  const keptNow = await kept();
  assert.equal(keptNow.length, 2, 'the example (as edited) is kept in turn');
  assert.ok(keptNow[0].endsWith('// a note\n'));

  await page.reload();
  await byId('cfa-listing').waitFor();
  assert.equal(await editorText(), MINE, 'a reload keeps the restored program');
  assert.deepEqual(pageErrors, []);
});

test('Reset example and the Previous programs menu keep what they replace', async () => {
  await startWithMine();
  await byId('reset').click();
  await byId('replaced-notice').waitFor();
  assert.match(await byId('replaced-notice').innerText(), /Reset example replaced your program/);
  assert.notEqual(await editorText(), MINE);

  // The menu lists the kept program; picking it swaps the texts.
  const menu = byId('previous-programs');
  await menu.waitFor();
  const options = await menu.locator('option').allInnerTexts();
  assert.deepEqual(options, ['Previous programs…', '9 lines · int main(void) {']);
  await menu.selectOption({ index: 1 });
  await until(page, editorText, MINE, 'the picked program is in the editor');
  assert.match(await byId('replaced-notice').innerText(), /replaced by a previous one/);
  const labels = await menu.locator('option').allInnerTexts();
  assert.equal(labels.length, 3, 'the built-in example is kept as well');
  await page.screenshot({ path: path.join(artifacts, 'history-2-menu.png') });

  // Nothing is offered when nothing of the student's is lost.
  await page.evaluate(() => localStorage.clear());
  await page.goto('about:blank');
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await byId('reset').click();
  await expectCount(byId('replaced-notice'), 0, 'resetting the built-in example over itself loses nothing');
  await expectCount(byId('previous-programs'), 0, 'no menu while nothing is kept');
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(consoleErrors, []);
});
