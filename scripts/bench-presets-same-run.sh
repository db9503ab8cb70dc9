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
# ONLY=REGEX keeps the tasks whose path matches. Not run by CI; needs z3 (/usr/bin/z3) and a few minutes per preset.
set -eu

[ $# -ge 2 ] || { echo "usage: $0 OLD NEW [PRESET...]" >&2; exit 2; }
OLD=$1
NEW=$2
shift 2
PRESETS=${*:-predicate predicate-cartesian symexec symexec-predabs bam-predicate bam-value-predicate transform-term}
SV=${CPAPLAY_SVCOMP_DIR:?set CPAPLAY_SVCOMP_DIR to the SV-COMP folder holding MANIFEST.tsv}
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
        run "$preset" old "$OLD" "$dir" "$task"
        run "$preset" new "$NEW" "$dir" "$task"
        if predicate_based "$preset"; then
            run "$preset" new-noacc "$NEW" "$dir" "$task" --set cpa.predicate.refinement.acceleration=false
        fi
    done <"$OUT/tasks"
done

# Summary: wall time, z3 scripts and verdicts per preset and side.
awk -F'\t' 'NR > 1 {
    k = $1 "\t" $2; if (!(k in n)) order[++m] = k; n[k]++; ms[k] += $8; z[k] += $9
    v = $5; e = $4
    if (e == "true" && v ~ /^true/) ok[k]++
    else if (e == "false" && v ~ /^false/ && v !~ /false alarm/) ok[k]++
    else if (e == "false" && v ~ /^true/) wrong[k]++
    else if (e == "true" && v ~ /^false/) alarm[k]++
    else unk[k]++
} END {
    print "| preset | side | tasks | wall s | z3 scripts | correct | wrong TRUE | false alarms | unknown |"
    print "|---|---|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= m; i++) { k = order[i]; split(k, a, "\t")
        printf "| %s | %s | %d | %.1f | %d | %d | %d | %d | %d |\n", a[1], a[2], n[k], ms[k] / 1000, z[k], ok[k], wrong[k], alarm[k], unk[k] }
}' "$RUNS"
