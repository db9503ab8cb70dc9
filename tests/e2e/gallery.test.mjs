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
import { analyze, artifacts, expectCount, expectText, useBrowser } from './harness.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const examplesDir = path.join(repo, 'static', 'examples');

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
    const expect = Object.fromEntries(front.expect.split(',').map((kv) => kv.trim().split('=')));
    return {
      id: f.replace(/\.md$/, ''),
      title: front.title,
      program: fs.readFileSync(path.join(examplesDir, front.program), 'utf8'),
      configs: front.configs.split(',').map((s) => s.trim()),
      expect,
    };
  });

let page, baseUrl, pageErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-gallery-', timeout: 60_000 });
before(async () => ({ page, baseUrl, pageErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

test('the gallery lists every example with its explanation as text', async () => {
  assert.ok(EXAMPLES.length >= 8, `only ${EXAMPLES.length} examples`);
  await page.goto(baseUrl);
  await byId('cfa-listing').waitFor();
  await byId('examples-button').click();
  await byId('gallery').waitFor();
  const cards = await page.evaluate(() =>
    [...document.querySelectorAll('.gallery-card')].map((c) => ({
      id: c.dataset.example,
      title: c.querySelector('h3').innerText,
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

for (const e of EXAMPLES) {
  test(`opening "${e.id}" loads it and runs ${e.configs.join(', ')} to the stated verdicts`, async () => {
    await page.goto(baseUrl);
    await byId('cfa-listing').waitFor();
    await byId('examples-button').click();
    await Promise.all([page.waitForEvent('load'), byId(`open-${e.id}`).click()]);
    await byId('cfa-listing').waitFor();
    const shown = await page.evaluate(() => localStorage.getItem('cpa-playground.program'));
    assert.equal(shown, e.program, 'the example program is in the editor');
    if (e.configs.length >= 2) {
      await byId('compare-view').waitFor();
      await page.waitForFunction(
        () => /configurations/.test(document.querySelector('[data-testid=compare-status]')?.innerText ?? ''),
        null,
        { timeout: 120_000 },
      );
      await byId('compare-end').click();
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
