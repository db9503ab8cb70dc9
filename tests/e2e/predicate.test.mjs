// Browser end-to-end test of predicate analysis in the page (dist/): the
// lockstep loop (x and y grow together, the error needs x != y) under the
// `predicate` preset, every query answered by the page's z3-solver —
// abstraction queries (sat/unsat) and the refinement's quantifier
// eliminations (`(goals …)`, no sat). The run is TRUE after one refinement;
// the CEGAR tab shows it (refiner, interpolants per cut, the predicate
// precision with the new predicates marked), the predicates stand beside
// their CFA node, abstraction states are marked in the ARG and the state
// lists, the inspector shows ψ and φ, the solver log names each query's
// purpose, and predict mode asks for ψ' of an abstraction. The crate's
// native test crates/web/tests/predicate_view.rs checks the same run's
// view model.
//
//   DIST_DIR=dist node --test tests/e2e/predicate.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analyze, artifacts, atEvent, expectText, shownEvent, stateRows, untilOk, useBrowser, withoutKnownZ3Errors } from './harness.mjs';

const LOCKSTEP = `extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int x = 0, y = 0;
  int n = __VERIFIER_nondet_int();
  while (x < n) { x++; y++; }
  if (x != y) reach_error();
  return 0;
}
`;

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-predicate-', timeout: 90_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

/** Clicks a "Run to the next …" button and waits until the position moved. */
async function runTo(bp) {
  const from = await shownEvent(page);
  await byId(bp).click();
  await page.waitForFunction((k) => document.querySelector('[data-testid=position]').dataset.event !== String(k), from);
  return shownEvent(page);
}

