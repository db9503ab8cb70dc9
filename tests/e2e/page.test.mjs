// Browser end-to-end tests of the built page (dist/), as a student uses it:
// load it, read the CFA of the built-in example, break the program, read the
// error, fix it. Runs headless Debian chromium through playwright-core.
//
//   node --test tests/e2e/        (after `trunk build --release`)
//
// Environment: DIST_DIR (default dist), CHROMIUM (default /usr/bin/chromium).
// Screenshots go to tests/e2e/artifacts/ (git-ignored).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, editorReady, editorText as editorTextOf, until, useBrowser } from './harness.mjs';

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-profile-', timeout: 20_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

// The editor is CodeMirror (www/js/editor.mjs); its global `CpaEditor`
// reads the text and places the caret, and the keyboard types as a person does.

/** The editor's text (once the editor exists). */
const editorText = () => editorTextOf(page);

/** The editor's caret: whether it has the focus, the caret offset, and the text. */
const editorCaret = async () => {
  await editorReady(page);
  return page.evaluate(() => {
    const view = CpaEditor.find(document.querySelector('[data-testid=editor]'));
    return { focused: view.hasFocus, at: view.state.selection.main.head, text: view.state.doc.toString() };
  });
};

/** Puts the caret right after the first occurrence of `needle` in the editor (and focuses it). */
async function caretAfter(needle) {
  await editorReady(page);
  await page.evaluate((needle) => {
    const view = CpaEditor.find(document.querySelector('[data-testid=editor]'));
    const i = view.state.doc.toString().indexOf(needle);
    if (i < 0) throw new Error(`"${needle}" is not in the editor`);
    CpaEditor.setCaretOffset(view, i + needle.length);
  }, needle);
}

/** The line numbers the editor's gutter marks with `cls`. */
const markedLines = (cls) => page.locator(`[data-testid=editor] .cm-lineNumbers .cm-gutterElement.${cls}`).allInnerTexts();

/**
 * Waits until the gutter marks exactly `lines` with `cls`, then asserts it
 * (an effect after the page's render pass sets the marks, maybe later).
 */
const expectMarked = (cls, lines, message) => until(page, () => markedLines(cls), lines, message);

test('the page loads cross-origin isolated and renders the example CFA', async () => {
  const started = Date.now();
  await page.goto(baseUrl);
  const listing = page.locator('[data-testid=cfa-listing]');
  await listing.waitFor();
  const loadMs = Date.now() - started;

  assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'page must be cross-origin isolated (COOP/COEP)');

  // Time from navigation start to the app's first complete render (a
  // performance.mark the app sets after its first render).
  const firstRender = await page.evaluate(
    () => performance.getEntriesByName('cpa-playground:first-render')[0]?.startTime ?? null,
  );
  assert.notEqual(firstRender, null, 'the app marks its first render');
  console.log(`time to first render: ${firstRender.toFixed(0)} ms after navigation start (goto → listing visible: ${loadMs} ms)`);

  const text = await listing.innerText();
  assert.match(text, /\bmain\b/, 'the listing names function main');
  assert.match(text, /loop head/, 'the while loop has a loop head');
  assert.match(text, /ERROR/, 'the ERROR label is an error node');
  assert.match(text, /ticks/, 'edges are labelled with their operations');
  assert.match(await page.locator('[data-testid=status]').innerText(), /1 function, \d+ nodes, \d+ edges/);

  // The JSON block is collapsed but holds the program's JSON view.
  const json = JSON.parse(await page.locator('[data-testid=cfa-json]').textContent());
  assert.equal(json.main, 'main');
  assert.ok(json.nodes.some((n) => n.error), 'the JSON marks an error node');
  assert.ok(json.nodes.some((n) => n.loop_head), 'the JSON marks a loop head');

  await page.screenshot({ path: path.join(artifacts, '1-example-cfa.png') });
});

test('a syntax error shows its line and column, and fixing it brings the CFA back', async () => {
  const listingBefore = await page.locator('[data-testid=cfa-listing]').innerText();

  // Delete the `;` of `int ticks = 0;` (line 8) as a person would.
  await caretAfter('int ticks = 0;');
  await page.keyboard.press('Backspace');

  const diagnostics = page.locator('[data-testid=diagnostics]');
  await diagnostics.waitFor();
  const diagText = await diagnostics.innerText();
  // The parser points where the `;` belongs: the end of line 8, column 16
  // (after `int ticks = 0`), and names what follows on line 9.
  assert.match(diagText, /\b8:16\b/, `diagnostic with line:column, got:\n${diagText}`);
  assert.match(diagText, /expected `;` after the declaration, found `int` on line 9/, 'the message says what was expected');
  assert.equal(await page.locator('[data-testid=cfa-listing]').count(), 0, 'no CFA while the program is broken');
  await expectMarked('cpa-error-line', ['8'], 'the gutter marks the error line');
  // The editor underlines the place itself (line 8's end), with the message.
  await page.locator('[data-testid=editor] .cm-lintRange-error').first().waitFor();
  await page.screenshot({ path: path.join(artifacts, '2-syntax-error.png') });

  // Clicking the diagnostic puts the caret at line 8, column 16: exactly
  // where the `;` has to be typed.
  await diagnostics.locator('button.diag-jump').first().click();
  const caret = await editorCaret();
  assert.equal(caret.focused, true, 'the editor has the focus');
  assert.equal(caret.at, caret.text.split('\n').slice(0, 7).join('\n').length + 1 + 15, 'the caret is at the diagnostic');
  assert.equal(caret.text.slice(caret.at - 13, caret.at), 'int ticks = 0');

  // Type the `;` right there.
  await page.keyboard.type(';');
  const listing = page.locator('[data-testid=cfa-listing]');
  await listing.waitFor();
  assert.equal(await listing.innerText(), listingBefore, 'the same CFA as before the error');
  await expectMarked('cpa-error-line', []);
  await page.screenshot({ path: path.join(artifacts, '3-fixed.png') });
});

test('Tab indents inside the editor instead of leaving it', async () => {
  await caretAfter('ticks++;');
  await page.keyboard.press('Tab');
  assert.match(await editorText(), /ticks\+\+; {2}\n/);
  assert.equal((await editorCaret()).focused, true);
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  assert.match(await editorText(), /ticks\+\+;\n/);
});

test('the program survives a reload', async () => {
  await caretAfter('int ticks = 0;');
  await page.keyboard.type(' int spare = 1;');
  await page.locator('[data-testid=cfa-listing]').getByText('int spare = 1;').first().waitFor();
  // The program is stored by an effect after the render: wait for it before the reload.
  await page.waitForFunction(() => (localStorage.getItem('cpa-playground.program') ?? '').includes('int spare = 1;'));
  await page.reload();
  await page.locator('[data-testid=cfa-listing]').waitFor();
  assert.match(await editorText(), /int spare = 1;/);

  // "Reset example" puts the built-in program back.
  await page.getByRole('button', { name: 'Reset example' }).click();
  await page.waitForFunction(() => !CpaEditor.getText(CpaEditor.find(document.querySelector('[data-testid=editor]'))).includes('spare'));
});

test('the page raised no errors', () => {
  assert.deepEqual(pageErrors, [], 'uncaught exceptions or panics in the page');
  assert.deepEqual(consoleErrors, [], 'console errors');
});
