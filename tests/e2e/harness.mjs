// Shared set-up of the browser end-to-end tests: serve dist/ with COOP/COEP
// on a free localhost port and open it in headless Debian chromium through
// playwright-core, with a fresh profile. Not a test file itself.
//
// Environment: DIST_DIR (default dist), CHROMIUM (default /usr/bin/chromium).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/static-server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const distDir = path.resolve(repo, process.env.DIST_DIR ?? 'dist');
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Where screenshots go (git-ignored). */
export const artifacts = path.join(here, 'artifacts');

// As root on a machine without outside network: no sandbox, no GPU, and no
// background connections (they are refused here, many at a time).
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Serves dist/ and opens a page at 1280×800. `timeout` is how long the page
 * may take to show something (the wasm is compiled on load). Returns the page,
 * the server's base URL, the page and console errors seen so far (live
 * arrays), and `close()`.
 */
export async function openBrowser({ profilePrefix, timeout }) {
  assert.ok(fs.existsSync(path.join(distDir, 'index.html')), `no build in ${distDir}: run trunk build --release first`);
  fs.mkdirSync(artifacts, { recursive: true });
  const { server, url: baseUrl } = await startServer(distDir, 0);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), profilePrefix));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(timeout);
  const pageErrors = [];
  const consoleErrors = [];
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  const close = async () => {
    await context.close();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  return { page, baseUrl, pageErrors, consoleErrors, close };
}

/**
 * For a test file: opens the browser (as `openBrowser`) before the file's
 * tests and closes it after them, through node:test's `before`/`after`.
 * Returns the session; `await session.ready` in the file's own `before`
 * (root-level hooks run concurrently) gives `page`, `baseUrl`,
 * `pageErrors` and `consoleErrors`.
 */
export function useBrowser(options) {
  const session = {};
  session.ready = new Promise((resolve, reject) => {
    before(async () => {
      try {
        Object.assign(session, await openBrowser(options));
        resolve(session);
      } catch (e) {
        reject(e);
        throw e;
      }
    });
  });
  // The file's `before` reports a failed start; do not report it twice.
  session.ready.catch(() => {});
  after(async () => {
    await session.close?.();
  });
  return session;
}

/**
 * Chooses a preset (and a step limit), presses Analyze, and waits until
 * that run has finished computing.
 */
export async function analyze(page, preset, limit) {
  const byId = (id) => page.locator(`[data-testid=${id}]`);
  await byId('preset').selectOption(preset);
  if (limit !== undefined) {
    await byId('step-limit').fill(String(limit));
    await byId('step-limit').dispatchEvent('change');
  }
  await byId('analyze').click();
  await page.waitForFunction((p) => {
    const status = document.querySelector('[data-testid=run-status]');
    return status && !status.classList.contains('computing') && status.innerText.startsWith(`${p}, `);
  }, preset);
}

/** Waits until the analysis panels show event `k`. */
export function atEvent(page, k) {
  return page.waitForFunction((k) => document.querySelector('[data-testid=position]').innerText.startsWith(`event ${k} `), k);
}
