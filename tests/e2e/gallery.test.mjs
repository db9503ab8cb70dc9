// Browser end-to-end tests of the examples gallery (dist/): the dialog lists
// every example of static/examples/*.md with its explanation as text (never
// as HTML); opening an example loads its program and configurations (the
// compare view for two or three of them) and every configuration runs to
// the verdict the example's front matter states.
//
//   DIST_DIR=dist node --test tests/e2e/gallery.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, artifacts, expectCount, expectText, until, untilOk, useBrowser } from './harness.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const examplesDir = path.join(repo, 'static', 'examples');

/** A configuration's name as the page writes it: no spaces around `=`, `,` and brackets. */
function canonical(name) {
  return name.trim().replace(/\s*([[\]=,])\s*/g, '$1');
}

/** The examples with their front matter: id, program, configs, expected verdicts. */
const EXAMPLES = fs
  .readdirSync(examplesDir)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => {
    const text = fs.readFileSync(path.join(examplesDir, f), 'utf8');
    const front = Object.fromEntries(
      text
        .split('\n---\n')[0]
        .split('\n')
        .slice(1)
        .map((l) => l.match(/^([a-z-]+):\s*(.*)$/))
        .filter(Boolean)
        .map((m) => [m[1], m[2]]),
    );
    // A configuration may carry overrides: `symbolic[solver.theory=INTEGER]`
    // (commas inside brackets are not separators; the verdict follows the last `=`).
    const list = (text) => text.split(/,(?![^[]*\])/).map((s) => canonical(s)).filter(Boolean);
    const expect = Object.fromEntries(
      list(front.expect).map((kv) => [canonical(kv.slice(0, kv.lastIndexOf('='))), kv.slice(kv.lastIndexOf('=') + 1).trim()]),
    );
    return {
      id: f.replace(/\.md$/, ''),
      title: front.title,
      seed: front.seed,
      program: fs.readFileSync(path.join(examplesDir, front.program), 'utf8'),
      configs: list(front.configs),
      expect,
    };
  });