test('predicate analysis proves the lockstep loop with the page’s Z3 and shows its refinement', async () => {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), LOCKSTEP);
  await page.reload();
  await byId('cfa-listing').waitFor();
  // Both presets are offered.
  const presets = await byId('preset').locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(presets.includes('predicate') && presets.includes('predicate-cartesian'), `${presets}`);
  // The configuration panel reads the preset as predicate analysis, with
  // its options as one group.
  await byId('preset').selectOption('predicate');
  await page.locator('[data-testid=config-panel] > summary').click();
  await byId('config-predicate').waitFor();
  assert.equal(await byId('config-domain').inputValue(), 'predicate');
  assert.equal(await byId('config-pred-abstraction-cartesian').isChecked(), false);
  assert.equal(await byId('config-pred-refinement-interpolation').inputValue(), 'WEAKEST');
  assert.match(await byId('config-predicate').innerText(), /blk\.alwaysAtLoops[\s\S]*merge[\s\S]*refinement\.sharePredicates/);
  await byId('config-panel').screenshot({ path: path.join(artifacts, 'predicate-0-config.png') });
  await page.locator('[data-testid=config-panel] > summary').click();
  // The main thread's longest blocking tasks during the run (Z3 loading included).
  await page.evaluate(() => {
    globalThis.__longTasks = [];
    new PerformanceObserver((list) => globalThis.__longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
  await analyze(page, 'predicate');
  assert.match(await byId('run-status').innerText(), /predicate, .*TRUE/);
  const longTasks = await page.evaluate(() => globalThis.__longTasks);
  console.log(`main-thread tasks over 50 ms during the predicate run: ${longTasks.length ? longTasks.map((d) => d.toFixed(0)).join(', ') + ' ms' : 'none'}; longest ${Math.max(0, ...longTasks).toFixed(0)} ms`);
  // The page answers after the run: stepping back and forth works.
  await byId('run-end').click();
  await expectText(byId('verdict'), /^Verdict: TRUE/);
  const end = await shownEvent(page);
  await byId('event-back').click();
  await atEvent(page, end - 1);
  await byId('event-next').click();
  await atEvent(page, end);

  // The CEGAR tab: one refinement by predicate interpolation.
  await byId('tab-cegar').click();
  await expectText(byId('cegar-refiner'), /^Latest refinement: predicate interpolation \(WEAKEST\)/);
  assert.match(await byId('cegar-verdict').innerText(), /infeasible/);
  const interpolants = await byId('cegar-interpolants').locator('li').allInnerTexts();
  assert.ok(interpolants.length >= 1, `interpolants per cut: ${interpolants}`);
  const predicates = await byId('cegar-predicates').locator('li').allInnerTexts();
  assert.ok(predicates.some((p) => /main::x == main::y at N\d+/.test(p)), `the precision: ${predicates}`);
  assert.ok((await byId('cegar-predicates').locator('li.new').count()) >= 1, 'the refinement’s predicates are marked new');
  assert.ok((await page.locator('[data-testid=iterations] .iteration').count()) >= 2, 'the refinement starts iteration 2');
  await byId('cegar-predicates').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'predicate-1-cegar.png') });

  // The predicates beside their CFA node (unqualified), new ones marked.
  await byId('graph-tab-cfa').click();
  const label = page.locator('[data-testid=cfa-graph] g.cfa-interpolant.new');
  await label.first().waitFor();
  assert.match(await label.first().locator('text').textContent(), /x == y/);
  assert.match(await label.first().locator('title').textContent(), /^predicates at N\d+[\s\S]*main::x == main::y/);
  await byId('cfa-legend-predicates').waitFor();
  await page.locator('[data-testid=graphs] [data-testid=graph-fit]').click();
  await page.screenshot({ path: path.join(artifacts, 'predicate-2-cfa.png') });

  // Abstraction states: a double border in the ARG (with a legend entry),
  // an "abs" tag in the reached set.
  await byId('graph-tab-arg').click();
  await page.locator('[data-testid=arg-graph] g.arg-node.abstraction').first().waitFor();
  assert.ok((await page.locator('[data-testid=arg-graph] g.arg-node.abstraction .abs-ring').count()) >= 1);
  await byId('arg-legend-abstraction').waitFor();
  assert.match(await page.locator('[data-testid=arg-graph] g.arg-node.abstraction title').first().textContent(), /abstraction state/);
  await byId('tab-reached').click();
  await untilOk(page, () => byId('reached').locator('[data-testid=abs-tag]').count(), (n) => assert.ok(n >= 1, `${n} abs tags`));
  const rows = await stateRows(byId('reached'));
  assert.match(rows, /φ: .*₁/, 'a state inside a block shows its SSA path formula');
  await page.screenshot({ path: path.join(artifacts, 'predicate-3-arg.png') });
});

