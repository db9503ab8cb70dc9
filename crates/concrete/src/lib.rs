//! # concrete — the concrete interpreter over CFAs
//!
//! Runs one path of a [`cfa::Program`] from `main`'s entry with concrete
//! integers: the ground truth the analyses are measured against. In CPA
//! terms, an execution is a sequence of *concrete states* (location, call
//! stack, variable values); an analysis is sound when every concrete state it
//! can reach is covered by some abstract state in its reached set, which is
//! why [`Options::record_states`] exists.
//!
//! ## Semantics
//!
//! * Expressions are evaluated with [`cfa::Expr::eval`], the same code the
//!   value analysis uses, under the chosen [`IntModel`].
//! * At a location, the enabled outgoing edge is taken. Assume edges decide
//!   branches; exactly one edge must be enabled. When none is (only possible
//!   after `__VERIFIER_assume(e)` with a false `e`), the path is infeasible:
//!   [`Outcome::AssumeFailed`].
//! * Calls push a frame (so recursion works); the return edge matching the
//!   call site pops it and copies the return slot into the result variable.
//! * **Inputs**: every `Rhs::Nondet(ty)` and every *read* of a variable that
//!   holds no value yet (a local declared without initializer, or the return
//!   slot of a function that fell off its end) takes the next value from the
//!   [`InputSource`]. The value is converted to the type with
//!   [`IntType::convert`]: under `c` it wraps into the type's range; under
//!   `math` it is used as given (only `_Bool` normalizes to 0/1). Sources
//!   that want "a value of the type" under `math` too should produce values
//!   in the type's range, as [`RandomInputs`] does.
//! * Division by zero, a bad shift or a 128-bit overflow stops the run with
//!   [`Outcome::UndefinedOperation`] at that edge.
//! * **Memory** (`memory.rs`): objects with ids and sizes; a pointer is the
//!   integer `id·2³² + offset`. Loads, stores and `free` are checked; an
//!   invalid one stops the run with [`Outcome::MemoryError`] at that edge
//!   (it is not the property checked, and no value is invented). A load of
//!   a cell never written takes the next input (0 in zeroed objects:
//!   globals, `calloc`). Objects of locals are not freed when their
//!   function returns (a dangling pointer to a returned local is not
//!   detected).

#![warn(missing_docs)]

pub mod accelerate;
pub mod memory;

pub use accelerate::{execute_accelerated, AcceleratedExecution, Jump};
pub use memory::MemoryError;

use cfa::{EdgeId, EdgeKind, EvalError, Expr, FuncId, NodeId, NodeKind, Program, Rhs, VarId, VarScope};
use minic::types::{IntModel, IntType};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use xorshift::XorShift;

/// Where nondeterministic values come from.
pub trait InputSource {
    /// The next input for a value of type `ty`, or `None` when exhausted.
    fn next_input(&mut self, ty: IntType) -> Option<i128>;
}

/// Inputs from a fixed list, in order; exhausted at its end.
#[derive(Clone, Debug, Default)]
pub struct SliceInputs {
    values: Vec<i128>,
    pos: usize,
}

impl SliceInputs {
    /// A source that yields `values` one after another.
    pub fn new(values: impl Into<Vec<i128>>) -> Self {
        SliceInputs { values: values.into(), pos: 0 }
    }
    /// How many values have been taken.
    pub fn used(&self) -> usize {
        self.pos
    }
}

impl InputSource for SliceInputs {
    fn next_input(&mut self, _ty: IntType) -> Option<i128> {
        let v = self.values.get(self.pos).copied()?;
        self.pos += 1;
        Some(v)
    }
}

/// Inputs from a closure (never exhausted).
pub struct FnInputs<F: FnMut(IntType) -> i128>(pub F);

impl<F: FnMut(IntType) -> i128> InputSource for FnInputs<F> {
    fn next_input(&mut self, ty: IntType) -> Option<i128> {
        Some((self.0)(ty))
    }
}

