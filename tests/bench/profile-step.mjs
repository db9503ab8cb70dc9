// Profile (run by hand, not a test): where one step back goes when the
// reached set is large — the same run as render-step.mjs, then a CPU
// profile (Chrome DevTools protocol) over STEPS step-backs with the given
// bottom tab and graph, printed as the functions with the most self time
// (WebAssembly functions by name when the build keeps the name section).
//
//   node tests/bench/profile-step.mjs    (DIST_DIR, CHROMIUM as for tests/e2e)
//
// Environment: STEPS (default 40), LIMIT (default 1500), TAB (state |
// waitlist | reached, default state), GRAPH (cfa | arg, default cfa), TOP
// (rows printed, default 30), INCLUSIVE (1: time with callees).

import { openLargeRun, stepBack } from './large-run.mjs';

const steps = Number(process.env.STEPS ?? 40);
const limit = Number(process.env.LIMIT ?? 1500);
const tab = process.env.TAB ?? 'state';
const graph = process.env.GRAPH ?? 'cfa';
const top = Number(process.env.TOP ?? 30);
const { page, context, byId, close } = await openLargeRun('cpa-bench-profile-', limit);
try {
  await byId(`graph-tab-${graph}`).click();
  await byId(`tab-${tab}`).click();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await stepBack(page, steps);
  const { profile } = await cdp.send('Profiler.stop');
  const dt = new Map();
  const { samples, timeDeltas, nodes } = profile;
  const byNode = new Map(nodes.map((n) => [n.id, n]));
  samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (timeDeltas[i] ?? 0)));
  const self = new Map();
  let total = 0;
  for (const [id, us] of dt) {
    const f = byNode.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url ? f.url.split('/').pop() : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + us);
    total += us;
  }
  // INCLUSIVE=1: time with callees (every function on a sample's stack,
  // once per sample), which names the Rust functions that a step's
  // render spends its time under.
  if (process.env.INCLUSIVE === '1') {
    const parent = new Map();
    for (const n of nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    self.clear();
    for (const [id, us] of dt) {
      const seen = new Set();
      for (let at = id; at !== undefined; at = parent.get(at)) {
        const f = byNode.get(at).callFrame;
        const key = `${f.functionName || '(anonymous)'} ${f.url ? f.url.split('/').pop() : ''}`.trim();
        if (seen.has(key)) continue;
        seen.add(key);
        self.set(key, (self.get(key) ?? 0) + us);
      }
    }
  }
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
  console.log(`${steps} step-backs, tab ${tab}, graph ${graph}: ${(total / 1000).toFixed(0)} ms sampled`);
  for (const [k, us] of rows) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
} finally {
  await close();
}
