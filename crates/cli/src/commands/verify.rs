//! `cpaplay verify FILE.c|TASK.yml [--config NAME|FILE.properties] [--set key=value]...
//! [--int-model math|c] [--max-steps N] [--check-path] [--witness OUT.yml] [--json]`: runs the
//! configured analysis to the end and prints the verdict, as CPAchecker
//! does (`Verification result: TRUE|FALSE|UNKNOWN`), its reason, the error
//! path of a FALSE and statistics — or, with `--json`, one JSON object.
//! `--check-path` checks an unconfirmed FALSE's error path afterwards (the
//! engine's feasibility checks, the SSA path formula on z3 and a concrete
//! replay): the path is confirmed with inputs, infeasible, or undecided;
//! the verdict stays what the analysis said.
//!
//! Configurations with CEGAR, a counterexample check or the restart
//! algorithm run through [`engine::cegar::Verifier`]: a FALSE verdict then
//! says whether concrete replay *confirmed* it (with the inputs), and the
//! refinements and the final precision are printed.
//!
//! Without `--config` the `value` preset runs (explicit values, merge^sep:
//! the analysis CPAchecker users meet first). The integer model defaults to
//! `c` (`docs/minic.md`). Statistics are counted from the run's events
//! ([`engine::view::Statistics`]).
//!
//! A task file (`TASK.yml`, [`super::task`]) names the program and the
//! expected verdict, which is compared with ours. `--witness OUT.yml`
//! writes an SV-COMP witness (`docs/witnesses.md`): a violation witness for
//! a confirmed FALSE, a correctness witness (loop invariants) for TRUE.
//!
//! Also home of the option parsing `trace` and `table` share.

use super::cfa::load_program;
use super::task::{is_task_file, read_task};
use super::CliError;
use engine::cegar::build_verifier;
use engine::view::Statistics;
use engine::Stepper;
use engine::{Config, Verdict};
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;

/// The analysis options every analysing subcommand accepts.
#[derive(Clone)]
pub struct AnalysisArgs {
    /// The input file(s) (positional).
    pub files: Vec<String>,
    /// `--config` values (comma-separated lists allowed for `table`).
    pub config: Option<String>,
    /// `--set key=value` overrides, in order.
    pub sets: Vec<String>,
    /// `--int-model`.
    pub int_model: Option<String>,
    /// `--max-steps`.
    pub max_steps: Option<String>,
    /// `--json`.
    pub json: bool,
    /// `--check-path` (`verify` only).
    pub check_path: bool,
    /// `--witness OUT.yml` (`verify` only): where to write the witness.
    pub witness: Option<String>,
    /// `--data-model ILP32|LP64` (`verify` only; only ILP32 is implemented).
    pub data_model: Option<String>,
}

/// Parses the shared options; `command` names the subcommand in messages.
pub fn parse_args(command: &str, args: &[String]) -> Result<AnalysisArgs, CliError> {
    let mut out = AnalysisArgs {
        files: vec![],
        config: None,
        sets: vec![],
        int_model: None,
        max_steps: None,
        json: false,
        check_path: false,
        witness: None,
        data_model: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value_of = |name: &str| -> Result<String, CliError> {
            it.next().cloned().ok_or_else(|| CliError::usage(format!("`{name}` needs a value")))
        };
        match a.as_str() {
            "--config" => out.config = Some(value_of("--config")?),
            "--set" => out.sets.push(value_of("--set")?),
            "--int-model" => out.int_model = Some(value_of("--int-model")?),
            "--max-steps" => out.max_steps = Some(value_of("--max-steps")?),
            "--json" => out.json = true,
            "--check-path" if command == "verify" => out.check_path = true,
            "--witness" if command == "verify" => out.witness = Some(value_of("--witness")?),
            "--data-model" if command == "verify" => out.data_model = Some(value_of("--data-model")?),
            s if s.starts_with("--config=") => out.config = Some(s["--config=".len()..].to_string()),
            s if s.starts_with("--set=") => out.sets.push(s["--set=".len()..].to_string()),
            s if s.starts_with("--int-model=") => out.int_model = Some(s["--int-model=".len()..].to_string()),
            s if s.starts_with("--max-steps=") => out.max_steps = Some(s["--max-steps=".len()..].to_string()),
            s if s.starts_with('-') && s != "-" => return Err(CliError::usage(format!("unknown option `{s}` for `{command}`"))),
            s => out.files.push(s.to_string()),
        }
    }
    Ok(out)
}