let page, baseUrl, pageErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-gallery-', timeout: 60_000 });
before(async () => ({ page, baseUrl, pageErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

/** Opens gallery example `id` from a fresh page (opening reloads the page). */
async function openExample(id) {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await byId('examples-button').click();
  await Promise.all([page.waitForEvent('load'), byId(`open-${id}`).click()]);
}

/** Waits until the compare view has run every configuration, then shows the last step. */
async function compareToEnd() {
  await page.waitForFunction(
    () => /configurations/.test(document.querySelector('[data-testid=compare-status]')?.innerText ?? ''),
    null,
    { timeout: 120_000 },
  );
  await byId('compare-end').click();
}

test('the gallery lists every example with its explanation as text', async () => {
  assert.ok(EXAMPLES.length >= 8, `only ${EXAMPLES.length} examples`);
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await byId('examples-button').click();
  await byId('gallery').waitFor();
  const cards = await page.evaluate(() =>
    [...document.querySelectorAll('.gallery-card')].map((c) => ({
      id: c.dataset.example,
      title: c.querySelector('h4').innerText,
      body: c.querySelector('.gallery-body').innerText,
      html: c.querySelector('.gallery-body').innerHTML,
    })),
  );
  assert.deepEqual(cards.map((c) => c.id).sort(), EXAMPLES.map((e) => e.id).sort());
  for (const c of cards) {
    const e = EXAMPLES.find((x) => x.id === c.id);
    assert.equal(c.title, e.title);
    assert.ok(c.body.length > 100, `${c.id}: the explanation is shown`);
    assert.doesNotMatch(c.html, /<script|<img|on\w+=/i, `${c.id}: no markup from the file`);
  }
  await page.screenshot({ path: path.join(artifacts, 'gallery-1-dialog.png') });
  // Escape-free close: the ✕ button.
  await page.locator('.gallery-close').click();
  await expectCount(byId('gallery'), 0);
});

test('the gallery groups the examples by seed, three or more each, with a first-lecture path', async () => {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await byId('examples-button').click();
  await byId('gallery').waitFor();
  const groups = await page.evaluate(() =>
    [...document.querySelectorAll('.gallery-group')].map((g) => ({
      seed: g.dataset.seed,
      heading: g.querySelector('h3').innerText,
      cards: [...g.querySelectorAll('.gallery-card')].map((c) => c.dataset.example),
    })),
  );
  const seeds = [...new Set(EXAMPLES.map((e) => e.seed))];
  assert.equal(groups.length, seeds.length, JSON.stringify(groups));
  for (const g of groups) {
    assert.ok(g.cards.length >= 3, `${g.seed} has ${g.cards.length} examples`);
    for (const id of g.cards) assert.equal(EXAMPLES.find((e) => e.id === id).seed, g.seed, `${id} is in its seed's group`);
  }
  assert.deepEqual(groups.flatMap((g) => g.cards).sort(), EXAMPLES.map((e) => e.id).sort(), 'every example once');
  const start = await byId('gallery-start').locator('li').allInnerTexts();
  assert.ok(start.length >= 5 && start.length <= 7, JSON.stringify(start));
  assert.match(start[0], / — \S/, 'each step has its one line');
  // The Z3 examples say so on their cards; the unsound-by-choice column is labelled.
  const listing1 = page.locator('[data-example=symexec-listing1]');
  await expectText(listing1.locator('[data-testid=gallery-solver-note]'), /loads the solver/);
  const theory = page.locator('[data-example=symbolic-theory]');
  await expectText(theory.locator('[data-testid=gallery-unsound]'), /symbolic with solver\.theory = INTEGER: unsound by choice/);
  assert.equal(await page.locator('[data-testid=gallery-unsound]').count(), 1, 'only the INTEGER column is unsound');
  assert.deepEqual(await theory.locator('.chip').allInnerTexts(), [
    'symbolic with solver.theory = INTEGER → TRUE',
    'symbolic with solver.theory = BITVECTOR → FALSE',
    'int model: c',
  ]);
  await page.screenshot({ path: path.join(artifacts, 'gallery-4-grouped.png') });
});

test('the gallery filter: keyboard-first, by words and by seed', async () => {
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await byId('examples-button').click();
  await byId('gallery').waitFor();
  // The filter has the focus when the dialog opens, and a label.
  await until(page, () => page.evaluate(() => document.activeElement?.dataset.testid), 'gallery-filter', 'the filter is focused');
  assert.match(await page.evaluate(() => document.activeElement.closest('label')?.innerText ?? ''), /Filter/);
  await page.keyboard.type('overflow');
  const shownIds = () => page.evaluate(() => [...document.querySelectorAll('.gallery-card')].map((c) => c.dataset.example));
  // Each typed letter re-renders the list, and the last render may come
  // after the typing returns: read ids and texts in one go until every
  // card shown answers the whole word.
  const shownCards = () =>
    page.evaluate(() => [...document.querySelectorAll('.gallery-card')].map((c) => [c.dataset.example, c.innerText]));
  const cards = await untilOk(page, shownCards, (got) => {
    assert.ok(got.length < EXAMPLES.length, 'the filter hides examples');
    for (const [id, text] of got) {
      assert.match(`${id} ${text}`.toLowerCase(), /overflow/, `${id} is named by the word or mentions it`);
    }
  });
  const ids = cards.map(([id]) => id);
  assert.ok(ids.includes('overflow') && ids.includes('symbolic-theory'), JSON.stringify(ids));
  await expectText(byId('gallery-count'), new RegExp(`^${ids.length} of ${EXAMPLES.length} examples`));
  assert.equal(await byId('gallery-start').count(), 0, 'the first-lecture path steps aside while filtering');
  await page.screenshot({ path: path.join(artifacts, 'gallery-5-filtered.png') });
  await page.keyboard.type(' zzznothing');
  await expectText(byId('gallery-none'), /No example matches/);
  // By seed, with the keyboard: Tab to the seed list, choose a seed.
  await byId('gallery-filter').fill('');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'gallery-seed');
  await byId('gallery-seed').selectOption('symbolic');
  await until(page, async () => (await shownIds()).sort().join(), EXAMPLES.filter((e) => e.seed === 'symbolic').map((e) => e.id).sort().join(), 'only the symbolic seed');
  await page.keyboard.press('Escape');
  await expectCount(byId('gallery'), 0);
});

test('the theory example: Z3 loads on opening, INTEGER is labelled unsound, the summary shows the queries, those without Z3 and Z3\'s time', async () => {
  await openExample('symbolic-theory');
  await byId('compare-view').waitFor();
  // The guide shows Z3's status (the compare view covers the Solver log) until it is ready.
  const z3Status = page.locator('[data-testid=compare-guide] [data-testid=guide-z3-status]');
  await until(page, () => z3Status.getAttribute('data-phase'), 'ready', 'Z3 is loaded', 120_000);
  await expectText(z3Status, /Z3/);
  await compareToEnd();
  await expectText(page.locator('[data-testid=compare-pane][data-preset="symbolic[solver.theory=INTEGER]"] [data-testid=compare-unsound]'), /unsound by choice/);
  assert.equal(await byId('compare-unsound').count(), 1, 'the BITVECTOR pane is not labelled');
  const cells = await page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('[data-testid=compare-summary] tbody tr')].map((tr) => [
        tr.dataset.preset,
        tr.querySelector('[data-testid=compare-query-times]').innerText.trim(),
      ]),
    ),
  );
  // Every branch question has one input: the engine decides it in the
  // column's theory; Z3 answers only the BITVECTOR column's target checks.
  assert.match(cells['symbolic[solver.theory=INTEGER]'], /^3 · 3 without Z3$/, JSON.stringify(cells));
  assert.match(cells['symbolic[solver.theory=BITVECTOR]'], /^5 \(\d+ ms\) · 3 without Z3$/, JSON.stringify(cells));
  await page.screenshot({ path: path.join(artifacts, 'gallery-6-theory-compare.png') });
});

