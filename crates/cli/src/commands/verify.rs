//! `cpaplay verify` (not yet implemented).

use super::CliError;

pub fn run(_args: &[String]) -> Result<(), CliError> {
    Err(CliError::usage("`verify` is not implemented yet"))
}
