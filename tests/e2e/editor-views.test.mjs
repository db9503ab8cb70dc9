// Browser end-to-end tests of the code editor (CodeMirror, www/js/editor.mjs),
// the state inspector (values, octagon constraints, DBM, 2-D plot) and
// predict mode, against the built page (dist/).
//
//   node --test tests/e2e/        (after `trunk build --release`)
//
// Screenshots go to tests/e2e/artifacts/ (git-ignored).

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analyze as analyzeIn, artifacts, editorReady, atEvent, expectText, settled, shownEvent, stateRows, until, untilOk, useBrowser } from './harness.mjs';

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-editor-', timeout: 30_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);
const analyze = (preset) => analyzeIn(page, preset);

/** Calls `CpaEditor.<fn>(view, ...args)` on the page's editor (once it exists). */
const editorCall = async (fn, ...args) => {
  await editorReady(page);
  return page.evaluate(([fn, args]) => CpaEditor[fn](CpaEditor.find(document.querySelector('[data-testid=editor]')), ...args), [fn, args]);
};

/** Puts the caret right after the first occurrence of `needle` (and focuses the editor). */
async function caretAfter(needle) {
  const text = await editorCall('getText');
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `"${needle}" is not in the editor`);
  await editorCall('setCaretOffset', i + needle.length);
}

/** Replaces the whole program, as a paste would, and waits until the CFA listing shows `marker`. */
async function setProgram(text, marker) {
  await editorCall('setText', text);
  await page.waitForFunction((m) => document.querySelector('[data-testid=cfa-listing]')?.innerText.includes(m), marker);
}

/** The line numbers the gutter marks with `cls`. */
const markedLines = (cls) => page.locator(`[data-testid=editor] .cm-lineNumbers .cm-gutterElement.${cls}`).allInnerTexts();

/**
 * Waits until the gutter marks exactly `lines` with `cls`, then asserts it.
 * The marks are set by effects that run after the page's render pass,
 * possibly in a later task.
 */
const expectMarked = (cls, lines, message) => until(page, () => markedLines(cls), lines, message);

/** The shown event position, as a number. */
const position = () => shownEvent(page);

/** Clicks the one-event button and waits until the panels show the next event. */
async function step() {
  const k = await position();
  await byId('event-next').click();
  await atEvent(page, k + 1);
}

test('the editor highlights mini-C tokens with classes and matches brackets', async () => {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await editorReady(page);
  const tokens = await page.evaluate(() => {
    const texts = (cls) => [...document.querySelectorAll(`[data-testid=editor] .cm-content .${cls}`)].map((e) => e.textContent);
    return {
      keyword: texts('tok-keyword'),
      type: texts('tok-typeName'),
      comment: texts('tok-comment'),
      number: texts('tok-number'),
      label: texts('tok-labelName'),
      builtin: texts('tok-variableName2'),
    };
  });
  assert.ok(tokens.keyword.includes('while') && tokens.keyword.includes('return') && tokens.keyword.includes('extern'), JSON.stringify(tokens.keyword));
  assert.ok(tokens.type.includes('int'), 'int is a type');
  assert.match(tokens.comment.join(' '), /Octagon thesis, Listing 2\.1/);
  assert.ok(tokens.number.includes('0'));
  assert.deepEqual(tokens.label, ['ERROR'], 'the ERROR label stands out');
  assert.ok(tokens.builtin.includes('__VERIFIER_nondet_int'), 'verifier builtins are marked');
  // Line numbers, one per line.
  assert.equal((await page.locator('[data-testid=editor] .cm-lineNumbers .cm-gutterElement').allInnerTexts()).filter((t) => /^\d+$/.test(t)).length, 18);

  // The caret right after `{` of main: both braces are matched.
  await caretAfter('int main() {');
  await page.locator('[data-testid=editor] .cm-matchingBracket').first().waitFor();
  assert.deepEqual(await page.locator('[data-testid=editor] .cm-matchingBracket').allInnerTexts(), ['{', '}']);
  await page.screenshot({ path: path.join(artifacts, 'editor-1-highlighting.png') });

  // Before any run, selecting a CFA node marks its line in the editor
  // (N3, the loop head: the `while` on line 10); selecting it again clears it.
  await page.locator('[data-testid=cfa-graph] [data-node=N3]').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=editor] .cm-gutterElement.cpa-selected-line').length === 1);
  assert.deepEqual(await markedLines('cpa-selected-line'), ['10']);
  await page.locator('[data-testid=cfa-graph] [data-node=N3]').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=editor] .cm-gutterElement.cpa-selected-line').length === 0);
});

