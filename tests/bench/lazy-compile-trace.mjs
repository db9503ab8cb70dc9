// Trace (run by hand, not a test): which of the page's wasm functions V8
// compiles lazily on the main thread during a cold load of the gallery's
// Listing 1 link and a `symbolic` run, and in which task. V8 compiles a
// wasm function the first time it is called, on the thread that calls it
// (`wasm.CompileLazy`); code a worker sharing the module has already run
// is compiled for every thread. Needs a build that keeps the function
// names (add `data-keep-debug data-wasm-opt="0"` to the Rust link in
// www/index.html, build into another dist, restore):
//
//   DIST_DIR=/tmp/dist-names RUNS=3 [MIN=30] [TOP=40] [WHO=regex] node tests/bench/lazy-compile-trace.mjs
//
// Printed per run: how many functions were compiled lazily on the main
// thread (and after the first render) and on other threads; every
// main-thread task of at least MIN ms after the first render with its
// lazy compiles, their time, the longest ones and the modules; with WHO,
// every lazy compile of a function whose name matches, with its thread and
// time. Then, over all runs, the main thread's lazy compiles after the
// first render split into model and engine code (plain Rust the engine's
// worker could run first, so that the page finds it compiled) and UI code
// (Yew components, DOM bindings: only the page can run it), and summed by
// module and by function. Tracing slows the page: compare counts, and
// times only within one trace. Nothing is asserted.

import { pageMarks, threadOf, traceColdLoad } from './cold-load.mjs';
import { pageFunctionNames, withoutHash } from './wasm-names.mjs';

const dist = process.env.DIST_DIR ?? 'dist';
const { wasmFile, names } = pageFunctionNames(dist);
console.log(`${wasmFile}: ${names.size} named functions`);
if (names.size === 0) console.log('this build keeps no function names: every function counts as "other" (the header says how to build one that does)');