test('the memory-regions example: the compare summary notes each setting\'s retention disjuncts', async () => {
  await openExample('predicate-memory-regions');
  await byId('compare-view').waitFor();
  await compareToEnd();
  const read = () =>
    page.evaluate(() =>
      JSON.stringify(
        Object.fromEntries(
          [...document.querySelectorAll('[data-testid=compare-summary] tbody tr')].map((tr) => [
            tr.dataset.preset,
            [tr.querySelectorAll('td')[2].innerText.trim(), tr.querySelector('[data-testid=compare-query-times]').innerText.trim()],
          ]),
        ),
      ),
    );
  await untilOk(page, read, (text) => {
    const cells = JSON.parse(text);
    const type = cells['predicate[cpa.predicate.memoryRegions=TYPE]'] ?? ['', ''];
    const single = cells['predicate[cpa.predicate.memoryRegions=SINGLE]'] ?? ['', ''];
    const bnb = cells['predicate[cpa.predicate.memoryRegions=BNB]'] ?? ['', ''];
    assert.match(bnb[0], /^TRUE/, text);
    assert.doesNotMatch(bnb[1], /retention/, text);
    assert.match(type[0], /^TRUE/, text);
    assert.match(type[1], /· 1 retention disjunct$/, text);
    assert.match(single[0], /^UNKNOWN/, text);
    assert.match(single[1], /· 3 retention disjuncts$/, text);
  }, 120_000);
  await byId('compare-summary').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'gallery-7-memory-regions-compare.png') });
});

for (const e of EXAMPLES) {
  test(`opening "${e.id}" loads it and runs ${e.configs.join(', ')} to the stated verdicts`, async () => {
    await openExample(e.id);
    await byId('cfa-listing').waitFor();
    const shown = await page.evaluate(() => localStorage.getItem('cpa-playground.program'));
    assert.equal(shown, e.program, 'the example program is in the editor');
    if (e.configs.length >= 2) {
      await byId('compare-view').waitFor();
      await compareToEnd();
      const verdicts = await page.evaluate(() =>
        Object.fromEntries(
          [...document.querySelectorAll('[data-testid=compare-summary] tbody tr')].map((tr) => [
            tr.dataset.preset,
            tr.querySelectorAll('td')[2].innerText.trim().toLowerCase(),
          ]),
        ),
      );
      for (const c of e.configs) {
        assert.match(verdicts[c] ?? '', new RegExp(`^${e.expect[c]}`), `${e.id} under ${c}: ${JSON.stringify(verdicts)}`);
      }
      if (e.id === 'octagon-listing2-1-bounded') {
        await page.screenshot({ path: path.join(artifacts, 'gallery-2-opened-compare.png'), fullPage: true });
      }
    } else {
      const [config] = e.configs;
      assert.equal(await byId('preset').inputValue(), config, 'the example chose its configuration');
      await analyze(page, config);
      await byId('run-end').click();
      await expectText(byId('verdict'), new RegExp(`^Verdict: ${e.expect[config].toUpperCase()}`));
      await page.screenshot({ path: path.join(artifacts, 'gallery-3-opened-single.png') });
    }
  });
}

test('the gallery raised no page errors', () => {
  assert.deepEqual(pageErrors, []);
});
