//! The explorer's state: explicit control (location and call stack),
//! concrete data, and abstract values as the domain holds them.
//!
//! Locals live in their call's frame; globals are *memory*: a concrete slot
//! per global, and a shadow map holding the abstract value frozen into a
//! global (its concrete slot keeps its place, holding 0). For the term
//! domain, the path's symbols and path condition come along
//! ([`transform::term::PathTerms`]).
//!
//! Memory (arrays, structs, heap) is the interpreter's memory model
//! ([`concrete::memory::Memory`]: objects, checked accesses, concrete
//! cells), plus a shadow map keyed by cell address (object and offset): a
//! cell holding a frozen abstract value keeps a placeholder 0 in memory and
//! the value in [`XState::cell_shadow`].

use crate::state_view::{ComponentView, StateView, SymbolicBinding, ViewContent};
use cfa::{FuncId, NodeId, Program, VarId};
use concrete::memory::{object_of, Cell, Memory, MemoryError};
use std::collections::BTreeMap;
use transform::term::PathTerms;
use transform::value::TermValue;
use transform::AbsValue;

/// A value at run time: concrete, or abstract in the run's domain.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Val {
    /// A concrete value.
    C(i128),
    /// An abstract value.
    A(AbsValue),
}

/// One active call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The function running.
    pub function: FuncId,
    /// The node the call left from (`None` for `main`).
    pub call_site: Option<NodeId>,
    /// Its parameters and locals that hold a value.
    pub values: BTreeMap<VarId, Val>,
}

/// One state of the explorer (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XState {
    /// The location.
    pub node: NodeId,
    /// The active calls, `main`'s first.
    pub frames: Vec<Frame>,
    /// The globals' concrete slots.
    pub memory: BTreeMap<VarId, i128>,
    /// The shadow map: abstract values frozen into globals.
    pub shadow: BTreeMap<VarId, AbsValue>,
    /// The memory objects and their concrete cells.
    pub objects: Memory,
    /// The shadow map of memory: per cell address, the cell's size and
    /// the abstract value frozen into it.
    pub cell_shadow: BTreeMap<i128, (u64, AbsValue)>,
    /// Term domain: the path's symbols and path condition.
    pub path: PathTerms,
    /// Concrete-only configuration: how many inputs of the list were read.
    pub inputs_read: usize,
}

/// A frame as the control key sees it: function, call site, and each
/// variable's concrete value (`None`: abstract).
type FrameKey = (FuncId, Option<NodeId>, Vec<(VarId, Option<i128>)>);

/// What two states must share to be compared at all: control, concrete
/// data and which variables are abstract (the abstract values themselves
/// are compared by the domain: equality, or the term domain's solver
/// check).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ControlKey {
    node: NodeId,
    frames: Vec<FrameKey>,
    memory: Vec<(VarId, i128)>,
    shadow: Vec<VarId>,
    objects: Memory,
    cell_shadow: Vec<i128>,
    inputs_read: usize,
}

impl XState {
    /// The state at `main`'s entry.
    pub fn initial(program: &Program) -> XState {
        let main = program.main_function();
        XState {
            node: main.entry,
            frames: vec![Frame { function: main.id, call_site: None, values: BTreeMap::new() }],
            memory: BTreeMap::new(),
            shadow: BTreeMap::new(),
            objects: Memory::default(),
            cell_shadow: BTreeMap::new(),
            path: PathTerms::default(),
            inputs_read: 0,
        }
    }

    /// The value of `var` (`None`: it holds none yet).
    pub fn get(&self, program: &Program, var: VarId) -> Option<Val> {
        if program.variable(var).is_global() {
            if let Some(a) = self.shadow.get(&var) {
                return Some(Val::A(a.clone()));
            }
            self.memory.get(&var).map(|v| Val::C(*v))
        } else {
            self.frames.last().and_then(|f| f.values.get(&var).cloned())
        }
    }

    /// Stores `value` into `var`: a concrete value is converted to the
    /// variable's type; an abstract one stored into a global is frozen.
    pub fn set(&mut self, program: &Program, model: minic::IntModel, var: VarId, value: Val) {
        let v = program.variable(var);
        let value = match value {
            Val::C(c) => Val::C(v.ty.convert(c, model)),
            a => a,
        };
        if v.is_global() {
            match value {
                Val::C(c) => {
                    self.shadow.remove(&var);
                    self.memory.insert(var, c);
                }
                Val::A(a) => {
                    self.memory.insert(var, 0);
                    self.shadow.insert(var, a);
                }
            }
        } else if let Some(f) = self.frames.last_mut() {
            f.values.insert(var, value);
        }
    }

    /// Makes `var` hold no value (a declaration without initializer).
    pub fn unset(&mut self, program: &Program, var: VarId) {
        if program.variable(var).is_global() {
            self.memory.remove(&var);
            self.shadow.remove(&var);
        } else if let Some(f) = self.frames.last_mut() {
            f.values.remove(&var);
        }
    }

    /// The call sites of the active calls, outermost first.
    pub fn call_stack(&self) -> Vec<NodeId> {
        self.frames.iter().filter_map(|f| f.call_site).collect()
    }

