//! `cpaplay trace` (not yet implemented).

use super::CliError;

pub fn run(_args: &[String]) -> Result<(), CliError> {
    Err(CliError::usage("`trace` is not implemented yet"))
}
