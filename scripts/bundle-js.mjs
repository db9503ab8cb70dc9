// Bundles the page's JavaScript glue with esbuild (from node_modules, no
// downloads): every entry `www/js/<name>.mjs` becomes `www/gen/<name>.js`, an
// IIFE script that index.html includes with a Trunk `copy-file` link.
// Trunk runs this as a pre_build hook (Trunk.toml); it can also be run by hand:
//   node scripts/bundle-js.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entriesDir = path.join(repo, 'www', 'js');
const outDir = path.join(repo, 'www', 'gen');
// Scripts the page runs at its start: V8 compiles all their functions while
// it streams the file (off the main thread), instead of each one on the main
// thread at its first call (Chrome's explicit compile hint). The editor's
// creation calls most of CodeMirror.
const EAGER = new Set(['editor']);

const entries = fs.existsSync(entriesDir)
  ? fs.readdirSync(entriesDir).filter((f) => f.endsWith('.mjs')).sort()
  : [];
fs.mkdirSync(outDir, { recursive: true });
for (const entry of entries) {
  const name = entry.replace(/\.mjs$/, '');
  await build({
    entryPoints: [path.join(entriesDir, entry)],
    outfile: path.join(outDir, `${name}.js`),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    define: { global: 'globalThis' },
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    ...(EAGER.has(name) ? { banner: { js: '//# allFunctionsCalledOnLoad' } } : {}),
  });
}
