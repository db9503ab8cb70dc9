// Shared by the benchmarks that name the page's wasm functions (run by
// hand): the function names a build keeps in its wasm name section (a
// build made with `data-keep-debug`; a release build keeps none).

import fs from 'node:fs';
import path from 'node:path';

/** Function names of a wasm module's name section, by function index. */
function functionNames(bytes) {
  let p = 8;
  const u32 = () => {
    let r = 0,
      s = 0,
      b;
    do {
      b = bytes[p++];
      r |= (b & 0x7f) << s;
      s += 7;
    } while (b & 0x80);
    return r >>> 0;
  };
  const names = new Map();
  while (p < bytes.length) {
    const id = bytes[p++];
    const size = u32();
    const end = p + size;
    if (id === 0) {
      const nlen = u32();
      const name = Buffer.from(bytes.subarray(p, p + nlen)).toString();
      p += nlen;
      if (name === 'name') {
        while (p < end) {
          const sub = bytes[p++];
          const subSize = u32();
          const subEnd = p + subSize;
          if (sub === 1) {
            const n = u32();
            for (let i = 0; i < n; i++) {
              const idx = u32();
              const l = u32();
              names.set(idx, Buffer.from(bytes.subarray(p, p + l)).toString());
              p += l;
            }
          }
          p = subEnd;
        }
      }
    }
    p = end;
  }
  return names;
}

/**
 * The page's wasm file in `dist` (its name) and its function names by
 * function index (empty when the build keeps none).
 */
export function pageFunctionNames(dist) {
  const wasmFile = fs.readdirSync(dist).find((f) => /^cpa-playground-.*_bg\.wasm$/.test(f));
  return { wasmFile, names: functionNames(new Uint8Array(fs.readFileSync(path.join(dist, wasmFile)))) };
}

/** A Rust symbol without its hash suffix (`::h0123…`), for printing. */
export const withoutHash = (name) => name.replace(/::h[0-9a-f]{16}$/, '');
