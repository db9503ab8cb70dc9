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
//   4. no function in the web crate is longer than 150 lines;
//   5. each concept of the CPA framework has a home named after it (the
//      list below), so a newcomer finds it by file name;
//   6. what ARCHITECTURE.md and README.md name in backquotes exists: a file
//      path (from the repository root, or from the crate whose section it is
//      in; a bare file name anywhere under that crate) and a Rust path
//      (`engine::cegar::Verifier`, `model::page::Model`: its modules as files,
//      its last names defined in that crate).
//
// Usage: node scripts/check-architecture.mjs   (exits 1 and lists what is
// wrong; prints one line per check when all hold)

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

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

// 5. Every CPA concept in a file or folder named after it.
const CONCEPTS = [
  ['CPA interface', 'crates/engine/src/cpa/mod.rs'],
  ['abstract domain', 'crates/engine/src/cpa/domain.rs'],
  ['transfer relation', 'crates/engine/src/cpa/transfer.rs'],
  ['merge operator', 'crates/engine/src/cpa/merge.rs'],
  ['stop operator', 'crates/engine/src/cpa/stop.rs'],
  ['precision adjustment', 'crates/engine/src/cpa/precision_adjustment.rs'],
  ['precision', 'crates/engine/src/precision.rs'],
  ['reachability algorithm', 'crates/engine/src/algorithm.rs'],
  ['waitlist', 'crates/engine/src/waitlist.rs'],
  ['reached set', 'crates/engine/src/reached.rs'],
  ['stepping a run', 'crates/engine/src/stepper.rs'],
  ['DBM', 'crates/domains/src/octagon/dbm.rs'],
  ['closure', 'crates/domains/src/octagon/closure.rs'],
  ['widening', 'crates/domains/src/octagon/widening.rs'],
  ['CEGAR', 'crates/engine/src/cegar.rs'],
  ['interpolation', 'crates/engine/src/interpolation.rs'],
  ['refinement', 'crates/engine/src/refinement.rs'],
  ['counterexample check', 'crates/engine/src/counterexample.rs'],
  ['restart', 'crates/engine/src/restart.rs'],
  ['symbolic values', 'crates/engine/src/cpas/symbolic.rs'],
  ['constraints', 'crates/engine/src/cpas/constraints.rs'],
  ['event trace', 'crates/engine/src/trace.rs'],
  ['the page\'s run driver', 'crates/web/src/model/run_driver.rs'],
];
for (const [concept, file] of CONCEPTS) {
  if (!statSync(join(root, file), { throwIfNoEntry: false })) problems.push(`${concept}: no ${file}`);
}
console.log(`concepts: checked that ${CONCEPTS.length} CPA concepts have a file named after them`);

