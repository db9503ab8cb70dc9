//! `cpaplay transform FILE.c [--domain term|parity|sign] [--lift VAR,...|all|none]
//! [--int-model math|c] [--json]`: prints the program transformed for
//! abstraction (`transform`): every nondet input (and every `--lift`
//! variable) becomes abstract, value propagation rewrites what it flows
//! into as the domain's operations (`a_add`, `a_lt`, … with `lift` for
//! concrete operands), globals holding abstract values are frozen and
//! thawed, and branches on abstract conditions are choices. One line per
//! CFA edge with the original line beside it; `--json` gives the lines with
//! their edge, span and marks. `cpaplay verify --config transform-term`
//! (or `-parity`, `-sign`) runs the explorer on it.

use super::cfa::load_program;
use super::CliError;
use transform::{print, Domain, LiftSet, Options};

/// Runs `cpaplay transform`.
pub fn run(args: &[String]) -> Result<(), CliError> {
    let mut file = None;
    let mut options = Options::new(Domain::Term);
    let mut json = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or_else(|| CliError::usage(format!("{flag} needs a value")));
        match a.as_str() {
            "--domain" => options.domain = value("--domain")?.parse().map_err(CliError::usage)?,
            "--lift" => {
                let v = value("--lift")?;
                match v.to_ascii_lowercase().as_str() {
                    "all" => options.lift = LiftSet::All,
                    "none" => options.lift = LiftSet::None,
                    _ => options.variables.extend(v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty())),
                }
            }
            "--int-model" => options.model = value("--int-model")?.parse().map_err(CliError::usage)?,
            "--json" => json = true,
            s if s.starts_with("--") => return Err(CliError::usage(format!("unknown option `{s}` for `transform`"))),
            s if file.is_none() => file = Some(s.to_string()),
            _ => return Err(CliError::usage("`transform` takes exactly one file")),
        }
    }
    let file = file.ok_or_else(|| CliError::usage("`transform` needs a file"))?;
    let program = load_program(&file)?;
    let t = transform::transform(&program, &options).map_err(CliError::usage)?;
    if json {
        let lines = print::lines(&program, &t);
        let value = serde_json::json!({ "domain": options.domain, "int_model": options.model.name(), "lines": lines });
        println!("{}", serde_json::to_string_pretty(&value).expect("JSON values serialize"));
    } else {
        print!("{}", print::text(&program, &t));
    }
    Ok(())
}