test('the inspector shows ψ, φ and how an abstraction was computed; the solver log names each query', async () => {
  // From the start to the refinement, then to the first abstraction of
  // iteration 2 (the loop head, over the refinement's predicates).
  await byId('step-start').click();
  await atEvent(page, 0);
  await runTo('bp-refinement');
  assert.match(await byId('event-text').innerText(), /refinement/);
  await runTo('bp-abstraction');
  assert.match(await byId('event-text').innerText(), /is an abstraction state: the boolean abstraction at N\d+ over 2 predicates/);
  await byId('tab-state').click();
  await expectText(byId('inspect-abs-kind'), /^abstraction state \(a block end/);
  assert.match(await byId('inspect-psi').innerText(), /main::x == main::y/);
  assert.equal(await byId('inspect-phi').innerText(), 'true');
  const used = await byId('inspect-predicates').locator('li').allInnerTexts();
  assert.ok(used.includes('main::x == main::y'), `${used}`);
  assert.match(await byId('inspect-abs-result').innerText(), /^boolean abstraction at N\d+ over 2 predicates: \d+ solver quer/);
  await page.screenshot({ path: path.join(artifacts, 'predicate-4-inspector.png') });
  // A state inside the block: φ one conjunct per line, no abstraction.
  await byId('event-next').click();
  await runTo('bp-pop');
  await runTo('bp-pop');
  await untilOk(page, () => byId('inspect-abs-kind').innerText(), (t) => assert.match(t, /^not an abstraction state: \d+ edge/));
  assert.ok((await byId('inspect-phi').locator('li').count()) >= 1, 'φ has conjuncts');

  // The solver log: each query with its purpose; the quantifier
  // eliminations answered by their goal, not taken for errors.
  await byId('solver-log-toggle').click();
  const log = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=solver-entry]')].map((li) => ({
      purpose: li.querySelector('[data-testid=solver-purpose]')?.innerText ?? '',
      answer: li.querySelector('[data-testid=solver-answer]').innerText,
      legend: li.querySelector('[data-testid=solver-legend]')?.innerText ?? '',
    })),
  );
  assert.ok(log.some((e) => /abstraction at N\d+/.test(e.purpose) && /^(sat|unsat)$/.test(e.answer)), JSON.stringify(log));
  const qe = log.filter((e) => /interpolant at N\d+/.test(e.purpose));
  assert.ok(qe.length >= 1, JSON.stringify(log));
  for (const e of qe) {
    assert.match(e.answer, /^eliminated: /);
    // The program's names, not the formulas' symbols: `v2@1 = x@1`.
    assert.doesNotMatch(e.answer, /\bv\d+@\d+/, JSON.stringify(e));
    assert.match(e.legend, /^Symbols: v\d+@\d+ = [xy]@\d+/, JSON.stringify(e));
  }
  assert.ok(!log.some((e) => e.answer.startsWith('error')), JSON.stringify(log));
  await page.locator('[data-testid=solver-entry]').filter({ hasText: 'interpolant at' }).first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'predicate-5-solver-log.png') });
  await byId('solver-log-toggle').click();

  // A covered state: the stop says which check decided ψ ⇒ ψ' (the loop
  // head's second lap gets the same abstraction, x == y, as the first).
  await runTo('bp-covered');
  await expectText(
    byId('event-text'),
    /^event \d+: stop: s\d+ is covered by s\d+ \(decided by (syntactic equality|propositional implication over the predicates)/,
  );
  await page.screenshot({ path: path.join(artifacts, 'predicate-5b-covered.png') });
});

test('predict mode asks for ψ′ of the next abstraction and grades it', async () => {
  await byId('step-start').click();
  await atEvent(page, 0);
  await byId('tab-predict').click();
  await byId('predict-toggle').check();
  // To the first step's start, then show steps until one computes an
  // abstraction over predicates (the loop head in iteration 2, after the
  // refinement; in iteration 1 there are none, so only true or false).
  await byId('predict-go').click();
  for (let i = 0; i < 20; i++) {
    await byId('predict-check').waitFor();
    const q = byId('predict-abstraction-q');
    if ((await q.isVisible()) && /predicates: main::/.test(await q.innerText())) break;
    const at = await shownEvent(page);
    await byId('predict-check').click();
    await page.waitForFunction((k) => document.querySelector('[data-testid=position]').dataset.event !== String(k), at);
  }
  await byId('predict-abstraction-q').waitFor();
  assert.match(await byId('predict-abstraction-q').innerText(), /computes the boolean abstraction of s\d+ at N\d+ over the predicates: main::x == main::y/);
  const options = await byId('predict-abstraction').locator('option').allInnerTexts();
  assert.ok(options.length >= 4, `— and at least three formulas: ${options}`);
  assert.ok(options.some((o) => o.includes('!(main::x == main::y)')), `a flipped literal: ${options}`);
  await byId('predict-abstraction').selectOption({ index: 1 });
  await byId('predict-abstraction-q').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'predicate-6-predict-question.png') });
  await byId('predict-check').click();
  const graded = page.locator('[data-testid=predict-result] li[data-question=abstraction]');
  await graded.waitFor();
  assert.match(await graded.innerText(), /(right|wrong) abstraction: you said ψ' of s\d+ is /);
  await page.screenshot({ path: path.join(artifacts, 'predicate-7-predict-graded.png') });
  await byId('predict-toggle').uncheck();
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors), []);
});
