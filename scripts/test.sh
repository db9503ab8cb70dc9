#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), then runs ALL of CPA Playground's
# tests and ends with a summary; exits non-zero if any step failed.
#
#   0. gates:             cargo fmt --check; cargo clippy -D warnings (the
#                         workspace natively, all targets, and the web crate
#                         for wasm32); cargo doc with RUSTDOCFLAGS=-D warnings
#                         (the workspace natively, and the web crate for wasm32)
#   1. native tests:      cargo test --workspace --no-fail-fast (every test binary runs, so one failure does not hide another); the BenchExec tool-info
#                         module's unittest (python3, no BenchExec needed)
#   2. the web build:     trunk build --release  (-> dist/)
#   3. wasm tests:        cargo test --target wasm32-unknown-unknown for each
#                         crate with a wasm-bindgen-test dev-dependency, in
#                         headless chromium via chromedriver (flags from the
#                         crate's webdriver.json); skipped when none
#   4. browser tests:     node --test tests/e2e/  (headless chromium against
#                         dist/ served with COOP/COEP on a free localhost port)
#
# Every step runs even if an earlier one failed (except those that need the
# web build), so one run shows everything that is broken.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
started=$SECONDS

bash scripts/setup.sh

# npm's wasm-opt (binaryen 132) must come before Debian's older one, and
# cargo-installed trunk / wasm-bindgen must be found.
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

results=()
failures=0

# step NAME COMMAND...: runs one step, records PASS/FAIL with its duration.
step() {
  local name="$1"
  shift
  local t0=$SECONDS
  echo
  echo "=== $name: $*"
  if "$@"; then
    results+=("PASS  $name ($((SECONDS - t0)) s)")
  else
    results+=("FAIL  $name ($((SECONDS - t0)) s)")
    failures=$((failures + 1))
    return 1
  fi
}

skip() {
  results+=("SKIP  $1 ($2)")
}

step "format (rustfmt --check)" cargo fmt --all -- --check || true
step "lint (clippy, native, all targets)" cargo clippy --workspace --all-targets -- -D warnings || true
step "lint (clippy, web crate for wasm32)" cargo clippy -p web --target wasm32-unknown-unknown --lib --bins -- -D warnings || true
step "docs (rustdoc -D warnings)" env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps || true
# The page's platform code is compiled for wasm32 only: its docs too.
step "docs (rustdoc -D warnings, web crate for wasm32)" env RUSTDOCFLAGS="-D warnings" cargo doc -p web --target wasm32-unknown-unknown --no-deps || true
step "architecture (module cycles, web layers, function length)" node scripts/check-architecture.mjs || true

step "native tests" cargo test --workspace --no-fail-fast || true
step "BenchExec tool-info module (python3 unittest)" python3 -B -m unittest discover -s contrib/benchexec/tests || true

if step "web build" trunk build --release; then
  web_built=1
else
  web_built=0
fi

# Crates with wasm-bindgen-test tests run them in wasm (in Node, or in
# chromium through chromedriver for run_in_browser tests).
wasm_crates=()
for manifest in crates/*/Cargo.toml; do
  if grep -q '^wasm-bindgen-test' "$manifest"; then
    wasm_crates+=("$(awk -F'"' '/^name = / { print $2; exit }' "$manifest")")
  fi
done
if ((${#wasm_crates[@]})); then
  for crate in "${wasm_crates[@]}"; do
    step "wasm tests ($crate)" env CHROMEDRIVER=/usr/bin/chromedriver \
      cargo test -p "$crate" --target wasm32-unknown-unknown --profile wasm-test || true
  done
else
  skip "wasm tests" "no crate has wasm-bindgen-test tests"
fi

if ((web_built)); then
  # Chromium gives a site no storage when the disk is nearly full, and then
  # the offline test cannot keep Z3 (35 MB): say so before it fails.
  free_kb=$(df -Pk "${TMPDIR:-/tmp}" | awk 'NR == 2 { print $4 }')
  if [[ -n "$free_kb" ]] && ((free_kb < 4 * 1024 * 1024)); then
    echo "warning: only $((free_kb / 1024)) MB free under ${TMPDIR:-/tmp}; Chromium may refuse to store Z3 for offline use (tests/e2e/offline.test.mjs)" >&2
  fi
  step "browser tests" node --test tests/e2e/ || true
else
  skip "browser tests" "the web build failed"
fi

echo
echo "=== summary ($((SECONDS - started)) s in all)"
printf '  %s\n' "${results[@]}"
passed=$(printf '%s\n' "${results[@]}" | grep -c '^PASS' || true)
echo "steps: $passed passed, $failures failed"
if ((failures)); then
  exit 1
fi