/// Pseudo-random inputs within each type's C range, biased toward small
/// values and the range's ends (a deterministic xorshift generator: the same
/// seed gives the same run).
#[derive(Clone, Debug)]
pub struct RandomInputs {
    rng: XorShift,
}

impl RandomInputs {
    /// A generator with this seed.
    pub fn new(seed: u64) -> Self {
        RandomInputs { rng: XorShift::scrambled(seed) }
    }
}

impl InputSource for RandomInputs {
    fn next_input(&mut self, ty: IntType) -> Option<i128> {
        let (lo, hi) = (ty.min_value(), ty.max_value());
        let r = self.rng.next_u64();
        let v = match r % 8 {
            0 => lo,
            1 => hi,
            2..=5 => (self.rng.next_u64() % 21) as i128 - 10,
            _ => lo + (self.rng.next_u64() as i128).rem_euclid(hi - lo + 1),
        };
        Some(v.clamp(lo, hi))
    }
}

/// How to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// The integer semantics (`math` or `c`).
    pub model: IntModel,
    /// At most this many edges are taken; then [`Outcome::StepLimit`].
    pub max_steps: usize,
    /// Record every visited concrete state in [`Execution::states`].
    pub record_states: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { model: IntModel::C, max_steps: 100_000, record_states: false }
    }
}

/// How an execution ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Outcome {
    /// The error location was reached: the property is violated on this path.
    ReachedError {
        /// The error node.
        node: NodeId,
    },
    /// `main` returned (`value` is `None` for a `void` main or when main
    /// fell off its end without a `return`).
    Returned {
        /// `main`'s return value.
        value: Option<i128>,
    },
    /// `abort()` or `exit(e)` ended the path (no error).
    Terminated {
        /// The terminal node after the `abort()`/`exit(e)` edge.
        node: NodeId,
    },
    /// No outgoing edge was enabled: a `__VERIFIER_assume` condition was
    /// false, so this path is not a real execution.
    AssumeFailed {
        /// The location where no edge was enabled.
        node: NodeId,
    },
    /// An input was needed but the source had none left.
    InputsExhausted {
        /// The edge that needed the input.
        edge: EdgeId,
    },
    /// `max_steps` edges were taken without the program ending.
    StepLimit {
        /// The number of edges taken.
        steps: usize,
    },
    /// Division by zero, a bad shift amount or an overflow of 128 bits.
    UndefinedOperation {
        /// The edge whose expression has no defined value.
        edge: EdgeId,
        /// What went wrong.
        error: EvalError,
    },
    /// An invalid memory access: null or dangling pointer, out of bounds,
    /// use after free, double or invalid free. Not the property checked;
    /// the path simply has no defined continuation.
    MemoryError {
        /// The edge whose access failed.
        edge: EdgeId,
        /// What went wrong.
        error: MemoryError,
    },
    /// The CFA itself is malformed here (several enabled edges, or a
    /// location without successors that is neither error, terminal nor exit).
    Stuck {
        /// Where.
        node: NodeId,
        /// Why, in words.
        reason: String,
    },
}

impl fmt::Display for Outcome {
    /// One line a student can read, e.g. `reached the error location N7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::ReachedError { node } => write!(f, "reached the error location {node}"),
            Outcome::Returned { value: Some(v) } => write!(f, "main returned {v}"),
            Outcome::Returned { value: None } => write!(f, "main returned"),
            Outcome::Terminated { node } => write!(f, "terminated by abort/exit at {node}"),
            Outcome::AssumeFailed { node } => write!(f, "path infeasible: an assumption is false at {node}"),
            Outcome::InputsExhausted { edge } => write!(f, "ran out of inputs (edge {})", edge.0),
            Outcome::StepLimit { steps } => write!(f, "step limit reached after {steps} steps"),
            Outcome::UndefinedOperation { edge, error } => {
                write!(f, "undefined operation: {error} (edge {})", edge.0)
            }
            Outcome::MemoryError { edge, error } => write!(f, "memory error: {error} (edge {})", edge.0),
            Outcome::Stuck { node, reason } => write!(f, "stuck at {node}: {reason}"),
        }
    }
}

