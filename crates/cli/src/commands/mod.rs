//! One module per `cpaplay` subcommand, plus the shared error type.

pub mod bench;
pub mod cfa;
pub mod exercise;
pub mod grade;
pub mod run;
pub mod table;
pub mod table31;
pub mod task;
pub mod trace;
pub mod transform;
pub mod verify;

use std::fmt;

/// What a subcommand reports when it cannot do its job: bad options (exit 2)
/// or bad input (exit 1). The message is printed on stderr as it is.
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    pub exit_code: u8,
}

impl CliError {
    /// Wrong command-line usage (exit status 2).
    pub fn usage(message: impl Into<String>) -> Self {
        CliError { message: format!("cpaplay: {}\n(run `cpaplay help` for usage)", message.into()), exit_code: 2 }
    }
    /// A configuration the engine rejects — unknown option or value, a
    /// combination it cannot run soundly (exit status 2), printed as
    /// `error: configuration: ...`.
    pub fn config(message: impl Into<String>) -> Self {
        CliError { message: format!("error: configuration: {}", message.into()), exit_code: 2 }
    }
    /// Bad input file or content (exit status 1).
    pub fn input(message: impl Into<String>) -> Self {
        CliError { message: message.into(), exit_code: 1 }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Reads a source file; a missing or non-UTF-8 file is an input error.
pub fn read_source(path: &str) -> Result<String, CliError> {
    let bytes = std::fs::read(path).map_err(|e| CliError::input(format!("{path}: cannot read file: {e}")))?;
    String::from_utf8(bytes).map_err(|_| CliError::input(format!("{path}:1:1: the file is not UTF-8 text")))
}
