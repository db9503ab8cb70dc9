// Browser end-to-end tests of loading Z3 early (dist/): a solver-backed
// configuration picked in the chooser starts Z3's worker before Analyze is
// pressed, a configuration without a solver does not, and a link that opens
// on a solver-backed example loads Z3 only once its runs are done (Listing
// 1's runs, whose queries the engine decides itself, never wait for it nor
// share the cores with its compile); a restored one starts it once the page
// has drawn itself and its editor exists.
//
//   DIST_DIR=dist node --test tests/e2e/z3-prefetch.test.mjs   (after `trunk build --release`)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, setEditorText, TWO_INPUT_PROGRAM } from './harness.mjs';

/** When a performance mark was first set (page time), or null. */
const markAt = (page, name) => page.evaluate((n) => performance.getEntriesByName(n)[0]?.startTime ?? null, name);

test('picking a solver-backed configuration loads Z3 before Analyze; picking value does not', async () => {
  const { page, baseUrl, pageErrors, close } = await openBrowser({ profilePrefix: 'cpa-e2e-prefetch-', timeout: 60_000 });
  try {
    const byId = (id) => page.locator(`[data-testid=${id}]`);
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(baseUrl);
    await byId('cfa-listing').waitFor();
    await setEditorText(page, TWO_INPUT_PROGRAM);

    await byId('preset').selectOption('value');
    // Give a wrongly started load time to show up.
    await page.waitForTimeout(500);
    assert.deepEqual(requests.filter((u) => /z3/.test(u)), [], 'value analysis loads nothing of Z3');
    assert.equal(await markAt(page, 'cpa-z3:need'), null);

    await byId('preset').selectOption('symbolic');
    // Without pressing Analyze, Z3's worker starts and Z3 becomes ready.
    await page.waitForFunction(() => globalThis.cpaZ3 && JSON.parse(globalThis.cpaZ3.status()).phase === 'ready', null, { timeout: 60_000 });
    assert.ok(requests.some((u) => u.endsWith('/z3-worker.js')), 'the worker was started');
    assert.equal(requests.filter((u) => u.endsWith('/z3-built.wasm')).length, 1, 'Z3 was downloaded once');
    assert.equal(await markAt(page, 'cpa-z3:first-answer'), null, 'no query was asked yet');

    // Analyze now asks a Z3 that is ready, and reaches the verdict.
    await byId('analyze').click();
    await page.waitForFunction(() => /TRUE|FALSE|UNKNOWN/.test(document.querySelector('[data-testid=run-status]')?.innerText ?? ''));
    assert.ok((await markAt(page, 'cpa-z3:first-answer')) !== null, 'the run asked Z3');
    assert.equal(requests.filter((u) => u.endsWith('/z3-built.wasm')).length, 1, 'still downloaded once');
    assert.deepEqual(pageErrors, []);
  } finally {
    await close();
  }
});

test("a link to Listing 1 answers before Z3 is needed, then Z3 loads for the next run once the link's runs are done", async () => {
  const { page, baseUrl, pageErrors, close } = await openBrowser({ profilePrefix: 'cpa-e2e-prefetch-link-', timeout: 60_000 });
  try {
    const byId = (id) => page.locator(`[data-testid=${id}]`);
    await page.goto(baseUrl);
    await byId('cfa-listing').waitFor();
    await byId('examples-button').click();
    await Promise.all([page.waitForEvent('load'), byId('open-symexec-listing1').click()]);
    await byId('cfa-listing').waitFor();
    // Every query of Listing 1 has one input, a₁: the engine decides all
    // four itself, so the symbolic column's verdict comes before Z3 is
    // even asked to load.
    const verdictAt = await (
      await page.waitForFunction(
        () => /TRUE/.test(document.querySelector('[data-testid=compare-summary] tbody tr[data-preset=symbolic]')?.innerText ?? '') && performance.now(),
        null,
        { timeout: 60_000, polling: 'raf' },
      )
    ).jsonValue();
    const needAtVerdict = await page.evaluate((t) => performance.getEntriesByName('cpa-z3:need').filter((m) => m.startTime <= t).length, verdictAt);
    assert.equal(needAtVerdict, 0, `Z3 was not needed before the symbolic verdict (${verdictAt.toFixed(0)} ms)`);
    await page.waitForFunction(() => /configurations/.test(document.querySelector('[data-testid=compare-status]')?.innerText ?? ''), null, {
      timeout: 120_000,
    });
    await byId('compare-end').click();
    const row = page.locator('[data-testid=compare-summary] tbody tr[data-preset=symbolic]');
    assert.equal((await row.locator('[data-testid=compare-query-times]').innerText()).trim(), '4 · 4 without Z3');
    // The link asks a solver, so Z3 loads once its runs are done and the
    // page is idle, ready for the student's next run.
    await page.waitForFunction(() => performance.getEntriesByName('cpa-z3:ready').length > 0, null, { timeout: 60_000 });
    const need = await markAt(page, 'cpa-z3:need');
    assert.ok(need > verdictAt, `Z3 was started (${need.toFixed(0)} ms) after the verdict (${verdictAt.toFixed(0)} ms)`);
    assert.equal(await markAt(page, 'cpa-z3:first-answer'), null, 'no query of the runs went to Z3');
    assert.deepEqual(pageErrors, []);
  } finally {
    await close();
  }
});

test('a restored solver-backed configuration loads Z3 once the page has drawn itself and its editor exists', async () => {
  const { page, baseUrl, pageErrors, close } = await openBrowser({ profilePrefix: 'cpa-e2e-prefetch-restored-', timeout: 60_000 });
  try {
    const byId = (id) => page.locator(`[data-testid=${id}]`);
    await page.goto(baseUrl);
    await byId('cfa-listing').waitFor();
    await byId('preset').selectOption('symbolic');
    await page.reload();
    await byId('cfa-listing').waitFor();
    assert.equal(await byId('preset').inputValue(), 'symbolic', 'the configuration was restored');
    // No click: Z3 becomes ready on its own, started after the editor.
    await page.waitForFunction(() => performance.getEntriesByName('cpa-z3:ready').length > 0, null, { timeout: 60_000 });
    const need = await markAt(page, 'cpa-z3:need');
    const editor = await markAt(page, 'cpa-playground:editor');
    assert.ok(need !== null && editor !== null, `both marks are set (need ${need}, editor ${editor})`);
    assert.ok(need > editor, `Z3 was started (${need.toFixed(0)} ms) after the editor was created (${editor.toFixed(0)} ms)`);
    assert.deepEqual(pageErrors, []);
  } finally {
    await close();
  }
});