/// A concrete state: a location, the call stack (call-site nodes, outermost
/// first) and the values of the variables in scope (globals and the current
/// frame's initialized variables), sorted by variable id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConcreteState {
    /// The program location.
    pub node: NodeId,
    /// The call sites of the active calls, outermost first (empty in `main`).
    pub call_stack: Vec<NodeId>,
    /// Globals and the current frame's variables that hold a value.
    pub values: BTreeMap<VarId, i128>,
}

/// One input taken during the run: where and what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputUse {
    /// The edge being taken when the input was needed.
    pub edge: EdgeId,
    /// The variable that received it.
    pub var: Option<VarId>,
    /// The value, converted to the variable's type.
    pub value: i128,
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Execution {
    /// How the run ended.
    pub outcome: Outcome,
    /// Every edge taken, in order.
    pub path: Vec<EdgeId>,
    /// The inputs taken (after conversion to their type).
    pub inputs: Vec<InputUse>,
    /// Globals and `main`'s variables at the end (those holding a value).
    pub final_values: BTreeMap<VarId, i128>,
    /// The visited states, if [`Options::record_states`] was set: the
    /// initial state, then the state after each edge.
    pub states: Vec<ConcreteState>,
}

#[derive(Clone)]
struct Frame {
    function: FuncId,
    call_site: Option<NodeId>,
    values: BTreeMap<VarId, i128>,
}

enum Stop {
    Inputs,
    Undefined(EvalError),
    Memory(MemoryError),
}

struct Machine<'p, 'i> {
    program: &'p Program,
    model: IntModel,
    input: &'i mut dyn InputSource,
    globals: BTreeMap<VarId, i128>,
    frames: Vec<Frame>,
    inputs: Vec<InputUse>,
    memory: memory::Memory,
    /// Whether some assignment converted its value (a wrap-around).
    converted: bool,
}

impl Machine<'_, '_> {
    fn is_global(&self, v: VarId) -> bool {
        self.program.variable(v).scope == VarScope::Global
    }

    fn get(&self, v: VarId) -> Option<i128> {
        if self.is_global(v) {
            self.globals.get(&v).copied()
        } else {
            self.frames.last().and_then(|f| f.values.get(&v).copied())
        }
    }

    fn set(&mut self, v: VarId, raw: i128) {
        let value = self.program.variable(v).ty.convert(raw, self.model);
        self.converted |= value != raw;
        if self.is_global(v) {
            self.globals.insert(v, value);
        } else if let Some(f) = self.frames.last_mut() {
            f.values.insert(v, value);
        }
    }

    fn unset(&mut self, v: VarId) {
        if self.is_global(v) {
            self.globals.remove(&v);
        } else if let Some(f) = self.frames.last_mut() {
            f.values.remove(&v);
        }
    }

    fn take_input(&mut self, edge: EdgeId, var: Option<VarId>, ty: IntType) -> Result<i128, Stop> {
        let raw = self.input.next_input(ty).ok_or(Stop::Inputs)?;
        let value = ty.convert(raw, self.model);
        self.inputs.push(InputUse { edge, var, value });
        Ok(value)
    }

    /// Evaluates `e` in the current frame; variables without a value take an input first.
    fn eval(&mut self, edge: EdgeId, e: &Expr) -> Result<i128, Stop> {
        for v in e.variables() {
            if self.get(v).is_none() {
                let ty = self.program.variable(v).ty;
                let x = self.take_input(edge, Some(v), ty)?;
                self.set(v, x);
            }
        }
        let mut lookup = |v: VarId| self.get(v);
        match e.eval(self.model, &mut lookup) {
            Ok(Some(x)) => Ok(x),
            Ok(None) => Err(Stop::Inputs), // unreachable: every variable has a value
            Err(err) => Err(Stop::Undefined(err)),
        }
    }

