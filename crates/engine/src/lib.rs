//! # engine — the CPA engine
//!
//! The configurable program analysis (CPA) machinery of CPA Playground:
//!
//! * [`cpa`]: the CPA interfaces, one trait per formal concept (abstract
//!   domain, transfer relation, merge, stop, precision adjustment) and the
//!   stock operators (merge^sep, merge^join, stop^sep, stop^join), plus the
//!   type-erased [`cpa::DynCpa`] for configurations chosen at run time;
//! * [`cpas`]: the CPAs — Location, Callstack, Composite, Value, Octagon,
//!   and a mock whose every step is unique (for testing the fold);
//! * [`algorithm`]: the CPA+ reachability algorithm as a steppable state
//!   machine over a [`waitlist`];
//! * [`trace`]: the event trace every run produces;
//! * [`view`]: the fold from an event prefix to what the UI shows, the
//!   seekable cursor, and statistics counted from events;
//! * [`config`]: CPAchecker-style properties, the option table, the presets,
//!   and building an analysis from a configuration;
//! * [`validate`]: which configurations the engine can run soundly, checked
//!   before a run (alone, and for a given program).
//!
//! Architecture invariant: nothing here knows about the web page; the UI is
//! a function of the trace.

#![warn(missing_docs)]

pub mod algorithm;
pub mod cegar;
pub mod config;
pub mod counterexample;
pub mod cpa;
pub mod cpas;
pub mod feasibility;
pub mod int_caveat;
pub mod interpolation;
pub mod precision;
pub mod reached;
pub mod refinement;
pub mod restart;
pub mod solver;
pub mod ssa;
pub mod stepper;
pub mod testkit;
pub mod trace;
pub mod validate;
pub mod view;
pub mod waitlist;

pub use algorithm::{AlgorithmOptions, Reachability};
pub use config::{build_analysis, Analysis, Config, ConfigError};
pub use stepper::Stepper;
pub use trace::{Event, StateId, StateView, Verdict};
