// Stages the exercise sets for the page: static/exercises/ is copied to
// www/gen/exercises/ without the instructor files (solutions.toml holds the
// reference answers; the page never loads it, and it must not be served).
// index.html copies www/gen/exercises/ into dist/ with a Trunk copy-dir link.
// Trunk runs this as a pre_build hook (Trunk.toml); by hand:
//   node scripts/stage-exercises.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const from = path.join(repo, 'static', 'exercises');
const to = path.join(repo, 'www', 'gen', 'exercises');

/** Files only the instructor reads. */
const INSTRUCTOR_ONLY = new Set(['solutions.toml']);

fs.rmSync(to, { recursive: true, force: true });
fs.cpSync(from, to, {
  recursive: true,
  filter: (src) => !INSTRUCTOR_ONLY.has(path.basename(src)),
});