test('typing a syntax error marks it at its line in the editor; undo removes it', async () => {
  await caretAfter('ticks++');
  await page.keyboard.type(' ticks');
  const diagnostics = byId('diagnostics');
  await diagnostics.waitFor();
  await expectText(diagnostics, /\b11:\d+\b.*expected `;`/s);
  await expectMarked('cpa-error-line', ['11'], 'the gutter marks line 11');
  await page.locator('[data-testid=editor] .cm-lintRange-error').waitFor();
  // The mark itself sits on line 11, under the offending token.
  const marked = await page.evaluate(() => {
    const view = CpaEditor.find(document.querySelector('[data-testid=editor]'));
    const el = document.querySelector('[data-testid=editor] .cm-lintRange-error');
    const pos = view.posAtDOM(el);
    return { line: view.state.doc.lineAt(pos).number, text: el.textContent };
  });
  assert.deepEqual(marked, { line: 11, text: 'ticks' });
  // Hovering the mark shows the message.
  await page.locator('[data-testid=editor] .cm-lintRange-error').hover();
  await page.locator('.cm-tooltip-lint').waitFor();
  assert.match(await page.locator('.cm-tooltip-lint').innerText(), /expected `;`/);
  await page.screenshot({ path: path.join(artifacts, 'editor-2-error.png') });

  // Undo (Ctrl+Z) takes the typing back: the error is gone.
  await page.locator('[data-testid=editor] .cm-content').focus();
  await page.keyboard.press('Control+z');
  await byId('cfa-listing').waitFor();
  await expectMarked('cpa-error-line', []);
  assert.match(await editorCall('getText'), /ticks\+\+;\n/);
  // Redo brings it back, undo again removes it.
  await page.keyboard.press('Control+y');
  await byId('diagnostics').waitFor();
  await page.keyboard.press('Control+z');
  await byId('cfa-listing').waitFor();
});

test('stepping highlights the source line of the current edge', async () => {
  await analyze('octagon-widening');
  const currentLine = async () => ({
    gutter: await markedLines('cpa-current-line'),
    text: await page.locator('[data-testid=editor] .cm-line.cpa-current-line').allInnerTexts(),
  });
  await settled(page);
  assert.deepEqual(await currentLine(), { gutter: [], text: [] }, 'nothing before the first event');
  for (let i = 0; i < 20; i++) await step();
  await expectText(byId('step-text'), /transfer along N2→N3 `while`/);
  await until(page, currentLine, { gutter: ['10'], text: ['  while (!systemCall()) {'] });
  await page.screenshot({ path: path.join(artifacts, 'editor-3-current-line.png') });
  // Arrow keys typed in the editor move its caret; they do not step the analysis.
  await caretAfter('int ticks');
  const caretBefore = await page.evaluate(() => CpaEditor.find(document.querySelector('[data-testid=editor]')).state.selection.main.head);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  // Whatever the keys caused has been rendered by now.
  await settled(page);
  assert.equal(await position(), 20, 'the analysis did not move');
  assert.equal(await page.evaluate(() => CpaEditor.find(document.querySelector('[data-testid=editor]')).state.selection.main.head), caretBefore - 1);
  // The next transfer (N3→N6, `__tmp0 = systemCall();`) is on the same line;
  // run to the increment on line 11.
  // Each read of the step text waits for the step before it to be shown.
  for (let i = 0; i < 100 && !/ticks = ticks \+ 1/.test(await byId('step-text').innerText()); i++) await step();
  assert.match(await byId('step-text').innerText(), /ticks = ticks \+ 1/);
  await expectMarked('cpa-current-line', ['11']);
  // Back at the start, the highlight is gone.
  await byId('step-start').click();
  await atEvent(page, 0);
  await expectMarked('cpa-current-line', []);
});

