#!/usr/bin/env bash
# Same-run, same-instance comparison of our octagon domain with PPL's
# Octagonal_Shape (double and mpz_class), printed as one Markdown table:
# operation x n x sparse/dense -> ours us, PPL us, ratio ours/PPL.
#
#   [ROUNDS=3] scripts/bench-octagon-ppl.sh [WORKDIR]   (default: a fresh temp dir)
#
# 1. installs Debian's libppl-dev (and g++ / libgmp-dev) when missing, as
#    root or with sudo (idempotent; not part of scripts/setup.sh: only this
#    benchmark needs PPL);
# 2. writes the seeded instances with our example
#    (crates/domains/examples/octagon_vs_ppl.rs) to WORKDIR/instances.txt;
# 3. builds PPL's driver (crates/domains/benches/ppl/octagon_ppl.cc) with
#    g++ -O2 against -lppl -lgmpxx -lgmp;
# 4. times ours, then PPL with double, then PPL with mpz_class, on that file,
#    one after the other (never in parallel), for ROUNDS rounds (default 3);
#    a cell is the fastest batch of its fastest round (see the example's
#    docs: load from other processes only ever adds time);
# 5. checks that all three produce the same result on every cell (the tight
#    closure of each resulting octagon, or the inclusion answer) — a mismatch
#    fails the script — and prints the table.
#
# Results and their reading: crates/domains/BENCHMARKS.md.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

say() { echo "bench-octagon-ppl: $*" >&2; }

work="${1:-$(mktemp -d -t octagon-ppl-XXXXXX)}"
ROUNDS="${ROUNDS:-3}"
mkdir -p "$work"

# --- Debian packages (the same helper scripts/setup.sh uses) ---------------
# shellcheck source=scripts/lib/debian.sh
source scripts/lib/debian.sh
ensure_debian_packages bench-octagon-ppl libppl-dev libgmp-dev g++

# --- build both sides ---------------------------------------------------------
say "building our side (cargo --release)"
cargo build --release --quiet -p domains --example octagon_vs_ppl
ours="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')/release/examples/octagon_vs_ppl"
say "building PPL's driver (g++ -O2)"
g++ -O2 -std=c++17 -o "$work/octagon_ppl" crates/domains/benches/ppl/octagon_ppl.cc -lppl -lgmpxx -lgmp

# --- instances, timings, check, table ----------------------------------------
"$ours" write "$work/instances.txt"
load_before="$(cut -d' ' -f1 /proc/loadavg)"
: >"$work/ours.tsv"
: >"$work/ppl-double.tsv"
: >"$work/ppl-mpz.tsv"
for round in $(seq "$ROUNDS"); do
  say "round $round of $ROUNDS: ours, PPL (double), PPL (mpz_class)"
  "$ours" time "$work/instances.txt" >>"$work/ours.tsv"
  "$work/octagon_ppl" double "$work/instances.txt" >>"$work/ppl-double.tsv"
  "$work/octagon_ppl" mpz "$work/instances.txt" >>"$work/ppl-mpz.tsv"
done

echo "Machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1);" \
  "1-minute load average $load_before before, $(cut -d' ' -f1 /proc/loadavg) after;" \
  "PPL $(dpkg-query -W -f='${Version}' libppl-dev); best of $ROUNDS rounds."
echo
"$ours" table "$work/ours.tsv" "$work/ppl-double.tsv" "$work/ppl-mpz.tsv"
say "all results agree (files in $work)"
