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
/** The browser the tests run (Debian's chromium unless CHROMIUM says otherwise). */
export const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Where screenshots go (git-ignored). */
export const artifacts = path.join(here, 'artifacts');

// As root on a machine without outside network: no sandbox, no GPU, and no
// background connections (they are refused here, many at a time).
export const CHROMIUM_ARGS = [
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
 * Serves dist/ (or `dir`) and opens a page at 1280×800 (or `viewport`).
 * `timeout` is how long the page may take to show something (the wasm is
 * compiled on load). Returns the page, its browser context, the server and
 * its base URL, the page and console errors seen so far (live arrays), and
 * `close()`.
 */
export async function openBrowser({ profilePrefix, timeout, dir = distDir, viewport = { width: 1280, height: 800 } }) {
  assert.ok(fs.existsSync(path.join(dir, 'index.html')), `no build in ${dir}: run trunk build --release first`);
  fs.mkdirSync(artifacts, { recursive: true });
  const { server, url: baseUrl } = await startServer(dir, 0);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), profilePrefix));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
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
  return { page, context, server, baseUrl, pageErrors, consoleErrors, close };
}

/**
 * The link (its fragment) that the gallery's "Open" of example `id` leads
 * to, read once in a fresh profile: the benchmarks then load it cold.
 */
export async function exampleFragment(id) {
  const { page, baseUrl, close } = await openBrowser({ profilePrefix: 'cpa-example-link-', timeout: 60_000 });
  try {
    const byId = (testId) => page.locator(`[data-testid=${testId}]`);
    await page.goto(baseUrl);
    await byId('cfa-listing').waitFor();
    await byId('examples-button').click();
    await Promise.all([page.waitForEvent('load'), byId(`open-${id}`).click()]);
    await byId('cfa-listing').waitFor();
    return new URL(page.url()).hash;
  } finally {
    await close();
  }
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
 * Waits until the page's editor exists: it is created when the page is
 * first idle after its first render, so a test that waited only for the
 * page's first render (e.g. the CFA listing) may be there before it.
 */
export const editorReady = (page) => page.waitForFunction(() => CpaEditor.find(document.querySelector('[data-testid=editor]')) != null);

/** The page's editor's text, once the editor exists. */
export async function editorText(page) {
  await editorReady(page);
  return page.evaluate(() => CpaEditor.getText(CpaEditor.find(document.querySelector('[data-testid=editor]'))));
}

/**
 * A program whose only solver questions compare two inputs (`x > y`, then
 * `x < y`: unsat, so symbolic execution proves it TRUE and the value
 * analysis cannot): the engine decides queries over one input itself, so
 * these go to Z3.
 */
export const TWO_INPUT_PROGRAM = `extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (x > y) {
    if (x < y) {
ERROR:
      return 1;
    }
  }
  return 0;
}
`;

/** Replaces the text in the page's editor, once the editor exists. */
export async function setEditorText(page, text) {
  await editorReady(page);
  await page.evaluate((t) => CpaEditor.setText(CpaEditor.find(document.querySelector('[data-testid=editor]')), t), text);
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

/**
 * Console errors that files loading Z3 may ignore: Emscripten prints this
 * one (console.error) when Z3 starts a thread before its worker pool is
 * warm — which happens when the machine is busy while Z3 loads; the thread
 * still starts and Z3 answers.
 */
export const Z3_KNOWN_CONSOLE_ERRORS = [/^Blocking on the main thread is very dangerous/];

/** `consoleErrors` without the known Z3 ones (`Z3_KNOWN_CONSOLE_ERRORS`). */
export function withoutKnownZ3Errors(consoleErrors) {
  return consoleErrors.filter((m) => !Z3_KNOWN_CONSOLE_ERRORS.some((known) => known.test(m)));
}

/**
 * Waits until the analysis panels show event `k` (the position reads
 * `step 1 · event 6 / 176`; its `data-event` holds the event number).
 */
export function atEvent(page, k) {
  return page.waitForFunction((k) => document.querySelector('[data-testid=position]')?.dataset.event === String(k), k);
}

/** The event position the analysis panels show, as a number. */
export async function shownEvent(page) {
  return Number(await page.locator('[data-testid=position]').getAttribute('data-event'));
}

// Reading the page after an action. The page renders asynchronously: Yew
// renders after the event handler returns and yields to the browser in the
// middle of long render passes, effects (the editor's line marks, the graph
// views) land in a later pass, and runs compute in timer slices. A value
// read right after a click can therefore be the one from before it. The
// helpers below wait for the state a test expects and only then assert, so
// a failure still shows what the page showed last.

/** How long the helpers below wait for the page to show what is expected (ms). */
export const SETTLE_MS = 15_000;

/**
 * Polls `read()` until its value deep-equals `expected`, then asserts it
 * (after `timeout` ms the last value read fails the assertion). Returns the
 * value.
 */
export async function until(page, read, expected, message, timeout = SETTLE_MS) {
  return untilOk(page, read, (got) => assert.deepEqual(got, expected, message), timeout);
}

/**
 * Polls `read()` until `check(value)` does not throw (an `assert` call on
 * the value), then returns the value; after `timeout` ms the last value's
 * assertion error is thrown.
 */
export async function untilOk(page, read, check, timeout = SETTLE_MS) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const got = await read();
    try {
      check(got);
      return got;
    } catch (e) {
      if (Date.now() >= deadline) throw e;
    }
    await page.waitForTimeout(50);
  }
}

/**
 * Waits until `locator`'s rendered text matches `expected` (a RegExp, or a
 * string it must equal), then asserts and returns it.
 */
export function expectText(locator, expected, message, timeout = SETTLE_MS) {
  const check =
    expected instanceof RegExp ? (t) => assert.match(t, expected, message) : (t) => assert.equal(t, expected, message);
  return untilOk(locator.page(), () => locator.innerText(), check, timeout);
}

/** Waits until `locator` matches `count` elements, then asserts it. */
export function expectCount(locator, count, message, timeout = SETTLE_MS) {
  return untilOk(locator.page(), () => locator.count(), (n) => assert.equal(n, count, message), timeout);
}

/**
 * The rows of a state list (the waitlist, the reached set), one line per
 * location header and state, from the DOM's text. Not `innerText`: rows
 * out of view are not rendered (`content-visibility: auto`), and neither
 * are rows added since the last frame until the browser has decided they
 * are in view, so `innerText` leaves them out depending on the viewport,
 * the scroll position and timing.
 */
export function stateRows(locator) {
  return locator.evaluate((el) => [...el.querySelectorAll('.loc, li')].map((e) => e.textContent.trim()).join('\n'));
}

/**
 * Resolves once the page has finished the work queued so far: two frames
 * and the timer tasks queued after them (Yew continues a yielded render
 * pass in a timer task). For checking that something did NOT change.
 */
export function settled(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const frame = (then) => requestAnimationFrame(() => setTimeout(then, 0));
        frame(() => frame(resolve));
      }),
  );
}
