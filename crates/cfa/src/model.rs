//! The CFA data model: ids, variables, functions, nodes and edges.

use crate::expr::Expr;
use minic::types::IntType;
use minic::{Diagnostic, Span};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A CFA node (program location). Displayed as `N<k>`, as in CPAchecker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NodeId(pub u32);

/// A CFA edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EdgeId(pub u32);

/// A program variable (global, local, parameter, return slot or temporary).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VarId(pub u32);

/// A function of the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FuncId(pub u32);

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "N{}", self.0)
    }
}

/// Where a variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "function")]
pub enum VarScope {
    Global,
    Local(FuncId),
    Param(FuncId),
    /// The slot `return e;` writes and the caller reads (`f::__retval`).
    Return(FuncId),
    /// A temporary introduced by lowering (`main::__tmp0`), e.g. for a call
    /// inside an expression or the value of `a && b`.
    Temp(FuncId),
}

/// A variable of the program with its source name and type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variable {
    pub id: VarId,
    /// The name as written (`x`), or the synthetic name (`__tmp0`, `__retval`).
    pub name: String,
    /// Unique across the program: `x` for globals, `main::x` for locals.
    /// Shadowed locals in inner blocks get a suffix (`main::x#1`).
    pub qualified: String,
    pub ty: IntType,
    pub scope: VarScope,
    /// Where it was declared (absent for synthetic variables).
    pub span: Option<Span>,
    /// The C type when the variable is not a plain integer scalar: a
    /// pointer (its value is an address, IR type [`POINTER_TYPE`]), or the
    /// type of the object of a variable that lives in memory (see `in_memory`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ctype: Option<minic::CType>,
    /// The variable lives in memory (an array, a struct, or a variable whose
    /// address is taken): the CFA variable holds the address of its object,
    /// and reads and writes of it are loads and stores.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_memory: bool,
}

impl Variable {
    pub fn is_global(&self) -> bool {
        self.scope == VarScope::Global
    }
}

/// A function's CFA: its entry and exit nodes and its variables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Function {
    pub id: FuncId,
    pub name: String,
    pub entry: NodeId,
    /// Every `return` and the end of the body lead here.
    pub exit: NodeId,
    pub params: Vec<VarId>,
    /// The return slot; `None` for `void` functions.
    pub ret: Option<VarId>,
    /// Locals and temporaries of this function (not parameters).
    pub locals: Vec<VarId>,
    pub span: Span,
}

impl Function {
    /// The variables of one activation of the function — parameters,
    /// locals, then the return slot: what the analyses save in a frame at a
    /// call and restore at the return, so recursion keeps activations apart.
    pub fn frame_variables(&self) -> Vec<VarId> {
        self.params.iter().chain(self.locals.iter()).chain(self.ret.iter()).copied().collect()
    }
}

/// What kind of location a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// A function's entry.
    Entry,
    /// A function's exit (after `return`).
    Exit,
    /// Any other location.
    Normal,
    /// The end of a path after `abort()` / `exit(e)`: no successors, no error.
    Terminal,
}

/// A program location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    pub id: NodeId,
    pub function: FuncId,
    pub kind: NodeKind,
    /// A loop head: the target of a back edge in a depth-first search from
    /// the function entry (covers `while`, `for`, `do`, and `goto` loops).
    /// merge-only-at-loop-heads and widening act here.
    pub loop_head: bool,
    /// The error location (unreach-call property): reaching it is a violation.
    /// It has no outgoing edges.
    pub error: bool,
    /// Source line the location belongs to (first line of the next statement).
    pub line: u32,
    pub outgoing: Vec<EdgeId>,
    pub incoming: Vec<EdgeId>,
}

/// The right-hand side of an assignment.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rhs {
    Expr(Expr),
    /// An arbitrary value of the type: `__VERIFIER_nondet_*()` or a call to a
    /// declared but undefined function (`systemCall()`).
    Nondet(IntType),
    /// The value of type `ty` stored in memory at the address `addr` (`*p`,
    /// `a[i]`, `s.f`, `p->f` read): the analyses that do not model memory
    /// treat it as an arbitrary value of `ty`, like [`Rhs::Nondet`].
    /// `bytes`: the size of the object read (4 for a pointer, as ILP32's
    /// `sizeof`, though its IR type is 64 bits wide).
    /// `access`: which memory region the read falls into (for predicate
    /// analysis's memory model, [`MemAccess::region`]).
    Load {
        addr: Expr,
        ty: IntType,
        bytes: u64,
        #[serde(default)]
        access: MemAccess,
    },
    /// The address of a fresh memory object of `size` bytes (`malloc`,
    /// `calloc`, `alloca`, or the storage of an array, struct or
    /// address-taken variable). `zeroed`: its bytes start at 0 (`calloc`,
    /// globals); otherwise reading a cell before writing it gives an
    /// arbitrary value. `heap`: it may be passed to `free`. For analyses:
    /// an arbitrary non-null pointer.
    Alloc {
        size: Expr,
        zeroed: bool,
        heap: bool,
    },
}

