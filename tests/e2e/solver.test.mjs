// Browser end-to-end tests of Z3 in the page (dist/): the page is
// cross-origin isolated, loads nothing of Z3 before it is needed, then a
// round trip through z3-solver answers sat and unsat and shows both in the
// Solver log; a student's own query (and a broken one) are answered; the
// corpus of SMT-LIB2 queries recorded with native z3 (crates/smt/tests/corpus)
// is replayed in the page with the same answers. Z3 is loaded once for the
// whole file.
//
//   DIST_DIR=dist node --test tests/e2e/solver.test.mjs   (after `trunk build --release`)
//
// Z3 loads and solves in its own Web Worker (z3-worker.js): the main thread
// never has `initZ3`, the worker has.
//
// Measured (printed): wasm bytes transferred before the first paint, and the
// time from the first solver need to the first Z3 answer.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { artifacts, atEvent, expectText, untilOk, useBrowser, withoutKnownZ3Errors } from './harness.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

let page, baseUrl, pageErrors, consoleErrors;
const requests = [];
const session = useBrowser({ profilePrefix: 'cpa-e2e-solver-', timeout: 60_000 });
before(async () => {
  ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready);
  page.on('request', (r) => requests.push(r.url()));
});

const byId = (id) => page.locator(`[data-testid=${id}]`);

/** The solver log's entries, oldest first: origin, answer, script. */
async function entries() {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=solver-entry]')].reverse().map((li) => ({
      id: li.dataset.id,
      origin: li.querySelector('.solver-origin').innerText,
      answer: li.querySelector('[data-testid=solver-answer]').innerText,
      script: li.querySelector('[data-testid=solver-script]').innerText,
    })),
  );
}

async function waitForAnswered(count) {
  await page.waitForFunction(
    (n) => {
      const answers = [...document.querySelectorAll('[data-testid=solver-answer]')];
      return answers.length >= n && answers.every((a) => a.innerText !== '…');
    },
    count,
    { timeout: 60_000 },
  );
}

/** A program the symbolic analysis proves with one infeasible path (unsat). */
const PROGRAM = `extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int() % 1000;
  int y = x + 1;
  if (x > 5) {
    if (y < 3) {
ERROR:
      return 1;
    }
  }
  return 0;
}
`;

test('the page is cross-origin isolated and loads nothing of Z3 before it is needed', async () => {
  await page.goto(baseUrl);
  // Wait for the app: its first render stores the program it shows.
  await byId('cfa-listing').waitFor();
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), PROGRAM);
  requests.length = 0;
  await page.goto('about:blank');
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('cpa-playground.program')), PROGRAM, 'the page shows our program');
  await page.waitForFunction(() => performance.getEntriesByName('cpa-playground:first-render').length > 0);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'COOP/COEP make the page cross-origin isolated');
  const firstPaint = await page.evaluate(() => {
    const mark = performance.getEntriesByName('cpa-playground:first-render')[0].startTime;
    const wasm = performance
      .getEntriesByType('resource')
      .filter((r) => r.name.endsWith('.wasm') && r.startTime <= mark)
      .map((r) => ({ name: r.name.split('/').pop(), transfer: r.transferSize, body: r.encodedBodySize }));
    return { mark, wasm };
  });
  const bytes = firstPaint.wasm.reduce((s, r) => s + (r.transfer || r.body), 0);
  console.log(`first render at ${firstPaint.mark.toFixed(0)} ms; wasm before it: ${JSON.stringify(firstPaint.wasm)} = ${bytes} bytes`);
  assert.equal(firstPaint.wasm.length, 1, 'exactly one wasm file (the page) before the first paint');
  assert.ok(!firstPaint.wasm[0].name.startsWith('z3'), 'it is not Z3');
  // The page with every analysis (predicate abstraction included) and the
  // decoders of the engine worker's messages is about 4.3 MB; Z3 alone is
  // ~35 MB, so this still tells the two apart.
  assert.ok(bytes < 5_000_000, `the page's wasm is small (${bytes} bytes)`);
  assert.deepEqual(requests.filter((u) => /z3/.test(u)), [], 'no Z3 file requested at startup');
  assert.match(await byId('solver-status').innerText(), /not loaded yet/);
  assert.equal(await page.evaluate(() => typeof globalThis.initZ3), 'undefined');

  // An octagon analysis needs no solver: it runs to its verdict and Z3 stays unloaded.
  await byId('preset').selectOption('octagon-widening');
  await byId('analyze').click();
  await page.waitForFunction(() => /TRUE/.test(document.querySelector('[data-testid=run-status]')?.innerText ?? ''));
  assert.deepEqual(requests.filter((u) => /z3/.test(u)), [], 'an octagon analysis never loads Z3');
});

