// Browser end-to-end test of the Transformation view (abstraction as a
// program transformation): the gallery card "Parity proves what intervals
// and octagons cannot" opened from the gallery and run with its first
// configuration, transform-parity (no solver needed). The CFA pane's
// "Transformed" tab shows the original program beside the transformed
// one: lifted operations, domain operations and choices marked with text
// badges and a legend; clicking a transformed line links it to its
// original line (in the view and in the editor); stepping marks the line
// the step executed and shows the explicit state with its parities and
// the ARG explored so far; the run ends TRUE. A term-domain run of the
// freeze card then shows frozen and thawed operations, and the memory
// freeze card the same on array and struct lines. The view model is
// tested natively in crates/web/src/model/transformation.rs.
//
//   DIST_DIR=dist node --test tests/e2e/transform.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analyze, artifacts, expectText, shownEvent, untilOk, useBrowser, withoutKnownZ3Errors } from './harness.mjs';

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-transform-', timeout: 90_000, viewport: { width: 1366, height: 768 } });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

/**
 * Opens a gallery example (the page reloads with its program and first
 * configuration, and compares the card's configurations); waits for the
 * comparison to finish, then closes it unless `keepCompare`.
 */
async function openExample(id, keepCompare = false) {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await byId('examples-button').click();
  await Promise.all([page.waitForEvent('load'), byId(`open-${id}`).click()]);
  await byId('cfa-listing').waitFor();
  await byId('compare-view').waitFor();
  await page.waitForFunction(
    () => /configurations/.test(document.querySelector('[data-testid=compare-status]')?.innerText ?? ''),
    null,
    { timeout: 120_000 },
  );
  if (!keepCompare) await byId('compare-close').click();
}

test('the Transformation view of transform-parity on the even-counter card, stepped to TRUE', async () => {
  await openExample('transform-parity-even');
  assert.equal(await byId('preset').inputValue(), 'transform-parity', 'the card opens with its first configuration');
  // Not offered before a transform run.
  assert.equal(await byId('graph-tab-transformed').count(), 0);
  await analyze(page, 'transform-parity');
  await byId('graph-tab-transformed').click();
  const view = byId('transformation');
  await view.waitFor();
  assert.equal(await view.getAttribute('data-domain'), 'parity');
  // The legend says what each badge means, in words.
  const legend = await byId('tx-legend').innerText();
  for (const word of ['lift', 'a_op', 'freeze', 'thaw', 'choice', 'lower']) assert.ok(legend.includes(word), `legend: ${legend}`);
  // Marked lines: lifts, domain operations, choices on abstract conditions.
  const tx = byId('tx-transformed');
  assert.ok((await tx.locator('.tx-line.tx-line-lift').count()) >= 3, 'lifted operations are marked');
  assert.ok((await tx.locator('.tx-line.tx-line-op').count()) >= 3, 'domain operations are marked');
  assert.ok((await tx.locator('.tx-line.tx-line-choice').count()) >= 2, 'choices are marked');
  const add = tx.locator('.tx-line[data-line="12"]');
  await expectText(add, /x = a_add\(x, lift\(2\)\);/, 'x = x + 2 becomes a_add with a lifter');
  assert.deepEqual(await add.locator('.tx-badge').allInnerTexts(), ['L', 'op'], 'its badges are text, not colour alone');

  // Linking: clicking the transformed line marks its original line, and
  // the editor highlights it (the edge is selected in every panel).
  await add.click();
  const original = byId('tx-original').locator('.tx-src[data-line="12"]');
  await untilOk(page, () => original.getAttribute('class'), (c) => c.includes('linked'));
  assert.match(await original.innerText(), /x = x \+ 2;/);
  await untilOk(page, () => page.locator('.cm-line.cpa-selected-line').allInnerTexts(), (t) => t.some((l) => l.includes('x = x + 2;')));
  // Hovering a line of the original links its transformed lines.
  await byId('tx-original').locator('.tx-src[data-line="11"]').hover();
  await untilOk(page, () => tx.locator('.tx-line.linked').count(), (n) => n >= 2);

  // Step from the start: the executed line is marked, the explicit state
  // holds parities, the ARG grows.
  await byId('step-start').click();
  for (let i = 0; i < 4; i++) await byId('step').click();
  await untilOk(page, () => tx.locator('.tx-line.current').count(), (n) => n === 1);
  assert.equal(await tx.locator('.tx-line.current .tx-now').innerText(), '▶');
  const state = byId('tx-state');
  await untilOk(page, () => state.locator('tr.abstract').count(), (n) => n >= 2);
  const values = await state.innerText();
  assert.match(values, /\b(even|odd)\b/, `the explicit state shows parities: ${values}`);
  assert.ok((await byId('tx-arg').locator('.arg-node, g[data-state]').count()) >= 2, 'the state space explored so far is drawn');
  await page.screenshot({ path: path.join(artifacts, 'transform-1-stepping.png') });

  // To the verdict: TRUE (parity proves the counter even).
  await byId('run-end').click();
  await expectText(byId('verdict'), /TRUE/, 'transform-parity proves the even counter');
  assert.ok((await shownEvent(page)) > 0);
  await page.screenshot({ path: path.join(artifacts, 'transform-2-verdict.png') });
  assert.deepEqual(pageErrors, []);
});