impl Rhs {
    /// The IR type of the value when it is not an expression (`Nondet`,
    /// `Load`, `Alloc`): the analyses without a memory model give the
    /// assigned variable an arbitrary value of this type.
    pub fn havoc_type(&self) -> Option<IntType> {
        match self {
            Rhs::Expr(_) => None,
            Rhs::Nondet(t) | Rhs::Load { ty: t, .. } => Some(*t),
            Rhs::Alloc { .. } => Some(POINTER_TYPE),
        }
    }
}

/// What a load or store accesses, as the memory regions of predicate
/// analysis need it (Bornat–Burstall: a struct field whose address is
/// never taken cannot be reached by any other lvalue, so it can get a
/// memory region of its own).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MemAccess {
    /// The C type of the value read or written, as written (`int`,
    /// `struct node *`).
    pub ty: String,
    /// `struct S.f` when the lvalue is field `f` of `struct S` (`s.f`,
    /// `p->f`, `a[i].f`) and no `&….f` of a field named `f` occurs anywhere
    /// in the program; `None` otherwise (also for `*p`, `a[i]`, variables).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// How predicate analysis splits memory into regions
/// (`cpa.predicate.memoryRegions`): two lvalues in different regions are
/// assumed never to alias, so a write to one region leaves the others
/// unchanged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RegionModel {
    /// One region for all of memory: no aliasing assumption.
    Single,
    /// One region per C type of the accessed value (assumes a cell is
    /// always accessed at the same type).
    Type,
    /// Bornat–Burstall: a struct field whose address is never taken gets
    /// its own region `struct S.f`; everything else the region of its type.
    #[default]
    Bnb,
}

impl RegionModel {
    /// `SINGLE`, `TYPE` or `BNB` (the configuration spelling).
    pub fn name(self) -> &'static str {
        match self {
            RegionModel::Single => "SINGLE",
            RegionModel::Type => "TYPE",
            RegionModel::Bnb => "BNB",
        }
    }

    /// The setting spelled `s` (case-insensitive), if any.
    pub fn parse(s: &str) -> Option<RegionModel> {
        match s.to_ascii_uppercase().as_str() {
            "SINGLE" => Some(RegionModel::Single),
            "TYPE" => Some(RegionModel::Type),
            "BNB" => Some(RegionModel::Bnb),
            _ => None,
        }
    }
}

impl MemAccess {
    /// The name of the memory region this access falls into under `model`:
    /// `memory` (SINGLE), the type (`int`), or the field (`struct S.f`).
    pub fn region(&self, model: RegionModel) -> String {
        match (model, &self.field) {
            (RegionModel::Single, _) => "memory".to_string(),
            (RegionModel::Bnb, Some(f)) => f.clone(),
            _ if self.ty.is_empty() => "memory".to_string(),
            _ => self.ty.clone(),
        }
    }
}

impl MemAccess {
    /// For a field lvalue (`s.f`, `p->f`, `a[i].f`, text `lvalue`) that
    /// has no region of its own: the field's name. Under BNB such a field
    /// falls back to its type's region because the address of a field of
    /// that name is taken somewhere (`&s.f`). `None` for an own-region
    /// field, for `*p`, `a[i]` and variables, and for an untyped program
    /// (every access in one region, [`MemAccess::untyped`]).
    pub fn field_without_region(&self, lvalue: &str) -> Option<String> {
        if self.field.is_some() || self.untyped() {
            return None;
        }
        lvalue_member(lvalue).map(str::to_string)
    }

    /// Whether the lowering gave this access the untyped default (the
    /// program uses a `void *` other than a fresh allocation as a typed
    /// pointer, so one cell may be accessed at two types): it falls into
    /// the one region `memory` under every setting.
    pub fn untyped(&self) -> bool {
        self.ty.is_empty()
    }
}

/// The field an lvalue's text ends with (`f` of `p->f`, `s.f`,
/// `a[i].f`); `None` when its last step is not a field access (`*p`,
/// `a[i]`, `x`).
pub fn lvalue_member(lvalue: &str) -> Option<&str> {
    let t = lvalue.trim();
    let start = t.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    let (base, name) = t.split_at(start);
    let is_ident = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    (is_ident && (base.ends_with('.') || base.ends_with("->"))).then_some(name)
}

