#!/bin/sh
# Same-run comparison of two cpaplay binaries on every solver-backed preset
# (docs/performance.md, "Every solver-backed preset, same run").
#
#   scripts/bench-presets-same-run.sh OLD NEW [PRESET...]
#
# Runs each SV-COMP task of $CPAPLAY_SVCOMP_DIR (MANIFEST.tsv) as a one-task
# folder with `cpaplay table DIR --config PRESET --int-model c --max-steps
# 10000 --set restartAlgorithm.stageTimeMs=$STAGE_MS` (default 5000), task by
# task: OLD, then NEW, then — for the predicate-based presets — NEW with
# `cpa.predicate.refinement.acceleration=false`, so the sides see the same
# load. A `tee` in front of z3 (CPAPLAY_Z3) counts the scripts z3 ran.
# Per-run rows go to $OUT/runs.tsv (default OUT=/tmp/bench-presets); the
# summary table (one line per preset and side) is printed at the end.
# NOACC=0 skips the run without acceleration. REVERSE=1 runs OLD last for
# each task (a second pass in the opposite order). ONLY=REGEX keeps the
# tasks whose path matches. Not run by CI; needs z3 (/usr/bin/z3) and a few
# minutes per preset.
set -eu

[ $# -ge 2 ] || { echo "usage: $0 OLD NEW [PRESET...]" >&2; exit 2; }
OLD=$1
NEW=$2
shift 2
PRESETS=${*:-predicate predicate-cartesian symexec symexec-predabs bam-predicate bam-value-predicate transform-term}
SV=$(cd "${CPAPLAY_SVCOMP_DIR:?set CPAPLAY_SVCOMP_DIR to the SV-COMP folder holding MANIFEST.tsv}" && pwd)
STAGE_MS=${STAGE_MS:-5000}
OUT=${OUT:-/tmp/bench-presets}
Z3=${Z3:-/usr/bin/z3}
mkdir -p "$OUT/task"
RUNS=$OUT/runs.tsv
printf 'preset\tside\ttask\texpected\tverdict\tsteps\trefinements\twall_ms\tz3_scripts\n' >"$RUNS"

# z3 behind a tee: every exchange ends with one `(echo "@@cpaplay-done@@")`.
cat >"$OUT/z3-tee.sh" <<EOF
#!/bin/sh
tee -a "\$BENCH_Z3_LOG" | "$Z3" "\$@"
EOF
chmod +x "$OUT/z3-tee.sh"

predicate_based() {
    case $1 in predicate | predicate-cartesian | symexec-predabs | bam-predicate | bam-value-predicate) return 0 ;; esac
    return 1
}

# run PRESET SIDE BINARY TASKDIR TASK [--set ...]
run() {
    preset=$1 side=$2 bin=$3 dir=$4 task=$5
    shift 5
    expected=$(awk -F'\t' -v t="$task" '$1 == t { print $2 }' "$dir/MANIFEST.tsv")
    log=$OUT/z3.log
    : >"$log"
    start=$(date +%s%N)
    row=$(BENCH_Z3_LOG=$log CPAPLAY_Z3=$OUT/z3-tee.sh "$bin" table "$dir" --config "$preset" --int-model c \
        --max-steps 10000 --set "restartAlgorithm.stageTimeMs=$STAGE_MS" "$@" </dev/null 2>/dev/null | grep -F "| $task |" || true)
    end=$(date +%s%N)
    exchanges=$(grep -c '@@cpaplay-done@@' "$log" || true)
    versions=$(grep -c '(get-info :version)' "$log" || true)
    echo "$row" | awk -F'|' -v p="$preset" -v s="$side" -v t="$task" -v e="$expected" -v ms=$(((end - start) / 1000000)) -v z=$((exchanges - versions)) \
        'BEGIN { OFS = "\t" } { for (i = 2; i <= NF; i++) gsub(/^ +| +$/, "", $i)
          print p, s, t, e, $4 == "" ? "error" : $4, $7, $8, ms, z }' >>"$RUNS"
}