test('a round trip through z3-solver answers sat and unsat and shows both in the solver log', async () => {
  // Watch the main thread while Z3 loads: its longest blocking task.
  await page.evaluate(() => {
    globalThis.__longTasks = [];
    new PerformanceObserver((list) => globalThis.__longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
  // The solver log is one closed line until opened.
  assert.equal(await byId('solver-round-trip').isVisible(), false, 'the log starts closed');
  await byId('solver-log-toggle').click();
  await byId('solver-round-trip').click();
  // The progress indicator shows while Z3 loads.
  await page.waitForFunction(() => /Loading Z3|Z3 is ready/.test(document.querySelector('[data-testid=solver-status]').innerText));
  const loadingText = await byId('solver-status').innerText();
  console.log(`status right after the click: ${loadingText}`);
  // The page stays usable while Z3 loads: stepping the analysis works.
  await byId('event-next').click();
  await atEvent(page, 1);
  await page.screenshot({ path: path.join(artifacts, 'solver-1-loading.png') });

  await waitForAnswered(2);
  const log = await entries();
  assert.equal(log.length, 2);
  assert.match(log[0].origin, /round trip: path .*feasible\?/);
  assert.equal(log[0].answer, 'sat');
  assert.match(log[0].script, /\(assert \(<= flag 0\)\)/);
  assert.equal(log[1].answer, 'unsat');
  assert.match(log[1].script, /\(check-sat\)/);
  assert.equal(await page.locator('.solver-answer.wrong').count(), 0);
  await expectText(byId('solver-status'), /Z3 is ready/);
  const t = await page.evaluate(() => {
    const at = (n) => performance.getEntriesByName(n)[0]?.startTime;
    return { need: at('cpa-z3:need'), ready: at('cpa-z3:ready'), first: at('cpa-z3:first-answer') };
  });
  console.log(`first solver need → Z3 ready: ${(t.ready - t.need).toFixed(0)} ms; → first answer: ${(t.first - t.need).toFixed(0)} ms`);
  const longTasks = await page.evaluate(() => globalThis.__longTasks);
  console.log(`main-thread tasks over 50 ms while Z3 loaded: ${longTasks.length ? longTasks.map((d) => d.toFixed(0)).join(', ') + ' ms' : 'none'}`);
  assert.ok(t.first > t.need);
  // Z3 was fetched once, by its worker (the request is the page's in Playwright).
  const wasm = requests.filter((u) => u.endsWith('/z3-built.wasm'));
  console.log(`z3-built.wasm requests after the need: ${wasm.length}`);
  assert.equal(wasm.length, 1);
  // Z3 lives in its own Web Worker: the page's main thread has no Z3
  // (no `initZ3`, no resource entry for its wasm), the worker has.
  assert.equal(await page.evaluate(() => typeof globalThis.initZ3), 'undefined', 'no Z3 on the main thread');
  assert.equal(await page.evaluate(() => performance.getEntriesByType('resource').filter((r) => r.name.endsWith('z3-built.wasm')).length), 0);
  assert.equal(await page.evaluate(() => JSON.parse(globalThis.cpaZ3.status()).phase), 'ready');
  const z3Worker = page.workers().find((w) => w.url().endsWith('/z3-worker.js'));
  assert.ok(z3Worker, `a worker runs z3-worker.js (workers: ${page.workers().map((w) => w.url()).join(', ')})`);
  assert.equal(await z3Worker.evaluate(() => typeof self.initZ3), 'function', 'Z3 is loaded in the worker');
  await byId('solver-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'solver-2-round-trip.png') });
});

test("the student's own query is answered, and a broken one reports Z3's error", async () => {
  await page.locator('.solver-own summary').click();
  await byId('solver-own-check').click();
  await waitForAnswered(3);
  let log = await entries();
  assert.equal(log.at(-1).origin, 'your query');
  assert.equal(log.at(-1).answer, 'unsat', 'x < y and y < x');

  await byId('solver-own-text').fill('(declare-const x Int)\n(assert (> x undefined_name))\n(check-sat)\n');
  await byId('solver-own-check').click();
  await waitForAnswered(4);
  log = await entries();
  assert.match(log.at(-1).answer, /^error: Z3 rejected the query: .*unknown constant/);
  // Z3 still answers after an error (each query starts from a reset).
  await byId('solver-own-text').fill('(declare-const x (_ BitVec 32))\n(assert (bvslt (bvadd x #x00000001) x))\n(check-sat)\n');
  await byId('solver-own-check').click();
  await waitForAnswered(5);
  log = await entries();
  assert.equal(log.at(-1).answer, 'sat', 'x + 1 < x under 32-bit wrap-around (x = INT_MAX)');
  await page.screenshot({ path: path.join(artifacts, 'solver-3-own-queries.png') });
});

test('Z3 in the page answers a query with its incremental solver and gives up at its time limit', async () => {
  // A Cartesian-abstraction query of loop-acceleration/phases_1-1.c (QF_LIA,
  // `div` by 2): Z3's one-shot tactics took 25 s on it natively; the worker
  // runs it on the incremental solver, as the native z3 process does.
  const query = [
    '(set-logic QF_LIA)',
    '(declare-fun v2@0 () Int)',
    '(declare-fun v2@1 () Int)',
    '(assert (and (not (= (- v2@0 (* 2 (div v2@0 2))) 0)) (not (<= 268435455 v2@0))))',
    '(assert (< v2@0 268435455))',
    '(assert (not (< v2@0 65520)))',
    '(assert (= v2@1 (ite (< 4294967295 (+ v2@0 2)) (- v2@0 4294967294) (ite (< (+ v2@0 2) 0) (+ v2@0 4294967298) (+ v2@0 2)))))',
    '(assert (and (<= 0 v2@0) (<= v2@0 4294967295)))',
    '(assert (= (- v2@1 (* 2 (div v2@1 2))) 0))',
    '(check-sat)',
  ].join('\n');
  const before = (await entries()).length;
  // The "ask your own" form is still open from the test before.
  await byId('solver-own-text').fill(query);
  const t0 = Date.now();
  await byId('solver-own-check').click();
  await waitForAnswered(before + 1);
  const seconds = (Date.now() - t0) / 1000;
  assert.equal((await entries()).at(-1).answer, 'unsat', 'odd + 2 is odd');
  assert.ok(seconds < 8, `answered in ${seconds.toFixed(1)} s, not at the 10 s limit`);
  // The pigeonhole principle, 12 pigeons in 11 holes: unsat, and beyond any
  // CDCL solver in seconds. With its own limit of one second Z3 answers
  // unknown; without one, the worker's limit of 10 s ends it.
  const pigeons = 12;
  const holes = 11;
  const p = (i, j) => `p${i}_${j}`;
  const lines = ['(set-logic QF_UF)'];
  for (let i = 0; i < pigeons; i++) for (let j = 0; j < holes; j++) lines.push(`(declare-const ${p(i, j)} Bool)`);
  for (let i = 0; i < pigeons; i++) lines.push(`(assert (or ${Array.from({ length: holes }, (_, j) => p(i, j)).join(' ')}))`);
  for (let j = 0; j < holes; j++)
    for (let a = 0; a < pigeons; a++) for (let b = a + 1; b < pigeons; b++) lines.push(`(assert (not (and ${p(a, j)} ${p(b, j)})))`);
  lines.push('(check-sat)');
  const pigeonhole = lines.join('\n');
  for (const [own, limit, n] of [['(set-option :timeout 1000)\n', 1, 2], ['', 10, 3]]) {
    await byId('solver-own-text').fill(own + pigeonhole);
    const start = Date.now();
    await byId('solver-own-check').click();
    await waitForAnswered(before + n);
    const took = (Date.now() - start) / 1000;
    assert.match((await entries()).at(-1).answer, /^unknown/, `the limit of ${limit} s`);
    assert.ok(took >= limit * 0.8 && took < limit + 10, `unknown after ${took.toFixed(1)} s, the limit being ${limit} s`);
  }
  // The next query is not held up.
  await byId('solver-own-text').fill('(declare-const x Int)\n(assert (> x 2))\n(check-sat)\n');
  await byId('solver-own-check').click();
  await waitForAnswered(before + 4);
  assert.equal((await entries()).at(-1).answer, 'sat');
});

test('a symbolic analysis parks on each query, Z3 in the page answers, and the run resumes', async () => {
  const before = (await entries()).length;
  await byId('preset').selectOption('symbolic');
  await byId('analyze').click();
  await page.waitForFunction(() => /TRUE|FALSE|UNKNOWN/.test(document.querySelector('[data-testid=run-status]')?.innerText ?? ''), null, { timeout: 60_000 });
  const status = await byId('run-status').innerText();
  assert.match(status, /symbolic, c.*TRUE/);
  await waitForAnswered(before + 1);
  const queries = (await entries()).slice(before);
  console.log(`symbolic run: ${queries.length} queries: ${queries.map((q) => q.answer).join(', ')}`);
  assert.ok(queries.length >= 1);
  for (const q of queries) {
    assert.match(q.origin, /^analysis \(symbolic\): query \d+$/);
    assert.match(q.answer, /^(sat|unsat)$/);
    assert.match(q.script, /\(check-sat\)/);
  }
  // TRUE: the path with x > 5 and x + 1 < 3 was found infeasible (x is at
  // most 999, so x + 1 does not wrap around under C's integers; by Z3's
  // unsat, or by a model the engine already had for the other branch).
  assert.match(status, /TRUE/);
  // The trace records each query: step through to the end and look for the verdict.
  await byId('run-end').click();
  await expectText(byId('verdict'), /^Verdict: TRUE/);
  // Closed, the log opens again on a solver breakpoint, at the query.
  await byId('solver-log-toggle').click();
  await untilOk(page, () => byId('solver-own-check').isVisible(), (v) => assert.equal(v, false, 'closed'));
  await byId('step-start').click();
  await byId('bp-solver').click();
  await expectText(byId('step-text'), /solver query #\d+: (sat|unsat)/);
  await untilOk(page, () => page.locator('[data-testid=solver-panel]').evaluate((d) => d.open), (open) => assert.equal(open, true, 'the solver breakpoint opened the log'));
  await byId('solver-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'solver-4-symbolic.png') });
});

/**
 * The corpus recorded with native z3 by crates/smt (tests/corpus/NNN.smt2,
 * answers in answers.tsv: file, answer, from, theory).
 */
function corpus() {
  const dir = path.join(repo, 'crates', 'smt', 'tests', 'corpus');
  const table = path.join(dir, 'answers.tsv');
  if (!fs.existsSync(table)) return [];
  return fs
    .readFileSync(table, 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => {
      const [name, expected, from, theory] = l.split('\t');
      return { name, expected, from, theory, script: fs.readFileSync(path.join(dir, name), 'utf8') };
    });
}

test('the corpus of queries recorded with native z3 gets the same answers in the page', async () => {
  const queries = corpus();
  const t0 = Date.now();
  // Through the same glue (cpaZ3.check) the page's solver module uses.
  const answers = await page.evaluate(async (qs) => {
    const out = [];
    for (const q of qs) out.push((await globalThis.cpaZ3.check(q.script)).trim().split('\n')[0]);
    return out;
  }, queries);
  const wrong = queries.map((q, i) => [q, answers[i]]).filter(([q, a]) => a !== q.expected).map(([q, a]) => `${q.name} (${q.theory}, ${q.from}): z3-solver ${a}, native ${q.expected}`);
  const ms = Date.now() - t0;
  console.log(`corpus: ${queries.length} queries (${queries.filter((q) => q.expected === 'unsat').length} unsat) replayed in ${ms} ms (${(ms / queries.length).toFixed(1)} ms each)`);
  assert.ok(queries.length >= 50, `a corpus of at least 50 queries (${queries.length})`);
  assert.deepEqual(wrong, []);
});

test('Cancel while a query waits for Z3 stops the run at once, and the next run is answered', async () => {
  // A fresh page has no Z3: the symbolic run's first query waits in Z3's
  // worker while it loads (about a second), and Cancel is pressed then.
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await byId('preset').selectOption('symbolic');
  const closed = [];
  page.on('worker', (w) => w.on('close', () => closed.push(w.url())));
  await byId('analyze').click();
  // Cancel is clicked in the same task that sees Z3 still loading: with the
  // analysis in its own worker the run goes on at once when Z3 is ready,
  // redrawing every frame, and a separate click (which waits for the button
  // to stand still) could come after the run's end.
  const phaseAtCancel = await (
    await page.waitForFunction(() => {
      const phase = globalThis.cpaZ3 && JSON.parse(globalThis.cpaZ3.status()).phase;
      const cancel = document.querySelector('[data-testid=cancel]');
      if (!(phase && phase !== 'idle' && phase !== 'ready' && cancel)) return false;
      cancel.click();
      return phase;
    })
  ).jsonValue();
  await expectText(byId('run-status'), /cancelled after \d+ steps/);
  assert.equal(await byId('analyze').isEnabled(), true, 'Analyze is offered again');
  // The log (opened) says the query was given up, not answered.
  if (!(await byId('solver-panel').evaluate((d) => d.open))) await byId('solver-log-toggle').click();
  await untilOk(
    page,
    () => entries(),
    (log) => assert.match(log.at(-1)?.answer ?? '', /^error: cancelled before Z3 answered/),
  );
  // Z3's worker, stuck in the query (here: still loading), was replaced
  // after the grace period (unless Z3 answered within it).
  await page.waitForTimeout(500);
  console.log(`cancelled while Z3 was in phase ${phaseAtCancel}; workers closed since: ${closed.filter((u) => /z3-worker/.test(u)).length}`);
  // A new run is answered by Z3 (in the same or a new worker) and proves the program.
  await byId('analyze').click();
  await page.waitForFunction(() => /TRUE|FALSE|UNKNOWN/.test(document.querySelector('[data-testid=run-status]')?.innerText ?? ''), null, { timeout: 60_000 });
  assert.match(await byId('run-status').innerText(), /symbolic, c.*TRUE/);
  assert.equal(await page.evaluate(() => typeof globalThis.initZ3), 'undefined', 'still no Z3 on the main thread');
});

test('Z3 raised no errors in the page', () => {
  assert.deepEqual(pageErrors, [], 'uncaught exceptions or panics in the page');
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors), [], 'console errors');
});