/// A load or store of the program: the lvalue an edge reads or writes in
/// memory, as the memory view lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemorySite<'a> {
    /// The edge that performs it.
    pub edge: EdgeId,
    /// Its source line.
    pub line: u32,
    /// The lvalue's source text (`p->f`, `a[i]`, `*q`, `s1.g`).
    pub lvalue: String,
    /// Whether the edge writes (a store) rather than reads (a load).
    pub store: bool,
    /// The type and own-region field of the access.
    pub access: &'a MemAccess,
}

impl Edge {
    /// The memory access this edge performs: a [`Rhs::Load`] (`tmp = p->f;`)
    /// or an [`EdgeKind::Store`] (`p->f = a;`), with the lvalue's text
    /// taken from the edge's label; `None` for every other edge.
    pub fn memory_site(&self) -> Option<MemorySite<'_>> {
        let (access, store) = match &self.kind {
            EdgeKind::Store { access, .. } => (access, true),
            EdgeKind::Assign { rhs: Rhs::Load { access, .. }, .. }
            | EdgeKind::Declare { init: Some(Rhs::Load { access, .. }), .. } => (access, false),
            _ => return None,
        };
        let label = self.label.trim().trim_end_matches(';');
        let split = label.split_once(" = ");
        let lvalue = match (split, store) {
            (Some((target, _)), true) => target,
            (Some((_, source)), false) => source,
            (None, _) => label,
        };
        Some(MemorySite { edge: self.id, line: self.line, lvalue: lvalue.trim().to_string(), store, access })
    }
}

/// The IR type of pointer values. A pointer is an integer `id·2³² + offset`
/// (object `id` ≥ 1, byte `offset` in it; NULL is 0), so comparisons and
/// arithmetic within an object are plain 64-bit unsigned integer operations
/// and every analysis may treat pointers as numbers (`docs/minic.md`, "Memory").
pub const POINTER_TYPE: IntType = IntType::ULongLong;

/// The operation an edge performs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum EdgeKind {
    /// No effect: labels, `goto`, loop entry, the join after a branch,
    /// `(void) e` on a pure `e`, a call to an undefined function whose result
    /// is unused.
    Blank,
    /// `int x = e;` (`init: None`: a local without initializer holds an
    /// arbitrary value). Global declarations are edges at the start of `main`
    /// with their initializer or `0`.
    Declare { var: VarId, init: Option<Rhs> },
    /// `x = rhs;` (compound assignments and `++`/`--` are expanded).
    Assign { var: VarId, rhs: Rhs },
    /// `[cond]` if `positive`, `[!(cond)]` otherwise: the edge may be taken
    /// only when `cond` evaluates to non-zero (resp. zero).
    Assume { cond: Expr, positive: bool },
    /// Call to a function defined in the program: from the call site to the
    /// callee's entry; the parameters are assigned from `args` (evaluated in
    /// the caller). The matching [`EdgeKind::Return`] leads to `return_site`.
    Call { callee: FuncId, args: Vec<Expr>, return_site: NodeId, result: Option<VarId> },
    /// Return from the callee's exit to the return site of the call made at
    /// `call_site` (a node of the caller): `result := callee.ret` when the call
    /// used the result.
    Return { callee: FuncId, call_site: NodeId, result: Option<VarId> },
    /// `return e;`: assigns the function's return slot, then leads to its exit.
    ReturnStatement { value: Option<Expr> },
    /// `abort()` / `exit(e)`: leads to a [`NodeKind::Terminal`] node.
    Terminate,
    /// A call to the error function (`reach_error()`, `__VERIFIER_error()`,
    /// `__assert_fail(...)`, …): leads to an error node.
    ReachError,
    /// `*addr = value` (also `a[i] = …`, `s.f = …`, `p->f = …`): writes
    /// `value` (of its IR type) to memory. Memory is not a variable, so the
    /// analyses without a memory model change nothing here.
    /// `bytes`: the size of the object written (4 for a pointer).
    /// `access`: which memory region the write falls into
    /// ([`MemAccess::region`]).
    Store {
        addr: Expr,
        value: Expr,
        bytes: u64,
        #[serde(default)]
        access: MemAccess,
    },
    /// `free(addr)`: ends the life of a heap object (an invalid or double
    /// `free` stops the concrete run). No variable changes.
    Free { addr: Expr },
}

