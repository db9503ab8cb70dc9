//! Value propagation: which variables may hold an abstract value where.
//!
//! A forward data-flow analysis over the whole program's CFA (may-analysis,
//! sets of variables joined by union). Sources of abstract values:
//!
//! * a nondeterministic input when inputs are lifted — `__VERIFIER_nondet_*()`,
//!   a declaration without initializer (its first read is an input, as in
//!   the interpreter) and a function's return slot before a `return` sets it;
//! * the variables the user lifted (abstract wherever they hold a value);
//! * a load from memory when some cell may hold a frozen abstract value
//!   ([`Abstractness::memory_abstract`]).
//!
//! An assignment makes its variable abstract when its value reads an
//! abstract variable and concrete otherwise; a call passes abstractness to
//! the parameters and the globals, a return to the result and the globals
//! (the caller's own variables come from the call site). The result is
//! sound for every path: at a location, a variable missing from the set
//! holds a concrete value (or none) on every path that reaches it.

use crate::options::Options;
use cfa::{EdgeKind, Expr, NodeId, Program, Rhs, VarId};
use std::collections::{BTreeSet, VecDeque};

/// The variables that may be abstract at each location (see the module
/// docs), indexed by node id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abstractness {
    at: Vec<BTreeSet<VarId>>,
    lifted: BTreeSet<VarId>,
    lift_inputs: bool,
    memory_abstract: bool,
}

impl Abstractness {
    /// The variables that may be abstract at `node`.
    pub fn at(&self, node: NodeId) -> &BTreeSet<VarId> {
        &self.at[node.0 as usize]
    }

    /// Whether `var` may be abstract at `node`.
    pub fn is_abstract(&self, node: NodeId, var: VarId) -> bool {
        self.at(node).contains(&var)
    }

    /// The variables lifted by the user (or all, under `transform.lift = ALL`).
    pub fn lifted(&self) -> &BTreeSet<VarId> {
        &self.lifted
    }

    /// Whether nondeterministic inputs are lifted.
    pub fn lifts_inputs(&self) -> bool {
        self.lift_inputs
    }

    /// Whether some memory cell may hold an abstract value (frozen into
    /// the shadow map): inputs are lifted (a read of a cell nobody wrote is
    /// a lifted input) or some store may store an abstract value. A load
    /// may then thaw one. Flow-insensitive: one answer for all of memory.
    pub fn memory_abstract(&self) -> bool {
        self.memory_abstract
    }

    /// Whether `e` reads a variable that may be abstract in `set`.
    pub fn reads_abstract(set: &BTreeSet<VarId>, e: &Expr) -> bool {
        e.variables().iter().any(|v| set.contains(v))
    }

    /// Whether a value assigned to `var` from `rhs` (in a state described
    /// by `set`) is abstract.
    pub fn rhs_is_abstract(&self, set: &BTreeSet<VarId>, var: VarId, rhs: Option<&Rhs>) -> bool {
        self.lifted.contains(&var)
            || match rhs {
                None | Some(Rhs::Nondet(_)) => self.lift_inputs,
                Some(Rhs::Expr(e)) => Abstractness::reads_abstract(set, e),
                // A load thaws an abstract value where memory may hold one.
                Some(Rhs::Load { .. }) => self.memory_abstract,
                // A fresh object's address is concrete.
                Some(Rhs::Alloc { .. }) => false,
            }
    }