test('the program and the configuration survive a reload', async () => {
  await caretAfter('int ticks = 0;');
  await page.keyboard.type(' // kept');
  await byId('preset').selectOption('value-join');
  // The program is stored by an effect after the render (the preset in the
  // change handler itself): wait for it before the reload.
  await page.waitForFunction(() => (localStorage.getItem('cpa-playground.program') ?? '').includes('int ticks = 0; // kept'));
  await page.reload();
  await byId('cfa-listing').waitFor();
  assert.match(await editorCall('getText'), /int ticks = 0; \/\/ kept/);
  assert.equal(await byId('preset').inputValue(), 'value-join');
  await page.getByRole('button', { name: 'Reset example' }).click();
  await page.waitForFunction(() => !CpaEditor.getText(CpaEditor.find(document.querySelector('[data-testid=editor]'))).includes('kept'));
});

// x and y in [0, 10] with x <= y: the octagon projected on (x, y) is the
// triangle (0,0), (10,10), (0,10) inside the box [0,10]².
const TRIANGLE = `extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (x < 0 || x > 10) return 0;
  if (y < 0 || y > 10) return 0;
  if (x <= y) {
    x = x + 0;
  }
  return 0;
}
`;

test('an octagon state shows its constraints, its DBM and a 2-D plot with the polygon', async () => {
  await setProgram(TRIANGLE, '[x <= y]');
  await analyze('octagon-sep');
  // Step to the transfer along the assume edge [x <= y].
  for (let i = 0; i < 400 && !/transfer along \S+ `\[x <= y\]`/.test(await byId('step-text').innerText()); i++) {
    await step();
  }
  assert.match(await byId('step-text').innerText(), /`\[x <= y\]` → s\d+/);
  await byId('tab-state').click();
  const inspector = byId('inspector');
  const constraints = await expectText(byId('inspect-constraints'), /0 <= x <= 10/);
  assert.match(constraints, /0 <= y <= 10/);
  assert.match(constraints, /x <= y|x - y <= 0/);

  // The DBM: +x, -x, +y, -y (maybe more variables) with 2·x ≤ 20 in row -x, column +x.
  const dbm = await page.evaluate(() => {
    const t = document.querySelector('[data-testid=dbm]');
    const labels = [...t.querySelectorAll('thead th')].slice(1).map((th) => th.textContent);
    const rows = [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    return { labels, rows };
  });
  const at = (r, c) => dbm.rows[dbm.labels.indexOf(r)][dbm.labels.indexOf(c)];
  assert.ok(dbm.labels.includes('+x') && dbm.labels.includes('-y'), JSON.stringify(dbm.labels));
  assert.equal(at('-x', '+x'), '20', '2x <= 20');
  assert.equal(at('+y', '+x'), '0', 'x - y <= 0');

  // The plot: choose x horizontally and y vertically.
  await byId('plot-x').selectOption('x');
  await byId('plot-y').selectOption('y');
  const polygon = byId('octagon-polygon');
  await polygon.waitFor();
  assert.equal(await polygon.locator('title').textContent(), '(0, 0) (10, 10) (0, 10)');
  assert.equal((await polygon.getAttribute('points')).split(' ').length, 3, 'a triangle');
  await byId('interval-box').waitFor();
  assert.match(await inspector.locator('figcaption').innerText(), /x ∈ \[0, 10\], y ∈ \[0, 10\]/);
  assert.ok((await inspector.locator('.tick text').count()) >= 6, 'both axes have ticks');
  await inspector.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'editor-4-octagon-plot.png') });

  // Swapping the axes mirrors the triangle.
  await byId('plot-x').selectOption('y');
  await byId('plot-y').selectOption('x');
  await page.waitForFunction(() => document.querySelector('[data-testid=octagon-polygon] title')?.textContent === '(0, 0) (10, 0) (10, 10)');

  // Selecting a reached state (linked panels) shows it in the inspector and
  // marks its line in the editor.
  await byId('tab-reached').click();
  await page.locator('[data-testid=reached] [data-state=s1]').click();
  await byId('tab-state').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=inspector] .insp-head .sid')?.textContent === 's1');
  assert.match(await inspector.locator('.insp-head').innerText(), /^s1 @N1/);
  await expectMarked('cpa-selected-line', ['4'], "the line of s1's location N1");
  await byId('tab-reached').click();
  await page.locator('[data-testid=reached] [data-state=s1]').click();
  await expectMarked('cpa-selected-line', [], 'clicking again clears the selection');
});

