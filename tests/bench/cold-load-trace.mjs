// Trace (run by hand, not a test): what the main thread and the workers do
// during a cold load of the gallery's Listing 1 link and a `symbolic` run,
// from a DevTools trace (Chrome DevTools protocol `Tracing`, fresh profile
// per run). Printed per run: the page's marks (ms from the first one), and
// for every main-thread task of at least MIN ms (default 40) its outermost
// events (script, timers, animation frames, style and layout) and its
// time by kind (script, timers, style, layout, paint, compile, GC); the
// page's main thread is the one its marks were set on. THREADS=1 adds, per worker and main
// thread, its events over 8 ms on the same clock (Z3's worker, its pthread
// workers, the engine's worker, V8's compile threads); SCRIPTS=1 adds
// every script evaluation, resource request and wasm compile step; FONTS=1
// adds, per task, how many fonts the page asked the system for
// (`FontCache::GetFontPlatformData`) and how long that took. How the
// page's wasm was found to compile its functions lazily in its first task
// (`wasm.CompileLazy`), and Z3's worker to start after that task.
//
//   trunk build --release
//   DIST_DIR=dist RUNS=2 [MIN=40] [THREADS=1] [SCRIPTS=1] [FONTS=1] node tests/bench/cold-load-trace.mjs
//
// Tracing slows the page; compare tasks within one trace, not with
// z3-main-thread.mjs's figures. Nothing is asserted.

import { pageMarks, threadOf, traceColdLoad } from './cold-load.mjs';

/** The events of `es` inside no other (longer) event of `es`. */
const outermost = (es) => es.filter((x) => !es.some((o) => o !== x && o.ts <= x.ts && o.ts + o.dur >= x.ts + x.dur && o.dur > x.dur));
/** An event's name with the function and the file it ran, if any. */
const label = (e) =>
  `${e.name}${e.args?.data?.functionName ? '(' + e.args.data.functionName + ')' : ''}${e.args?.data?.url ? '[' + e.args.data.url.split('/').pop() + ']' : ''}`;
/** Milliseconds, rounded, from microseconds. */
const ms = (us, digits = 0) => (us / 1000).toFixed(digits);

const MIN = Number(process.env.MIN ?? 40);
for (let run = 0; run < Number(process.env.RUNS ?? 2); run++) {
  const categories = `devtools.timeline,v8.wasm,v8,blink.user_timing,disabled-by-default-devtools.timeline${process.env.FONTS ? ',fonts,disabled-by-default-fonts' : ''}`;
  const events = await traceColdLoad({ categories, profilePrefix: 'cpa-bench-trace-' });
  const names = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(threadOf(e), e.args.name);
  const { marks, main, t0 } = pageMarks(events);
  const on = events.filter((e) => threadOf(e) === main && e.ph === 'X');
  console.log(`run ${run + 1}: marks ${marks.map((m) => `${m.name}@${ms(m.ts - t0)}`).join(' ')} (ms from first mark)`);
  if (process.env.SCRIPTS) {
    for (const e of events.filter((e) => /EvaluateScript|ResourceSendRequest|ResourceFinish|ResourceReceiveResponse|v8.compileModule|wasm.StartStreamingCompilation|WebAssembly|v8.wasm/.test(e.name)).sort((a, b) => a.ts - b.ts)) {
      const url = e.args?.data?.url ?? '';
      console.log(`   ${ms(e.ts - t0).padStart(6)} ${ms(e.dur ?? 0, 1).padStart(6)} ${names.get(threadOf(e))} ${e.name} ${url.split('/').pop()}`);
    }
  }
  if (process.env.THREADS) {
    const byThread = new Map();
    for (const e of events) {
      const tn = names.get(threadOf(e)) ?? '?';
      if (e.ph !== 'X' || e.dur < 8000 || !/Worker|CrRendererMain/.test(tn)) continue;
      if (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') continue;
      const key = `${tn} ${threadOf(e)}`;
      if (!byThread.has(key)) byThread.set(key, []);
      byThread.get(key).push(e);
    }
    for (const [k, es] of byThread) console.log(`  ${k}: ${outermost(es).slice(0, 30).map((x) => `${label(x)}@${ms(x.ts - t0)}+${ms(x.dur)}`).join(' ')}`);
  }
  for (const t of on.filter((e) => e.name === 'RunTask' && e.dur / 1000 >= MIN)) {
    const kids = on.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.name !== 'RunTask');
    const agg = new Map();
    for (const k of kids) {
      const key = k.name + (k.args?.data?.functionName ? `(${k.args.data.functionName})` : '');
      agg.set(key, (agg.get(key) ?? 0) + k.dur / 1000);
    }
    console.log(` task @${ms(t.ts - t0)} ${ms(t.dur)} ms; top: ${outermost(kids).map((k) => `${label(k)} ${ms(k.dur, 1)}`).join(', ')}`);
    if (process.env.FONTS) {
      const fonts = kids.filter((k) => k.name === 'FontCache::GetFontPlatformData');
      console.log(`   fonts asked: ${fonts.length} (${ms(fonts.reduce((sum, f) => sum + f.dur, 0), 1)} ms)`);
    }
    console.log(`   by kind: ${[...agg].filter(([k]) => /Layout|Style|Paint|Layer|Parse|Compile|compile|GC|Recalc|UpdateLayoutTree|HitTest|Prepaint|FunctionCall|TimerFire|Animation/.test(k) && !/GC_|wasm.CompileLazy/.test(k)).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
  }
}
