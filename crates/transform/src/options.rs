//! What the transformation is asked for: the value domain and the initial
//! set of abstract values.

use cfa::{Program, VarId, VarScope};
use minic::IntModel;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// The domain abstract values live in (`transform.domain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Domain {
    /// The free term algebra: inputs are fresh symbols, operations build
    /// terms, `assume` adds to the path condition (feasibility by a solver).
    Term,
    /// Even / odd.
    Parity,
    /// Negative / zero / positive.
    Sign,
}

impl Domain {
    /// `term`, `parity` or `sign`.
    pub fn name(self) -> &'static str {
        match self {
            Domain::Term => "term",
            Domain::Parity => "parity",
            Domain::Sign => "sign",
        }
    }
}

impl fmt::Display for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Domain {
    type Err = String;
    fn from_str(s: &str) -> Result<Domain, String> {
        match s.to_ascii_lowercase().as_str() {
            "term" => Ok(Domain::Term),
            "parity" => Ok(Domain::Parity),
            "sign" => Ok(Domain::Sign),
            other => Err(format!("unknown domain `{other}` (term, parity or sign)")),
        }
    }
}

/// Which values start abstract (`transform.lift`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LiftSet {
    /// Every nondeterministic input (`__VERIFIER_nondet_*()`, an
    /// uninitialized variable, a function result never set) is `lift(*)`.
    Inputs,
    /// The inputs and every variable: each assignment lifts its value, so
    /// all data is abstract (the finite domains then terminate on loops).
    All,
    /// Nothing: inputs are concrete values read from a list — the
    /// concrete-only configuration, which behaves as the interpreter.
    None,
}

impl FromStr for LiftSet {
    type Err = String;
    fn from_str(s: &str) -> Result<LiftSet, String> {
        match s.to_ascii_uppercase().as_str() {
            "INPUTS" => Ok(LiftSet::Inputs),
            "ALL" => Ok(LiftSet::All),
            "NONE" => Ok(LiftSet::None),
            other => Err(format!("unknown lift set `{other}` (INPUTS, ALL or NONE)")),
        }
    }
}

/// The transformation's input besides the program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// The value domain.
    pub domain: Domain,
    /// Which values start abstract.
    pub lift: LiftSet,
    /// Variables the user marks abstract in addition (`--lift x,y`; names
    /// as written, or qualified `f::x`).
    pub variables: Vec<String>,
    /// The integer model the abstract operations follow.
    pub model: IntModel,
}

impl Options {
    /// The default options for `domain`: lift the inputs, C's integers.
    pub fn new(domain: Domain) -> Options {
        Options { domain, lift: LiftSet::Inputs, variables: Vec::new(), model: IntModel::C }
    }

    /// Whether nondeterministic inputs are lifted.
    pub fn lifts_inputs(&self) -> bool {
        self.lift != LiftSet::None
    }

    /// The variables that are abstract wherever they hold a value (all of
    /// them under [`LiftSet::All`] except those holding an address — a
    /// pointer, or the address of an object in memory: data is lifted,
    /// addresses stay concrete, so no dereference needs a `lower`), or an
    /// error naming a variable the program does not have.
    pub fn lifted_variables(&self, program: &Program) -> Result<BTreeSet<VarId>, String> {
        let mut out = BTreeSet::new();
        if self.lift == LiftSet::All {
            let address = |v: &cfa::Variable| v.in_memory || v.ctype.as_ref().is_some_and(|c| c.is_pointer());
            out.extend(program.variables.iter().filter(|v| !address(v)).map(|v| v.id));
        }
        for name in &self.variables {
            let found: Vec<VarId> = program
                .variables
                .iter()
                .filter(|v| (v.name == *name || v.qualified == *name) && !matches!(v.scope, VarScope::Temp(_)))
                .map(|v| v.id)
                .collect();
            if found.is_empty() {
                return Err(format!("--lift {name}: the program has no variable `{name}`"));
            }
            out.extend(found);
        }
        Ok(out)
    }
}
