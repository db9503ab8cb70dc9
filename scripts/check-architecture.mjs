#!/usr/bin/env node
// Checks the claims ARCHITECTURE.md makes about the code's shape, so they
// stay true as code lands:
//
//   1. no import cycle between the modules of any crate (a module's
//      `crate::a::b` paths, outside comments and `#[cfg(test)] mod tests`,
//      are its imports; a module and its own submodules do not count);
//   2. the web crate's `model/` is plain Rust: no Yew, web-sys, js-sys,
//      wasm-bindgen or gloo (it is compiled and tested natively);
//   3. the web crate's layers import only downwards: `model` never names
//      `crate::ui` or `crate::platform`, `platform` never names `crate::ui`;
//   4. no function in the web crate is longer than 150 lines.
//
// Usage: node scripts/check-architecture.mjs   (exits 1 and lists what is
// wrong; prints one line per check when all hold)

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const MAX_FN_LINES = 150;
const problems = [];

function rustFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...rustFiles(p));
    else if (name.endsWith('.rs')) out.push(p);
  }
  return out;
}

// Source without comments and string contents, and without the unit-test
// module at the end of a file (tests may use anything).
function code(text) {
  const noTests = text.split(/#\[cfg\(test\)\]\s*mod tests/)[0];
  return noTests
    .split('\n')
    .map((l) => l.replace(/"(\\.|[^"\\])*"/g, '""').replace(/\/\/.*$/, ''))
    .join('\n');
}

function moduleName(srcDir, file) {
  const parts = relative(srcDir, file).slice(0, -3).split(sep);
  if (['mod', 'lib', 'main'].includes(parts[parts.length - 1])) parts.pop();
  return parts.join('::') || 'crate';
}

// 1. Module import cycles (Tarjan's strongly connected components).
function cycles(srcDir) {
  const deps = new Map();
  for (const f of rustFiles(srcDir)) {
    const paths = new Set();
    for (const m of code(readFileSync(f, 'utf8')).matchAll(/crate::((?:[a-z_0-9]+::)*[a-z_0-9]+)/g)) paths.add(m[1]);
    deps.set(moduleName(srcDir, f), paths);
  }
  const names = new Set(deps.keys());
  const resolve = (path) => {
    const parts = path.split('::');
    for (let k = parts.length; k > 0; k--) {
      const c = parts.slice(0, k).join('::');
      if (names.has(c)) return c;
    }
    return null;
  };
  const graph = new Map();
  for (const [m, paths] of deps) {
    const edges = new Set();
    for (const p of paths) {
      const r = resolve(p);
      if (r && r !== m && !m.startsWith(r + '::') && !r.startsWith(m + '::')) edges.add(r);
    }
    graph.set(m, edges);
  }
  let counter = 0;
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), found = [];
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) found.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return { modules: graph.size, found };
}

// 4. Function lengths, by brace matching on comment- and string-free code.
function longFunctions(file) {
  const lines = code(readFileSync(file, 'utf8')).split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].match(/^\s*(pub(\([a-z:]+\))?\s+)?(const\s+)?(async\s+)?fn\s+(\w+)/);
    if (!m) continue;
    let depth = 0, started = false, j = i;
    for (; j < lines.length; j++) {
      const l = lines[j].replace(/'.'/g, '');
      for (const ch of l) {
        if (ch === '{') (depth++, (started = true));
        else if (ch === '}') depth--;
      }
      if (started && depth <= 0) break;
      if (!started && l.trimEnd().endsWith(';')) break;
    }
    if (started && j - i + 1 > MAX_FN_LINES) out.push(`${relative(root, file)}:${i + 1}: fn ${m[5]} is ${j - i + 1} lines`);
  }
  return out;
}

const crates = readdirSync(join(root, 'crates')).filter((c) => statSync(join(root, 'crates', c, 'src'), { throwIfNoEntry: false }));
let modules = 0;
for (const c of crates) {
  const { modules: n, found } = cycles(join(root, 'crates', c, 'src'));
  modules += n;
  for (const comp of found) problems.push(`crates/${c}: import cycle between modules ${comp.join(', ')}`);
}
console.log(`modules: ${modules} in ${crates.length} crates checked for import cycles`);

const web = join(root, 'crates', 'web', 'src');
for (const f of rustFiles(join(web, 'model'))) {
  const c = code(readFileSync(f, 'utf8'));
  for (const m of c.matchAll(/\b(yew|web_sys|js_sys|wasm_bindgen(?:_futures)?|gloo_\w+)::/g)) {
    problems.push(`${relative(root, f)}: the model uses ${m[1]} (model/ is plain Rust)`);
  }
  if (/crate::(ui|platform)\b/.test(c)) problems.push(`${relative(root, f)}: the model imports from ui/ or platform/`);
}
for (const f of rustFiles(join(web, 'platform'))) {
  if (/crate::ui\b/.test(code(readFileSync(f, 'utf8')))) problems.push(`${relative(root, f)}: platform/ imports from ui/`);
}
console.log('web: checked that model/ is plain Rust and the layers import downwards');

for (const f of rustFiles(web)) problems.push(...longFunctions(f));
console.log(`web: checked function lengths (at most ${MAX_FN_LINES} lines)`);

if (problems.length) {
  console.error(`\n${problems.length} architecture problem(s):`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log('architecture checks hold');
