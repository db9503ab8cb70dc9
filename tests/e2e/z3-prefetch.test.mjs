// Browser end-to-end tests of loading Z3 early (dist/): a solver-backed
// configuration picked in the chooser starts Z3's worker before Analyze is
// pressed, a configuration without a solver does not, and a link that opens
// on a solver-backed example starts Z3 before the page's first render (and
// Listing 1, whose queries the engine decides itself, never waits for it); a
// restored one starts it once the page has drawn itself and its editor exists.
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

test("a link to a solver-backed example starts loading Z3 before the page's first render; Listing 1's one-input queries never wait for it", async () => {
  const { page, baseUrl, pageErrors, close } = await openBrowser({ profilePrefix: 'cpa-e2e-prefetch-link-', timeout: 60_000 });
  try {
    const byId = (id) => page.locator(`[data-testid=${id}]`);
    await page.goto(baseUrl);
    await byId('cfa-listing').waitFor();
    await byId('examples-button').click();
    await Promise.all([page.waitForEvent('load'), byId('open-symexec-listing1').click()]);
    await byId('cfa-listing').waitFor();
    const need = await markAt(page, 'cpa-z3:need');
    const render = await markAt(page, 'cpa-playground:first-render');
    assert.ok(need !== null && render !== null, `both marks are set (need ${need}, first render ${render})`);
    assert.ok(need < render, `Z3 was started (${need.toFixed(0)} ms) before the first render (${render.toFixed(0)} ms)`);
    // Every query of Listing 1 has one input, a₁: the engine decides all
    // four itself, so the symbolic column's verdict does not wait for Z3.
    await page.waitForFunction(() => /configurations/.test(document.querySelector('[data-testid=compare-status]')?.innerText ?? ''), null, {
      timeout: 120_000,
    });
    await byId('compare-end').click();
    const row = page.locator('[data-testid=compare-summary] tbody tr[data-preset=symbolic]');
    await page.waitForFunction(() => /TRUE/.test(document.querySelector('[data-testid=compare-summary] tbody tr[data-preset=symbolic]')?.innerText ?? ''), null, {
      timeout: 60_000,
    });
    assert.equal((await row.locator('[data-testid=compare-query-times]').innerText()).trim(), '4 · 4 without Z3');
    assert.equal(await markAt(page, 'cpa-z3:first-answer'), null, 'no query of the run went to Z3');
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
