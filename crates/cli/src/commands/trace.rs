//! `cpaplay trace FILE.c [--config NAME|FILE.properties] [--set key=value]...
//! [--int-model math|c] [--max-steps N] [--json]`: the full event trace of
//! a run. With `--json`, a JSON array of events (one per line), beginning
//! with `analysis_started` and ending with `analysis_finished`; otherwise
//! one line per algorithm step, spelled out in words by the fold
//! ([`engine::view::Snapshot`]). CEGAR iterations and restart-algorithm
//! stages are in the same trace, separated by `restart` events.

use super::cfa::load_program;
use super::verify::{make_config, parse_args};
use super::CliError;
use engine::cegar::build_verifier;
use engine::view::Snapshot;
use engine::Event;
use engine::Stepper;
use std::io::Write;
use std::sync::Arc;

/// Runs `cpaplay trace`.
pub fn run(args: &[String]) -> Result<(), CliError> {
    let a = parse_args("trace", args)?;
    let [file] = a.files.as_slice() else {
        return Err(CliError::usage("`trace` takes exactly one file"));
    };
    let config = make_config(a.config.as_deref(), &a)?;
    let program = Arc::new(load_program(file)?);
    let mut analysis = build_verifier(program, &config, true).map_err(|e| CliError::config(e.message))?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let io = |e: std::io::Error| CliError::input(format!("cannot write the trace: {e}"));
    if a.json {
        writeln!(out, "[").map_err(io)?;
        let mut first = true;
        while let Some(e) = analysis.next_event() {
            let line = serde_json::to_string(&e).map_err(|e| CliError::input(format!("cannot serialize the trace: {e}")))?;
            writeln!(out, "{}{line}", if first { "" } else { "," }).map_err(io)?;
            first = false;
        }
        writeln!(out, "]").map_err(io)?;
        return out.flush().map_err(io);
    }
    let mut snap = Snapshot::default();
    while let Some(e) = analysis.next_event() {
        if matches!(e, Event::WaitlistPop { .. } | Event::Restart { .. }) && !snap.current_step.is_empty() {
            writeln!(out, "{}", snap.step_text()).map_err(io)?;
        }
        snap.apply(&e);
    }
    writeln!(out, "{}", snap.step_text()).map_err(io)?;
    out.flush().map_err(io)
}