    /// See [`ControlKey`].
    pub fn control_key(&self) -> ControlKey {
        let frames = self
            .frames
            .iter()
            .map(|f| {
                let vals = f
                    .values
                    .iter()
                    .map(|(k, v)| match v {
                        Val::C(c) => (*k, Some(*c)),
                        Val::A(_) => (*k, None),
                    })
                    .collect();
                (f.function, f.call_site, vals)
            })
            .collect();
        ControlKey {
            node: self.node,
            frames,
            memory: self.memory.iter().map(|(k, v)| (*k, *v)).collect(),
            shadow: self.shadow.keys().copied().collect(),
            objects: self.objects.clone(),
            cell_shadow: self.cell_shadow.keys().copied().collect(),
            inputs_read: self.inputs_read,
        }
    }

    /// Every abstract value with where it is (frame index or global), in a
    /// fixed order: what the domain compares between states with the same
    /// [`ControlKey`].
    pub fn abstract_values(&self) -> Vec<&AbsValue> {
        let mut out: Vec<&AbsValue> = Vec::new();
        for f in &self.frames {
            out.extend(f.values.values().filter_map(|v| match v {
                Val::A(a) => Some(a),
                Val::C(_) => None,
            }));
        }
        out.extend(self.shadow.values());
        out.extend(self.cell_shadow.values().map(|(_, a)| a));
        out
    }

    /// Reads the `bytes`-wide cell at `addr`: its frozen abstract value
    /// (thaw), else its concrete value; `None` for a cell nobody wrote.
    pub fn load_cell(&mut self, addr: i128, bytes: u64) -> Result<Option<Val>, MemoryError> {
        Ok(match self.objects.load(addr, bytes)? {
            Cell::Value(v) => Some(match self.cell_shadow.get(&addr) {
                Some((b, a)) if *b == bytes => Val::A(a.clone()),
                _ => Val::C(v),
            }),
            Cell::Unwritten => None,
        })
    }

    /// Writes `value` to the `bytes`-wide cell at `addr`: a concrete value
    /// goes to memory and clears the shadow entries the cell overlaps; an
    /// abstract one is frozen (a placeholder 0 in memory, the value in the
    /// cell's shadow entry).
    pub fn store_cell(&mut self, addr: i128, bytes: u64, value: Val) -> Result<(), MemoryError> {
        let placeholder = match &value {
            Val::C(c) => *c,
            Val::A(_) => 0,
        };
        self.objects.store(addr, bytes, placeholder)?;
        let end = addr + bytes.max(1) as i128;
        let stale: Vec<i128> = self
            .cell_shadow
            .range(addr - 7..end)
            .filter(|(k, (b, _))| **k + (*b).max(1) as i128 > addr)
            .map(|(k, _)| *k)
            .collect();
        for k in stale {
            self.cell_shadow.remove(&k);
        }
        if let Val::A(a) = value {
            self.cell_shadow.insert(addr, (bytes, a));
        }
        Ok(())
    }

    /// Frees the heap block at `addr` with its shadow entries.
    pub fn free(&mut self, addr: i128) -> Result<(), MemoryError> {
        self.objects.free(addr)?;
        let object = object_of(addr);
        self.cell_shadow.retain(|k, _| object_of(*k) != object);
        Ok(())
    }

    /// The terms of the abstract values (term domain), in
    /// [`XState::abstract_values`]' order.
    pub fn terms(&self) -> Vec<smt::Term> {
        self.abstract_values()
            .into_iter()
            .filter_map(|a| match a {
                AbsValue::Term(TermValue(t)) => Some(t.clone()),
                _ => None,
            })
            .collect()
    }

    /// What the trace shows of the state: location, call stack, the memory
    /// (each variable concrete or abstract, frozen globals marked) and, for
    /// terms, the path condition.
    pub fn view(&self, program: &Program, domain: &str) -> StateView {
        let mut memory = Vec::new();
        let binding = |var: VarId, value: &Val, frozen: bool| {
            let v = program.variable(var);
            let (text, constant) = match value {
                Val::C(c) => (c.to_string(), Some(*c)),
                Val::A(a) => (format!("{a}{}", if frozen { " (frozen)" } else { "" }), None),
            };
            SymbolicBinding { var, name: v.qualified.clone(), value: text, constant }
        };
        for (k, c) in &self.memory {
            match self.shadow.get(k) {
                Some(a) => memory.push(binding(*k, &Val::A(a.clone()), true)),
                None => memory.push(binding(*k, &Val::C(*c), false)),
            }
        }
        if let Some(f) = self.frames.last() {
            memory.extend(f.values.iter().map(|(k, v)| binding(*k, v, false)));
        }
        let mut components = vec![
            ComponentView { cpa: "LocationCPA".into(), content: ViewContent::Location { node: self.node } },
            ComponentView { cpa: "CallstackCPA".into(), content: ViewContent::Callstack { call_sites: self.call_stack() } },
            ComponentView {
                cpa: format!("TransformExplorer({domain})"),
                content: ViewContent::SymbolicValues { values: memory },
            },
        ];
        if !self.path.condition.is_empty() {
            components.push(ComponentView {
                cpa: "PathCondition".into(),
                content: ViewContent::Constraints { constraints: self.path.condition.iter().map(|t| t.pretty()).collect() },
            });
        }
        StateView { components }
    }
}
