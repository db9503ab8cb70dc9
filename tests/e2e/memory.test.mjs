// Browser end-to-end test of the memory view (dist/), on the gallery's
// predicate-memory-regions example: the regions table below the state
// inspector (each load and store with its region under SINGLE, TYPE and
// BNB, the run's setting marked), a store's region when hovered in the CFA
// (and its region's rows marked in the table), a predicate state's memory
// cells in the inspector, and the marked column following the setting.
//
//   DIST_DIR=dist node --test tests/e2e/memory.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, atEvent, expectText, untilOk, useBrowser, withoutKnownZ3Errors } from './harness.mjs';

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-memory-', timeout: 180_000, viewport: { width: 1366, height: 768 } });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

/** Runs predicate analysis with `cpa.predicate.memoryRegions = setting` to its end. */
async function runPredicate(setting) {
  await byId('preset').selectOption('predicate');
  const panel = byId('config-panel');
  if ((await panel.getAttribute('open')) === null) await panel.locator('> summary').click();
  await byId('config-text').fill(`#include predicate.properties\ncpa.predicate.memoryRegions = ${setting}\n`);
  await page.waitForFunction(() => !document.querySelector('[data-testid=config-error]'));
  await byId('analyze').click();
  await page.waitForFunction(
    () => {
      const s = document.querySelector('[data-testid=run-status]');
      return s && !s.classList.contains('computing') && /custom \(from predicate\)/.test(s.innerText) && /TRUE|UNKNOWN|FALSE/.test(s.innerText);
    },
    null,
    { timeout: 120_000 },
  );
  await byId('run-end').click();
  // The panel folds away again, so the State tab has the room (as a student sees it).
  await panel.locator('> summary').click();
  await byId('tab-state').click();
}

/** `{ lvalue/access: { SINGLE, TYPE, BNB } }` of the regions table's rows. */
function regionRows() {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('[data-testid=region-row]')].map((tr) => [
        `${tr.dataset.lvalue}/${tr.children[2].innerText.trim()}`,
        Object.fromEntries([...tr.querySelectorAll('.region-cell')].map((td) => [td.dataset.model, td.innerText.trim()])),
      ]),
    ),
  );
}