/// Loads the configuration `name` (a preset or a `.properties` file),
/// applies the overrides of `args` and validates the result on its own
/// ([`engine::validate::validate`]; the program-dependent checks follow when
/// the run is built). Every problem is a configuration error (exit 2);
/// options that have no effect are reported on stderr as warnings.
pub fn make_config(name: Option<&str>, args: &AnalysisArgs) -> Result<Config, CliError> {
    let name = name.unwrap_or(engine::config::DEFAULT_PRESET);
    let mut config = Config::load(name).map_err(|e| CliError::config(e.message))?;
    for s in &args.sets {
        config.set_pair(s).map_err(|e| CliError::config(e.message))?;
    }
    if let Some(m) = &args.int_model {
        let m: minic::IntModel = m.parse().map_err(CliError::usage)?;
        config.set("analysis.intModel", m.name()).map_err(|e| CliError::config(e.message))?;
    }
    if let Some(n) = &args.max_steps {
        config.set("limits.steps", n).map_err(|e| CliError::config(format!("--max-steps: {}", e.message)))?;
    }
    engine::validate::validate(&config).map_err(|e| CliError::config(e.message))?;
    for w in engine::validate::warnings(&config) {
        eprintln!("warning: configuration: {w}");
    }
    Ok(config)
}

/// The result of one verification run, ready to print.
pub struct Outcome {
    /// The verdict.
    pub verdict: Verdict,
    /// Its reason.
    pub reason: String,
    /// Counted from the run's events.
    pub stats: Statistics,
    /// Wall-clock time of the analysis.
    pub time_ms: u128,
    /// For FALSE: the error path as JSON objects.
    pub error_path: Option<Vec<serde_json::Value>>,
    /// For FALSE: the error path's CFA edges.
    pub error_edges: Vec<cfa::EdgeId>,
    /// For FALSE: whether concrete replay confirmed the error path.
    pub confirmed: Option<bool>,
    /// For a confirmed FALSE: the nondet inputs that reach the error.
    pub inputs: Vec<i128>,
    /// The final precision, when CEGAR refined it (in words).
    pub precision: Option<String>,
    /// Symbolic execution with predicate abstraction: the final precision
    /// function p, one row per abstraction location.
    pub precision_function: Option<Vec<engine::trace::PrecisionRow>>,
    /// For a TRUE under mathematical integers: the first reached operation
    /// whose C result could differ.
    pub int_model_caveat: Option<engine::int_caveat::IntModelCaveat>,
    /// For a TRUE, when asked for: the loop invariants of the final reached
    /// set (for a correctness witness).
    pub loop_invariants: Vec<witness::correctness::LoopInvariant>,
}

/// Runs the analysis `config` describes on `program` (no views recorded):
/// the reachability algorithm, wrapped by CEGAR, the counterexample check
/// or the restart algorithm when the configuration asks for them.
pub fn verify(program: Arc<cfa::Program>, config: &Config) -> Result<Outcome, CliError> {
    verify_with_source(program, config, None, false)
}

