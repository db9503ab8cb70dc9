// A tiny static file server for the built page (dist/), with the headers
// that make the page cross-origin isolated (COOP/COEP), which Z3's
// WebAssembly threads need. Used by scripts/serve.sh and the browser tests.
//
//   node scripts/static-server.mjs [DIR] [PORT]     (defaults: dist 8080; PORT 0 = any free port)
//
// Only listens on 127.0.0.1. No dependencies beyond Node itself.

import http from 'node:http';
import fs from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Content types of the files Trunk emits (wasm must be application/wasm for streaming compilation). */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.c': 'text/plain; charset=utf-8',
  '.properties': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Headers sent with every response. */
const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
};

/**
 * Starts serving `dir` on 127.0.0.1:`port` (0 picks a free port).
 * Resolves to `{ server, url }` once listening.
 */
export function startServer(dir, port = 0) {
  const root = path.resolve(dir);
  const server = http.createServer(async (req, res) => {
    try {
      const urlPath = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      let file = path.join(root, urlPath);
      // Never serve anything outside the root.
      if (file !== root && !file.startsWith(root + path.sep)) {
        res.writeHead(403, ISOLATION).end('forbidden');
        return;
      }
      let stat = await fs.stat(file).catch(() => null);
      if (stat && stat.isDirectory()) {
        file = path.join(file, 'index.html');
        stat = await fs.stat(file).catch(() => null);
      }
      if (!stat) {
        res.writeHead(404, { ...ISOLATION, 'Content-Type': 'text/plain' }).end('not found');
        return;
      }
      const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
      res.writeHead(200, { ...ISOLATION, 'Content-Type': type, 'Content-Length': stat.size });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      // Streamed, not read whole first: the first bytes of Z3's 35 MB
      // WebAssembly leave at once instead of after the whole file is read.
      await pipeline(createReadStream(file, { highWaterMark: 1 << 20 }), res);
    } catch (err) {
      if (res.headersSent) res.destroy(err);
      else res.writeHead(500, ISOLATION).end(String(err));
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      resolve({ server, url: `http://127.0.0.1:${actual}/` });
    });
  });
}

// Run as a program: serve until interrupted.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? 'dist';
  const port = Number(process.argv[3] ?? 8080);
  startServer(dir, port).then(
    ({ url }) => console.log(`CPA Playground is served at ${url} (Ctrl-C to stop)`),
    (err) => {
      console.error(`cannot serve ${dir} on port ${port}: ${err.message}`);
      process.exit(1);
    },
  );
}
