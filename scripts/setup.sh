#!/usr/bin/env bash
# Installs everything CPA Playground needs to build, serve and test, on a
# fresh Debian machine with rustup, Node.js and npm (as root, or with sudo):
#
#   - Debian: chromium + chromium-driver (browser tests), z3 (native solver)
#   - rustup target wasm32-unknown-unknown
#   - trunk 0.21.14 (the web build; 0.22 needs a newer rustc)
#   - wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock
#   - npm packages pinned in package.json / package-lock.json: binaryen
#     (wasm-opt), playwright-core, esbuild, z3-solver
#
# Idempotent: skips whatever is already there, prints only what it installs.
# The two cargo installs take ~16 and ~7 minutes on 2 cores the first time.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

TRUNK_VERSION=0.21.14
CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"
export PATH="$CARGO_BIN:$PATH"

say() { echo "setup: $*"; }

# Runs a long, noisy install with its output in a log; shows the log's tail
# if it fails.
quietly() {
  local log
  log="$(mktemp -t cpa-setup-XXXXXX.log)"
  if ! "$@" >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    say "FAILED: $* (full log: $log)" >&2
    return 1
  fi
  rm -f "$log"
}

# check_version TOOL EXPECTED: fails unless `TOOL --version` prints EXPECTED
# (e.g. another copy earlier on PATH would shadow the one just installed).
check_version() {
  local got
  got="$("$1" --version 2>/dev/null || true)"
  if [ "$got" != "$2" ]; then
    say "error: after installing, '$1 --version' says '${got:-nothing}', expected '$2' ($(command -v "$1" || echo 'not on PATH'))" >&2
    exit 1
  fi
}

# --- Debian packages --------------------------------------------------------
# shellcheck source=scripts/lib/debian.sh
source scripts/lib/debian.sh
ensure_debian_packages setup chromium chromium-driver z3

for tool in cargo rustup node npm; do
  if ! command -v "$tool" >/dev/null; then
    say "error: '$tool' is not installed (this machine kind ships rustup, cargo, node and npm)" >&2
    exit 1
  fi
done

# --- Rust: lint components, wasm target, trunk, wasm-bindgen-cli ----------
# rustfmt and clippy run as gates in scripts/test.sh; this machine kind's
# toolchain ships them, so only add them if a toolchain lacks them.
for component in rustfmt clippy; do
  if ! rustup component list --installed 2>/dev/null | grep -q "^$component"; then
    say "adding rustup component $component"
    quietly rustup component add "$component"
  fi
done
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding rustup target wasm32-unknown-unknown"
  quietly rustup target add wasm32-unknown-unknown
fi

if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (cargo install, ~16 min on 2 cores)"
  quietly cargo install --locked --force trunk --version "$TRUNK_VERSION"
  check_version trunk "trunk $TRUNK_VERSION"
fi

# The CLI must match the wasm-bindgen crate in Cargo.lock exactly.
WASM_BINDGEN_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
if [ -z "$WASM_BINDGEN_VERSION" ]; then
  say "error: no wasm-bindgen in Cargo.lock" >&2
  exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (cargo install, ~7 min on 2 cores)"
  # Not --locked: its lock file pins a webpki-roots version the registry lacks.
  quietly cargo install --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  check_version wasm-bindgen "wasm-bindgen $WASM_BINDGEN_VERSION"
fi

# --- npm packages -----------------------------------------------------------
# npm ci installs exactly package-lock.json; it is rerun only when the lock
# file changed since the last install (npm keeps a copy in node_modules/).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] ||
  [ ! -x node_modules/.bin/wasm-opt ]; then
  say "installing npm packages (npm ci)"
  quietly npm ci --no-audit --no-fund
fi
