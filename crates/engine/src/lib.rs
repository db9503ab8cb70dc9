//! # engine — the CPA engine
//!
//! The configurable program analysis (CPA) machinery of CPA Playground. The
//! module map, one line each, in the terms of the CPA+ formalism:
//!
//! * [`cpa`]: the CPA interface — one file per concept: abstract domain
//!   (`domain`), transfer relation (`transfer`), merge (`merge`), stop
//!   (`stop`), precision adjustment (`precision_adjustment`), and the
//!   type-erased [`cpa::DynCpa`] (`erased`);
//! * [`cpas`]: the CPAs — Location, Callstack, Composite, Value, Octagon,
//!   SymbolicValue, Constraints, Predicate, and a mock (every step unique);
//! * [`precision`]: the precision of the variable-tracking CPAs,
//!   [`precision::TrackingPrecision`], and CEGAR's `π : L → 2^X`;
//! * [`algorithm`]: the CPA+ reachability algorithm as a steppable state
//!   machine ([`Reachability`]);
//! * [`reached`]: the reached set, partitioned by location, with the
//!   coverage index;
//! * [`waitlist`]: the waitlist and its traversal orders;
//! * [`stepper`]: [`Stepper`], stepping any run event by event, by waitlist
//!   pop, or to the end, and parking on solver queries;
//! * [`solver`]: the solver oracle through which CPAs ask SMT queries;
//! * [`cegar`]: the CEGAR loop, driving the counterexample check, the
//!   refinement and the restarts ([`cegar::Verifier`]);
//! * [`counterexample`]: the counterexample check of an error path (cheap
//!   checks, SMT, concrete replay);
//! * [`feasibility`]: the path feasibility checks it uses (explicit values,
//!   octagon, restriction to a path, concrete replay);
//! * [`ssa`]: the SSA path formula of an error path;
//! * [`refinement`]: CEGAR's refinement step (interpolation, else the
//!   backup refiner) and its event;
//! * [`interpolation`]: explicit-value path interpolation;
//! * [`predicate_refinement`]: predicate analysis's refinement — sequence
//!   interpolants by quantifier elimination, their atoms as predicates;
//! * [`restart`]: the restart algorithm's stages and CEGAR's restart from
//!   the pivot;
//! * [`explorer`]: the explorer of a program transformed for abstraction
//!   (`transform`): explicit control, concrete data, abstract values, as a
//!   [`Stepper`];
//! * [`int_caveat`]: what a TRUE under mathematical integers may miss in C;
//! * [`trace`]: the event trace every run produces;
//! * [`state_view`]: what the trace shows of an abstract state (each
//!   component's part, display-ready);
//! * [`view`]: the fold from an event prefix to what the UI shows, the
//!   seekable cursor, and statistics counted from events;
//! * [`config`]: CPAchecker-style properties, the option table, the presets,
//!   and a restart stage's configuration;
//! * [`build`]: building the analysis a configuration names (the registry
//!   from CPA names to constructors, the composite, the algorithm);
//! * [`validate`]: which configurations the engine can run soundly, checked
//!   before a run (alone, and for a given program);
//! * [`testkit`]: small CFAs built by hand, for tests and examples.
//!
//! Architecture invariant: nothing here knows about the web page; the UI is
//! a function of the trace. Modules import each other without cycles
//! (checked by `scripts/check-architecture.mjs`).

#![warn(missing_docs)]

pub mod acceleration;
pub mod algorithm;
pub mod block;
pub mod build;
pub mod cegar;
pub mod config;
pub mod counterexample;
pub mod cpa;
pub mod cpas;
pub mod explorer;
pub mod feasibility;
pub mod int_caveat;
pub mod interpolation;
pub mod path_invariants;
pub mod precision;
pub mod predicate_refinement;
pub mod reached;
pub mod refinement;
pub mod restart;
pub mod solver;
pub mod ssa;
pub mod state_view;
pub mod stepper;
pub mod symexec_refinement;
pub mod testkit;
pub mod trace;
pub mod validate;
pub mod view;
pub mod waitlist;

pub use algorithm::{AlgorithmOptions, Reachability};
pub use build::{build_analysis, Analysis};
pub use config::{Config, ConfigError};
pub use stepper::Stepper;
pub use trace::{Event, StateId, StateView, Verdict};