test('predict mode grades a right and a wrong prediction', async () => {
  await page.getByRole('button', { name: 'Reset example' }).click();
  await page.waitForFunction(() => CpaEditor.getText(CpaEditor.find(document.querySelector('[data-testid=editor]'))).includes('Listing 2.1'));
  await byId('cfa-listing').waitFor();
  await analyze('octagon-widening');
  await byId('tab-predict').click();
  await byId('predict-toggle').check();
  // Predict mode hides what comes next: only its own button moves forward.
  await page.waitForFunction(() => document.querySelector('[data-testid=step]').disabled);
  for (const id of ['step', 'play', 'run-end', 'timeline', 'bp-pop']) {
    assert.equal(await byId(id).isDisabled(), true, `${id} is disabled in predict mode`);
  }
  const before = await byId('position').innerText();
  await byId('step-text').click(); // focus out of the toggle: keys reach the page
  await page.keyboard.press('ArrowRight');
  // Whatever the key caused has been rendered by now.
  await settled(page);
  assert.equal(await byId('position').innerText(), before, 'the → key does not step either');
  // Before the first pop: go to the start of step 1. The questions about
  // step 1 are asked only there; the waitlist then holds the initial state
  // alone. Its rows are read from the DOM text (`stateRows`): the list may
  // be out of view, and the page renders after the click.
  await byId('predict-go').click();
  await byId('predict-pop').waitFor();
  await untilOk(page, () => stateRows(byId('waitlist')), (rows) => assert.match(rows, /^s0 @N0 [^\n]*$/, 'only s0 waits'));
  await byId('predict-pop').selectOption('s0');          // right: the only waiting state
  await byId('predict-merge').selectOption('widened');   // wrong: nothing to merge with
  await byId('predict-stop').selectOption('not-covered'); // right: s1 is new
  await byId('predict-check').click();
  const result = byId('predict-result');
  await expectText(result, /Step 1: 2 of 3 right/);
  assert.equal(await result.locator('li.right[data-question=popped]').count(), 1);
  assert.equal(await result.locator('li.right[data-question=stop]').count(), 1);
  const merge = result.locator('li.wrong[data-question=merge]');
  assert.match(await merge.innerText(), /✘ wrong.*it was kept apart/s);
  // The step was shown: the view is at the end of step 1.
  await expectText(byId('step-text'), /^step 1: pop s0 @N0; transfer along N0→N1/);
  await byId('predict').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'editor-5-predict.png') });

  // Step 2, all right.
  await byId('predict-pop').selectOption('s1');
  await byId('predict-merge').selectOption('kept');
  await byId('predict-stop').selectOption('not-covered');
  await byId('predict-check').click();
  await page.waitForFunction(() => /Step 2: 3 of 3 right/.test(document.querySelector('[data-testid=predict-result]').innerText));
  assert.equal(await byId('predict-result').locator('li.wrong').count(), 0);
  assert.match(await byId('predict-tally').innerText(), /5 of 6 so far/);
  // Turning predict mode off gives the controls back.
  await byId('predict-toggle').uncheck();
  await page.waitForFunction(() => !document.querySelector('[data-testid=step]').disabled);
});

test('the editor and views raised no errors', () => {
  assert.deepEqual(pageErrors, [], 'uncaught exceptions or panics in the page');
  assert.deepEqual(consoleErrors, [], 'console errors');
});
