// Browser end-to-end test of symbolic execution in the page (dist/): the
// running example of "Combining Symbolic Execution with Predicate
// Abstraction and CEGAR" (Fig. 1; x and y grow alternately while n counts
// down, so x >= y at the end; the engine's test program) with every query
// answered by the page's z3-solver, over mathematical integers (under C the
// loop's predicates cannot bound x against overflow and CEGAR gives up).
// `symexec-predabs` proves it TRUE; the ARG is the symbolic-execution tree
// with the current path, abstraction points (hexagons) and branches without
// a successor as labelled stubs (infeasible; and not p-simple, shown on a
// counting loop without CEGAR — the running example has no such path);
// the inspector shows memory, path condition, history and eq/simple; the
// CEGAR tab's precision function table shows the predicates found; the
// statistics line counts paths, abstraction points, prunes, queries and
// refinements. Plain `symexec` on the same program stops at its step limit
// with UNKNOWN, and the compare view runs symexec, symexec-predabs and
// symbolic side by side. The crate's native test
// crates/web/tests/symexec_view.rs checks the same runs' view model.
//
// Prints (not asserted) the page's paths/s and queries/s (symexec-predabs
// with Z3's loading, plain symexec after it) and the longest main-thread
// task during the symexec-predabs run.
//
//   DIST_DIR=dist node --test tests/e2e/symexec.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, artifacts, atEvent, expectText, shownEvent, untilOk, useBrowser, withoutKnownZ3Errors } from './harness.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNNING_EXAMPLE = fs.readFileSync(path.join(repo, 'static', 'examples', 'symexec-running-example.c'), 'utf8');
const COUNTING_LOOP = 'int main() {\n  int i = 0;\n  while (i < 10) {\n    i = i + 1;\n  }\n  return 0;\n}\n';

/** Puts `program` in the editor (through the stored program and a reload), over mathematical integers. */
async function load(program) {
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), program);
  await page.reload();
  await byId('cfa-listing').waitFor();
  await byId('int-model').selectOption('math');
}

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-symexec-', timeout: 60_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);
const count = async (id) => Number(await byId(id).locator('b').innerText());

/** Clicks a "Run to the next …" button and waits until the position moved. */
async function runTo(bp) {
  const from = await shownEvent(page);
  await byId(bp).click();
  await page.waitForFunction((k) => document.querySelector('[data-testid=position]').dataset.event !== String(k), from);
  return shownEvent(page);
}