impl EdgeKind {
    /// The expressions the operation evaluates (initializer or right-hand
    /// side, condition, call arguments, returned value); none for a nondet
    /// right-hand side or an edge without an expression; the address of a
    /// load, store or `free` and the size of an allocation.
    pub fn expressions(&self) -> Vec<&Expr> {
        match self {
            EdgeKind::Declare { init: Some(Rhs::Expr(e)), .. } | EdgeKind::Assign { rhs: Rhs::Expr(e), .. } => vec![e],
            EdgeKind::Declare { init: Some(Rhs::Load { addr: e, .. } | Rhs::Alloc { size: e, .. }), .. }
            | EdgeKind::Assign { rhs: Rhs::Load { addr: e, .. } | Rhs::Alloc { size: e, .. }, .. } => vec![e],
            EdgeKind::Store { addr, value, .. } => vec![addr, value],
            EdgeKind::Free { addr } => vec![addr],
            EdgeKind::Assume { cond, .. } => vec![cond],
            EdgeKind::Call { args, .. } => args.iter().collect(),
            EdgeKind::ReturnStatement { value: Some(e) } => vec![e],
            _ => Vec::new(),
        }
    }
}

/// A CFA edge: an operation between two locations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edge {
    pub id: EdgeId,
    pub source: NodeId,
    pub target: NodeId,
    pub kind: EdgeKind,
    /// Source line of the statement the edge comes from.
    pub line: u32,
    pub span: Span,
    /// The operation as C-like text, as CPAchecker labels edges:
    /// `x = x + 1;`, `[x < 10]`, `[!(x < 10)]`, `int x = 0;`, `f(a)`,
    /// `return x;`, `abort()`, `reach_error()`.
    pub label: String,
}

/// A whole program as CFAs: all functions, with nodes and edges in one
/// numbering (node ids are indexes into `nodes`, edge ids into `edges`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Program {
    pub functions: Vec<Function>,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub variables: Vec<Variable>,
    /// The function analysis starts in.
    pub main: FuncId,
    /// Warnings found while lowering (e.g. "call to undefined function
    /// `systemCall` yields an arbitrary value").
    pub warnings: Vec<Diagnostic>,
}

impl Program {
    /// The node with id `id` (a CFA location).
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }
    /// The edge with id `id` (a CFA operation between two locations).
    pub fn edge(&self, id: EdgeId) -> &Edge {
        &self.edges[id.0 as usize]
    }
    /// The variable with id `id`.
    pub fn variable(&self, id: VarId) -> &Variable {
        &self.variables[id.0 as usize]
    }
    /// The function with id `id`.
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }
    /// The function analysis starts in.
    pub fn main_function(&self) -> &Function {
        self.function(self.main)
    }
    /// Outgoing edges of a node, in order.
    pub fn successors(&self, id: NodeId) -> impl Iterator<Item = &Edge> {
        self.node(id).outgoing.iter().map(move |e| self.edge(*e))
    }
    /// [`Function::frame_variables`] of function `f` (none for an unknown id).
    pub fn frame_variables(&self, f: FuncId) -> Vec<VarId> {
        self.functions.get(f.0 as usize).map(Function::frame_variables).unwrap_or_default()
    }
    /// The return slot of the function `node` belongs to: the variable a
    /// `return e;` edge leaving `node` assigns (none for a `void` function
    /// or an unknown node).
    pub fn return_slot_at(&self, node: NodeId) -> Option<VarId> {
        let f = self.nodes.get(node.0 as usize)?.function;
        self.functions.get(f.0 as usize)?.ret
    }
    /// Every load and store of the program in edge order
    /// ([`Edge::memory_site`]).
    pub fn memory_sites(&self) -> Vec<MemorySite<'_>> {
        self.edges.iter().filter_map(Edge::memory_site).collect()
    }
    /// The function with this source name, if defined.
    pub fn function_by_name(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }
    /// All error locations.
    pub fn error_nodes(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(|n| n.error)
    }
    /// Whether some operation reads, writes, allocates or frees memory
    /// (pointers, arrays, structs, heap): [`Rhs::Load`], [`Rhs::Alloc`],
    /// [`EdgeKind::Store`] or [`EdgeKind::Free`].
    pub fn uses_memory(&self) -> bool {
        let memory = |r: &Rhs| matches!(r, Rhs::Load { .. } | Rhs::Alloc { .. });
        self.edges.iter().any(|e| match &e.kind {
            EdgeKind::Store { .. } | EdgeKind::Free { .. } => true,
            EdgeKind::Assign { rhs, .. } | EdgeKind::Declare { init: Some(rhs), .. } => memory(rhs),
            _ => false,
        })
    }
}
