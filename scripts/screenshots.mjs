#!/usr/bin/env node
// Takes screenshots of the page's main views, to look at what a change did
// to the page (compare two folders of them by eye, or with `cmp`):
//
//   node scripts/screenshots.mjs [DIST_DIR] [OUT_DIR] [WIDTHxHEIGHT]
//
// DIST_DIR defaults to dist, OUT_DIR to tests/e2e/artifacts/screens, the
// size to 1280x800 (a lecture-hall laptop). Views: the playground as it
// opens, after a value-join analysis at its last step, the compare view,
// the examples gallery, and the exercise set. Needs a `trunk build` in
// DIST_DIR and Debian's chromium (CHROMIUM overrides its path).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './static-server.mjs';

const [distArg = 'dist', outArg = 'tests/e2e/artifacts/screens', sizeArg = '1280x800'] = process.argv.slice(2);
const [width, height] = sizeArg.split('x').map(Number);
const distDir = path.resolve(distArg);
const outDir = path.resolve(outArg);
fs.mkdirSync(outDir, { recursive: true });

const { server, url } = await startServer(distDir, 0);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'cpa-screens-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  viewport: { width, height },
});
const page = context.pages()[0] ?? (await context.newPage());
page.setDefaultTimeout(120_000);
const byId = (id) => page.locator(`[data-testid=${id}]`);
const shot = async (name) => {
  // Let animations and late layout settle before the picture.
  await page.waitForTimeout(500);
  const file = path.join(outDir, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(file);
};

try {
  await page.goto(url);
  await byId('cfa-listing').waitFor();
  await shot('1-playground');

  await byId('preset').selectOption('value-join');
  await byId('analyze').click();
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=run-status]');
    return s && !s.classList.contains('computing') && s.innerText.startsWith('value-join, ');
  });
  await byId('run-end').click();
  await byId('verdict').waitFor();
  await shot('2-analysis-at-end');

  await byId('compare-open').click();
  await page.waitForFunction(() => /^\d+ configurations/.test(document.querySelector('[data-testid=compare-status]')?.innerText ?? ''));
  await shot('3-compare');

  await page.goto('about:blank');
  await page.goto(url);
  await byId('cfa-listing').waitFor();
  await byId('examples-button').click();
  await byId('gallery').waitFor();
  await shot('4-gallery');

  await page.goto('about:blank');
  await page.goto(`${url}#exercise=cpa-basics`);
  await byId('exercise-pane').waitFor();
  await shot('5-exercise');
} finally {
  await context.close();
  server.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