    /// The set after the edge `edge` from a state described by `set` (for a
    /// return edge, `caller` is the set at its call site).
    fn transfer(
        &self,
        p: &Program,
        edge: &cfa::Edge,
        set: &BTreeSet<VarId>,
        caller: Option<&BTreeSet<VarId>>,
    ) -> BTreeSet<VarId> {
        let mut out = set.clone();
        match &edge.kind {
            // A store changes memory (frozen or concrete), no variable.
            EdgeKind::Store { .. } | EdgeKind::Free { .. } => {}
            EdgeKind::Declare { var, init } => {
                out.remove(var);
                if self.rhs_is_abstract(set, *var, init.as_ref()) {
                    out.insert(*var);
                }
            }
            EdgeKind::Assign { var, rhs } => {
                out.remove(var);
                if self.rhs_is_abstract(set, *var, Some(rhs)) {
                    out.insert(*var);
                }
            }
            EdgeKind::Call { callee, args, .. } => {
                let f = p.function(*callee);
                out = set.iter().copied().filter(|v| p.variable(*v).is_global()).collect();
                for (param, arg) in f.params.iter().zip(args) {
                    if Abstractness::reads_abstract(set, arg) || self.lifted.contains(param) {
                        out.insert(*param);
                    }
                }
                // The return slot is unset until a `return`: an input.
                if let Some(r) = f.ret {
                    if self.lift_inputs || self.lifted.contains(&r) {
                        out.insert(r);
                    }
                }
            }
            EdgeKind::ReturnStatement { value } => {
                if let Some(r) = p.return_slot_at(edge.source) {
                    out.remove(&r);
                    if value.as_ref().is_some_and(|e| Abstractness::reads_abstract(set, e)) || self.lifted.contains(&r) {
                        out.insert(r);
                    }
                }
            }
            EdgeKind::Return { callee, result, .. } => {
                let ret_abstract = p.function(*callee).ret.is_some_and(|r| set.contains(&r));
                out = set.iter().copied().filter(|v| p.variable(*v).is_global()).collect();
                if let Some(c) = caller {
                    out.extend(c.iter().copied().filter(|v| !p.variable(*v).is_global()));
                }
                if let Some(res) = result {
                    out.remove(res);
                    if ret_abstract || self.lifted.contains(res) {
                        out.insert(*res);
                    }
                }
            }
            EdgeKind::Blank | EdgeKind::Assume { .. } | EdgeKind::Terminate | EdgeKind::ReachError => {}
        }
        out
    }
}

/// Runs value propagation on `program` (see the module docs); an error
/// names a `--lift` variable the program does not have.
pub fn propagate(program: &Program, options: &Options) -> Result<Abstractness, String> {
    let lifted = options.lifted_variables(program)?;
    let lift_inputs = options.lifts_inputs();
    let a = fixpoint(program, Abstractness { at: Vec::new(), lifted: lifted.clone(), lift_inputs, memory_abstract: lift_inputs });
    if a.memory_abstract || !stores_abstract(program, &a) {
        return Ok(a);
    }
    // Some store freezes an abstract value: loads may thaw one.
    Ok(fixpoint(program, Abstractness { at: Vec::new(), lifted, lift_inputs, memory_abstract: true }))
}

/// Whether some `Store` edge may store an abstract value.
fn stores_abstract(program: &Program, a: &Abstractness) -> bool {
    program.edges.iter().any(|e| match &e.kind {
        EdgeKind::Store { value, .. } => Abstractness::reads_abstract(a.at(e.source), value),
        _ => false,
    })
}

fn fixpoint(program: &Program, mut a: Abstractness) -> Abstractness {
    a.at = vec![BTreeSet::new(); program.nodes.len()];
    let mut work: VecDeque<NodeId> = program.nodes.iter().map(|n| n.id).collect();
    let mut queued = vec![true; program.nodes.len()];
    while let Some(n) = work.pop_front() {
        queued[n.0 as usize] = false;
        let set = a.at(n).clone();
        for e in program.successors(n) {
            let caller = match &e.kind {
                EdgeKind::Return { call_site, .. } => Some(a.at(*call_site).clone()),
                _ => None,
            };
            let out = a.transfer(program, e, &set, caller.as_ref());
            let t = e.target.0 as usize;
            if !out.is_subset(&a.at[t]) {
                a.at[t].extend(out);
                if !queued[t] {
                    queued[t] = true;
                    work.push_back(e.target);
                }
            }
        }
        // This call site's set changed: the callee's return edges into
        // its return site read it.
        for e in program.successors(n) {
            if let EdgeKind::Call { callee, .. } = &e.kind {
                let exit = program.function(*callee).exit;
                if !queued[exit.0 as usize] {
                    queued[exit.0 as usize] = true;
                    work.push_back(exit);
                }
            }
        }
    }
    a
}

/// The set after `edge` as the explorer's transformed edge leaves it, for
/// the transformation (see [`Abstractness`]): exposed for
/// [`crate::program`], which compares it with the target's set to place
/// join-point lifts.
pub fn after_edge(a: &Abstractness, program: &Program, edge: &cfa::Edge) -> BTreeSet<VarId> {
    let caller = match &edge.kind {
        EdgeKind::Return { call_site, .. } => Some(a.at(*call_site).clone()),
        _ => None,
    };
    a.transfer(program, edge, a.at(edge.source), caller.as_ref())
}
