// Browser end-to-end tests of the page's font samples (dist/): the hidden
// samples in www/index.html (`#font-warmup`) are laid out while the app's
// wasm downloads, so that the first renders do not wait for the system to
// resolve fonts on the main thread. They only help if they name every font
// the first screens draw text in: the start page, and an example's link
// that opens the compare view (`symexec-listing1`). Every font of those
// screens' text (HTML text as its element's computed font; SVG text with
// its text rendering, which is part of the font the browser asks for) must
// be among the samples, and the samples must be gone once the app runs.
//
//   DIST_DIR=dist node --test tests/e2e/fonts.test.mjs   (after `trunk build --release`)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exampleFragment, openBrowser } from './harness.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const distDir = path.resolve(repo, process.env.DIST_DIR ?? 'dist');

/** The samples' markup, as the built page has it. */
function samplesMarkup() {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const block = html.match(/<div id="font-warmup"[^>]*>([\s\S]*?)<\/div>/);
  assert.ok(block, 'index.html has its font samples (#font-warmup)');
  return block[1];
}

/**
 * The fonts the page's text is drawn in now, each as
 * "style weight size family rendering" with where it was seen; the SVG
 * text's rendering is kept (geometricPrecision is a font of its own), the
 * HTML text's is not.
 */
const fontsInUse = (page) =>
  page.evaluate(() => {
    const seen = new Map();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || !el || el.closest('#font-warmup') || !el.checkVisibility()) continue;
      const s = getComputedStyle(el);
      const svg = el instanceof SVGElement;
      const key = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}${svg ? ' ' + s.textRendering : ''}`;
      if (!seen.has(key)) seen.set(key, `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}: ${n.textContent.trim().slice(0, 30)}`);
    }
    return [...seen];
  });

/** The samples' fonts, computed in the page the same way (SVG-text samples keep their rendering). */
const sampleFonts = (page, markup) =>
  page.evaluate((markup) => {
    const box = document.createElement('div');
    box.id = 'font-warmup';
    box.innerHTML = markup;
    document.body.append(box);
    const keys = [...box.querySelectorAll('span')].map((el) => {
      const s = getComputedStyle(el);
      const svg = el.classList.contains('svg-text');
      return `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}${svg ? ' ' + s.textRendering : ''}`;
    });
    box.remove();
    return keys;
  }, markup);

for (const [screen, fragment] of [
  ['the start page', async () => ''],
  ["an example's compare view", () => exampleFragment('symexec-listing1')],
]) {
  test(`every font ${screen} draws text in is among index.html's font samples, and the samples are gone once the app runs`, async () => {
    const { page, baseUrl, pageErrors, close } = await openBrowser({ profilePrefix: 'cpa-e2e-fonts-', timeout: 60_000 });
    try {
      await page.goto(`${baseUrl}${await fragment()}`);
      await page.locator('[data-testid=cfa-listing]').first().waitFor();
      // The editor is created when the page is first idle.
      await page.locator('[data-testid=editor] .cm-content').waitFor({ state: 'attached' });
      if (screen !== 'the start page') await page.locator('[data-testid=compare-view] .graph-svg text, [data-testid=compare-view] svg text').first().waitFor();
      assert.equal(await page.locator('#font-warmup').count(), 0, 'the app removed the samples once it had rendered');

      const samples = new Set(await sampleFonts(page, samplesMarkup()));
      const used = await fontsInUse(page);
      assert.ok(used.length >= 10, `the screen draws text in several fonts (${used.length} found)`);
      const missing = used.filter(([key]) => !samples.has(key)).map(([key, where]) => `${key} (e.g. ${where})`);
      assert.deepEqual(missing, [], `fonts ${screen} uses without a sample in www/index.html's #font-warmup`);
      assert.deepEqual(pageErrors, []);
    } finally {
      await close();
    }
  });
}
