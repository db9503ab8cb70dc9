// Browser end-to-end test (dist/): on every gallery example that lists a
// predicate-analysis configuration, the page (with its z3-solver) computes
// the same predicates as the CLI (Debian's z3). Both are compared with
// tests/e2e/fixtures/gallery-predicates.json, which the native test
// crates/web/tests/gallery_predicates.rs checks against the engine run
// natively — so a difference between the page's and the native solver's
// answers (e.g. another quantifier-elimination result) fails here.
//
//   DIST_DIR=dist node --test tests/e2e/predicate-gallery.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, expectText, useBrowser, withoutKnownZ3Errors } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const examplesDir = path.join(here, '..', '..', 'static', 'examples');
const pinned = JSON.parse(fs.readFileSync(path.join(here, 'fixtures', 'gallery-predicates.json'), 'utf8'));

/** An example's program text and integer model (from its front matter). */
function example(id) {
  const text = fs.readFileSync(path.join(examplesDir, `${id}.md`), 'utf8');
  const front = Object.fromEntries(
    text
      .split('\n---\n')[0]
      .split('\n')
      .map((l) => l.match(/^([a-z-]+):\s*(.*)$/))
      .filter(Boolean)
      .map((m) => [m[1], m[2].trim()]),
  );
  return { program: fs.readFileSync(path.join(examplesDir, front.program), 'utf8'), intModel: front['int-model'] ?? 'c' };
}

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-predicate-gallery-', timeout: 120_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

test('the pinned file covers the predicate gallery examples', () => {
  assert.ok(Object.keys(pinned).length >= 3, JSON.stringify(Object.keys(pinned)));
});

for (const [id, presets] of Object.entries(pinned)) {
  for (const [preset, expected] of Object.entries(presets)) {
    test(`"${id}" under ${preset}: the page finds the CLI's predicates`, async () => {
      const { program, intModel } = example(id);
      await page.goto(baseUrl);
      await byId('cfa-listing').waitFor();
      await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), program);
      await page.reload();
      await byId('cfa-listing').waitFor();
      await byId('int-model').selectOption(intModel);
      await analyze(page, preset);
      await byId('run-end').click();
      await expectText(byId('verdict'), /^Verdict: /);
      await byId('tab-cegar').click();
      const shown = expected.length ? await byId('cegar-predicates').locator('li').allInnerTexts() : [];
      assert.deepEqual(shown.map((s) => s.trim()), expected, `${id} under ${preset} (int model ${intModel})`);
    });
  }
}

test('no page errors', () => {
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors), []);
});