/// [`verify`], with the program's source text to quote the error path's
/// lines; `invariants`: also collect a TRUE's loop invariants.
pub fn verify_with_source(
    program: Arc<cfa::Program>,
    config: &Config,
    source: Option<&str>,
    invariants: bool,
) -> Result<Outcome, CliError> {
    let mut verifier = build_verifier(program.clone(), config, false).map_err(|e| CliError::config(e.message))?;
    let start = Instant::now();
    let mut stats = Statistics::default();
    verifier.run_with(|e| stats.observe(e));
    let time_ms = start.elapsed().as_millis();
    let (verdict, reason) =
        verifier.outcome().map(|(v, r)| (v, r.to_string())).unwrap_or((Verdict::Unknown, "the analysis did not finish".into()));
    let lines: Vec<&str> = source.map(|s| s.lines().collect()).unwrap_or_default();
    let error_path = (verdict == Verdict::False).then(|| {
        verifier
            .error_path()
            .unwrap_or_default()
            .iter()
            .map(|id| {
                let e = program.edge(*id);
                let code = lines.get((e.line as usize).wrapping_sub(1)).map(|l| l.trim()).unwrap_or("");
                json!({ "edge": id.0, "source": e.source.0, "target": e.target.0, "line": e.line, "label": e.label, "code": code })
            })
            .collect()
    });
    let confirmed = (verdict == Verdict::False).then(|| verifier.confirmed() == Some(true));
    let error_edges = if verdict == Verdict::False { verifier.error_path().unwrap_or_default().to_vec() } else { vec![] };
    let precision = (config.get("analysis.algorithm.CEGAR") == "true" || config.get("analysis.restartAfterUnknown") == "true")
        .then(|| match (verifier.predicates(), verifier.symexec_precision()) {
            (Some(p), _) => format!("predicates {}", p.describe(&program)),
            (_, Some(p)) => format!("precision function {}", p.describe(&program)),
            (None, None) => verifier.precision().describe(&program),
        });
    let precision_function = verifier.symexec_precision().map(|p| p.rows(&program));
    let loop_invariants = match (invariants, verdict, source) {
        (true, Verdict::True, Some(text)) => witness::correctness::loop_invariants(verifier.analysis(), text),
        _ => vec![],
    };
    Ok(Outcome {
        verdict,
        reason,
        stats,
        time_ms,
        error_path,
        error_edges,
        confirmed,
        inputs: verifier.inputs().to_vec(),
        precision,
        precision_function,
        int_model_caveat: verifier.int_model_caveat().cloned(),
        loop_invariants,
    })
}

