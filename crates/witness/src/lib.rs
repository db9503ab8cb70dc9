//! Verification witnesses in SV-COMP's YAML format 2.0 for cpaplay's
//! verdicts, so that other tools (witness validators) can check them:
//!
//! * a confirmed FALSE gets a *violation witness* ([`violation`]): the
//!   replayed error path as waypoints — the nondet values returned, the
//!   branches taken, the violating call;
//! * a TRUE gets a *correctness witness* ([`correctness`]): loop invariants
//!   that the final reached set proves, as C expressions.
//!
//! [`format`](mod@format) holds the file format as serde types, [`metadata`] the
//! provenance every entry carries, [`source_map`] and [`scope`] how
//! locations and variable names are found in the source, and [`check`] the
//! concrete checks the tests run on what we write.

pub mod check;
pub mod correctness;
pub mod format;
pub mod metadata;
pub mod scope;
pub mod source_map;
pub mod violation;

pub use correctness::correctness_witness;
pub use format::{from_yaml, to_yaml, Entry};
pub use metadata::RunInfo;
pub use violation::violation_witness;

/// An integer as a C literal of a type that holds it (ILP32: `LL` beyond
/// `int`, `ULL` beyond `long long`).
pub fn c_int(v: i128) -> String {
    if i32::try_from(v).is_ok() {
        v.to_string()
    } else if i64::try_from(v).is_ok() {
        format!("{v}LL")
    } else {
        format!("{v}ULL")
    }
}
