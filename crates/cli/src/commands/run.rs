//! `cpaplay run` (not yet implemented).

use super::CliError;

pub fn run(_args: &[String]) -> Result<(), CliError> {
    Err(CliError::usage("`run` is not implemented yet"))
}
