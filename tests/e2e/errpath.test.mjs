// Browser end-to-end test of the error path panel (dist/): an off-by-one
// loop under `value` answers FALSE without any feasibility check; the panel
// lists the path (line: code) labelled "unconfirmed", the CFA graph paints
// its edges and the editor marks its lines; "Check this path" runs the
// feasibility check on the page's Z3 and the concrete replay, and the path
// becomes "confirmed" with the input that reaches the error (count = 8).
//
//   DIST_DIR=dist node --test tests/e2e/errpath.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analyze, artifacts, expectText, untilOk, useBrowser, withoutKnownZ3Errors } from './harness.mjs';

const OFF_BY_ONE = `// Fills a buffer of 8 ints; the loop's bound is off by one.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int count = __VERIFIER_nondet_int();
  if (count > 8) return 0;
  int i = 0;
  while (i <= count) {
    if (i == 8) reach_error();
    i++;
  }
  return 0;
}
`;

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-errpath-', timeout: 120_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

test('a FALSE under value shows its error path; "Check this path" confirms it with inputs', async () => {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), OFF_BY_ONE);
  await page.reload();
  await byId('cfa-listing').waitFor();
  await analyze(page, 'value');
  assert.match(await byId('run-status').innerText(), /value.*FALSE/);
  await byId('run-end').click();
  await byId('verdict').waitFor();

  // The panel: the path as line: code rows, unconfirmed.
  await expectText(byId('error-path-status'), /^unconfirmed/);
  await byId('error-path-toggle').click();
  const rows = await page.locator('[data-testid=error-path-steps] li').allInnerTexts();
  assert.ok(rows.length >= 10, `the path goes around the loop (${rows.length} edges)`);
  assert.match(rows[0], /^line 6: /, `the path starts at main's first statement: ${rows[0]}`);
  assert.match(rows[rows.length - 1], /^line 10: /, `and ends at reach_error's line: ${rows[rows.length - 1]}`);
  assert.ok(rows.some((r) => /i <= count|count >= i/.test(r)), `the loop condition is on the path: ${rows}`);

  // The CFA graph paints the path's edges (an effect: may come a render later).
  await untilOk(
    page,
    () => page.evaluate(() => [...document.querySelectorAll('g.cfa-edge path.line')].filter((p) => getComputedStyle(p).strokeWidth === '3px').length),
    (painted) => assert.ok(painted >= 5, `the path is drawn on the CFA (${painted} edges)`),
  );
  // The editor marks the path's lines (6, 7, 8, 9, 10, 11), not the others.
  await untilOk(
    page,
    () => page.evaluate(() => {
      const lines = [...document.querySelectorAll('.cm-host .cm-line')];
      return lines.map((l, i) => (l.classList.contains('cpa-path-line') ? i + 1 : 0)).filter((n) => n > 0);
    }),
    (marked) => {
      for (const n of [6, 7, 9, 10]) assert.ok(marked.includes(n), `line ${n} is marked: ${marked}`);
      for (const n of [1, 2, 3, 5, 13]) assert.ok(!marked.includes(n), `line ${n} is not on the path: ${marked}`);
    },
  );
  await page.screenshot({ path: path.join(artifacts, 'errpath-1-unconfirmed.png') });

  // "Check this path": Z3 finds count = 8, the replay reaches the error.
  await byId('check-path').click();
  await expectText(byId('error-path-status'), /^confirmed \(inputs 8;/, 'the check confirms the path with its input', 90_000);
  assert.equal(await byId('check-path').count(), 0, 'nothing left to check');
  await page.screenshot({ path: path.join(artifacts, 'errpath-2-confirmed.png') });
  await byId('error-path').screenshot({ path: path.join(artifacts, 'errpath-3-panel.png') });

  // Stepping back before the verdict: no FALSE, no path, no marks.
  await byId('step-back').click();
  await untilOk(page, () => byId('error-path').count(), (n) => assert.equal(n, 0, 'no error path before the verdict'));
  await untilOk(
    page,
    () => page.evaluate(() => document.querySelectorAll('.cm-host .cm-line.cpa-path-line').length),
    (n) => assert.equal(n, 0, 'the editor marks go with the panel'),
  );

  assert.deepEqual(pageErrors, []);
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors ?? []), []);
});
