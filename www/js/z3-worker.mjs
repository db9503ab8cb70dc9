// Z3's own Web Worker: it loads, compiles and runs Z3 (the z3-solver
// package, Z3 compiled to WebAssembly with threads) off the page's main
// thread, and relays SMT-LIB2 scripts to it.
//
// Bundled by esbuild into www/gen/z3-worker.js (scripts/bundle-js.mjs), copied
// into dist/ by Trunk, and started as a classic worker by the page
// (crates/web/src/platform/z3_worker.rs) when a solver-backed run starts
// (it hands over a port; Z3 loads at the run's first query) or a page query
// comes — or once the page has settled with a solver-backed analysis
// open, when the page sends `load` — so the first paint never waits for
// Z3. Loading:
//   1. starts downloading z3-built.wasm itself, counting bytes for the
//      progress bar, and meanwhile
//   2. importScripts('z3-built.js') (it defines the global `initZ3`; its
//      pthread workers reload that same script by URL, given below as
//      `mainScriptUrlOrBlob` since a worker has no `document.currentScript`);
//      the two overlapping put the wasm's request 80-150 ms earlier on a
//      2-core machine,
//   3. hands the bytes to Emscripten (`wasmBinary`) and creates one context,
//   4. runs a first `(check-sat)`: Emscripten starts the thread Z3 solves on
//      at the first call and keeps it for the next, so the first real query
//      does not pay for it (≈ 100–250 ms on a 2-core machine).
// (Compiling while downloading, with `instantiateStreaming`, was measured
// slower here than compiling the downloaded bytes, so it is not used.)
//
// Messages (the page's side is typed Rust, passed with serde-wasm-bindgen):
//   page → worker  {type: 'load'}   (start loading now; answered by status only)
//                  {type: 'check', id, script}
//                  {type: 'port', port}   (a MessagePort to the analysis engine's worker)
//   worker → page  {type: 'status', phase, loaded, total, error}
//                  {type: 'answer', id, text}
//                  {type: 'failed', id, error}
// The engine's worker asks over the port the page handed over, with the
// same `check` messages, and gets `answer` / `failed` back on that port:
// its queries never cross the page's main thread (the page keeps the
// solver log from the engine's own reports). A port's first query loads
// Z3 (handing the port over does not: a run whose queries the engine
// decides itself never needs Z3); loading status still goes to the page
// only.
// A check runs the self-contained script with `Z3_eval_smtlib2_string`
// (after a `(reset)`, so queries never share declarations, see `asRun`) and
// answers with Z3's output text. Checks run one after the other: z3-solver
// refuses two async calls at once.
//
// Only the low-level API is bundled (the high-level one is not needed).
import { init as initLowLevel } from 'z3-solver/build/low-level/index.js';

const SCRIPT_URL = new URL('z3-built.js', self.location.href).href;
const WASM_URL = new URL('z3-built.wasm', self.location.href).href;

/** How far loading has come; sent to the page on every change. */
const state = {
  phase: 'idle', // idle | script | download | compile | ready | failed
  loaded: 0,
  total: 0,
  error: '',
};

let lastProgress = 0;
/** Tells the page the loading state (download progress at most every 100 ms). */
function report(progressOnly = false) {
  const now = performance.now();
  if (progressOnly && now - lastProgress < 100) return;
  lastProgress = now;
  self.postMessage({ type: 'status', ...state });
}

function setPhase(phase) {
  state.phase = phase;
  report();
}

let loading = null;
let ctx = 0;
let z3 = null;
let em = null;
let queue = Promise.resolve();

