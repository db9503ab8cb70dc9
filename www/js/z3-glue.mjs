// Z3 in the page: the glue between the Rust page (crates/web/src/solver.rs)
// and the z3-solver package (Z3 compiled to WebAssembly, with threads).
//
// This file is bundled by esbuild into www/gen/z3-glue.js (scripts/bundle-js.mjs)
// and copied into dist/ by Trunk, but NOT loaded at startup: the page injects
// it the first time something needs a solver (solver.rs), so the first paint
// never waits for Z3. On `cpaZ3.load()` it
//   1. injects z3-built.js as a plain <script> (it defines the global `initZ3`;
//      its pthread workers reload that same script by URL),
//   2. downloads z3-built.wasm itself, counting bytes for the progress bar,
//   3. hands the bytes to Emscripten (`wasmBinary`) and creates one context.
// `cpaZ3.check(script)` runs a self-contained SMT-LIB2 script with
// `Z3_eval_smtlib2_string` (after a `(reset)`, so queries never share
// declarations) and resolves to Z3's output text. Queries are serialized:
// z3-solver refuses two async calls at once.
//
// Only the low-level API is bundled (the high-level one is not needed).
import { init as initLowLevel } from 'z3-solver/build/low-level/index.js';

const SCRIPT_URL = 'z3-built.js';
const WASM_URL = 'z3-built.wasm';

/** What the page shows while Z3 loads; read by `cpaZ3.status()`. */
const state = {
  phase: 'idle', // idle | script | download | compile | ready | failed
  loaded: 0,
  total: 0,
  error: '',
};

let loading = null;
let ctx = 0;
let z3 = null;
let em = null;
let queue = Promise.resolve();

function addScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.async = true;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.appendChild(s);
  });
}

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
  performance.mark('cpa-z3:load-start');
  state.phase = 'script';
  if (typeof globalThis.initZ3 !== 'function') await addScript(SCRIPT_URL);
  if (typeof globalThis.initZ3 !== 'function') throw new Error('z3-built.js did not define initZ3');
  state.phase = 'download';
  const wasmBinary = await download(WASM_URL);
  state.phase = 'compile';
  const lowLevel = await initLowLevel(globalThis.initZ3, {
    wasmBinary,
    locateFile: (path, dir) => (path.endsWith('.wasm') ? new URL(WASM_URL, document.baseURI).href : dir + path),
  });
  z3 = lowLevel.Z3;
  em = lowLevel.em;
  const cfg = z3.mk_config();
  ctx = z3.mk_context(cfg);
  z3.del_config(cfg);
  state.phase = 'ready';
  performance.mark('cpa-z3:ready');
  // Offline use: the service worker (static/sw.js) keeps Z3's files once the
  // page has loaded them; if it did not control the page yet, it fetches
  // them now (from the HTTP cache, usually).
  globalThis.navigator?.serviceWorker?.controller?.postMessage({ type: 'cache-z3' });
}

/** Loads Z3 once; later calls return the same promise. */
function load() {
  if (!loading) {
    loading = start().catch((err) => {
      state.phase = 'failed';
      state.error = String(err && err.message ? err.message : err);
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

/** Runs one SMT-LIB2 script after every earlier one; resolves to Z3's output. */
function check(script) {
  const run = async () => {
    await load();
    return await evalOnHeap('(reset)\n' + String(script));
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

/** The loading state as one line for the progress indicator. */
function status() {
  return JSON.stringify(state);
}

globalThis.cpaZ3 = { load, check, status };
