//! `cpaplay run FILE.c [--inputs 3,-1,...] [--int-model math|c] [--max-steps N]`:
//! executes the program concretely (crate `concrete`) and prints the path
//! taken (one CFA edge per line, with its source line), the outcome, and the
//! final values of `main`'s variables.

use super::cfa::load_program;
use super::CliError;
use concrete::{execute, Options, Outcome, SliceInputs};
use minic::IntModel;

fn parse_inputs(s: &str) -> Result<Vec<i128>, CliError> {
    if s.trim().is_empty() {
        return Ok(Vec::new());
    }
    s.split(',')
        .map(|t| {
            let t = t.trim();
            t.parse::<i128>()
                .map_err(|_| CliError::usage(format!("`--inputs`: `{t}` is not an integer (expected e.g. `--inputs 3,-1,0`)")))
        })
        .collect()
}

/// Runs `cpaplay run`.
pub fn run(args: &[String]) -> Result<(), CliError> {
    let mut file = None;
    let mut inputs = Vec::new();
    let mut options = Options::default();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg, None),
        };
        let mut value = |what: &str| -> Result<String, CliError> {
            if let Some(v) = &inline {
                return Ok(v.clone());
            }
            i += 1;
            args.get(i).cloned().ok_or_else(|| CliError::usage(format!("`{name}` needs a value ({what})")))
        };
        match name {
            "--inputs" => inputs = parse_inputs(&value("a comma-separated list of integers")?)?,
            "--int-model" => {
                options.model = value("`math` or `c`")?.parse::<IntModel>().map_err(CliError::usage)?;
            }
            "--max-steps" => {
                let v = value("a number of steps")?;
                options.max_steps = v
                    .parse::<usize>()
                    .map_err(|_| CliError::usage(format!("`--max-steps`: `{v}` is not a non-negative integer")))?;
            }
            s if s.starts_with('-') && s != "-" && s.parse::<i128>().is_err() => {
                return Err(CliError::usage(format!(
                    "unknown option `{s}` for `run` (expected `--inputs`, `--int-model` or `--max-steps`)"
                )));
            }
            s => {
                if file.is_some() {
                    return Err(CliError::usage(format!("unexpected argument `{s}`: `run` takes one file")));
                }
                file = Some(s.to_string());
            }
        }
        i += 1;
    }
    let Some(file) = file else {
        return Err(CliError::usage("`run` needs a file: cpaplay run FILE.c --inputs 3,-1,..."));
    };
    let program = load_program(&file)?;
    let given = inputs.len();
    let mut source = SliceInputs::new(inputs);
    let exec = execute(&program, &mut source, options);
    print!("{}", report(&program, &exec, options.model));
    if source.used() < given {
        println!("note: {} of the {given} inputs were not used", given - source.used());
    }
    Ok(())
}

/// The text `run` prints for an execution.
pub fn report(program: &cfa::Program, exec: &concrete::Execution, model: IntModel) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "integer model: {}", model.name());
    let _ = writeln!(s, "path ({} steps):", exec.path.len());
    for id in &exec.path {
        let e = program.edge(*id);
        let _ = writeln!(s, "  line {:>3}  {} -> {}  {}", e.line, e.source, e.target, e.label);
    }
    if !exec.inputs.is_empty() {
        let vals: Vec<String> = exec.inputs.iter().map(|u| u.value.to_string()).collect();
        let _ = writeln!(s, "inputs used: {}", vals.join(", "));
    }
    let line = match &exec.outcome {
        Outcome::ReachedError { node } | Outcome::Terminated { node } | Outcome::AssumeFailed { node } => {
            format!(" (line {})", program.node(*node).line)
        }
        Outcome::InputsExhausted { edge } | Outcome::UndefinedOperation { edge, .. } => {
            format!(" at line {}", program.edge(*edge).line)
        }
        _ => String::new(),
    };
    let _ = writeln!(s, "outcome: {}{}", exec.outcome, line);
    let main = program.main;
    let vars: Vec<String> = exec
        .final_values
        .iter()
        .filter(|(v, _)| {
            let var = program.variable(**v);
            matches!(var.scope, cfa::VarScope::Global | cfa::VarScope::Local(_) | cfa::VarScope::Param(_))
                && (var.is_global() || var_function(var) == Some(main))
        })
        .map(|(v, x)| format!("  {} = {}", program.variable(*v).qualified, x))
        .collect();
    if !vars.is_empty() {
        let _ = writeln!(s, "final values:");
        for v in vars {
            let _ = writeln!(s, "{v}");
        }
    }
    s
}

fn var_function(v: &cfa::Variable) -> Option<cfa::FuncId> {
    match v.scope {
        cfa::VarScope::Local(f) | cfa::VarScope::Param(f) | cfa::VarScope::Return(f) | cfa::VarScope::Temp(f) => Some(f),
        cfa::VarScope::Global => None,
    }
}