async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url}: HTTP ${response.status}`);
  state.total = Number(response.headers.get('Content-Length') ?? 0);
  if (!response.body || !response.body.getReader) {
    const buf = new Uint8Array(await response.arrayBuffer());
    state.loaded = buf.length;
    return buf;
  }
  const reader = response.body.getReader();
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    state.loaded += value.length;
    report(true);
  }
  const all = new Uint8Array(state.loaded);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

async function start() {
  setPhase('script');
  // The download starts first: the network fetches the bytes while the
  // script below loads and runs (importScripts blocks this thread, not the
  // transfer).
  const bytes = download(WASM_URL);
  bytes.catch(() => undefined);
  if (typeof self.initZ3 !== 'function') self.importScripts(SCRIPT_URL);
  if (typeof self.initZ3 !== 'function') throw new Error('z3-built.js did not define initZ3');
  setPhase('download');
  const wasmBinary = await bytes;
  setPhase('compile');
  const lowLevel = await initLowLevel(self.initZ3, {
    wasmBinary,
    mainScriptUrlOrBlob: SCRIPT_URL,
    locateFile: (path, dir) => (path.endsWith('.wasm') ? WASM_URL : dir + path),
  });
  z3 = lowLevel.Z3;
  em = lowLevel.em;
  const cfg = z3.mk_config();
  ctx = z3.mk_context(cfg);
  z3.del_config(cfg);
  // Starts the thread Z3 solves on now rather than at the first query.
  await evalOnHeap('(check-sat)');
  setPhase('ready');
}

/** Loads Z3 once; later calls return the same promise. */
function load() {
  if (!loading) {
    loading = start().catch((err) => {
      state.error = String(err && err.message ? err.message : err);
      setPhase('failed');
      throw err;
    });
  }
  return loading;
}

/**
 * Z3_eval_smtlib2_string with the script on the heap. z3-solver's own
 * wrapper passes the string through `ccall`, which puts it on the stack and
 * pops it as soon as the call returns — but the async call parses it later
 * on a worker thread, so longer scripts were read after being overwritten
 * (seen in Chromium as "unknown constant W", "invalid bit-vector constant"
 * on queries that native z3 answers). Here the bytes live in malloc'ed
 * memory until the answer is back.
 */
async function evalOnHeap(text) {
  const bytes = new TextEncoder().encode(text);
  const ptr = em._malloc(bytes.length + 1);
  if (!ptr) throw new Error('Z3: out of memory for the query text');
  // Read HEAPU8 afresh: a memory growth replaces the view.
  em.HEAPU8.set(bytes, ptr);
  em.HEAPU8[ptr + bytes.length] = 0;
  try {
    return await em.async_call(() => em.ccall('async_Z3_eval_smtlib2_string', 'void', ['number', 'number'], [ctx, ptr]));
  } finally {
    em._free(ptr);
  }
}

/** How long Z3 may take on one query unless the script sets its own
 * `:timeout` (the default of `solver.timeout`, which the native `z3` process
 * honours per query): past it Z3 answers `unknown`, which an analysis treats
 * as "maybe satisfiable", and the next query does not wait behind it. A run
 * with another `solver.timeout` sends its queries with their own
 * `(set-option :timeout N)`. */
const QUERY_TIMEOUT_MS = 10000;

/**
 * The text Z3 runs for `script`: a `(reset)`, the time limit, and for a
 * query in the engine's shape (declarations, asserts, `(check-sat)`, no
 * `push`/`pop`/`apply` of its own) one `(push 1)` before its first assert.
 * The push makes Z3 answer with its incremental solver, as the native `z3`
 * process does (it keeps each assert on a push level of its own); Z3's
 * default one-shot tactics took 25 s natively on a Cartesian-abstraction
 * query of `loop-acceleration/phases_1-1.c` (QF_LIA with `div` by 2) that
 * the incremental solver answers in 15 ms, and the page had no limit.
 */
function asRun(script) {
  let text = String(script);
  if (/^\(check-sat\)/m.test(text) && !/\((push|pop|apply|check-sat-assuming)\b/.test(text)) {
    const first = text.search(/^\(assert /m);
    if (first >= 0) text = `${text.slice(0, first)}(push 1)\n${text.slice(first)}`;
  }
  const limit = /:timeout\b/.test(text) ? '' : `(set-option :timeout ${QUERY_TIMEOUT_MS})\n`;
  return `(reset)\n${limit}${text}`;
}

/** Runs one SMT-LIB2 script after every earlier one and posts the answer
 * to `to` (the page, or the engine worker's port). */
function check(id, script, to = self) {
  const run = async () => {
    await load();
    return await evalOnHeap(asRun(script));
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  result.then(
    (text) => to.postMessage({ type: 'answer', id, text: String(text) }),
    (err) => to.postMessage({ type: 'failed', id, error: String(err && err.message ? err.message : err) }),
  );
}

self.addEventListener('message', (event) => {
  const m = event.data;
  if (m && m.type === 'check') check(m.id, m.script);
  else if (m && m.type === 'load') load().catch(() => undefined);
  else if (m && m.type === 'port' && m.port) {
    const port = m.port;
    port.onmessage = (e) => {
      const q = e.data;
      if (q && q.type === 'check') check(q.id, q.script, port);
    };
  }
});
