//! `cpaplay cfa` (not yet implemented).

use super::CliError;

pub fn run(_args: &[String]) -> Result<(), CliError> {
    Err(CliError::usage("`cfa` is not implemented yet"))
}
