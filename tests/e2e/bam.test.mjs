// Browser end-to-end test of block-abstraction memoization in the page
// (dist/): a function with a loop called five times with the same argument,
// under `bam-value-predicate` (value ∥ predicate inside BAM; its queries
// answered by the page's z3-solver, so a block analysis parks on queries
// like any run). The run is TRUE; stepping finds a step whose text reports
// a cache hit (the summary of `count` reused) and the statistics count the
// hits. Then the Blocks tab: "Run to the next cache hit" stops at a hit,
// and the call tree shows the first call of `count` as a miss and the
// next ones as hits (marked by word, not colour alone), all five calls at
// depth 0 from their own lines, the cache table one entry with its hits;
// a state in the tree is a state link; stepping back shrinks the tree.
//
//   DIST_DIR=dist node --test tests/e2e/bam.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, artifacts, expectCount, expectText, until, untilOk, useBrowser, withoutKnownZ3Errors } from './harness.mjs';


const here = path.dirname(fileURLToPath(import.meta.url));
// The gallery's cache-hits example (its block comment also exercises the
// editor's comment tokenizer).
const LOOP5 = fs.readFileSync(path.join(here, '..', '..', 'static', 'examples', 'bam-cache-hits.c'), 'utf8');

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-bam-', timeout: 120_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

test('a BAM run in the page reuses the block summary and says so', async () => {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), LOOP5);
  await page.reload();
  await byId('cfa-listing').waitFor();
  const presets = await byId('preset').locator('option').evaluateAll((os) => os.map((o) => o.value));
  for (const p of ['bam-value', 'bam-predicate', 'bam-value-predicate']) {
    assert.ok(presets.includes(p), `${p} offered: ${presets}`);
  }
  await analyze(page, 'bam-value-predicate');
  await expectText(byId('cegar-verdict').or(byId('run-status')), /true/i, 'the run is TRUE');
  // Step until a step's text reports a cache hit.
  let found = 0;
  for (let step = 1; step <= 60 && !found; step++) {
    await byId('step-number').fill(String(step));
    await byId('step-number').press('Enter');
    await untilOk(page, () => byId('step-number').inputValue(), (v) => assert.equal(v, String(step)));
    const text = await byId('step-text').innerText();
    if (/cache hit/.test(text)) found = step;
  }
  assert.ok(found > 0, 'some step reports a cache hit');
  await expectText(byId('step-text'), /summary is reused, count is not analysed again/, 'the hit in words');
  await page.screenshot({ path: path.join(artifacts, 'bam-cache-hit.png'), fullPage: false });
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors), []);
});

test('the Blocks tab shows the call tree with the cache hits marked and the cache table', async () => {
  // Continues the run of the previous test (same page).
  await byId('tab-blocks').click();
  await byId('blocks').waitFor();
  // The last cache hit of the run: in its iteration the first call missed,
  // the other four hit.
  await byId('step-number').fill('1');
  await byId('step-number').press('Enter');
  for (let i = 0; i < 4; i++) {
    await byId('bp-cache-hit').click();
    await untilOk(page, () => byId('event-text').innerText(), (t) => assert.match(t, /cache hit/));
  }
  const calls = byId('block-tree').locator('[data-testid=block-call]');
  await expectCount(calls, 5, 'five calls of count in the tree');
  const tree = await calls.evaluateAll((ls) => ls.map((l) => ({
    block: l.dataset.block, hit: l.dataset.hit, depth: l.dataset.depth,
    mark: l.querySelector('[data-testid=block-mark]').innerText,
    head: l.querySelector('.block-head').innerText,
  })));
  assert.deepEqual(tree.map((c) => c.hit), ['false', 'true', 'true', 'true', 'true'], JSON.stringify(tree));
  assert.ok(tree.every((c) => c.block === 'count' && c.depth === '0'), JSON.stringify(tree));
  assert.match(tree[0].mark, /miss/);
  for (const c of tree.slice(1)) assert.match(c.mark, /✔ hit/, 'a hit says so in words and with an icon');
  assert.deepEqual(tree.map((c) => c.head.match(/called at line (\d+)/)?.[1]), ['13', '14', '15', '16', '17'], 'each call from its own line');
  await expectText(byId('blocks-summary'), /5 calls: 1 miss, 4 hits \(cache: 1 entry\)/, 'the summary line');
  // A hit is coloured differently from the miss (and marked in words above).
  const [missBg, hitBg] = await Promise.all([0, 1].map((i) => calls.nth(i).evaluate((el) => getComputedStyle(el).backgroundColor)));
  assert.notEqual(missBg, hitBg, 'hits are also coloured');
  // The cache table: one entry of count, hit four times, with its exit states.
  const rows = byId('block-cache').locator('[data-testid=block-cache-row]');
  await expectCount(rows, 1, 'one cache entry');
  await expectText(rows.first().locator('[data-testid=block-cache-hits]'), /^4$/, 'four hits of the entry');
  // Every hit reuses the summary the miss computed.
  const summaries = await calls.evaluateAll((ls) => ls.map((l) => [...l.querySelectorAll('.block-line:last-child .block-state')].map((s) => s.dataset.state).join(',')));
  assert.ok(summaries[0].length > 0 && summaries.every((x) => x === summaries[0]), JSON.stringify(summaries));
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.screenshot({ path: path.join(artifacts, 'bam-blocks-1366x768.png'), fullPage: false });
  // A reduced entry state is a state link: clicking selects it.
  const chip = calls.nth(1).locator('.block-state').nth(1);
  const sid = await chip.getAttribute('data-state');
  await chip.click();
  await until(page, () => chip.evaluate((el) => el.classList.contains('selected')), true, `${sid} selected`);
  // Stepping back: before the hit the tree has fewer calls.
  const step = Number(await byId('step-number').inputValue());
  await byId('step-number').fill(String(Math.max(1, step - 12)));
  await byId('step-number').press('Enter');
  await untilOk(page, () => calls.count(), (n) => assert.ok(n < 5, `fewer calls earlier (${n})`));
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors), []);
});

