//! The CPAs, one module each, all of the same shape (domain, transfer
//! relation, operators, the `Cpa` impl), as CPAchecker's `cpa/<name>/`
//! packages.

pub mod callstack;
pub mod composite;
pub mod constraints;
pub mod location;
pub mod mock;
pub mod octagon;
pub mod predicate;
pub mod symbolic;
pub mod symexec;
pub mod value;