/// Runs `cpaplay verify`.
pub fn run(args: &[String]) -> Result<(), CliError> {
    let a = parse_args("verify", args)?;
    let [file] = a.files.as_slice() else {
        return Err(CliError::usage("`verify` takes exactly one file"));
    };
    let task = is_task_file(file).then(|| read_task(file)).transpose()?;
    let file = task.as_ref().map(|t| t.input_file.display().to_string()).unwrap_or_else(|| file.clone());
    let file = file.as_str();
    if let Some(m) = a.data_model.as_deref().filter(|m| *m != super::task::DATA_MODEL) {
        return Err(CliError::usage(format!(
            "--data-model {m}: not supported; the analyses implement ILP32 only (docs/minic.md)"
        )));
    }
    let config = make_config(a.config.as_deref(), &a)?;
    if a.witness.is_some() && config.int_model() != minic::IntModel::C {
        return Err(CliError::usage(
            "`--witness` needs the C integer model (`--int-model c`): a witness is about the C program (data model ILP32)",
        ));
    }
    let program = Arc::new(load_program(file)?);
    let source = std::fs::read_to_string(file).ok();
    let out = verify_with_source(program.clone(), &config, source.as_deref(), a.witness.is_some())?;
    let path_check = (a.check_path && out.confirmed == Some(false)).then(|| check_path(&program, &config, &out.error_edges));
    let written = a
        .witness
        .as_ref()
        .map(|target| write_witness(target, file, &program, source.as_deref().unwrap_or(""), &config, &out, path_check.as_ref()));
    let task_report = task.as_ref().map(|t| compare_with_task(t, out.verdict));
    if a.json {
        let value = json!({
            "verdict": out.verdict.lower(),
            "reason": out.reason,
            "reached": out.stats.reached,
            "created": out.stats.created,
            "steps": out.stats.steps,
            "refinements": out.stats.refinements,
            "solver_queries": out.stats.solver_queries,
            "retention_disjuncts": out.stats.retention_disjuncts,
            "cache_hits": out.stats.cache_hits,
            "cache_misses": out.stats.cache_misses,
            "blocks_entered": out.stats.blocks_entered,
            "cache_invalidated": out.stats.cache_invalidated,
            "cache_restored": out.stats.cache_restored,
            "states_stored": out.stats.reached,
            "equivalence_checks": out.stats.equivalence_checks,
            "time_ms": out.time_ms as u64,
            "confirmed": out.confirmed,
            "inputs": out.inputs.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
            "precision": out.precision,
            "precision_function": out.precision_function,
            "error_path": out.error_path,
            "path_check": path_check.as_ref().map(|c| json!({
                "feasible": c.feasible,
                "confirmed": c.confirmed,
                "check": c.check,
                "description": c.description,
                "inputs": c.inputs.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
            })),
            "int_model": config.int_model().name(),
            "int_model_caveat": out.int_model_caveat,
            "config_name": config.source,
            "config": config.effective(),
            "statistics": out.stats,
            "witness": written.as_ref().map(|w| match w {
                Ok(text) => json!({ "written": true, "description": text }),
                Err(text) => json!({ "written": false, "description": text }),
            }),
            "task": task.as_ref().map(|t| json!({
                "input_file": t.input_file.display().to_string(),
                "expected_verdict": t.expected,
                "data_model": t.data_model,
                "ignored_properties": t.ignored_properties,
                "matches_expected": task_report.as_ref().and_then(|r| r.0),
            })),
        });
        println!("{}", serde_json::to_string_pretty(&value).expect("JSON values serialize"));
        return Ok(());
    }
    if let Some(t) = &task {
        println!(
            "Task: {} (data model {}, unreach-call{})",
            t.input_file.display(),
            t.data_model,
            t.expected.map(|e| format!(", expected verdict {e}")).unwrap_or_default()
        );
        if !t.ignored_properties.is_empty() {
            println!("  not checked (not supported): {}", t.ignored_properties.join(", "));
        }
    }
    println!("Verification result: {}", out.verdict.upper());
    println!("Reason: {}", out.reason);
    if let Some((_, line)) = &task_report {
        println!("{line}");
    }
    match &written {
        Some(Ok(text)) => println!("Witness: {text}"),
        Some(Err(text)) => println!("Witness: none written — {text}"),
        None => {}
    }
    if let Some(c) = out.confirmed {
        if c {
            let inputs = out.inputs.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ");
            println!("Confirmed: yes (the concrete interpreter reaches the error location with nondet inputs [{inputs}])");
        } else {
            println!("Confirmed: no (the error path was not replayed concretely; it may be spurious)");
        }
    }
    if let Some(path) = &out.error_path {
        println!("Error path ({} edges):", path.len());
        for e in path {
            let code = e["code"].as_str().unwrap_or("");
            let code = if code.is_empty() { String::new() } else { format!("    | {code}") };
            println!("  line {:>4}: N{}→N{}  {}{code}", e["line"], e["source"], e["target"], e["label"].as_str().unwrap_or(""));
        }
    }
    if let Some(c) = &path_check {
        println!("Path check: {}", describe_check(c));
    } else if out.confirmed == Some(false) && !a.check_path {
        println!("(`--check-path` checks this path: feasibility, then a concrete replay of inputs that follow it)");
    }
    if let Some(rows) = &out.precision_function {
        println!(
            "Precision function p (after {} refinements): {} abstraction location{}",
            out.stats.refinements,
            rows.len(),
            if rows.len() == 1 { "" } else { "s" }
        );
        for r in rows {
            println!("  {:<6} threshold {:<4} predicates {{{}}}", r.location.to_string(), r.threshold, r.predicates.join(", "));
        }
    } else if let Some(p) = &out.precision {
        println!("Precision (after {} refinements): {p}", out.stats.refinements);
    }
    let s = &out.stats;
    println!("Statistics:");
    println!("  configuration:            {} (integer model: {})", config.source, config.int_model().name());
    println!("  reached set (final size): {}", s.reached);
    println!("  states created:           {}", s.created);
    println!("  steps (waitlist pops):    {}", s.steps);
    println!("  transfers (infeasible):   {} ({})", s.transfers, s.infeasible);
    println!("  merges (replacing):       {} ({})", s.merges, s.merges_replaced);
    println!("  stop checks (covered):    {} ({})", s.stops, s.covered);
    println!("  refinements:              {}", s.refinements);
    println!("  counterexample checks:    {}", s.counterexample_checks);
    if s.targets_refuted > 0 {
        println!("  targets refuted:          {}", s.targets_refuted);
    }
    println!("  restarts:                 {}", s.restarts);
    if s.abstractions > 0 {
        println!("  abstractions:             {}", s.abstractions);
    }
    if config.cpas().iter().any(|c| c == "cpa.symexec.SymExecCPA") {
        println!("  paths explored:           {}", s.paths_explored);
        println!("  infeasible branches:      {}", s.infeasible_branches);
        println!("  abstraction points:       {}", s.abstraction_points);
        println!("  pruned (not p-simple):    {}", s.pruned_not_simple);
    }
    if config.get_bool("cpa.bam.enabled") {
        println!("  BAM cache hits / misses:  {} / {} ({} blocks entered)", s.cache_hits, s.cache_misses, s.blocks_entered);
        println!(
            "  BAM cache after refinements: {} entries dropped, {} kept ones re-created",
            s.cache_invalidated, s.cache_restored
        );
    }
    if config.get("analysis.algorithm.transformExplorer") == "true" {
        println!("  states stored:            {}", s.reached);
        println!("  equivalence checks:       {}", s.equivalence_checks);
    }
    println!("  solver queries:           {}", s.solver_queries);
    if s.retention_disjuncts > 0 || config.explicit().contains_key("cpa.predicate.memoryRegions") {
        println!(
            "  retention disjuncts:      {} (cpa.predicate.memoryRegions = {})",
            s.retention_disjuncts,
            config.get("cpa.predicate.memoryRegions")
        );
    }
    println!("  time:                     {} ms", out.time_ms);
    Ok(())
}