test('bam-value-predicate lists the two counterexample checks of a path in order with their verdicts', async () => {
  const program = fs.readFileSync(path.join(here, '..', '..', 'static', 'examples', 'bam-two-checks.c'), 'utf8');
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), program);
  await page.reload();
  await byId('cfa-listing').waitFor();
  await analyze(page, 'bam-value-predicate');
  await expectText(byId('run-status'), /TRUE/, 'the run is TRUE');
  // To the end of the run (the verdict shown).
  await byId('run-end').click();
  await expectText(byId('verdict'), /TRUE/, 'the verdict at the end');
  await byId('tab-cegar').click();
  // The last path checked (through `y != x + x`): the value analysis does
  // not refute it, the predicate analysis' path formula does.
  const checks = byId('cegar').locator('[data-testid=cex-check]');
  await expectCount(checks, 2, 'two checks of the path');
  const texts = await checks.allInnerTexts();
  assert.match(texts[0], /explicit values \(value analysis\): does not refute/, texts[0]);
  assert.match(texts[1], /SMT: infeasible/, texts[1]);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.screenshot({ path: path.join(artifacts, 'bam-two-checks-1366x768.png'), fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors), []);
});

test('loop blocks set in the configuration panel nest in the Blocks tab by loop nesting', async () => {
  const program = fs.readFileSync(path.join(here, '..', '..', 'crates', 'engine', 'tests', 'programs', 'bam', 'loops_nested.c'), 'utf8');
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), program);
  await page.reload();
  await byId('cfa-listing').waitFor();
  await byId('preset').selectOption('bam-value');
  await page.locator('[data-testid=config-panel] > summary').click();
  await byId('config-text').fill('#include bam-value.properties\ncpa.bam.blockHeuristic = LoopPartitioning\n');
  await byId('analyze').click();
  await page.waitForFunction(() => {
    const status = document.querySelector('[data-testid=run-status]');
    return status && !status.classList.contains('computing') && /TRUE/.test(status.innerText);
  });
  await byId('run-end').click();
  await byId('tab-blocks').click();
  await byId('blocks').waitFor();
  // The last CEGAR iteration: the outer loop (line 5) once, its inner loop
  // (line 7) nested in it, entered from the outer loop's body.
  const calls = byId('block-tree').locator('[data-testid=block-call]');
  await untilOk(page, () => calls.count(), (n) => assert.ok(n >= 2, `${n} blocks entered`));
  const tree = await calls.evaluateAll((ls) => ls.map((l) => ({
    block: l.dataset.block, depth: l.dataset.depth, head: l.querySelector('.block-head').innerText,
  })));
  assert.equal(tree[0].block, 'loop@line 5', JSON.stringify(tree));
  assert.equal(tree[0].depth, '0');
  assert.match(tree[0].head, /loop@line 5 entered at line 5/);
  assert.ok(tree.slice(1).every((c) => c.block === 'loop@line 7' && c.depth === '1'), JSON.stringify(tree));
  await page.setViewportSize({ width: 1366, height: 768 });
  await byId('block-tree').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'bam-loop-blocks-1366x768.png'), fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors), []);
});
