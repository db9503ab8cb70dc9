//! `cpaplay` — the command-line face of CPA Playground.
//!
//! Each subcommand lives in its own module under `commands/`. Bad input or
//! bad options print a message on stderr and exit non-zero; verdicts of any
//! kind exit 0. Nothing here may panic on user input.

mod commands;

use std::process::ExitCode;

const USAGE: &str = "\
cpaplay — CPA Playground on the command line

usage:
  cpaplay --version
  cpaplay cfa FILE.c [--dot|--json]
  cpaplay run FILE.c --inputs 3,-1,... [--int-model math|c]
  cpaplay verify FILE.c|TASK.yml [--config NAME|FILE.properties] [--set key=value]... [--int-model math|c] [--max-steps N] [--check-path] [--witness OUT.yml] [--data-model ILP32] [--json]
  cpaplay transform FILE.c [--domain term|parity|sign] [--lift VAR,...|all|none] [--int-model math|c] [--json]
                                     the program transformed for abstraction (lift, a_op, freeze/thaw);
                                     verify --config transform-term|transform-parity|transform-sign runs it
  cpaplay trace FILE.c [--config NAME|FILE.properties] [--set key=value]... [--json]
  cpaplay table DIR (MANIFEST.tsv or *.yml task files) [--config NAME,NAME...] [--int-model math|c] [--max-steps N]
  cpaplay bench DIR --config NAME,NAME... [--int-model math|c] [--max-steps N] [--only TEXT] [--json]
                                     time, steps/s, solver queries and z3 time per task and configuration
  cpaplay table31 [--bounds 10,100,1000] [--card]   the octagon thesis's Table 3.1 next to ours (Markdown)
  cpaplay exercise check DIR          validate an exercise set against its solutions.toml
  cpaplay grade DIR ANSWERS.json...   re-grade students' answers files; CSV student,exercise,points
                                     (--first-attempt: score each exercise's first checked answer)
";

/// Lets `cpaplay ... | head` end quietly: with SIGPIPE at its default action
/// the process ends when the reader goes away, instead of `println!`
/// panicking on a broken pipe (Rust ignores SIGPIPE by default).
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: resetting a signal disposition to its default before any thread
    // is started has no memory-safety implications.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    restore_default_sigpipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match command.as_str() {
        "cfa" => commands::cfa::run(rest),
        "run" => commands::run::run(rest),
        "verify" => commands::verify::run(rest),
        "trace" => commands::trace::run(rest),
        "transform" => commands::transform::run(rest),
        "table" => commands::table::run(rest),
        "bench" => commands::bench::run(rest),
        "table31" => commands::table31::run(rest),
        "exercise" => commands::exercise::run(rest),
        "grade" => commands::grade::run(rest),
        "--version" | "version" => {
            println!("cpaplay {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(commands::CliError::usage(format!("unknown command `{other}`"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(e.exit_code)
        }
    }
}
