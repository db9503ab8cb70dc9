#!/usr/bin/env python3
"""Regenerates the recorded-query corpus (NNN.smt2 + answers.tsv) from the
solver queries of `cpaplay trace --config symbolic` runs on the playground's
examples and a sample of the SV-COMP folder, under both theories.

Run from the workspace root after building cpaplay:
    python3 crates/smt/tests/corpus/generate.py target/release/cpaplay
The answers are what the native z3 said during those runs; the test
`cargo test -p smt --test corpus` checks that z3 still says so, and the
page replays the same files through z3-solver."""
import json, os, subprocess, sys

cpaplay = sys.argv[1] if len(sys.argv) > 1 else "target/release/cpaplay"
here = os.path.dirname(os.path.abspath(__file__))
# The SV-COMP folder (the one svcomp_tasks::folder() finds), named by the
# variable for this generator, which is run by hand.
svcomp = os.environ.get("CPAPLAY_SVCOMP_DIR")
if not svcomp:
    sys.exit("set CPAPLAY_SVCOMP_DIR to the SV-COMP folder (the one holding MANIFEST.tsv)")
inputs = ["static/examples/symexec-listing1.c", "static/examples/octagon-relational.c"]
for line in open(os.path.join(svcomp, "MANIFEST.tsv")).read().splitlines()[1:]:
    inputs.append(os.path.join(svcomp, line.split("\t")[0]))

seen, corpus = set(), []
WANT, PER_THEORY = 66, 22
for theory, model in [("BITVECTOR", "c"), ("INTEGER", "math"), ("INTEGER", "c")]:
    mine = 0
    for f in inputs:
        if mine >= PER_THEORY:
            break
        try:
            out = subprocess.run([cpaplay, "trace", f, "--config", "symbolic", "--int-model", model,
                                  "--set", f"solver.theory={theory}", "--max-steps", "300", "--json"],
                                 capture_output=True, text=True, timeout=120).stdout
            events = json.loads(out)
        except Exception:
            continue
        # Per file: the first sat query and up to two unsat ones.
        taken = {"sat": 0, "unsat": 0}
        for e in events:
            a = e.get("answer")
            if e.get("event") == "solver_query" and e["smtlib"] not in seen and a in taken and taken[a] < (1 if a == "sat" else 2):
                seen.add(e["smtlib"])
                corpus.append((e["smtlib"], a, os.path.basename(f), theory))
                taken[a] += 1
                mine += 1

for name in os.listdir(here):
    if name.endswith(".smt2"):
        os.remove(os.path.join(here, name))
with open(os.path.join(here, "answers.tsv"), "w") as out:
    out.write("file\tanswer\tfrom\ttheory\n")
    for i, (script, answer, src, theory) in enumerate(corpus[:WANT]):
        name = f"{i:03}.smt2"
        with open(os.path.join(here, name), "w") as f:
            f.write(f"; query from `cpaplay trace {src} --config symbolic` (solver.theory = {theory})\n")
            f.write(script)
        out.write(f"{name}\t{answer}\t{src}\t{theory}\n")
print(len(corpus[:WANT]), "queries;", sum(1 for c in corpus[:WANT] if c[1] == "unsat"), "unsat")