// 6. Names in the docs.
const crateDirs = new Map(crates.map((c) => [c === 'cli' ? 'cpaplay' : c.replace(/-/g, '_'), join(root, 'crates', c)]));
const sourceCache = new Map();
function crateSource(dir) {
  if (!sourceCache.has(dir)) sourceCache.set(dir, rustFiles(join(dir, 'src')).map((f) => readFileSync(f, 'utf8')).join('\n'));
  return sourceCache.get(dir);
}
function allFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (['node_modules', '.git', 'dist'].includes(name) || name.startsWith('target')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) allFiles(p, out);
    else out.push(p);
  }
  return out;
}
// The repository's files: what git tracks (so a build's outputs do not
// count), else everything below the root.
function trackedFiles() {
  try {
    return execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 })
      .split('\n')
      .filter(Boolean)
      .map((f) => f.split('/').join(sep));
  } catch {
    return allFiles(root).map((f) => relative(root, f));
  }
}
const repoFiles = trackedFiles();
const repoSet = new Set(repoFiles);
const repoDirs = new Set(repoFiles.flatMap((f) => f.split(sep).slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join(sep))));
const exists = (p) => repoSet.has(join(p)) || repoDirs.has(join(p));
// A name `IDENT` is defined in a crate's source: an item, a variant or a field.
const defined = (src, ident) => new RegExp(`(fn|struct|enum|trait|type|const|static|mod|macro_rules!)\\s+${ident}\\b|\\b${ident}\\s*[({,:]|pub use [^;]*\\b${ident}\\b`).test(src);
// Files the docs may name that are not in the repository: generated or
// installed ones, and the benchmark folder's manifest.
const GENERATED = new Set(['z3-built.js', 'z3-built.wasm', 'editor.js', 'MANIFEST.tsv']);
function rustPathIn(dir, segs) {
  let mod = join(dir, 'src');
  while (segs.length && /^[a-z_0-9]+$/.test(segs[0])) {
    const file = [join(mod, `${segs[0]}.rs`), join(mod, segs[0], 'mod.rs')].find((f) => statSync(f, { throwIfNoEntry: false }));
    if (!file) break;
    mod = join(mod, segs[0]);
    segs = segs.slice(1);
  }
  const src = crateSource(dir);
  return segs.every((ident) => defined(src, ident));
}
// A Rust path is fine when its crate (named first, else the section's,
// else any crate) has its modules as files and defines its other names.
function rustPathOk(token, sectionCrate) {
  const segs = token.replace(/\(.*$/, '').split('::').filter(Boolean);
  const named = crateDirs.get(segs[0]);
  if (named) return rustPathIn(named, segs.slice(1));
  const candidates = [sectionCrate, ...crateDirs.values()].filter(Boolean);
  return candidates.some((dir) => rustPathIn(dir, segs));
}
function pathOk(token, sectionDir) {
  const p = token.replace(/\/$/, '');
  // Build outputs and installed packages exist only after a build.
  if (GENERATED.has(p) || /^(dist|target|node_modules|www\/gen)(\/|$)/.test(p)) return true;
  const bases = ['', 'crates', ...(sectionDir ? [relative(root, sectionDir), join(relative(root, sectionDir), 'src')] : [])];
  if (bases.some((b) => exists(join(b, p)))) return true;
  // A bare file name: in a crate's section, under that crate or outside
  // the crates; elsewhere, anywhere.
  if (!p.includes('/')) {
    const under = sectionDir ? relative(root, sectionDir) + sep : null;
    const named = repoFiles.filter((f) => f.endsWith(sep + p) || f === p);
    return named.some((f) => !under || f.startsWith(under) || !f.startsWith('crates' + sep));
  }
  return false;
}
for (const doc of ['ARCHITECTURE.md', 'README.md']) {
  let sectionDir = null;
  readFileSync(join(root, doc), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const heading = line.match(/^#+ .*`crates\/([a-z-]+)`/);
      if (heading) sectionDir = join(root, 'crates', heading[1]);
      else if (/^#+ /.test(line)) sectionDir = null;
      // A line naming `crates/X` speaks of that crate.
      const lineCrate = line.match(/`crates\/([a-z-]+)`/);
      const dir = lineCrate ? join(root, 'crates', lineCrate[1]) : sectionDir;
      for (const [, token] of line.matchAll(/`([^`\s]+)`/g)) {
        if (/[<>*{}]|NAME|\.\.\.|…|^-|^\.\.\//.test(token)) continue;
        const where = `${doc}:${i + 1}: \`${token}\``;
        if (/^[A-Za-z_][A-Za-z_0-9]*(::[A-Za-z_][A-Za-z_0-9]*)+(\(\))?$/.test(token)) {
          if (!rustPathOk(token, dir)) problems.push(`${where} names nothing in the code`);
        } else if (/^[\w.\/-]+\.(rs|mjs|js|toml|md|c|i|html|css|json|properties|sh|tsv|py)$|^[\w.-]+\/[\w.\/-]*$/.test(token)) {
          if (!pathOk(token, dir)) problems.push(`${where} is not a file of the repository`);
        }
      }
    });
}
console.log('docs: checked the files and Rust paths ARCHITECTURE.md and README.md name');

if (problems.length) {
  console.error(`\n${problems.length} architecture problem(s):`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log('architecture checks hold');