tail -n +2 "$SV/MANIFEST.tsv" | cut -f1 | grep -E -- "${ONLY:-.}" >"$OUT/tasks"
for preset in $PRESETS; do
    while read -r task; do
        dir=$OUT/task/one
        rm -rf "$dir"
        mkdir -p "$dir"
        head -n 1 "$SV/MANIFEST.tsv" >"$dir/MANIFEST.tsv"
        awk -F'\t' -v t="$task" '$1 == t' "$SV/MANIFEST.tsv" >>"$dir/MANIFEST.tsv"
        ln -s "$SV/${task%%/*}" "$dir/${task%%/*}"
        [ -n "${REVERSE:-}" ] || run "$preset" old "$OLD" "$dir" "$task"
        run "$preset" new "$NEW" "$dir" "$task"
        if [ "${NOACC:-1}" != 0 ] && predicate_based "$preset"; then
            run "$preset" new-noacc "$NEW" "$dir" "$task" --set cpa.predicate.refinement.acceleration=false
        fi
        [ -z "${REVERSE:-}" ] || run "$preset" old "$OLD" "$dir" "$task"
    done <"$OUT/tasks"
done

# Summary per preset and side: wall time (and its ratio to OLD's), z3
# scripts, verdicts against the expected ones, runs stopped by the stage
# time limit; then every task whose verdict differs from OLD's, and every
# task a NEW side took more than 1.5x (and 0.5 s more) than OLD.
awk -F'\t' -v limit="$STAGE_MS" 'NR > 1 {
    k = $1 SUBSEP $2; if (!($1 in seen)) { seen[$1] = 1; P[++np] = $1 }
    if (!($3 in tn)) { tn[$3] = 1; T[++nt] = $3 }
    ms[k] += $8; z[k] += $9; e = $4; v = $5
    good = (e == "true" && v ~ /^true/) || (e == "false" && v ~ /^false/ && v !~ /alarm/)
    bad = e == "false" && v ~ /^true/
    ok[k] += good; wrong[k] += bad; alarm[k] += (v ~ /alarm/); unk[k] += !good && !bad && v !~ /alarm/
    at[k] += (v == "unknown" && $8 >= limit - 100)
    V[$1, $3, $2] = v; W[$1, $3, $2] = $8; Z[$1, $3, $2] = $9; S[$1, $3, $2] = $6
} END {
    print "| preset | side | wall s | /old | z3 scripts | correct | wrong TRUE | false alarms | unknown | at time limit |"
    print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    split("old new new-noacc", sides, " ")
    for (i = 1; i <= np; i++) for (j = 1; j <= 3; j++) { p = P[i]; k = p SUBSEP sides[j]; if (!(k in ms)) continue
        printf "| %s | %s | %.1f | %.2f | %d | %d | %d | %d | %d | %d |\n", p, sides[j], ms[k] / 1000,
            ms[k] / (ms[p SUBSEP "old"] + 0.001), z[k], ok[k], wrong[k], alarm[k], unk[k], at[k] }
    print "\nVerdicts that differ from OLD (old -> new / new-noacc, steps likewise):"
    for (i = 1; i <= np; i++) for (t = 1; t <= nt; t++) { p = P[i]; n = T[t]; o = V[p, n, "old"]; a = V[p, n, "new"]; b = V[p, n, "new-noacc"]
        if (a != o || (b != "" && b != o))
            printf "  %s %s: %s -> %s / %s (steps %s -> %s / %s)\n", p, n, o, a, b, S[p, n, "old"], S[p, n, "new"], S[p, n, "new-noacc"] }
    print "\nTasks a NEW side took > 1.5x and > 0.5 s longer than OLD:"
    for (i = 1; i <= np; i++) for (t = 1; t <= nt; t++) for (j = 2; j <= 3; j++) { p = P[i]; n = T[t]; s = sides[j]; o = W[p, n, "old"]; x = W[p, n, s]
        if (x != "" && x > 1.5 * o && x - o > 500)
            printf "  %s %s %s: %d -> %d ms (z3 scripts %d -> %d, steps %s -> %s, %s -> %s)\n", p, s, n, o, x, Z[p, n, "old"], Z[p, n, s], S[p, n, "old"], S[p, n, s], V[p, n, "old"], V[p, n, s] }
}' "$RUNS"
