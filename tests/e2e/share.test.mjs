// Browser end-to-end tests of share links (dist/): a link made in the page
// restores the program, the configuration and the step exactly in a fresh
// page; a malformed, oversized or "zip bomb" link shows an error and the
// page stays usable.
//
//   DIST_DIR=dist node --test tests/e2e/share.test.mjs   (after `trunk build --release`)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import zlib from 'node:zlib';
import { artifacts, expectCount, stateRows, until, useBrowser } from './harness.mjs';

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-share-', timeout: 30_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);

/** A program that is not the built-in example, with a loop and a branch. */
const PROGRAM = `// shared program
extern int __VERIFIER_nondet_int(void);
int main() {
  int i = 0;
  int n = __VERIFIER_nondet_int();
  while (i < 10) {
    i = i + 1;
  }
  if (i != 10) {
ERROR:
    return 1;
  }
  return 0;
}
`;

const storedProgram = () => page.evaluate(() => localStorage.getItem('cpa-playground.program'));

async function view() {
  return {
    position: await byId('position').innerText(),
    step: await byId('step-text').innerText(),
    // The rows' DOM text: rows out of view are not rendered (content-visibility).
    reached: await stateRows(byId('reached')),
    stats: await byId('stats').innerText(),
    preset: await byId('preset').inputValue(),
    intModel: await byId('int-model').inputValue(),
    limit: await byId('step-limit').inputValue(),
    cfa: await byId('status').innerText(),
  };
}

/** Opens `url` as a new document (not a same-page fragment change). */
async function open(url) {
  await page.goto('about:blank');
  await page.goto(url);
  await byId('analysis').waitFor();
}

test('a share link restores program, configuration and step in a fresh page', async () => {
  await page.goto(baseUrl);
  // Wait for the app: its first render stores the program it shows.
  await byId('cfa-listing').waitFor();
  await page.evaluate((p) => localStorage.setItem('cpa-playground.program', p), PROGRAM);
  await open(baseUrl);
  assert.equal(await storedProgram(), PROGRAM);
  await byId('preset').selectOption('octagon-join');
  await byId('int-model').selectOption('c');
  await byId('step-limit').fill('500');
  await byId('step-limit').dispatchEvent('change');
  await byId('analyze').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=run-status]')?.classList.contains('computing'));
  await byId('timeline').fill('37');
  await page.waitForFunction(() => document.querySelector('[data-testid=position]').dataset.event === '37');
  const made = await view();

  await byId('share').click();
  const url = await byId('share-link').inputValue();
  assert.match(url, /#share=1\.[A-Za-z0-9_-]+$/);
  await until(page, () => page.evaluate(() => location.href), url, 'the address bar shows the link');
  console.log(`share link: ${url.length} characters for a ${PROGRAM.length}-character program`);
  await page.screenshot({ path: path.join(artifacts, 'share-1-link.png') });

  // A fresh page: nothing stored, only the link.
  await page.evaluate(() => localStorage.clear());
  await open(url);
  await page.waitForFunction(() => document.querySelector('[data-testid=position]')?.dataset.event === '37');
  const restored = await view();
  assert.deepEqual(restored, made);
  assert.equal(await storedProgram(), PROGRAM, 'the program is the shared one');
  assert.equal(restored.preset, 'octagon-join');
  assert.equal(restored.intModel, 'c');
  assert.equal(await byId('share-error').count(), 0);
  await page.screenshot({ path: path.join(artifacts, 'share-2-restored.png') });

  // A link made before any analysis restores program and chooser only.
  await page.getByRole('button', { name: 'Reset example' }).click();
  await open(baseUrl);
  await byId('preset').selectOption('value');
  await byId('share').click();
  const plain = await byId('share-link').inputValue();
  await page.evaluate(() => localStorage.clear());
  await open(plain);
  // The link's configuration is applied by an effect after the first render.
  await until(page, () => byId('preset').inputValue(), 'value');
  assert.equal(await byId('position').count(), 0, 'no run was shared, none is started');
});

const base64url = (buf) => buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

for (const [name, fragment, message] of [
  ['damaged', 'share=1.@@not-base64@@', /damaged/],
  ['cut off', null, /damaged|not a playground state/],
  ['from another version', 'share=9.abc', /another version/],
  ['oversized', `share=1.${'A'.repeat(70_000)}`, /too long/],
  ['a zip bomb', `share=1.${base64url(zlib.deflateRawSync(Buffer.alloc(50_000_000, 32), { level: 9 }))}`, /expands to more than/],
  ['with markup in it', `share=1.${base64url(zlib.deflateRawSync(Buffer.from(JSON.stringify({ program: 'int main(){return 0;}', preset: '<img src=x onerror=alert(1)>', int_model: 'math', max_steps: 1 }))))}`, /unknown configuration/],
]) {
  test(`a ${name} link shows an error and the page stays usable`, async () => {
    let frag = fragment;
    if (frag === null) {
      // A real link cut in half.
      await open(baseUrl);
      await byId('share').click();
      const good = (await byId('share-link').inputValue()).split('#')[1];
      frag = good.slice(0, Math.floor(good.length / 2));
    }
    await open(`${baseUrl}#${frag}`);
    const banner = byId('share-error');
    await banner.waitFor();
    const text = await banner.innerText();
    assert.match(text, /This share link cannot be opened/);
    assert.match(text, message);
    assert.ok(text.length < 400, 'the message is short (nothing of the link is echoed at length)');
    assert.equal(await page.locator('img').count(), 0, 'nothing from the link became markup');
    if (name === 'a zip bomb' || name === 'with markup in it') {
      await page.screenshot({ path: path.join(artifacts, `share-3-error-${name.replace(/ /g, '-')}.png`) });
    }
    // Usable: the CFA is there and an analysis runs to its verdict.
    await byId('cfa-listing').waitFor();
    await byId('preset').selectOption('octagon-widening');
    await byId('analyze').click();
    await page.waitForFunction(() => /TRUE|FALSE|UNKNOWN/.test(document.querySelector('[data-testid=run-status]')?.innerText ?? ''));
    // The banner can be dismissed.
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expectCount(byId('share-error'), 0);
  });
}

test('share links raised no errors in the page', () => {
  assert.deepEqual(pageErrors, [], 'uncaught exceptions or panics in the page');
  assert.deepEqual(consoleErrors, [], 'console errors');
});
