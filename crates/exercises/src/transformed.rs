//! The `transformed-line` question kind: what the transformation
//! (`transform`, with the exercise configuration's domain, lifted values
//! and integer model) makes of one source line. The reference is the
//! transformed program itself — the same text `cpaplay transform` prints
//! and the page's Transformation view shows — so an exercise can never
//! disagree with the tool.

use cfa::Program;
use engine::explorer::ExplorerOptions;

/// The transformed operations of the statements on source `line`, in the
/// printed program's order (an `if` has one per branch).
pub fn operations_at(program: &Program, config: &engine::Config, line: u32) -> Result<Vec<String>, String> {
    let options = ExplorerOptions::from_config(config, false).map_err(|e| e.message)?;
    let transformed = transform::transform(program, &options.transform)?;
    Ok(transform::print::lines(program, &transformed)
        .into_iter()
        .filter(|l| l.edge.is_some_and(|e| program.edge(e).line == line))
        .map(|l| l.op)
        .collect())
}

/// An operation as compared: spaces do not matter.
fn normal(op: &str) -> String {
    op.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The numbers (1-based) of the `choices` that are a transformed operation
/// of `line`.
pub fn right_choices(program: &Program, config: &engine::Config, line: u32, choices: &[String]) -> Result<Vec<usize>, String> {
    let ops: Vec<String> = operations_at(program, config, line)?.iter().map(|o| normal(o)).collect();
    Ok(choices.iter().enumerate().filter(|(_, c)| ops.contains(&normal(c))).map(|(i, _)| i + 1).collect())
}