/** The name of the function a `wasm.CompileLazy` event compiled (`#index` if unnamed). */
const fnName = (e) => names.get(e.args?.func_index) ?? `#${e.args?.func_index}`;
/** A name without the leading `<` of a trait impl's path (`<T as …>`). */
const bare = (n) => n.replace(/^<|^_</, '');
/** A function's crate and up to two modules (`web::ui::analysis`). */
const prefix = (n) => {
  const m = bare(n).match(/^([a-z_0-9]+)(::[a-z_0-9]+)?(::[a-z_0-9]+)?/);
  return m ? m[0] : n.slice(0, 30);
};
const MIN = Number(process.env.MIN ?? 30);
const TOP = Number(process.env.TOP ?? 40);
const byFunction = new Map();
for (let run = 0; run < Number(process.env.RUNS ?? 2); run++) {
  const events = await traceColdLoad({
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8,v8.wasm,disabled-by-default-v8.wasm.detailed,blink.user_timing',
    profilePrefix: 'cpa-bench-lazy-',
  });
  const { marks, main, t0 } = pageMarks(events);
  const render = marks.find((m) => m.name === 'cpa-playground:first-render')?.ts ?? t0;
  const lazy = events.filter((e) => e.name === 'wasm.CompileLazy' && e.ph === 'X');
  const onMain = lazy.filter((e) => threadOf(e) === main);
  const other = lazy.filter((e) => threadOf(e) !== main);
  const sum = (es) => es.reduce((s, e) => s + e.dur, 0) / 1000;
  console.log(
    `run ${run + 1}: lazy compiles on the main thread ${onMain.length} (${sum(onMain).toFixed(1)} ms; after the first render ${onMain.filter((e) => e.ts > render).length}, ${sum(onMain.filter((e) => e.ts > render)).toFixed(1)} ms), on other threads ${other.length} (${sum(other).toFixed(1)} ms)`,
  );
  const tasks = events.filter((e) => threadOf(e) === main && e.ph === 'X' && /RunTask$/.test(e.name) && e.dur / 1000 >= MIN && e.ts > render);
  for (const t of tasks) {
    const inside = onMain.filter((e) => e.ts >= t.ts && e.ts <= t.ts + t.dur);
    const kids = events.filter((e) => threadOf(e) === main && e.ph === 'X' && e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur);
    const kind = new Map();
    for (const k of kids) if (/^(Layout|UpdateLayoutTree|Paint|PrePaint|Layerize|FunctionCall|TimerFire|FireAnimationFrame|EvaluateScript|MinorGC|MajorGC|V8.GC_SCAVENGER|HandlePostMessage|ParseHTML|RunMicrotasks|EventDispatch)$/.test(k.name)) kind.set(k.name, (kind.get(k.name) ?? 0) + k.dur / 1000);
    const top = [...inside].sort((a, b) => b.dur - a.dur).slice(0, 3).map((e) => `${withoutHash(fnName(e)).slice(-60)} ${(e.dur / 1000).toFixed(1)}`);
    const groups = new Map();
    for (const e of inside) {
      const g = prefix(fnName(e));
      groups.set(g, (groups.get(g) ?? 0) + e.dur / 1000);
    }
    const byGroup = [...groups].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([g, v]) => `${g} ${v.toFixed(1)}`).join(', ');
    console.log(`  task @${((t.ts - t0) / 1000).toFixed(0)} ${(t.dur / 1000).toFixed(0)} ms: ${inside.length} lazy compiles, ${sum(inside).toFixed(1)} ms; ${[...kind].map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}\n     longest compiles: ${top.join(' | ')}\n     by module: ${byGroup}`);
  }
  if (process.env.WHO) {
    const re = new RegExp(process.env.WHO);
    for (const e of lazy.filter((e) => re.test(fnName(e))).sort((a, b) => a.ts - b.ts))
      console.log(`   ${((e.ts - t0) / 1000).toFixed(0).padStart(6)} ${threadOf(e) === main ? 'main  ' : 'worker'} ${(e.dur / 1000).toFixed(1).padStart(5)} ${withoutHash(fnName(e)).slice(0, 110)}`);
  }
  for (const e of onMain.filter((e) => e.ts > render)) {
    const name = fnName(e);
    const cur = byFunction.get(name) ?? { ms: 0, n: 0 };
    cur.ms += e.dur / 1000;
    cur.n++;
    byFunction.set(name, cur);
  }
}
const byPrefix = new Map();
for (const [n, v] of byFunction) byPrefix.set(prefix(n), (byPrefix.get(prefix(n)) ?? 0) + v.ms);
// The page's model and the engine are plain Rust a worker can run; the UI
// (Yew components, DOM bindings, JS closures) needs the page's document.
const side = (n) =>
  /^(web::model|engine::|cfa::|minic::|smt::|serde|miniz_oxide|web::platform::z3_worker)/.test(bare(n))
    ? 'model'
    : /^(yew|web::ui|web_sys|wasm_bindgen|js_sys|gloo|implicit_clone)/.test(bare(n))
      ? 'ui'
      : 'other';
const sides = { model: [0, 0], ui: [0, 0], other: [0, 0] };
for (const [n, v] of byFunction) {
  sides[side(n)][0] += v.n;
  sides[side(n)][1] += v.ms;
}
console.log(
  `after the first render, summed over runs: model and engine code (a worker could run it) ${sides.model[0]} compiles, ${sides.model[1].toFixed(1)} ms; ` +
    `UI code (Yew, DOM bindings) ${sides.ui[0]}, ${sides.ui[1].toFixed(1)} ms; other (std, alloc, core) ${sides.other[0]}, ${sides.other[1].toFixed(1)} ms`,
);
console.log('after the first render, by module (ms summed over runs):');
for (const [p, v] of [...byPrefix].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${v.toFixed(1).padStart(7)}  ${p}`);
console.log('by function:');
for (const [n, v] of [...byFunction].sort((a, b) => b[1].ms - a[1].ms).slice(0, TOP)) console.log(`  ${v.ms.toFixed(1).padStart(7)}  ${n.slice(0, 160)}`);
