//! # exercises — self-checking exercises on configurable program analysis
//!
//! An instructor writes an exercise set (`static/exercises/<set>/`): a set
//! index `set.toml`, one TOML file per exercise (prompt in Markdown, the
//! program, the configuration, the question) and, for the instructor only,
//! `solutions.toml` with reference answers and known-wrong answers. The
//! format is documented in `docs/exercises.md`; its version is
//! [`FORMAT_VERSION`].
//!
//! **No answer is stored, so there is none to leak**: an exercise file holds
//! the question, never its answer. A student's answer is checked by running
//! the real analysis (the same engine the playground steps through) and
//! comparing what it did with what the student said.
//!
//! The crate is UI-free and compiles for `wasm32-unknown-unknown`, so the
//! page and `cpaplay` grade with the same code:
//!
//! * [`load`]: the validating loader — every malformed file becomes a
//!   [`LoadError`] located at `file:line:column`, and the rest of the set
//!   still loads;
//! * [`model`]: the validated exercise, its configuration and its question
//!   kinds ([`Question`]), and the student's [`Answer`];
//! * [`check`]: one checker per question kind, in two phases so the page can
//!   run the analyses in slices and ask its asynchronous z3:
//!   [`check::plan`] turns (exercise, answer) into [`run::RunRequest`]s and
//!   SMT-LIB2 scripts, and [`check::Plan::grade`] turns their results into a
//!   [`Feedback`]; [`check::check_sync`] does both in one go (natively with
//!   the system z3);
//! * [`run`]: one analysis run an exercise needs, its start and its summary;
//! * [`state`]: abstract states the student types (`x = 3, y = 5`,
//!   `0 <= x <= 10, x - y <= 2`), compared by ⊑ with the domains' own
//!   operators;
//! * [`predict`]: reading what a step of the algorithm did off the trace and
//!   grading a prediction of it (the page's predict mode uses the same);
//! * [`predicates`]: predicate analysis's predicates and abstraction
//!   formulas as a student writes them, compared with the run's without a
//!   solver (normalized linear atoms, truth tables);
//! * [`invariant`]: loop invariants checked for initiation, consecution and
//!   sufficiency by SMT queries the caller answers;
//! * [`answers`]: the answers file a student exports and `cpaplay grade`
//!   reads, and the instructor's solutions file;
//! * [`skeleton`]: "make an exercise from what I see" — the page's program,
//!   configuration and question as an exercise file to download;
//! * [`wrong`]: what a wrong answer is told — what is off, never the
//!   reference answer — and when the answer may be revealed.

#![warn(missing_docs)]

pub mod answers;
pub mod check;
pub mod invariant;
pub mod load;
pub mod model;
pub mod predicates;
pub mod predict;
pub mod run;
pub mod skeleton;
pub mod state;
pub mod transformed;
pub mod wrong;

pub use check::{check_cached, check_sync, plan, Feedback, Plan};
pub use load::{load_exercise, load_set, LoadError, SetFiles};
pub use model::{Answer, Exercise, ExerciseSet, Question};

/// The version of the exercise file format this crate reads (the `format`
/// key every file starts with). A file with another version is rejected
/// with a located error rather than misread.
pub const FORMAT_VERSION: u32 = 1;
