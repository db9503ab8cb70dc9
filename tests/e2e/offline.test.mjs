// Browser end-to-end tests of the playground offline (dist/): the service
// worker (static/sw.js) keeps the page, its wasm, the examples and Z3, so
// after one visit that loaded Z3 the page reloads without any network (the
// server is stopped and the browser is offline), opens an example and runs
// symbolic execution (Z3 from the cache) to the same verdict as online.
// When the browser refuses to store Z3 (a full disk), the page says so.
// And the explicit update: a changed build's worker waits, the page shows
// "new version available", and its button switches and reloads.
//
//   DIST_DIR=dist node --test tests/e2e/offline.test.mjs   (after `trunk build --release`)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, artifacts, expectCount, openBrowser, untilOk, withoutKnownZ3Errors } from './harness.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const distDir = path.resolve(repo, process.env.DIST_DIR ?? 'dist');

/** Waits until a service worker controls the page. */
const controlled = (page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null);

/**
 * A browser at a laptop's size on the playground's start page, once a
 * service worker controls it (a failure to get there closes the browser).
 */
async function openControlled(options) {
  const browser = await openBrowser({ ...options, viewport: { width: 1366, height: 768 } });
  const byId = (id) => browser.page.locator(`[data-testid=${id}]`);
  try {
    await browser.page.goto(browser.baseUrl);
    await byId('cfa-listing').waitFor();
    await controlled(browser.page);
  } catch (e) {
    await browser.close();
    throw e;
  }
  return { ...browser, byId };
}

/** The build and Z3 version of the worker that controls the page. */
function workerBuild(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (e) => resolve(e.data);
        navigator.serviceWorker.controller.postMessage({ type: 'build' }, [channel.port2]);
      }),
  );
}

/** Whether the worker's Z3 cache holds both of Z3's files. */
function z3Cached(page) {
  return page.evaluate(async () => {
    for (const name of await caches.keys()) {
      if (!name.startsWith('cpa-playground-z3-')) continue;
      const cache = await caches.open(name);
      const [js, wasm] = await Promise.all([cache.match('z3-built.js'), cache.match('z3-built.wasm')]);
      if (js && wasm) return true;
    }
    return false;
  });
}

/** The example opened offline: the symbolic-execution paper's Listing 1 (symbolic proves it). */
const EXAMPLE = 'symexec-listing1';

/**
 * Opens the gallery's example `id` (the page reloads with it) and closes
 * the compare view if the example opened one.
 */
async function openExample(page, id) {
  const byId = (id) => page.locator(`[data-testid=${id}]`);
  await byId('examples-button').click();
  await Promise.all([page.waitForEvent('load'), byId(`open-${id}`).click()]);
  await byId('cfa-listing').waitFor();
  if (await byId('compare-view').isVisible()) await byId('compare-close').click();
  await expectCount(byId('compare-view'), 0);
}

/** Runs symbolic execution to its end and returns the verdict line. */
async function symbolicVerdict(page) {
  await analyze(page, 'symbolic');
  await page.locator('[data-testid=run-end]').click();
  const verdict = await untilOk(
    page,
    () => page.locator('[data-testid=verdict]').innerText().catch(() => ''),
    (t) => assert.match(t, /^Verdict: (TRUE|FALSE)/),
    60_000,
  );
  return verdict.split('\n')[0];
}

test('after one visit, the page works offline: reload, open an example, run symbolic execution with Z3', async () => {
  const { page, context, server, baseUrl, pageErrors, consoleErrors, close } = await openBrowser({
    profilePrefix: 'cpa-e2e-offline-',
    timeout: 90_000,
  });
  try {
    await page.goto(baseUrl);
    await page.locator('[data-testid=cfa-listing]').waitFor();
    await controlled(page);
    const online = await workerBuild(page);
    assert.match(online.build, /^[0-9a-f]{16}$/, 'the worker is stamped with the build (scripts/stamp-service-worker.mjs)');
    assert.match(online.z3, /^[0-9a-f]{16}$/, 'and with the Z3 files it keeps');

    // Online: an example, and symbolic execution (this loads Z3 once).
    await openExample(page, EXAMPLE);
    const verdictOnline = await symbolicVerdict(page);
    await untilOk(page, () => z3Cached(page), (cached) => assert.equal(cached, true, 'Z3 is kept for offline use'), 60_000).catch(
      async (e) => {
        // Chromium grants a site no room when the disk is nearly full: say so.
        const { quota, usage } = await page.evaluate(() => navigator.storage.estimate());
        const notice = await page.locator('[data-testid=z3-not-kept]').innerText().catch(() => '(no notice)');
        e.message += `\n(storage quota ${Math.round(quota / 1e6)} MB, used ${Math.round(usage / 1e6)} MB; the page said: ${notice})`;
        throw e;
      },
    );

    // No network: the browser is offline and the server is gone.
    await context.setOffline(true);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await page.reload();
    await page.locator('[data-testid=cfa-listing]').waitFor();
    assert.equal(await page.evaluate(() => navigator.onLine), false, 'the browser is offline');

    await openExample(page, EXAMPLE);
    const verdictOffline = await symbolicVerdict(page);
    assert.equal(verdictOffline, verdictOnline, `${EXAMPLE}: symbolic execution offline gives the online verdict`);
    await page.screenshot({ path: path.join(artifacts, 'offline-symbolic.png') });
    assert.deepEqual(pageErrors, [], 'no page errors');
    // Offline, the browser may still report failed background requests it
    // makes itself; none of the page's own files failed.
    assert.deepEqual(
      withoutKnownZ3Errors(consoleErrors).filter((m) => !/ERR_INTERNET_DISCONNECTED/.test(m)),
      [],
      'no console errors',
    );
  } finally {
    await close();
  }
});