test('symexec-predabs proves the running example with the page’s Z3 and shows its tree', async () => {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await load(RUNNING_EXAMPLE);
  const presets = await byId('preset').locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(presets.includes('symexec') && presets.includes('symexec-predabs'), `${presets}`);
  // The configuration panel: the symexec.* group, stop^never.
  await byId('preset').selectOption('symexec-predabs');
  await page.locator('[data-testid=config-panel] > summary').click();
  await byId('config-symexec').waitFor();
  assert.equal(await byId('config-domain').inputValue(), 'symexec');
  assert.equal(await byId('config-stop').innerText(), 'stop: never');
  assert.equal(await byId('config-symexec-abstraction').isChecked(), true);
  assert.equal(await byId('config-symexec-abstraction-threshold').inputValue(), '0');
  await byId('config-panel').screenshot({ path: path.join(artifacts, 'symexec-0-config.png') });
  await page.locator('[data-testid=config-panel] > summary').click();

  await page.evaluate(() => {
    globalThis.__longTasks = [];
    new PerformanceObserver((list) => globalThis.__longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
  const t0 = Date.now();
  await analyze(page, 'symexec-predabs', 5000);
  const seconds = (Date.now() - t0) / 1000;
  assert.match(await byId('run-status').innerText(), /symexec-predabs, math, .*TRUE/);
  const longTasks = await page.evaluate(() => globalThis.__longTasks);
  await byId('run-end').click();
  await expectText(byId('verdict'), /^Verdict: TRUE/);
  // The statistics line.
  await byId('symexec-stats').waitFor();
  const paths = await count('symexec-paths');
  const queries = await count('symexec-queries');
  const withoutSolver = await count('symexec-queries-without-solver');
  assert.ok(withoutSolver > 0 && withoutSolver < queries, `${withoutSolver} of ${queries} queries answered without the solver`);
  const points = await count('symexec-abstraction-points');
  const pruned = await count('symexec-pruned');
  const infeasible = await count('symexec-infeasible');
  const refinements = await count('symexec-refinements');
  assert.ok(paths > 0 && queries > 0 && points > 0 && infeasible > 0 && refinements >= 1, await byId('symexec-stats').innerText());
  console.log(
    `symexec-predabs on the running example in the page: ${seconds.toFixed(1)} s (Z3 loading included), ` +
      `${paths} paths (${(paths / seconds).toFixed(1)}/s), ${queries} solver queries (${(queries / seconds).toFixed(1)}/s), ` +
      `${points} abstraction points, ${pruned} pruned, ${infeasible} infeasible, ${refinements} refinements`,
  );
  console.log(`main-thread tasks over 50 ms during the symexec-predabs run: ${longTasks.length ? longTasks.map((d) => d.toFixed(0)).join(', ') + ' ms' : 'none'}; longest ${Math.max(0, ...longTasks).toFixed(0)} ms`);

  // The CEGAR tab: the precision function with the predicates found.
  await byId('tab-cegar').click();
  const table = byId('cegar-precision-function');
  await table.waitFor();
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText)));
  assert.ok(rows.length >= 1, JSON.stringify(rows));
  assert.ok(rows.some((r) => /main::n <= 0/.test(r[2]) && /main::y <= main::x/.test(r[2])), `predicates in the table: ${JSON.stringify(rows)}`);
  assert.ok((await table.locator('tbody tr.new').count()) >= 1, 'the refined row is marked');
  await table.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'symexec-2-cegar.png') });

  // The tree: abstraction points as hexagons, infeasible branches as
  // labelled stubs, the current path; a legend for each.
  await byId('graph-tab-arg').click();
  await page.locator('[data-testid=arg-graph] g.arg-node.abstraction-point polygon').first().waitFor();
  await byId('arg-legend-abstraction-point').waitFor();
  const stub = page.locator('[data-testid=arg-graph] g.arg-stub.infeasible').first();
  await stub.waitFor();
  assert.equal(await stub.locator('text').textContent(), 'infeasible');
  assert.match(await stub.locator('title').textContent(), /infeasible — the path condition with/);
  await byId('arg-legend-infeasible').waitFor();
  await byId('arg-legend-path').waitFor();
  assert.ok((await page.locator('[data-testid=arg-graph] path.arg-edge.on-path').count()) >= 1);
  assert.equal(await page.locator('[data-testid=arg-graph] g.arg-node.covered').count(), 0, 'stop^never covers nothing');
  await page.locator('[data-testid=graphs] [data-testid=graph-fit]').click();
  await page.screenshot({ path: path.join(artifacts, 'symexec-1-tree.png') });
  // Zoomed in, the labels are readable.
  for (let i = 0; i < 4; i++) await page.locator('[data-testid=graphs] .graph-zoom button[title="Zoom in"]').click();
  await byId('graphs').screenshot({ path: path.join(artifacts, 'symexec-1-tree-zoomed.png') });
});

test('the inspector shows memory, path condition, history and eq/simple at an abstraction point', async () => {
  // After the first refinement, the next abstraction point is over predicates.
  await byId('step-start').click();
  await atEvent(page, 0);
  await runTo('bp-refinement');
  await runTo('bp-abstraction');
  assert.match(await byId('event-text').innerText(), /is an abstraction point at N\d+/);
  await byId('tab-state').click();
  await byId('inspect-symexec').waitFor();
  await expectText(byId('inspect-point-kind'), /^abstraction point at N\d+: visited \d+ times? before \(threshold \d+\)/);
  await byId('inspect-memory').waitFor();
  assert.match(await byId('inspect-history').innerText(), /N\d+ visited \d+×/);
  await byId('inspect-pc').waitFor();
  await byId('inspect-eq').waitFor();
  await byId('inspect-simple').waitFor();
  await page.screenshot({ path: path.join(artifacts, 'symexec-4-inspector.png') });
  // Stepping on: the step text tells a backtrack of the depth-first search somewhere.
  let backtrack = false;
  for (let i = 0; i < 200 && !backtrack; i++) {
    await runTo('bp-pop');
    backtrack = /backtrack/.test(await byId('step-text').innerText());
  }
  assert.ok(backtrack, 'a backtrack is told in the step description');
});