test('the freeze card under transform-term marks freeze and thaw and shows the frozen global', async () => {
  await openExample('transform-freeze');
  assert.equal(await byId('preset').inputValue(), 'transform-term');
  await analyze(page, 'transform-term');
  await byId('graph-tab-transformed').click();
  const tx = byId('tx-transformed');
  await tx.waitFor();
  assert.ok((await tx.locator('.tx-line.tx-line-freeze').count()) >= 2, 'stores to g freeze');
  assert.ok((await tx.locator('.tx-line.tx-line-thaw').count()) >= 2, 'reads of g thaw');
  await expectText(tx.locator('.tx-line[data-line="15"]'), /freeze\(&g, a_mul\(lift\(2\), x\)\);/, 'g = 2 * x freezes');
  await byId('run-end').click();
  await expectText(byId('verdict'), /TRUE/, 'transform-term proves it with the page’s Z3');
  // Somewhere before the end a state holds g frozen; step from the start until one does.
  await byId('step-start').click();
  let frozen = 0;
  for (let i = 0; i < 12 && frozen === 0; i++) {
    await byId('step').click();
    frozen = await byId('tx-state').locator('tr.frozen').count();
  }
  assert.ok(frozen >= 1, 'the explicit state lists g in its shadow slot');
  await page.screenshot({ path: path.join(artifacts, 'transform-3-freeze.png') });
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors), []);
});

test('the memory freeze card marks freeze and thaw on array and struct lines', async () => {
  await openExample('transform-freeze-memory');
  await analyze(page, 'transform-parity');
  await byId('graph-tab-transformed').click();
  const tx = byId('tx-transformed');
  await tx.waitFor();
  await expectText(tx.locator('.tx-line[data-line="17"]'), /freeze\(a \+ 0, a_mul\(lift\(2\), x\)\);/, 'a[0] = 2 * x freezes into the cell');
  assert.ok((await tx.locator('.tx-line.tx-line-freeze').count()) >= 2, 'the array cell and the struct field freeze');
  assert.ok((await tx.locator('.tx-line.tx-line-thaw').count()) >= 3, 'reads of a[0], a[1] and p.second thaw');
  await byId('run-end').click();
  await expectText(byId('verdict'), /TRUE/, 'transform-parity proves it: even plus odd is odd');
  await page.screenshot({ path: path.join(artifacts, 'transform-4-freeze-memory.png') });
  assert.deepEqual(pageErrors, []);
});

test('the chain card compares transform-term with symbolic: states stored, solver queries, equivalence checks', async () => {
  await openExample('transform-chain', true);
  await byId('compare-end').click();
  const rows = await page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('[data-testid=compare-summary] tbody tr')].map((tr) => [
        tr.dataset.preset,
        [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()),
      ]),
    ),
  );
  const head = await byId('compare-summary').locator('thead').innerText();
  assert.match(head, /reached \/ stored/);
  assert.match(head, /equivalence checks/);
  assert.equal(rows['transform-term'][2], 'TRUE', JSON.stringify(rows));
  assert.equal(rows['symbolic'][2], 'TRUE', JSON.stringify(rows));
  // Both store 10 states and ask 2 queries on this card (docs/transformation.md).
  assert.equal(rows['transform-term'][3], '10', JSON.stringify(rows));
  assert.equal(rows['symbolic'][3], '10', JSON.stringify(rows));
  assert.match(rows['transform-term'][7], /^2\b/, JSON.stringify(rows));
  assert.match(rows['symbolic'][7], /^2\b/, JSON.stringify(rows));
  await page.screenshot({ path: path.join(artifacts, 'transform-4-compare.png') });
  assert.deepEqual(pageErrors, []);
});