    fn rhs(&mut self, edge: EdgeId, var: VarId, rhs: &Rhs) -> Result<i128, Stop> {
        match rhs {
            Rhs::Expr(e) => self.eval(edge, e),
            Rhs::Nondet(ty) => self.take_input(edge, Some(var), *ty),
            Rhs::Load { addr, ty, bytes, .. } => {
                let a = self.eval(edge, addr)?;
                match self.memory.load(a, *bytes).map_err(Stop::Memory)? {
                    memory::Cell::Value(v) => Ok(v),
                    memory::Cell::Unwritten => {
                        let v = self.take_input(edge, Some(var), *ty)?;
                        self.memory.store(a, *bytes, v).map_err(Stop::Memory)?;
                        Ok(v)
                    }
                }
            }
            Rhs::Alloc { size, zeroed, heap } => {
                let n = self.eval(edge, size)?;
                self.memory.alloc(n, *zeroed, *heap).map_err(Stop::Memory)
            }
        }
    }

    /// Takes `edge` out of the location `n` (its effect on values, frames
    /// and memory): the edge's target, or why it has no defined effect.
    fn take(&mut self, n: &cfa::Node, edge: &cfa::Edge) -> Result<NodeId, Stop> {
        let id = edge.id;
        let program = self.program;
        match &edge.kind {
            EdgeKind::Blank | EdgeKind::Assume { .. } | EdgeKind::Terminate | EdgeKind::ReachError => {}
            EdgeKind::Declare { var, init } => match init {
                None => self.unset(*var),
                Some(rhs) => {
                    let v = self.rhs(id, *var, rhs)?;
                    self.set(*var, v);
                }
            },
            EdgeKind::Assign { var, rhs } => {
                let v = self.rhs(id, *var, rhs)?;
                self.set(*var, v);
            }
            EdgeKind::Store { addr, value, bytes, .. } => {
                let a = self.eval(id, addr)?;
                let v = self.eval(id, value)?;
                self.memory.store(a, *bytes, v).map_err(Stop::Memory)?;
            }
            EdgeKind::Free { addr } => {
                let a = self.eval(id, addr)?;
                self.memory.free(a).map_err(Stop::Memory)?;
            }
            EdgeKind::ReturnStatement { value } => {
                if let Some(e) = value {
                    let v = self.eval(id, e)?;
                    if let Some(r) = program.function(n.function).ret {
                        self.set(r, v);
                    }
                }
            }
            EdgeKind::Call { callee, args, .. } => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(id, a)?);
                }
                self.frames.push(Frame { function: *callee, call_site: Some(n.id), values: BTreeMap::new() });
                for (p, v) in program.function(*callee).params.iter().zip(vals) {
                    self.set(*p, v);
                }
            }
            EdgeKind::Return { callee, result, .. } => {
                let ret = program.function(*callee).ret;
                let value = match (result, ret) {
                    (Some(_), Some(r)) => match self.get(r) {
                        Some(v) => Some(v),
                        None => Some(self.take_input(id, Some(r), program.variable(r).ty)?),
                    },
                    _ => None,
                };
                self.frames.pop();
                if let (Some(res), Some(v)) = (result, value) {
                    self.set(*res, v);
                }
            }
        }
        Ok(edge.target)
    }

    /// The globals' and the current frame's values.
    fn top_values(&self) -> BTreeMap<VarId, i128> {
        let mut values = self.globals.clone();
        if let Some(f) = self.frames.last() {
            values.extend(f.values.iter().map(|(k, v)| (*k, *v)));
        }
        values
    }

    fn snapshot(&self, node: NodeId) -> ConcreteState {
        ConcreteState { node, call_stack: self.frames.iter().filter_map(|f| f.call_site).collect(), values: self.top_values() }
    }
}

