#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), builds the page in release mode and
# serves it on http://127.0.0.1:${PORT:-8080}/ with the cross-origin
# isolation headers (COOP same-origin, COEP require-corp) the page needs.
# Ctrl-C stops it.
#
# For development with rebuild-on-save, `trunk serve --release` does the same
# with the headers from Trunk.toml (put node_modules/.bin first on PATH).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh

# npm's wasm-opt (binaryen 132) first, then cargo-installed trunk/wasm-bindgen.
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

trunk build --release

exec node scripts/static-server.mjs dist "${PORT:-8080}"
