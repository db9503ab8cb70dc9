//! Loop invariants: a mini-C boolean expression at a loop head, checked for
//! initiation, consecution and sufficiency by SMT queries.
//!
//! The check never calls a solver itself: [`InvariantCheck::scripts`] gives
//! self-contained SMT-LIB2 scripts, the caller answers them (natively the
//! system z3, in the page `z3-solver`), and [`InvariantCheck::grade`] reads
//! the answers.

use cfa::{NodeId, Program};
use minic::IntModel;

/// The planned check of one invariant.
#[derive(Clone, Debug)]
pub struct InvariantCheck {
    scripts: Vec<String>,
}

impl InvariantCheck {
    /// Reads `expression` over the program's variables at loop head `node`
    /// and builds the queries.
    pub fn new(_program: &Program, _source: &str, _node: NodeId, _expression: &str, _model: IntModel) -> Result<InvariantCheck, String> {
        Err("invariant questions are not checked yet".into())
    }

    /// The SMT-LIB2 scripts to answer, in order.
    pub fn scripts(&self) -> Vec<String> {
        self.scripts.clone()
    }

    /// Whether the invariant holds, the explanation, and details
    /// (counterexample states), from the solver outputs for [`Self::scripts`].
    pub fn grade(&self, _answers: &[String]) -> (bool, String, Vec<String>) {
        (false, "invariant questions are not checked yet".into(), vec![])
    }
}
