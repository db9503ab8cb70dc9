// Stages the exercise sets for the page: static/exercises/ is copied to
// www/gen/exercises/ without the instructor files (solutions.toml holds the
// reference answers; the page never loads it, and it must not be served),
// and the gallery's programs static/examples/*.c to www/gen/examples/, beside
// it as in static/: an exercise may name one as `../../examples/NAME.c`
// (exercises::load::EXAMPLES_DIR), and the page fetches exactly that path
// relative to the set's folder.
// index.html copies both into dist/ with Trunk copy-dir links.
// Trunk runs this as a pre_build hook (Trunk.toml); by hand:
//   node scripts/stage-exercises.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const from = path.join(repo, 'static', 'exercises');
const to = path.join(repo, 'www', 'gen', 'exercises');
const examplesFrom = path.join(repo, 'static', 'examples');
const examplesTo = path.join(repo, 'www', 'gen', 'examples');

/** Files only the instructor reads. */
const INSTRUCTOR_ONLY = new Set(['solutions.toml']);

fs.rmSync(to, { recursive: true, force: true });
fs.cpSync(from, to, {
  recursive: true,
  filter: (src) => !INSTRUCTOR_ONLY.has(path.basename(src)),
});

fs.rmSync(examplesTo, { recursive: true, force: true });
fs.mkdirSync(examplesTo, { recursive: true });
for (const name of fs.readdirSync(examplesFrom)) {
  if (name.endsWith('.c')) {
    fs.copyFileSync(path.join(examplesFrom, name), path.join(examplesTo, name));
  }
}
