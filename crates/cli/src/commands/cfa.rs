//! `cpaplay cfa FILE.c [--dot|--json]`: shows the control-flow automata of
//! a program — a readable listing by default, Graphviz DOT or the JSON view
//! (`cfa::JsonView`) on request.
//!
//! Also home of [`load_program`], which `run` shares: parse + lower a file,
//! printing diagnostics as `FILE:LINE:COLUMN: error: message`.

use super::{read_source, CliError};
use minic::{Diagnostic, Severity};

/// `FILE:LINE:COLUMN: error: message` (or `warning:`), as compilers print.
pub fn render(file: &str, d: &Diagnostic) -> String {
    let kind = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    format!("{file}:{}:{}: {kind}: {}", d.span.line, d.span.col, d.message)
}

/// Reads, parses and lowers `path`. Warnings go to stderr; errors become a
/// [`CliError`] (exit 1) listing every diagnostic.
pub fn load_program(path: &str) -> Result<cfa::Program, CliError> {
    let source = read_source(path)?;
    // A parser or lowering bug must not show a backtrace to the student.
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(|| cfa::from_source(&source));
    std::panic::set_hook(previous_hook);
    match result {
        Ok(Ok(program)) => {
            for w in &program.warnings {
                eprintln!("{}", render(path, w));
            }
            Ok(program)
        }
        Ok(Err(diags)) => {
            let lines: Vec<String> = diags.iter().map(|d| render(path, d)).collect();
            Err(CliError::input(lines.join("\n")))
        }
        Err(_) => Err(CliError::input(format!("{path}: internal error while reading the program (please report it)"))),
    }
}

/// Runs `cpaplay cfa`.
pub fn run(args: &[String]) -> Result<(), CliError> {
    let mut file = None;
    let mut format = "text";
    for a in args {
        match a.as_str() {
            "--dot" | "--json" if format != "text" => {
                return Err(CliError::usage("`--dot` and `--json` cannot be combined"));
            }
            "--dot" => format = "dot",
            "--json" => format = "json",
            s if s.starts_with('-') && s != "-" => {
                return Err(CliError::usage(format!("unknown option `{s}` for `cfa` (expected `--dot` or `--json`)")));
            }
            s => {
                if file.is_some() {
                    return Err(CliError::usage(format!("unexpected argument `{s}`: `cfa` takes one file")));
                }
                file = Some(s.to_string());
            }
        }
    }
    let Some(file) = file else {
        return Err(CliError::usage("`cfa` needs a file: cpaplay cfa FILE.c [--dot|--json]"));
    };
    let program = load_program(&file)?;
    match format {
        "dot" => print!("{}", program.to_dot()),
        "json" => {
            let text = serde_json::to_string_pretty(&program.json_view())
                .map_err(|e| CliError::input(format!("cannot serialize the CFA: {e}")))?;
            println!("{text}");
        }
        _ => print!("{}", program.to_listing()),
    }
    Ok(())
}