/// Whether `verdict` matches the task's expected verdict (`None`: no
/// comparison, UNKNOWN or no expectation), and the line that says so.
fn compare_with_task(task: &super::task::TaskFile, verdict: Verdict) -> (Option<bool>, String) {
    match (task.expected, verdict) {
        (None, _) => (None, "Expected verdict: not given in the task".into()),
        (Some(e), Verdict::Unknown) => (None, format!("Expected verdict: {e} — UNKNOWN gives no answer to compare")),
        (Some(e), v) => {
            let ok = (v == Verdict::True) == e;
            (Some(ok), format!("Expected verdict: {e} — {}", if ok { "matches" } else { "does NOT match" }))
        }
    }
}

/// Writes the witness of the run to `target`: a violation witness for a
/// confirmed FALSE (the analysis's or `--check-path`'s inputs), a
/// correctness witness for TRUE. `Ok`: what was written; `Err`: why nothing was.
fn write_witness(
    target: &str,
    file: &str,
    program: &cfa::Program,
    source: &str,
    config: &Config,
    out: &Outcome,
    path_check: Option<&engine::counterexample::PathCheck>,
) -> Result<String, String> {
    let run = witness::RunInfo {
        file_name: file.to_string(),
        file_bytes: source.as_bytes().to_vec(),
        configuration: config.source.clone(),
        data_model: super::task::DATA_MODEL.into(),
        created_at: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0),
    };
    let (entries, what) = match out.verdict {
        Verdict::False => {
            let inputs = match (out.confirmed, path_check) {
                (Some(true), _) => &out.inputs,
                (_, Some(c)) if c.confirmed => &c.inputs,
                _ => {
                    return Err(
                        "the FALSE is not confirmed (use a configuration with a counterexample check, or `--check-path`)".into()
                    )
                }
            };
            let entries = witness::violation_witness(program, source, &run, inputs)?;
            let n = match &entries[0] {
                witness::Entry::ViolationSequence { content, .. } => content.len(),
                _ => 0,
            };
            (entries, format!("violation witness with {n} waypoints"))
        }
        Verdict::True => {
            let n = out.loop_invariants.len();
            (
                witness::correctness_witness(program, source, &run, &out.loop_invariants),
                format!("correctness witness with {n} loop invariants"),
            )
        }
        Verdict::Unknown => return Err("the verdict is UNKNOWN".into()),
    };
    std::fs::write(target, witness::to_yaml(&entries)).map_err(|e| format!("{target}: cannot write: {e}"))?;
    Ok(format!("{what} written to {target}"))
}

/// The on-demand check of an error path (`--check-path`): the engine's
/// checks with the native z3 (`solver.timeout` per query).
fn check_path(program: &Arc<cfa::Program>, config: &Config, path: &[cfa::EdgeId]) -> engine::counterexample::PathCheck {
    let ms = config.get("solver.timeout").parse::<u64>().unwrap_or(10_000).max(1);
    engine::counterexample::check_path_native(program, config.int_model(), path, std::time::Duration::from_millis(ms))
}

/// A path check in one line of words.
fn describe_check(c: &engine::counterexample::PathCheck) -> String {
    let inputs = c.inputs.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ");
    match (c.feasible, c.confirmed) {
        (_, true) => {
            format!("confirmed — the concrete interpreter reaches the error location with nondet inputs [{inputs}] ({})", c.check)
        }
        (Some(false), _) => format!("infeasible — {} ({}): the FALSE is a false alarm", c.description, c.check),
        _ => format!("undecided — {} ({})", c.description, c.check),
    }
}