test('plain symexec runs into its step limit on the running example: UNKNOWN', async () => {
  // Z3 is loaded by now: this run's rates are the search's own.
  const t0 = Date.now();
  await analyze(page, 'symexec', 300);
  const seconds = (Date.now() - t0) / 1000;
  assert.match(await byId('run-status').innerText(), /symexec, math, .*UNKNOWN/);
  await byId('run-end').click();
  await expectText(byId('verdict'), /^Verdict: UNKNOWN/);
  const paths = await count('symexec-paths');
  const queries = await count('symexec-queries');
  assert.ok(paths > 0);
  console.log(`symexec (300 steps) on the running example in the page: ${seconds.toFixed(1)} s, ${paths} paths (${(paths / seconds).toFixed(1)}/s), ${queries} solver queries (${(queries / seconds).toFixed(1)}/s)`);
  assert.equal(await byId('symexec-abstraction-points').count(), 0, 'no abstraction in plain symbolic execution');
  await byId('graph-tab-arg').click();
  await untilOk(page, () => page.locator('[data-testid=arg-graph] g.arg-node.abstraction-point').count(), (n) => assert.equal(n, 0));
  await page.locator('[data-testid=graphs] [data-testid=graph-fit]').click();
  await page.screenshot({ path: path.join(artifacts, 'symexec-5-plain.png') });
});

test('compare: symexec, symexec-predabs and symbolic side by side', async () => {
  await byId('compare-open').click();
  await page.waitForFunction(() => /^\d+ configurations/.test(document.querySelector('[data-testid=compare-status]')?.innerText ?? ''), null, { timeout: 120_000 });
  await byId('compare-preset-0').selectOption('symexec');
  await byId('compare-preset-1').selectOption('symexec-predabs');
  await byId('compare-preset-2').selectOption('symbolic');
  // Plain symbolic execution never ends on this program: a small limit.
  await byId('compare-limit').fill('300');
  await byId('compare-limit').dispatchEvent('change');
  await byId('compare-run').click();
  await page.waitForFunction(
    () => {
      const s = document.querySelector('[data-testid=compare-status]')?.innerText ?? '';
      const rows = [...document.querySelectorAll('[data-testid=compare-summary] tbody tr')].map((tr) => tr.dataset.preset);
      return /^3 configurations/.test(s) && rows.join() === 'symexec,symexec-predabs,symbolic';
    },
    null,
    { timeout: 120_000 },
  );
  const verdicts = await page.evaluate(() =>
    Object.fromEntries([...document.querySelectorAll('[data-testid=compare-summary] tbody tr')].map((tr) => [tr.dataset.preset, tr.querySelectorAll('td')[2].innerText.trim()])),
  );
  console.log(`compare verdicts: ${JSON.stringify(verdicts)}`);
  assert.equal(verdicts['symexec-predabs'], 'TRUE');
  assert.notEqual(verdicts.symexec, 'TRUE', 'plain symbolic execution cannot finish the unbounded loop');
  assert.notEqual(verdicts.symbolic, 'FALSE', 'the program is safe');
  assert.equal(await byId('compare-symexec-stats').count(), 2, 'both symexec panes count paths');
  await page.screenshot({ path: path.join(artifacts, 'symexec-6-compare.png') });
  await byId('compare-close').click();
});

test('a path that is not p-simple is a stub of its own (a counting loop, no CEGAR)', async () => {
  await load(COUNTING_LOOP);
  await byId('preset').selectOption('symexec-predabs');
  await page.locator('[data-testid=config-panel] > summary').click();
  await byId('config-cegar').uncheck();
  await page.locator('[data-testid=config-panel] > summary').click();
  await byId('analyze').click();
  await page.waitForFunction(() => {
    const status = document.querySelector('[data-testid=run-status]');
    return status && !status.classList.contains('computing') && /^custom \(from symexec-predabs\)/.test(status.innerText);
  });
  assert.match(await byId('run-status').innerText(), /TRUE/);
  await byId('run-end').click();
  assert.equal(await count('symexec-pruned'), 1);
  await byId('graph-tab-arg').click();
  const stub = page.locator('[data-testid=arg-graph] g.arg-stub.not-simple').first();
  await stub.waitFor();
  assert.equal(await stub.locator('text').textContent(), 'not p-simple');
  assert.match(await stub.locator('title').textContent(), /not p-simple — .*simple = false/);
  await byId('arg-legend-not-simple').waitFor();
  await page.locator('[data-testid=graphs] [data-testid=graph-fit]').click();
  await page.screenshot({ path: path.join(artifacts, 'symexec-3-not-simple.png') });
  if (!(await byId('config-reset').isVisible())) await page.locator('[data-testid=config-panel] > summary').click();
  await byId('config-reset').click();
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors), []);
});