/// Runs `program` from `main`'s entry, taking nondeterministic values from
/// `input`. Never panics and always ends (at the latest after
/// `options.max_steps` edges).
pub fn execute(program: &Program, input: &mut dyn InputSource, options: Options) -> Execution {
    run(program, input, options, None)
}

/// [`execute`], with `accelerator` (when given) shown every visit of a loop
/// head, where it may jump over many iterations at once.
fn run(
    program: &Program,
    input: &mut dyn InputSource,
    options: Options,
    mut accelerator: Option<&mut accelerate::Accelerator>,
) -> Execution {
    let main = program.main_function();
    let mut m = Machine {
        program,
        model: options.model,
        input,
        globals: BTreeMap::new(),
        frames: vec![Frame { function: main.id, call_site: None, values: BTreeMap::new() }],
        inputs: Vec::new(),
        memory: memory::Memory::default(),
        converted: false,
    };
    let mut node = main.entry;
    let mut path = Vec::new();
    let mut states = Vec::new();
    if options.record_states {
        states.push(m.snapshot(node));
    }
    let outcome = loop {
        let n = program.node(node);
        if n.error {
            break Outcome::ReachedError { node };
        }
        if n.kind == NodeKind::Terminal {
            break Outcome::Terminated { node };
        }
        if n.kind == NodeKind::Exit && m.frames.len() == 1 {
            let value = program.function(n.function).ret.and_then(|r| m.get(r));
            break Outcome::Returned { value };
        }
        if path.len() >= options.max_steps {
            break Outcome::StepLimit { steps: path.len() };
        }
        if n.loop_head {
            if let Some(a) = accelerator.as_deref_mut() {
                a.visit(&mut m, node, &path);
            }
        }
        // Pick the enabled edge.
        let mut enabled = Vec::new();
        let mut stop = None;
        for e in program.successors(node) {
            let on = match &e.kind {
                EdgeKind::Assume { cond, positive } => match m.eval(e.id, cond) {
                    Ok(v) => (v != 0) == *positive,
                    Err(s) => {
                        stop = Some((e.id, s));
                        break;
                    }
                },
                EdgeKind::Return { call_site, .. } => m.frames.last().and_then(|f| f.call_site) == Some(*call_site),
                _ => true,
            };
            if on {
                enabled.push(e);
            }
        }
        if let Some((edge, s)) = stop {
            break match s {
                Stop::Inputs => Outcome::InputsExhausted { edge },
                Stop::Undefined(error) => Outcome::UndefinedOperation { edge, error },
                Stop::Memory(error) => Outcome::MemoryError { edge, error },
            };
        }
        let edge = match enabled.as_slice() {
            [e] => *e,
            [] if n.outgoing.is_empty() => break Outcome::Stuck { node, reason: "location without successors".into() },
            [] if program.successors(node).all(|e| matches!(e.kind, EdgeKind::Assume { .. })) => {
                break Outcome::AssumeFailed { node }
            }
            [] => break Outcome::Stuck { node, reason: "no edge is enabled".into() },
            _ => break Outcome::Stuck { node, reason: "more than one edge is enabled".into() },
        };
        // Take it.
        let id = edge.id;
        let result = m.take(n, edge);
        match result {
            Ok(next) => {
                path.push(id);
                node = next;
                if options.record_states {
                    states.push(m.snapshot(node));
                }
            }
            Err(Stop::Inputs) => break Outcome::InputsExhausted { edge: id },
            Err(Stop::Undefined(error)) => break Outcome::UndefinedOperation { edge: id, error },
            Err(Stop::Memory(error)) => break Outcome::MemoryError { edge: id, error },
        }
    };
    let mut final_values = m.globals.clone();
    if let Some(f) = m.frames.first() {
        debug_assert_eq!(f.function, program.main);
        final_values.extend(f.values.iter().map(|(k, v)| (*k, *v)));
    }
    Execution { outcome, path, inputs: m.inputs, final_values, states }
}
