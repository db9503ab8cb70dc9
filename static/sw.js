// CPA Playground's service worker: the page works without network once it
// was opened, and a new build is only used when the student says so.
//
// scripts/stamp-service-worker.mjs (a Trunk post-build hook) replaces the
// three placeholders below in the built copy: BUILD (a hash of every file
// of the build), PRECACHE (those files, relative to this script) and Z3 (a
// hash of Z3's two files). The browser compares this script byte for byte
// on every page load, so a new build means a new worker: it installs
// beside the running one and waits; the page shows "new version available"
// and the button posts `skip-waiting`, which activates it (the page then
// reloads). Nothing here runs unprompted on an open page.
//
// Caches:
//   cpa-playground-app-BUILD  the page, its wasm and JavaScript, the css, the
//                             examples and exercise sets (filled on install)
//   cpa-playground-z3-Z3      z3-built.js and z3-built.wasm (35 MB), filled
//                             the first time the page loads Z3, kept across
//                             builds as long as Z3 itself is unchanged
// Older caches of this playground are deleted when a worker activates.

const BUILD = '__CPA_BUILD__';
const PRECACHE = __CPA_PRECACHE__;
const Z3 = '__CPA_Z3__';

const PREFIX = 'cpa-playground-';
const APP_CACHE = `${PREFIX}app-${BUILD}`;
const Z3_CACHE = `${PREFIX}z3-${Z3}`;
const Z3_FILES = ['z3-built.js', 'z3-built.wasm'];
const PAGE = 'index.html';

const scope = () => self.registration.scope;
const inScope = (rel) => new URL(rel, scope()).href;

self.addEventListener('install', (event) => {
  // A fresh request for every file (not the HTTP cache): the cache must
  // hold exactly this build.
  event.waitUntil(
    caches.open(APP_CACHE).then((cache) => cache.addAll(PRECACHE.map((rel) => new Request(inScope(rel), { cache: 'reload' })))),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([APP_CACHE, Z3_CACHE]);
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && !keep.has(name)) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  const type = event.data && event.data.type;
  if (type === 'skip-waiting') {
    self.skipWaiting();
  } else if (type === 'cache-z3') {
    // The page loaded Z3 before this worker controlled it: keep a copy now
    // (usually straight from the HTTP cache).
    event.waitUntil(Promise.all(Z3_FILES.map((rel) => z3File(new Request(inScope(rel)), event))));
  } else if (type === 'build' && event.ports[0]) {
    event.ports[0].postMessage({ build: BUILD, z3: Z3 });
  }
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  const base = new URL(scope());
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return;
  const rel = url.pathname.slice(base.pathname.length);
  if (request.mode === 'navigate') {
    if (rel === '' || rel === PAGE) event.respondWith(fromApp(PAGE, request));
  } else if (Z3_FILES.includes(rel)) {
    event.respondWith(z3File(request, event));
  } else if (PRECACHE.includes(rel)) {
    event.respondWith(fromApp(rel, request));
  }
  // Anything else goes to the network as if there were no worker.
});

/** A file of this build from its cache; from the network if it is missing. */
async function fromApp(rel, request) {
  const cached = await caches.match(inScope(rel), { cacheName: APP_CACHE });
  return cached ?? fetch(request);
}

/** Z3's files being written to the cache now, by URL. */
const storing = new Map();

/**
 * One of Z3's files: from its cache, else from the network, and then kept
 * for next time (stored while the page reads it, so its progress bar moves).
 */
async function z3File(request, event) {
  const cache = await caches.open(Z3_CACHE);
  const cached = await cache.match(request.url);
  if (cached) return cached;
  // Being stored already (the page's download, then its `cache-z3`, or
  // Z3's worker threads loading z3-built.js): wait for it, do not fetch 35 MB twice.
  if (storing.has(request.url)) {
    await storing.get(request.url).catch(() => {});
    const stored = await cache.match(request.url);
    if (stored) return stored;
  }
  const response = await fetch(request);
  if (response.ok) {
    const put = cache.put(request.url, response.clone())
      .catch((e) => {
        notKept(e);
        throw e;
      })
      .finally(() => storing.delete(request.url));
    storing.set(request.url, put);
    event.waitUntil(put);
  }
  return response;
}

/**
 * Tells every page that Z3 could not be kept (the browser refused to store
 * it: usually a QuotaExceededError on a nearly full disk), so the page can
 * say that offline use will not have Z3, instead of failing offline later.
 */
async function notKept(error) {
  const message = String(error && error.message ? error.message : error).replace(/\.$/, '');
  const reason = `${error && error.name ? error.name : 'Error'}: ${message}`;
  for (const client of await self.clients.matchAll({ type: 'window', includeUncontrolled: true })) {
    client.postMessage({ type: 'z3-not-kept', reason });
  }
}