test('the memory-regions example: regions table, hover in the CFA, memory cells of a state, and the setting switched', async () => {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await byId('examples-button').click();
  await Promise.all([page.waitForEvent('load'), byId('open-predicate-memory-regions').click()]);
  await byId('compare-view').waitFor();
  await byId('compare-close').click();
  await byId('cfa-listing').waitFor();
  assert.match(await page.evaluate(() => localStorage.getItem('cpa-playground.program')), /p->f = a;/, 'the example is in the editor');

  await runPredicate('BNB');
  await expectText(byId('run-status'), /TRUE/);
  const view = byId('memory-view');
  await view.waitFor();
  await expectText(byId('region-col-BNB'), /^▸ BNB$/, 'the run\'s setting is marked');
  assert.equal((await byId('region-col-TYPE').innerText()).trim(), 'TYPE');
  await expectText(byId('regions-caption'), /3 regions under cpa\.predicate\.memoryRegions = BNB/);
  const rows = await regionRows();
  for (const key of ['p->f/store', 'p->f/load', 'p->h/store']) {
    assert.ok(rows[key], `${key} in ${JSON.stringify(rows)}`);
  }
  assert.deepEqual(rows['p->f/store'], { SINGLE: 'memory', TYPE: 'int', BNB: 'struct S.f' });
  assert.deepEqual(rows['p->h/store'], { SINGLE: 'memory', TYPE: 'int', BNB: 'struct S.h' });
  assert.deepEqual(rows['q->g/store'], { SINGLE: 'memory', TYPE: 'char', BNB: 'struct S.g' });
  // Grouped by the active region, with how many lvalues share it.
  const groups = await byId('region-group').evaluateAll((gs) => gs.map((g) => g.querySelector('.region-head').innerText.trim()));
  assert.deepEqual(groups, ['struct S.f — 2 lvalues share it', 'struct S.g — 1 lvalue, alone in its region', 'struct S.h — 1 lvalue, alone in its region']);
  assert.equal(await byId('memory-not-tracked').count(), 0, 'predicate analysis models memory');

  // Hovering the store `p->h = 7;` in the CFA names its region and marks its row.
  await page.locator('[data-testid=graphs] [data-testid=graph-fit]').first().click();
  const store = page.locator('[data-testid=cfa-graph] [data-region-text^="p->h"]').first();
  await store.waitFor();
  assert.equal(await store.getAttribute('data-region-text'), 'p->h — region struct S.h (BNB)');
  assert.match(await store.locator('title').first().textContent(), /p->h — region struct S\.h \(BNB\)/);
  const rowBg = (region) =>
    page.evaluate((r) => getComputedStyle(document.querySelector(`tr.region-row[data-region="${r}"] td`)).backgroundColor, region);
  const before = await rowBg('struct S.h');
  await page.locator('tr.region-row[data-region="struct S.h"]').scrollIntoViewIfNeeded();
  await store.hover();
  await untilOk(page, () => rowBg('struct S.h'), (bg) => assert.notEqual(bg, before, 'the hovered region\'s rows are marked'));
  assert.equal(await rowBg('struct S.f'), before, 'other regions stay unmarked');
  await page.screenshot({ path: path.join(artifacts, 'memory-1-regions-hover-1366.png') });
  await page.mouse.move(2, 2);
  await untilOk(page, () => rowBg('struct S.h'), (bg) => assert.equal(bg, before, 'unmarked when the pointer leaves'));
  // The same with the keyboard: focusing the edge marks its region.
  await store.focus();
  await untilOk(page, () => rowBg('struct S.h'), (bg) => assert.notEqual(bg, before, 'a focused store marks its region'));
  await store.blur();
  await untilOk(page, () => rowBg('struct S.h'), (bg) => assert.equal(bg, before, 'unmarked when the focus leaves'));

  // A state with memory in its path formula: the inspector lists its cells per region.
  const len = Number(await byId('timeline').getAttribute('max'));
  let found = -1;
  for (let k = 1; k <= len && found < 0; k++) {
    await byId('timeline').fill(String(k));
    await atEvent(page, k);
    if ((await page.locator('[data-testid=inspect-memory-cells] [data-testid=memory-cell]').count()) > 0) found = k;
  }
  assert.ok(found > 0, 'some state of the run has memory cells');
  const cells = byId('inspect-memory-cells');
  await expectText(cells, /region struct S\.f — 1 store since the block start/);
  await expectText(cells, /\[main::p₁\]\s*→ mem@\d+/);
  // After all three stores (f, g, h) the block's φ knows a cell in each field's region.
  let all = -1;
  for (let k = found + 1; k <= len && all < 0; k++) {
    await byId('timeline').fill(String(k));
    await atEvent(page, k);
    if ((await page.locator('[data-testid=inspect-memory-cells] .cells-region').count()) >= 3) all = k;
  }
  assert.ok(all > 0, 'a state after the three stores shows three regions');
  await expectText(cells, /region struct S\.h — 1 store since the block start[\s\S]*\[main::p₁ \+ 8\]\s*→ mem@\d+ = 7/);
  await byId('inspect-memory-cells').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'memory-2-cells-1366.png') });

  // TYPE: the marked column follows the setting; f and h share `int`.
  await runPredicate('TYPE');
  await expectText(byId('region-col-TYPE'), /^▸ TYPE$/);
  assert.equal((await byId('region-col-BNB').innerText()).trim(), 'BNB');
  await expectText(byId('regions-caption'), /2 regions under cpa\.predicate\.memoryRegions = TYPE/);
  const typeGroups = await byId('region-group').evaluateAll((gs) => gs.map((g) => g.dataset.region));
  assert.deepEqual(typeGroups, ['int', 'char']);
  const typed = page.locator('[data-testid=cfa-graph] [data-region-text^="p->h"]').first();
  await untilOk(page, () => typed.getAttribute('data-region-text'), (t) => assert.equal(t, 'p->h — region int (TYPE)'));
  await page.setViewportSize({ width: 1920, height: 1080 });
  await byId('memory-view').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'memory-3-type-1920.png') });
  await page.setViewportSize({ width: 1366, height: 768 });
});

test('an analysis without a memory model says that memory is not tracked', async () => {
  await page.locator('[data-testid=config-panel] > summary').click();
  await byId('config-text').fill('#include value.properties\n');
  await page.waitForFunction(() => !document.querySelector('[data-testid=config-error]'));
  await byId('analyze').click();
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=run-status]');
    return s && !s.classList.contains('computing') && /custom \(from /.test(s.innerText) && /TRUE|UNKNOWN|FALSE/.test(s.innerText);
  });
  await byId('tab-state').click();
  await expectText(byId('memory-not-tracked'), /Memory is not tracked by this analysis/);
  assert.equal(await byId('region-col-BNB').innerText(), 'BNB', 'no column is marked');
  assert.equal(await page.locator('[data-testid=cfa-graph] [data-region-text]').count(), 0, 'no region on hover without a memory model');
});

test('no page errors', () => {
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors), []);
});