test('when the browser refuses to store Z3 (a full disk), the page says that Z3 will not be there offline', async () => {
  const { page, context, pageErrors, close, byId } = await openControlled({ profilePrefix: 'cpa-e2e-notkept-', timeout: 90_000 });
  try {
    // The worker's cache refuses Z3's files as Chromium does when the disk
    // is nearly full; the page's own files are stored as usual.
    const [worker] = context.serviceWorkers();
    assert.ok(worker, 'the page has a service worker');
    await worker.evaluate(() => {
      const put = Cache.prototype.put;
      Cache.prototype.put = function (request, response) {
        if (String(request.url ?? request).includes('z3-built')) {
          return Promise.reject(new DOMException('Quota exceeded.', 'QuotaExceededError'));
        }
        return put.call(this, request, response);
      };
    });
    await expectCount(byId('z3-not-kept'), 0);

    await openExample(page, EXAMPLE);
    const verdict = await symbolicVerdict(page);
    assert.match(verdict, /^Verdict: TRUE/, 'online, symbolic execution still answers with Z3');
    const notice = byId('z3-not-kept');
    await notice.waitFor({ timeout: 60_000 });
    const text = await notice.innerText();
    assert.match(text, /Z3 could not be kept for offline use/);
    assert.match(text, /QuotaExceededError/, 'the notice names the browser\'s reason');
    assert.equal(await notice.evaluate((el) => el.closest('[role=status]') !== null), true, 'announced in a live region');
    assert.equal(await z3Cached(page), false, 'Z3 is not in the cache');
    await page.screenshot({ path: path.join(artifacts, 'z3-not-kept.png') });

    await byId('z3-not-kept-dismiss').click();
    await expectCount(byId('z3-not-kept'), 0);
    assert.deepEqual(pageErrors, [], 'no page errors');
  } finally {
    await close();
  }
});

test('a new build is used only when the student says so: the notice, then the switch', async () => {
  // A copy of the build (links to its files; the worker script copied), so
  // the test can publish a "new build" by changing the worker script.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cpa-e2e-update-'));
  for (const entry of fs.readdirSync(distDir)) {
    if (entry !== 'sw.js') fs.symlinkSync(path.join(distDir, entry), path.join(dir, entry));
  }
  const worker = fs.readFileSync(path.join(distDir, 'sw.js'), 'utf8');
  fs.writeFileSync(path.join(dir, 'sw.js'), worker);
  const { page, pageErrors, close, byId } = await openControlled({ profilePrefix: 'cpa-e2e-update-', timeout: 60_000, dir });
  try {
    const first = await workerBuild(page);
    assert.equal(await byId('update-notice').count(), 0, 'no notice while the build is the newest');

    // Publish a new build: its worker differs (another build hash).
    const next = 'e2e0next0build00';
    assert.ok(worker.includes(`"${first.build}"`), 'the worker script names its build');
    fs.writeFileSync(path.join(dir, 'sw.js'), worker.replace(`"${first.build}"`, `"${next}"`));
    await page.reload();
    await byId('cfa-listing').waitFor();
    // The old build still runs the page (never swapped under the student)...
    assert.equal((await workerBuild(page)).build, first.build, 'the page stays on its build until asked');
    // ...and says a new one is there.
    await byId('update-notice').waitFor();
    assert.match(await byId('update-notice').innerText(), /new version of CPA Playground is available/);
    assert.equal(await byId('update-notice').locator('xpath=..').getAttribute('role'), 'status', 'announced politely');
    await page.screenshot({ path: path.join(artifacts, 'offline-update-notice.png') });

    // The button activates the new worker and reloads the page.
    await Promise.all([page.waitForEvent('load'), byId('update-reload').click()]);
    await byId('cfa-listing').waitFor();
    await controlled(page);
    assert.equal((await workerBuild(page)).build, next, 'after the reload the new build controls the page');
    assert.equal(await byId('update-notice').count(), 0, 'and the notice is gone');
    const appCaches = await page.evaluate(async () => (await caches.keys()).filter((n) => n.startsWith('cpa-playground-app-')));
    assert.deepEqual(appCaches, [`cpa-playground-app-${next}`], 'the old build cache is deleted');
    assert.deepEqual(pageErrors, [], 'no page errors');
  } finally {
    await close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
