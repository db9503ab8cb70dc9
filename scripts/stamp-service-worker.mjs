// Stamps the built service worker (static/sw.js, copied by Trunk) with what
// this build is: the list of files to keep offline and a version hash of
// them, and a hash of Z3's files. A changed build therefore has a changed
// sw.js, which is how the browser notices a new version.
//
// Trunk runs this as a post-build hook (Trunk.toml), on its staging
// directory (TRUNK_STAGING_DIR) before that becomes dist/. By hand:
//   node scripts/stamp-service-worker.mjs DIR
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.resolve(process.env.TRUNK_STAGING_DIR ?? process.argv[2] ?? 'dist');
const WORKER = 'sw.js';
/** Z3's files: cached when the page first loads Z3, not on install (35 MB). */
const Z3_FILES = ['z3-built.js', 'z3-built.wasm'];

/** Every file under `root`, as `/`-separated paths relative to it, sorted. */
function filesUnder(root, rel = '') {
  const out = [];
  for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...filesUnder(root, child));
    else if (entry.isFile()) out.push(child);
  }
  return out.sort();
}

/** A short hash of the named files' paths and contents. */
function hashOf(files) {
  const h = crypto.createHash('sha256');
  for (const f of files) {
    h.update(f);
    h.update('\0');
    h.update(fs.readFileSync(path.join(dir, f)));
    h.update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

const workerPath = path.join(dir, WORKER);
if (!fs.existsSync(workerPath)) {
  console.error(`stamp-service-worker: no ${WORKER} in ${dir} (is it copied by www/index.html?)`);
  process.exit(1);
}
const all = filesUnder(dir);
const precache = all.filter((f) => f !== WORKER && !Z3_FILES.includes(f));
const z3 = all.filter((f) => Z3_FILES.includes(f));

const placeholders = {
  "'__CPA_BUILD__'": JSON.stringify(hashOf(precache)),
  __CPA_PRECACHE__: JSON.stringify(precache),
  "'__CPA_Z3__'": JSON.stringify(z3.length ? hashOf(z3) : 'none'),
};
let source = fs.readFileSync(workerPath, 'utf8');
for (const [placeholder, value] of Object.entries(placeholders)) {
  if (!source.includes(placeholder)) {
    console.error(`stamp-service-worker: ${WORKER} has no ${placeholder} (already stamped?)`);
    process.exit(1);
  }
  source = source.replace(placeholder, () => value);
}
fs.writeFileSync(workerPath, source);
console.log(`stamp-service-worker: build ${JSON.parse(placeholders["'__CPA_BUILD__'"])}, ${precache.length} files to keep offline`);
