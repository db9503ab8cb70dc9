# A stand-in for the `benchexec` package, so that the tool-info test runs
# without BenchExec installed: only what contrib/benchexec/cpaplay.py uses.
