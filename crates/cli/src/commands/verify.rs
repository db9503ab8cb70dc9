//! `cpaplay verify FILE.c [--config NAME|FILE.properties] [--set key=value]...
//! [--int-model math|c] [--max-steps N] [--json]`: runs the configured
//! analysis to the end and prints the verdict, as CPAchecker does
//! (`Verification result: TRUE|FALSE|UNKNOWN`), its reason and statistics —
//! or, with `--json`, one JSON object.
//!
//! Without `--config` the `value` preset runs (explicit values, merge^sep:
//! the analysis CPAchecker users meet first). The integer model defaults to
//! `math` (MINIC.md). Statistics are counted from the run's events
//! ([`engine::view::Statistics`]).
//!
//! Also home of the option parsing `trace` and `table` share.

use super::cfa::load_program;
use super::CliError;
use engine::view::Statistics;
use engine::{build_analysis, Config, Verdict};
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;

/// The analysis options every analysing subcommand accepts.
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
}

/// Parses the shared options; `command` names the subcommand in messages.
pub fn parse_args(command: &str, args: &[String]) -> Result<AnalysisArgs, CliError> {
    let mut out = AnalysisArgs { files: vec![], config: None, sets: vec![], int_model: None, max_steps: None, json: false };
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

/// Loads the configuration `name` (a preset or a `.properties` file) and
/// applies the overrides of `args`. Every problem is a usage error (exit 2).
pub fn make_config(name: Option<&str>, args: &AnalysisArgs) -> Result<Config, CliError> {
    let name = name.unwrap_or(engine::config::DEFAULT_PRESET);
    let mut config = Config::load(name).map_err(|e| CliError::usage(e.message))?;
    for s in &args.sets {
        config.set_pair(s).map_err(|e| CliError::usage(e.message))?;
    }
    if let Some(m) = &args.int_model {
        let m: minic::IntModel = m.parse().map_err(CliError::usage)?;
        config.set("analysis.intModel", m.name()).map_err(|e| CliError::usage(e.message))?;
    }
    if let Some(n) = &args.max_steps {
        config.set("limits.steps", n).map_err(|e| CliError::usage(format!("--max-steps: {}", e.message)))?;
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
}

/// Runs the analysis `config` describes on `program` (no views recorded).
pub fn verify(program: Arc<cfa::Program>, config: &Config) -> Result<Outcome, CliError> {
    let mut analysis = build_analysis(program.clone(), config, false).map_err(|e| CliError::usage(e.message))?;
    let start = Instant::now();
    let mut stats = Statistics::default();
    analysis.run_with(|e| stats.observe(e));
    let time_ms = start.elapsed().as_millis();
    let (verdict, reason) = analysis.outcome().map(|(v, r)| (v, r.to_string())).unwrap_or((Verdict::Unknown, "the analysis did not finish".into()));
    let error_path = (verdict == Verdict::False).then(|| {
        analysis
            .error_path()
            .unwrap_or_default()
            .into_iter()
            .map(|id| {
                let e = program.edge(id);
                json!({ "edge": id.0, "source": e.source.0, "target": e.target.0, "line": e.line, "label": e.label })
            })
            .collect()
    });
    Ok(Outcome { verdict, reason, stats, time_ms, error_path })
}

/// Runs `cpaplay verify`.
pub fn run(args: &[String]) -> Result<(), CliError> {
    let a = parse_args("verify", args)?;
    let [file] = a.files.as_slice() else {
        return Err(CliError::usage("`verify` takes exactly one file"));
    };
    let config = make_config(a.config.as_deref(), &a)?;
    let program = Arc::new(load_program(file)?);
    let out = verify(program, &config)?;
    if a.json {
        let value = json!({
            "verdict": out.verdict.lower(),
            "reason": out.reason,
            "reached": out.stats.reached,
            "created": out.stats.created,
            "steps": out.stats.steps,
            "refinements": out.stats.refinements,
            "solver_queries": out.stats.solver_queries,
            "time_ms": out.time_ms as u64,
            "confirmed": if out.verdict == Verdict::False { json!(false) } else { json!(null) },
            "error_path": out.error_path,
            "int_model": config.int_model().name(),
            "config_name": config.source,
            "config": config.effective(),
            "statistics": out.stats,
        });
        println!("{}", serde_json::to_string_pretty(&value).expect("JSON values serialize"));
        return Ok(());
    }
    println!("Verification result: {}", out.verdict.upper());
    println!("Reason: {}", out.reason);
    if let Some(path) = &out.error_path {
        println!("Error path ({} edges):", path.len());
        for e in path {
            println!("  line {:>4}: N{}→N{}  {}", e["line"], e["source"], e["target"], e["label"].as_str().unwrap_or(""));
        }
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
    println!("  solver queries:           {}", s.solver_queries);
    println!("  time:                     {} ms", out.time_ms);
    Ok(())
}
