//! Lowering a checked AST to CFAs, CPAchecker-style.
//!
//! # Shape of the result
//!
//! * One CFA per function defined in the file, in source order; `main`'s
//!   entry is followed by one `Declare` edge per global (its initializer or
//!   `0`), then the body.
//! * One edge per declaration, assignment or call. Compound assignments and
//!   `++`/`--` become plain assignments; every implicit C conversion becomes
//!   an explicit [`Expr::Cast`], so expressions on edges are pure and typed.
//! * Conditions become `Assume` edges; `&&`, `||`, `!` and `?:` in conditions
//!   become separate assume edges, and in value context they become control
//!   flow that writes a temporary (`main::__tmp0`). Side effects inside
//!   expressions are evaluated first, into temporaries, and only on the paths
//!   where C evaluates them.
//! * The unreach-call vocabulary: `reach_error()` & co. lead over a
//!   `ReachError` edge to an error node; a label `ERROR:` makes its node an
//!   error node; `__VERIFIER_assert(e)` (when not defined in the file) has
//!   `[!(e)]` lead to an error node; `__VERIFIER_assume(e)` has no edge for
//!   the false case; `abort()`/`exit(e)` lead to a terminal node.
//! * A call to a declared but undefined function assigns `Rhs::Nondet` of
//!   its result type (one warning per function); `__VERIFIER_nondet_X()`
//!   likewise, without warning.
//! * A condition whose truth is the same constant under both integer models
//!   (`while (1)`, `if (0)`) gets only its feasible assume edge — except in
//!   `__VERIFIER_assume`, where a false one keeps its edge: no node is left
//!   without successors, a blocked path ends at an assume edge.
//! * `static` locals are program-lifetime variables (scope `Global`,
//!   qualified `f::name`), initialized with the globals at `main`'s start.
//!
//! # Numbering
//!
//! Nodes are created during a source-order walk. Afterwards, nodes that
//! cannot be reached from their function's entry (dead code after `return`,
//! `break`, `abort()`, an error, …) are removed, the blank "join" edges the
//! walk introduced (end of a branch → the node after the `if`, end of a loop
//! body → the loop head) are contracted, and nodes are renumbered compactly:
//! function by function in source order, entry first, exit last, the rest in
//! creation order. Loop heads are the targets of back edges of a depth-first
//! search from each entry.

use crate::expr::{BinOp, Expr, UnOp};
use crate::model::*;
use minic::ast::{self, BinaryOp, ExprKind, ForInit, Item, ParamType, StmtKind, TranslationUnit, UnaryOp};
use minic::types::{CType, IntModel, IntType, Type};
use minic::{Diagnostic, Span};
use std::collections::{HashMap, HashSet};

mod memory;

/// Builds the CFAs of a translation unit that passed `minic`'s checks.
/// Errors here are what only lowering can find (e.g. no `main`, a call with
/// the wrong number of arguments, `break` outside a loop).
pub fn build(unit: &TranslationUnit) -> Result<Program, Vec<Diagnostic>> {
    let mut b = Builder::new();
    b.run(unit);
    if !b.errors.is_empty() {
        b.errors.sort_by_key(|d| (d.span.start, d.span.end));
        return Err(b.errors);
    }
    Ok(b.finish())
}

/// Failure marker: the diagnostic has already been pushed to `errors`.
#[derive(Debug)]
struct Failed;
type Res<T> = Result<T, Failed>;

/// A lowered pure value: the IR expression and its C-like text (without the
/// implicit casts), with the precedence of its top operator for parentheses.
#[derive(Clone, Debug)]
struct Val {
    e: Expr,
    text: String,
    prec: u8,
    /// The C pointer type when the value is a pointer (`e` then has the IR
    /// type [`POINTER_TYPE`]); `None` for integers.
    ptr: Option<CType>,
}

impl Val {
    /// An integer value.
    fn int(e: Expr, text: String, prec: u8) -> Val {
        Val { e, text, prec, ptr: None }
    }
}

const PREC_PRIMARY: u8 = 16;
const PREC_UNARY: u8 = 14;

fn binop_prec(op: BinOp) -> u8 {
    use BinOp::*;
    match op {
        Mul | Div | Rem => 13,
        Add | Sub => 12,
        Shl | Shr => 11,
        Lt | Le | Gt | Ge => 10,
        Eq | Ne => 9,
        BitAnd => 8,
        BitXor => 7,
        BitOr => 6,
    }
}

fn paren(text: &str, prec: u8, needed: u8) -> String {
    if prec < needed {
        format!("({text})")
    } else {
        text.to_string()
    }
}

/// `e` converted to `ty`: no-op if it already has that type; constants that
/// fit `ty` are retyped instead of wrapped in a cast.
fn cast(e: Expr, ty: IntType) -> Expr {
    if e.ty() == ty {
        return e;
    }
    if let Expr::Const { value, .. } = e {
        if ty != IntType::Bool && value >= ty.min_value() && value <= ty.max_value() {
            return Expr::Const { value, ty };
        }
        if ty == IntType::Bool && (value == 0 || value == 1) {
            return Expr::Const { value, ty };
        }
    }
    Expr::Cast { ty, arg: Box::new(e) }
}

fn literal_text(value: u128, ty: IntType) -> String {
    let suffix = match ty {
        IntType::UInt => "U",
        IntType::Long => "L",
        IntType::ULong => "UL",
        IntType::LongLong => "LL",
        IntType::ULongLong => "ULL",
        _ => "",
    };
    format!("{value}{suffix}")
}

/// `lhs op rhs` with C's conversions made explicit.
fn combine(op: BinOp, l: Val, r: Val) -> Val {
    let e = match op {
        BinOp::Shl | BinOp::Shr => {
            let ty = l.e.ty().promote();
            let rty = r.e.ty().promote();
            Expr::Binary { op, ty, lhs: Box::new(cast(l.e, ty)), rhs: Box::new(cast(r.e, rty)) }
        }
        _ => {
            let ty = IntType::usual_arithmetic(l.e.ty(), r.e.ty());
            Expr::Binary { op, ty, lhs: Box::new(cast(l.e, ty)), rhs: Box::new(cast(r.e, ty)) }
        }
    };
    let p = binop_prec(op);
    let text = format!("{} {} {}", paren(&l.text, l.prec, p), op.symbol(), paren(&r.text, r.prec, p + 1));
    Val::int(e, text, p)
}

/// What a called name means to the lowering.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Callee {
    /// `reach_error()`, `__VERIFIER_error()`, `__assert_fail(...)`, …: the error location.
    Error,
    /// `__VERIFIER_assert(e)` / `assert(e)` not defined in the file.
    Assert,
    /// `__VERIFIER_assume(e)`.
    Assume,
    /// `abort()` / `exit(e)`.
    Terminate,
    /// `__VERIFIER_nondet_X()`.
    Nondet(IntType),
    /// A function defined in the program.
    Defined(FuncId),
    /// Declared (or not even declared) but not defined: an arbitrary result.
    Undefined(Type),
    /// `malloc`, `calloc`, `alloca` or `free` (not defined in the file).
    Memory(memory::MemoryFn),
    /// Declared but not defined, returning a pointer: refused as a value.
    UndefinedPointer,
}

const ERROR_FUNCTIONS: [&str; 5] = ["reach_error", "__VERIFIER_error", "__assert_fail", "__assert_perror_fail", "__assert"];

fn nondet_type(suffix: &str) -> IntType {
    match suffix {
        "uint" | "unsigned" | "u32" => IntType::UInt,
        "bool" => IntType::Bool,
        "char" => IntType::Char,
        "uchar" | "u8" => IntType::UChar,
        "short" => IntType::Short,
        "ushort" | "u16" => IntType::UShort,
        "long" => IntType::Long,
        "ulong" => IntType::ULong,
        "longlong" => IntType::LongLong,
        "ulonglong" => IntType::ULongLong,
        _ => IntType::Int,
    }
}

/// Per-function state of the walk.
#[derive(Default)]
struct FnCtx {
    id: u32,
    exit: u32,
    ret_ty: Option<CType>,
    scopes: Vec<HashMap<String, VarId>>,
    name_counts: HashMap<String, u32>,
    tmp_count: u32,
    labels: HashMap<String, NodeId>,
    labels_defined: HashSet<String>,
    gotos: Vec<(String, Span)>,
    breaks: Vec<NodeId>,
    continues: Vec<NodeId>,
    switches: Vec<SwitchCtx>,
    locals: Vec<VarId>,
}

struct SwitchCtx {
    case_nodes: Vec<NodeId>,
    next: usize,
}

struct Builder<'a> {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    /// Blank join edges that may be contracted away (by raw edge id).
    joins: HashSet<u32>,
    variables: Vec<Variable>,
    functions: Vec<Function>,
    func_ids: HashMap<String, FuncId>,
    protos: HashMap<String, &'a ast::FunctionDecl>,
    globals: HashMap<String, VarId>,
    global_inits: Vec<(VarId, Option<&'a ast::Expr>, Span)>,
    /// `static` locals, by the start offset of their declarator: they live
    /// as long as the program, so they are global variables in the CFA.
    static_locals: HashMap<usize, VarId>,
    warned: HashSet<String>,
    warnings: Vec<Diagnostic>,
    errors: Vec<Diagnostic>,
    cur: NodeId,
    f: FnCtx,
    /// The struct definitions (for sizes and field offsets).
    structs: Vec<ast::StructDef>,
    /// Names whose address is taken somewhere (`&x`): such variables live in memory.
    addr_taken: HashSet<String>,
    /// The own memory region (`struct S.f`) of the lvalue whose address
    /// [`Builder::address`] computed last, taken by the load or store of it.
    lvalue_field: Option<String>,
    /// The temporaries holding a `malloc`/`calloc`/`alloca` result.
    alloc_results: HashSet<VarId>,
    /// Some `void *` other than an allocation's result is used as a typed
    /// pointer: memory may be accessed at more than one type, so every
    /// access gets the one untyped region ([`MemAccess::region`]).
    untyped_memory: bool,
}

impl<'a> Builder<'a> {
    fn new() -> Self {
        Builder {
            nodes: Vec::new(),
            edges: Vec::new(),
            joins: HashSet::new(),
            variables: Vec::new(),
            functions: Vec::new(),
            func_ids: HashMap::new(),
            protos: HashMap::new(),
            globals: HashMap::new(),
            global_inits: Vec::new(),
            static_locals: HashMap::new(),
            warned: HashSet::new(),
            warnings: Vec::new(),
            errors: Vec::new(),
            cur: NodeId(0),
            f: FnCtx::default(),
            structs: Vec::new(),
            addr_taken: HashSet::new(),
            lvalue_field: None,
            alloc_results: HashSet::new(),
            untyped_memory: false,
        }
    }

    // ----- construction primitives -------------------------------------

    fn error(&mut self, span: Span, msg: impl Into<String>) -> Failed {
        self.errors.push(Diagnostic::error(span, msg));
        Failed
    }

    fn node_in(&mut self, function: u32, kind: NodeKind, line: u32) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(Node {
            id,
            function: FuncId(function),
            kind,
            loop_head: false,
            error: false,
            line,
            outgoing: Vec::new(),
            incoming: Vec::new(),
        });
        id
    }

    fn node(&mut self, line: u32) -> NodeId {
        self.node_in(self.f.id, NodeKind::Normal, line)
    }

    fn edge(&mut self, source: NodeId, target: NodeId, kind: EdgeKind, span: Span, label: impl Into<String>) -> u32 {
        let id = self.edges.len() as u32;
        self.edges.push(Edge { id: EdgeId(id), source, target, kind, line: span.line, span, label: label.into() });
        id
    }

    /// An edge from the current node to a fresh node, which becomes current.
    fn step(&mut self, kind: EdgeKind, span: Span, label: impl Into<String>) {
        let next = self.node(span.line);
        self.edge(self.cur, next, kind, span, label);
        self.cur = next;
    }

    /// A contractible blank edge (end of a branch or loop body to the join).
    fn join(&mut self, source: NodeId, target: NodeId, span: Span) {
        let id = self.edge(source, target, EdgeKind::Blank, span, "");
        self.joins.insert(id);
    }

    /// After `return`/`break`/`goto`/an error: what follows is dead code,
    /// lowered from a fresh node that pruning will remove.
    fn dead(&mut self, line: u32) {
        self.cur = self.node(line);
    }

    fn new_var(&mut self, name: &str, qualified: String, ty: IntType, scope: VarScope, span: Option<Span>) -> VarId {
        let id = VarId(self.variables.len() as u32);
        self.variables.push(Variable { id, name: name.to_string(), qualified, ty, scope, span, ctype: None, in_memory: false });
        id
    }

    fn fname(&self) -> String {
        self.functions[self.f.id as usize].name.clone()
    }

    fn temp(&mut self, ty: IntType) -> VarId {
        let name = format!("__tmp{}", self.f.tmp_count);
        self.f.tmp_count += 1;
        let q = format!("{}::{}", self.fname(), name);
        let v = self.new_var(&name, q, ty, VarScope::Temp(FuncId(self.f.id)), None);
        self.f.locals.push(v);
        v
    }

    fn lookup(&self, name: &str) -> Option<VarId> {
        for scope in self.f.scopes.iter().rev() {
            if let Some(v) = scope.get(name) {
                return Some(*v);
            }
        }
        self.globals.get(name).copied()
    }

    fn var_val(&self, v: VarId) -> Val {
        let var = &self.variables[v.0 as usize];
        let ptr = if var.in_memory { None } else { var.ctype.clone() };
        Val { e: Expr::Var { var: v, ty: var.ty }, text: var.name.clone(), prec: PREC_PRIMARY, ptr }
    }

    fn var_name(&self, v: VarId) -> String {
        self.variables[v.0 as usize].name.clone()
    }

    fn var_ty(&self, v: VarId) -> IntType {
        self.variables[v.0 as usize].ty
    }

    fn label_node(&mut self, name: &str, line: u32) -> NodeId {
        if let Some(n) = self.f.labels.get(name) {
            return *n;
        }
        let n = self.node(line);
        self.f.labels.insert(name.to_string(), n);
        n
    }

    // ----- the walk ------------------------------------------------------

    fn run(&mut self, unit: &'a TranslationUnit) {
        self.structs = unit.structs.clone();
        self.addr_taken = memory::addr_taken_names(unit);
        // Pass 1: globals, prototypes, and the signatures of defined functions.
        for item in &unit.items {
            match item {
                Item::Global(vd) => {
                    if let Some(&v) = self.globals.get(&vd.name.name) {
                        // A repeated (tentative) declaration: same variable.
                        if vd.init.is_some() {
                            if let Some(g) = self.global_inits.iter_mut().find(|g| g.0 == v) {
                                g.1 = vd.init.as_ref();
                            }
                        }
                        continue;
                    }
                    let Ok(v) = self.typed_var(&vd.name.name, vd.name.name.clone(), &vd.ty, VarScope::Global, vd.span) else {
                        continue;
                    };
                    self.globals.insert(vd.name.name.clone(), v);
                    self.global_inits.push((v, vd.init.as_ref(), vd.span));
                }
                Item::Prototype(d) => {
                    self.protos.entry(d.name.name.clone()).or_insert(d);
                }
                Item::Function(def) => {
                    let name = def.decl.name.name.clone();
                    if self.func_ids.contains_key(&name) {
                        self.error(def.decl.name.span, format!("function `{name}` is defined twice"));
                        continue;
                    }
                    let fid = self.functions.len() as u32;
                    let entry = self.node_in(fid, NodeKind::Entry, def.decl.span.line);
                    let exit = self.node_in(fid, NodeKind::Exit, def.body.span.line);
                    let mut params = Vec::new();
                    for (i, p) in def.decl.params.iter().enumerate() {
                        let (ty, ctype) = match &p.ty {
                            ParamType::Int(t) => (*t, None),
                            ParamType::Pointer(t) => (POINTER_TYPE, Some(t.clone())),
                            ParamType::CharPointer => {
                                self.error(
                                    p.span,
                                    "a string (`char *`) parameter is only allowed in prototypes of the assert helpers",
                                );
                                (IntType::Int, None)
                            }
                        };
                        let pname = p.name.as_ref().map(|n| n.name.clone()).unwrap_or_else(|| format!("__param{i}"));
                        let v = self.new_var(&pname, format!("{name}::{pname}"), ty, VarScope::Param(FuncId(fid)), Some(p.span));
                        self.variables[v.0 as usize].ctype = ctype;
                        params.push(v);
                    }
                    let ret = match &def.decl.ret {
                        CType::Void => None,
                        CType::Int(t) => {
                            Some(self.new_var("__retval", format!("{name}::__retval"), *t, VarScope::Return(FuncId(fid)), None))
                        }
                        CType::Pointer(_) => {
                            let r = self.new_var(
                                "__retval",
                                format!("{name}::__retval"),
                                POINTER_TYPE,
                                VarScope::Return(FuncId(fid)),
                                None,
                            );
                            self.variables[r.0 as usize].ctype = Some(def.decl.ret.clone());
                            Some(r)
                        }
                        other => {
                            self.error(
                                def.decl.name.span,
                                format!("a function cannot return a `{other}` in mini-C: return a pointer to it"),
                            );
                            None
                        }
                    };
                    self.functions.push(Function {
                        id: FuncId(fid),
                        name: name.clone(),
                        entry,
                        exit,
                        params,
                        ret,
                        locals: Vec::new(),
                        span: def.decl.span,
                    });
                    self.func_ids.insert(name.clone(), FuncId(fid));
                    let mut statics = Vec::new();
                    for st in &def.body.stmts {
                        collect_static_locals(st, &mut statics);
                    }
                    let mut seen: HashMap<&str, u32> = HashMap::new();
                    for vd in statics {
                        let count = seen.entry(vd.name.name.as_str()).or_insert(0);
                        let q = if *count == 0 {
                            format!("{name}::{}", vd.name.name)
                        } else {
                            format!("{name}::{}#{count}", vd.name.name)
                        };
                        *count += 1;
                        let Ok(v) = self.typed_var(&vd.name.name, q, &vd.ty, VarScope::Global, vd.span) else {
                            continue;
                        };
                        self.static_locals.insert(vd.span.start, v);
                        self.global_inits.push((v, vd.init.as_ref(), vd.span));
                    }
                }
            }
        }
        if !self.func_ids.contains_key("main") {
            let span = unit.items.last().map(item_span).unwrap_or_default();
            self.error(span, "the program has no `main` function");
            return;
        }
        // Pass 2: bodies.
        for item in &unit.items {
            if let Item::Function(def) = item {
                let Some(&fid) = self.func_ids.get(&def.decl.name.name) else { continue };
                if self.functions[fid.0 as usize].span != def.decl.span {
                    continue; // the duplicate definition reported above
                }
                let _ = self.lower_function(fid, def);
            }
        }
    }

    fn lower_function(&mut self, fid: FuncId, def: &'a ast::FunctionDef) -> Res<()> {
        let func = self.functions[fid.0 as usize].clone();
        self.f = FnCtx {
            id: fid.0,
            exit: func.exit.0,
            ret_ty: match &def.decl.ret {
                CType::Void => None,
                other => Some(other.clone()),
            },
            ..FnCtx::default()
        };
        let mut top = HashMap::new();
        for (p, v) in def.decl.params.iter().zip(&func.params) {
            if let Some(n) = &p.name {
                top.insert(n.name.clone(), *v);
                self.f.name_counts.insert(n.name.clone(), 1);
            }
        }
        self.f.scopes.push(top);
        self.cur = func.entry;
        let mut params_in_memory = Vec::new();
        for (p, v) in def.decl.params.iter().zip(&func.params) {
            if let Some(n) = p.name.as_ref().filter(|n| self.addr_taken.contains(&n.name)) {
                params_in_memory.push((n, *v, p.span));
            }
        }
        if func.name == "main" {
            let inits = self.global_inits.clone();
            for (v, init, span) in inits {
                if self.variables[v.0 as usize].in_memory {
                    let _ = self.declare_in_memory(v, init, true, span);
                    continue;
                }
                let ty = self.var_ty(v);
                let cty = self.var_cty(v);
                let name = self.var_name(v);
                let (rhs, text) = match init {
                    Some(e) => match self.value(e) {
                        Ok(val) => {
                            let text = val.text.clone();
                            match self.convert(val, &cty, e.span) {
                                Ok(x) => (Rhs::Expr(x), text),
                                Err(_) => continue,
                            }
                        }
                        Err(_) => continue,
                    },
                    None => (Rhs::Expr(Expr::Const { value: 0, ty }), "0".to_string()),
                };
                let ty = cty;
                let storage = if self.variables[v.0 as usize].qualified.contains("::") { "static " } else { "" };
                self.step(
                    EdgeKind::Declare { var: v, init: Some(rhs) },
                    span,
                    format!("{storage}{} = {text};", memory::declared(&ty, &name)),
                );
            }
        }
        let mut ok = true;
        for (n, param, span) in params_in_memory {
            // A parameter whose address is taken gets an object, initialized with the argument.
            let ty = self.var_cty(param);
            let q = format!("{}::{}#mem", func.name, n.name);
            let Ok(v) = self.typed_var(&n.name, q, &ty, VarScope::Local(fid), span) else {
                ok = false;
                continue;
            };
            self.f.locals.push(v);
            let stored = self.declare_in_memory(v, None, false, span).and_then(|_| {
                let addr = Val { ptr: Some(ty.clone().pointer_to()), ..self.var_val(v) };
                let value = self.var_val(param);
                let access = MemAccess { ty: ty.to_string(), field: None };
                self.write(addr, &ty, access, value, &n.name, span)
            });
            ok &= stored.is_ok();
            self.f.scopes.last_mut().expect("scope").insert(n.name.clone(), v);
        }
        for s in &def.body.stmts {
            if self.stmt(s).is_err() {
                ok = false;
            }
        }
        let end = Span { line: end_line(&def.body), ..def.body.span };
        self.edge(self.cur, func.exit, EdgeKind::Blank, end, "default return");
        for (label, span) in std::mem::take(&mut self.f.gotos) {
            if !self.f.labels_defined.contains(&label) {
                self.error(span, format!("label `{label}` is used by `goto` but never defined"));
                ok = false;
            }
        }
        let locals = std::mem::take(&mut self.f.locals);
        self.functions[fid.0 as usize].locals = locals;
        if ok {
            Ok(())
        } else {
            Err(Failed)
        }
    }

    fn push_scope(&mut self) {
        self.f.scopes.push(HashMap::new());
    }

    fn pop_scope(&mut self) {
        self.f.scopes.pop();
    }

    fn block(&mut self, b: &'a ast::Block) -> Res<()> {
        self.push_scope();
        let mut r = Ok(());
        for s in &b.stmts {
            if self.stmt(s).is_err() {
                r = Err(Failed);
            }
        }
        self.pop_scope();
        r
    }

    fn declare_local(&mut self, vd: &'a ast::VarDecl) -> Res<()> {
        let name = vd.name.name.clone();
        if let Some(&v) = self.static_locals.get(&vd.span.start) {
            // Initialized once, at the start of `main`, like a global.
            self.f.scopes.last_mut().expect("scope").insert(name, v);
            return Ok(());
        }
        let fname = self.fname();
        let ty = match &vd.ty {
            CType::Int(t) if !self.lives_in_memory(&vd.ty, &name) => *t,
            _ => return self.declare_typed_local(vd),
        };
        let make_var = |b: &mut Self| {
            let count = b.f.name_counts.entry(name.clone()).or_insert(0);
            let q = if *count == 0 { format!("{fname}::{name}") } else { format!("{fname}::{name}#{count}") };
            *count += 1;
            let v = b.new_var(&name, q, ty, VarScope::Local(FuncId(b.f.id)), Some(vd.span));
            b.f.locals.push(v);
            v
        };
        match &vd.init {
            None => {
                let v = make_var(self);
                self.f.scopes.last_mut().expect("scope").insert(name.clone(), v);
                self.step(EdgeKind::Declare { var: v, init: None }, vd.span, format!("{ty} {name};"));
            }
            Some(init) => {
                // Calls whose result can go straight into the variable.
                if let ExprKind::Call { callee, args } = &init.kind {
                    match self.classify(&callee.name) {
                        Callee::Nondet(t) if t == ty => {
                            let v = make_var(self);
                            self.f.scopes.last_mut().expect("scope").insert(name.clone(), v);
                            self.step(
                                EdgeKind::Declare { var: v, init: Some(Rhs::Nondet(t)) },
                                vd.span,
                                format!("{ty} {name} = {}();", callee.name),
                            );
                            return Ok(());
                        }
                        Callee::Undefined(Type::Int(t)) if t == ty => {
                            self.warn_undefined(callee, true);
                            let argtext = self.effect_args(args)?;
                            let v = make_var(self);
                            self.f.scopes.last_mut().expect("scope").insert(name.clone(), v);
                            self.step(
                                EdgeKind::Declare { var: v, init: Some(Rhs::Nondet(t)) },
                                vd.span,
                                format!("{ty} {name} = {}({argtext});", callee.name),
                            );
                            return Ok(());
                        }
                        Callee::Defined(fid)
                            if self.functions[fid.0 as usize].ret.map(|r| self.var_cty(r)) == Some(CType::Int(ty)) =>
                        {
                            let (argv, argtext) = self.call_args(fid, callee, args, init.span)?;
                            let v = make_var(self);
                            self.f.scopes.last_mut().expect("scope").insert(name.clone(), v);
                            self.step(EdgeKind::Declare { var: v, init: None }, vd.span, format!("{ty} {name};"));
                            self.emit_call(fid, argv, Some(v), init.span, format!("{name} = {}({argtext});", callee.name));
                            return Ok(());
                        }
                        _ => {}
                    }
                }
                let val = self.value(init)?;
                let text = val.text.clone();
                let e = self.convert(val, &CType::Int(ty), init.span)?;
                let v = make_var(self);
                self.f.scopes.last_mut().expect("scope").insert(name.clone(), v);
                self.step(EdgeKind::Declare { var: v, init: Some(Rhs::Expr(e)) }, vd.span, format!("{ty} {name} = {text};"));
            }
        }
        Ok(())
    }

    /// A local that is a pointer or lives in memory (array, struct, address taken).
    fn declare_typed_local(&mut self, vd: &'a ast::VarDecl) -> Res<()> {
        let name = vd.name.name.clone();
        let fname = self.fname();
        let count = self.f.name_counts.entry(name.clone()).or_insert(0);
        let q = if *count == 0 { format!("{fname}::{name}") } else { format!("{fname}::{name}#{count}") };
        *count += 1;
        let v = self.typed_var(&name, q, &vd.ty, VarScope::Local(FuncId(self.f.id)), vd.span)?;
        self.f.locals.push(v);
        if self.variables[v.0 as usize].in_memory {
            self.f.scopes.last_mut().expect("scope").insert(name, v);
            return self.declare_in_memory(v, vd.init.as_ref(), false, vd.span);
        }
        let ty = &vd.ty;
        match &vd.init {
            None => {
                self.f.scopes.last_mut().expect("scope").insert(name.clone(), v);
                self.step(EdgeKind::Declare { var: v, init: None }, vd.span, format!("{};", memory::declared(ty, &name)));
            }
            Some(init) => {
                let val = self.value(init)?;
                let text = val.text.clone();
                let e = self.convert(val, ty, init.span)?;
                self.f.scopes.last_mut().expect("scope").insert(name.clone(), v);
                self.step(
                    EdgeKind::Declare { var: v, init: Some(Rhs::Expr(e)) },
                    vd.span,
                    format!("{} = {text};", memory::declared(ty, &name)),
                );
            }
        }
        Ok(())
    }

    fn stmt(&mut self, s: &'a ast::Stmt) -> Res<()> {
        let line = s.span.line;
        match &s.kind {
            StmtKind::Decl(decls) => {
                let mut r = Ok(());
                for vd in decls {
                    if self.declare_local(vd).is_err() {
                        r = Err(Failed);
                    }
                }
                r
            }
            StmtKind::Expr(e) => self.effect_stmt(e),
            StmtKind::If { cond, then_branch, else_branch } => {
                let then_n = self.node(then_branch.span.line);
                let else_n = else_branch.as_ref().map(|e| self.node(e.span.line));
                let after = self.node(line);
                self.cond(cond, Some(then_n), Some(else_n.unwrap_or(after)))?;
                self.cur = then_n;
                let r1 = self.stmt(then_branch);
                self.join(self.cur, after, s.span);
                let mut r2 = Ok(());
                if let (Some(eb), Some(en)) = (else_branch, else_n) {
                    self.cur = en;
                    r2 = self.stmt(eb);
                    self.join(self.cur, after, s.span);
                }
                self.cur = after;
                r1.and(r2)
            }
            StmtKind::While { cond, body } => {
                let head = self.node(line);
                self.edge(self.cur, head, EdgeKind::Blank, s.span, "while");
                let body_n = self.node(body.span.line);
                let after = self.node(line);
                self.cur = head;
                self.cond(cond, Some(body_n), Some(after))?;
                self.f.breaks.push(after);
                self.f.continues.push(head);
                self.cur = body_n;
                let r = self.stmt(body);
                self.f.breaks.pop();
                self.f.continues.pop();
                self.join(self.cur, head, s.span);
                self.cur = after;
                r
            }
            StmtKind::DoWhile { body, cond } => {
                let body_n = self.node(body.span.line);
                self.edge(self.cur, body_n, EdgeKind::Blank, s.span, "do");
                let cond_n = self.node(cond.span.line);
                let after = self.node(line);
                self.f.breaks.push(after);
                self.f.continues.push(cond_n);
                self.cur = body_n;
                let r = self.stmt(body);
                self.f.breaks.pop();
                self.f.continues.pop();
                self.join(self.cur, cond_n, cond.span);
                self.cur = cond_n;
                self.cond(cond, Some(body_n), Some(after))?;
                self.cur = after;
                r
            }
            StmtKind::For { init, cond, step, body } => {
                self.push_scope();
                let r = self.for_loop(s, init.as_ref(), cond.as_ref(), step.as_ref(), body);
                self.pop_scope();
                r
            }
            StmtKind::Break => {
                let Some(&t) = self.f.breaks.last() else {
                    return Err(self.error(s.span, "`break` outside a loop or `switch`"));
                };
                self.edge(self.cur, t, EdgeKind::Blank, s.span, "break;");
                self.dead(line);
                Ok(())
            }
            StmtKind::Continue => {
                let Some(&t) = self.f.continues.last() else {
                    return Err(self.error(s.span, "`continue` outside a loop"));
                };
                self.edge(self.cur, t, EdgeKind::Blank, s.span, "continue;");
                self.dead(line);
                Ok(())
            }
            StmtKind::Return(value) => {
                let exit = NodeId(self.f.exit);
                match (value, self.f.ret_ty.clone()) {
                    (Some(e), Some(ty)) => {
                        let v = self.value(e)?;
                        let label = format!("return {};", v.text);
                        let value = self.convert(v, &ty, e.span)?;
                        self.edge(self.cur, exit, EdgeKind::ReturnStatement { value: Some(value) }, s.span, label);
                    }
                    (Some(e), None) => {
                        // `return f();` in a void function: evaluate for effects.
                        self.effect(e)?;
                        self.edge(self.cur, exit, EdgeKind::ReturnStatement { value: None }, s.span, "return;");
                    }
                    (None, _) => {
                        self.edge(self.cur, exit, EdgeKind::ReturnStatement { value: None }, s.span, "return;");
                    }
                }
                self.dead(line);
                Ok(())
            }
            StmtKind::Goto(label) => {
                let t = self.label_node(&label.name, label.span.line);
                self.f.gotos.push((label.name.clone(), label.span));
                self.edge(self.cur, t, EdgeKind::Blank, s.span, format!("goto {};", label.name));
                self.dead(line);
                Ok(())
            }
            StmtKind::Labeled { label, stmt } => {
                if !self.f.labels_defined.insert(label.name.clone()) {
                    return Err(self.error(label.span, format!("label `{}` is defined twice", label.name)));
                }
                let n = self.label_node(&label.name, label.span.line);
                self.edge(self.cur, n, EdgeKind::Blank, label.span, format!("{}:", label.name));
                if label.name == "ERROR" {
                    self.nodes[n.0 as usize].error = true;
                    self.nodes[n.0 as usize].line = label.span.line;
                    self.dead(line);
                } else {
                    self.cur = n;
                }
                self.stmt(stmt)
            }
            StmtKind::Block(b) => self.block(b),
            StmtKind::Empty => Ok(()),
            StmtKind::Switch { cond, body } => self.switch(s, cond, body),
            StmtKind::Case { stmt, .. } | StmtKind::Default(stmt) => {
                let Some(sw) = self.f.switches.last_mut() else {
                    let what = if matches!(s.kind, StmtKind::Case { .. }) { "`case`" } else { "`default`" };
                    return Err(self.error(s.span, format!("{what} outside a `switch`")));
                };
                let Some(&n) = sw.case_nodes.get(sw.next) else {
                    return Err(self.error(s.span, "internal: unexpected case label"));
                };
                sw.next += 1;
                self.join(self.cur, n, s.span);
                self.cur = n;
                self.stmt(stmt)
            }
        }
    }

    fn for_loop(
        &mut self,
        s: &'a ast::Stmt,
        init: Option<&'a ForInit>,
        cond: Option<&'a ast::Expr>,
        step: Option<&'a ast::Expr>,
        body: &'a ast::Stmt,
    ) -> Res<()> {
        let line = s.span.line;
        match init {
            Some(ForInit::Decl(decls)) => {
                for vd in decls {
                    self.declare_local(vd)?;
                }
            }
            Some(ForInit::Expr(e)) => self.effect(e)?,
            None => {}
        }
        let head = self.node(line);
        self.edge(self.cur, head, EdgeKind::Blank, s.span, "for");
        let body_n = self.node(body.span.line);
        let step_n = self.node(line);
        let after = self.node(line);
        match cond {
            Some(c) => {
                self.cur = head;
                self.cond(c, Some(body_n), Some(after))?;
            }
            None => self.join(head, body_n, s.span),
        }
        self.f.breaks.push(after);
        self.f.continues.push(step_n);
        self.cur = body_n;
        let r = self.stmt(body);
        self.f.breaks.pop();
        self.f.continues.pop();
        self.join(self.cur, step_n, s.span);
        self.cur = step_n;
        if let Some(e) = step {
            self.effect(e)?;
        }
        self.join(self.cur, head, s.span);
        self.cur = after;
        r
    }

    fn switch(&mut self, s: &'a ast::Stmt, cond: &'a ast::Expr, body: &'a ast::Stmt) -> Res<()> {
        let v = self.value(cond)?;
        if v.ptr.is_some() {
            return Err(self.error(cond.span, "`switch` needs an integer, not a pointer"));
        }
        let pt = v.e.ty().promote();
        let v = Val { e: cast(v.e, pt), ..v };
        let mut cases = Vec::new();
        collect_cases(body, &mut cases);
        let after = self.node(s.span.line);
        let case_nodes: Vec<NodeId> = cases.iter().map(|c| self.node(c.1.line)).collect();
        let mut default = None;
        for (i, (value, span)) in cases.iter().enumerate() {
            let Some(value) = value else {
                default = Some(case_nodes[i]);
                continue;
            };
            let c = self.value(value)?;
            let k = match c.e.eval(IntModel::C, &mut |_| None) {
                Ok(Some(k)) if c.e.variables().is_empty() => k,
                _ => return Err(self.error(*span, "a `case` label must be an integer constant")),
            };
            let k = Val::int(Expr::Const { value: pt.wrap(k), ty: pt }, c.text, c.prec);
            let test = combine(BinOp::Eq, v.clone(), k);
            let next = self.node(span.line);
            self.edge(
                self.cur,
                case_nodes[i],
                EdgeKind::Assume { cond: test.e.clone(), positive: true },
                *span,
                format!("[{}]", test.text),
            );
            self.edge(self.cur, next, EdgeKind::Assume { cond: test.e, positive: false }, *span, format!("[!({})]", test.text));
            self.cur = next;
        }
        match default {
            Some(d) => self.edge(self.cur, d, EdgeKind::Blank, s.span, "default:"),
            None => self.edge(self.cur, after, EdgeKind::Blank, s.span, "no case matches"),
        };
        self.f.switches.push(SwitchCtx { case_nodes, next: 0 });
        self.f.breaks.push(after);
        self.dead(body.span.line);
        let r = self.stmt(body);
        self.f.breaks.pop();
        self.f.switches.pop();
        self.join(self.cur, after, s.span);
        self.cur = after;
        r
    }

    // ----- conditions -------------------------------------------------------

    /// Lowers `e` as a branch condition from the current node: paths where it
    /// is true go to `t`, false to `f`; `None` means that outcome has no edge.
    fn cond(&mut self, e: &'a ast::Expr, t: Option<NodeId>, f: Option<NodeId>) -> Res<()> {
        match &e.kind {
            ExprKind::Unary { op: UnaryOp::Not, operand } => self.cond(operand, f, t),
            ExprKind::Binary { op: BinaryOp::LogAnd, lhs, rhs } => {
                let mid = self.node(rhs.span.line);
                self.cond(lhs, Some(mid), f)?;
                self.cur = mid;
                self.cond(rhs, t, f)
            }
            ExprKind::Binary { op: BinaryOp::LogOr, lhs, rhs } => {
                let mid = self.node(rhs.span.line);
                self.cond(lhs, t, Some(mid))?;
                self.cur = mid;
                self.cond(rhs, t, f)
            }
            ExprKind::Conditional { cond, then_expr, else_expr } => {
                let n1 = self.node(then_expr.span.line);
                let n2 = self.node(else_expr.span.line);
                self.cond(cond, Some(n1), Some(n2))?;
                self.cur = n1;
                self.cond(then_expr, t, f)?;
                self.cur = n2;
                self.cond(else_expr, t, f)
            }
            ExprKind::Comma { lhs, rhs } => {
                self.effect(lhs)?;
                self.cond(rhs, t, f)
            }
            _ => {
                let v = self.value(e)?;
                // A condition with the same constant truth under both integer
                // models gets only its feasible edge (`while (1)`).
                let mut known = None;
                if v.e.variables().is_empty() {
                    let a = v.e.eval(IntModel::C, &mut |_| None);
                    let b = v.e.eval(IntModel::Math, &mut |_| None);
                    if let (Ok(Some(a)), Ok(Some(b))) = (a, b) {
                        if (a != 0) == (b != 0) {
                            known = Some(a != 0);
                        }
                    }
                }
                // Unless no edge would be left: `__VERIFIER_assume` has no
                // false edge, so `__VERIFIER_assume(0)` (or `c && 0`) keeps
                // its infeasible edge, and the path visibly ends at an
                // assumption instead of at a node without successors.
                if let Some(t) = t {
                    if known != Some(false) || f.is_none() {
                        self.edge(
                            self.cur,
                            t,
                            EdgeKind::Assume { cond: v.e.clone(), positive: true },
                            e.span,
                            format!("[{}]", v.text),
                        );
                    }
                }
                if let Some(f) = f {
                    if known != Some(true) || t.is_none() {
                        self.edge(
                            self.cur,
                            f,
                            EdgeKind::Assume { cond: v.e, positive: false },
                            e.span,
                            format!("[!({})]", v.text),
                        );
                    }
                }
                Ok(())
            }
        }
    }

    // ----- expressions for their value ----------------------------------------

    /// Lowers `e` for its value: side effects are emitted as edges from the
    /// current node; the result is pure.
    fn value(&mut self, e: &'a ast::Expr) -> Res<Val> {
        match &e.kind {
            ExprKind::IntLit { value, ty } => {
                let v = i128::try_from(*value).unwrap_or(i128::MAX);
                Ok(Val::int(Expr::Const { value: ty.wrap(v), ty: *ty }, literal_text(*value, *ty), PREC_PRIMARY))
            }
            ExprKind::StrLit(_) => Err(self.error(e.span, "a string literal can only be an argument of `__assert_fail`")),
            ExprKind::Var(id) => match self.lookup(&id.name) {
                Some(v) if self.variables[v.0 as usize].in_memory => {
                    let (addr, ty) = self.address(e)?;
                    let access = self.access(&ty);
                    self.read(addr, ty, access, id.name.clone(), e.span)
                }
                Some(v) => Ok(self.var_val(v)),
                None => Err(self.error(id.span, format!("`{}` is not declared", id.name))),
            },
            ExprKind::Unary { op, operand } => {
                let a = self.value(operand)?;
                if a.ptr.is_some() && *op != UnaryOp::Not {
                    return Err(self.error(e.span, format!("`{}` does not apply to pointers", op.symbol())));
                }
                let t = paren(&a.text, a.prec, PREC_UNARY);
                let sym = op.symbol();
                let t = if t.starts_with(sym) { format!("{sym}({t})") } else { format!("{sym}{t}") };
                let e = match op {
                    UnaryOp::Plus => {
                        let ty = a.e.ty().promote();
                        cast(a.e, ty)
                    }
                    UnaryOp::Neg | UnaryOp::BitNot => {
                        let ty = a.e.ty().promote();
                        let op = if *op == UnaryOp::Neg { UnOp::Neg } else { UnOp::BitNot };
                        Expr::Unary { op, ty, arg: Box::new(cast(a.e, ty)) }
                    }
                    UnaryOp::Not => Expr::Unary { op: UnOp::LogNot, ty: a.e.ty(), arg: Box::new(a.e) },
                };
                Ok(Val::int(e, t, PREC_UNARY))
            }
            ExprKind::Binary { op, lhs, rhs } => match BinOp::lowered(*op) {
                Some(bop) => {
                    let l = self.value(lhs)?;
                    let r = self.value(rhs)?;
                    if l.ptr.is_some() || r.ptr.is_some() {
                        self.pointer_binary(bop, l, r, e.span)
                    } else {
                        Ok(combine(bop, l, r))
                    }
                }
                None => self.value_via_cond(e),
            },
            ExprKind::Assign { target, op, value } => match self.plain_target(target)? {
                Some(_) => {
                    let v = self.assign_var(target, *op, value, e.span)?;
                    Ok(self.var_val(v))
                }
                None => self.assign_lvalue(target, *op, value, e.span),
            },
            ExprKind::IncDec { target, increment, prefix } => {
                let Some(v) = self.plain_target(target)? else {
                    return self.incdec_lvalue(target, *increment, *prefix, e.span);
                };
                if *prefix {
                    self.incdec(v, *increment, e.span)?;
                    Ok(self.var_val(v))
                } else {
                    let ty = self.var_ty(v);
                    let tmp = self.temp(ty);
                    self.variables[tmp.0 as usize].ctype = self.variables[v.0 as usize].ctype.clone();
                    let old = self.var_val(v);
                    let label = format!("{} = {};", self.var_name(tmp), old.text);
                    self.step(EdgeKind::Assign { var: tmp, rhs: Rhs::Expr(old.e) }, e.span, label);
                    self.incdec(v, *increment, e.span)?;
                    Ok(self.var_val(tmp))
                }
            }
            ExprKind::Conditional { cond, then_expr, else_expr } => {
                let n1 = self.node(then_expr.span.line);
                let n2 = self.node(else_expr.span.line);
                self.cond(cond, Some(n1), Some(n2))?;
                self.cur = n1;
                let a = self.value(then_expr)?;
                let end1 = self.cur;
                self.cur = n2;
                let b = self.value(else_expr)?;
                let end2 = self.cur;
                let cty = match (&a.ptr, &b.ptr) {
                    (Some(p), _) | (None, Some(p)) => p.clone(),
                    (None, None) => CType::Int(IntType::usual_arithmetic(a.e.ty(), b.e.ty())),
                };
                let ty = if cty.is_pointer() { POINTER_TYPE } else { IntType::usual_arithmetic(a.e.ty(), b.e.ty()) };
                let (at, bt) = (a.text.clone(), b.text.clone());
                let ae = self.convert(a, &cty, then_expr.span)?;
                let be = self.convert(b, &cty, else_expr.span)?;
                let tmp = self.temp(ty);
                if cty.is_pointer() {
                    self.variables[tmp.0 as usize].ctype = Some(cty);
                }
                let join = self.node(e.span.line);
                let name = self.var_name(tmp);
                self.edge(
                    end1,
                    join,
                    EdgeKind::Assign { var: tmp, rhs: Rhs::Expr(ae) },
                    then_expr.span,
                    format!("{name} = {at};"),
                );
                self.edge(
                    end2,
                    join,
                    EdgeKind::Assign { var: tmp, rhs: Rhs::Expr(be) },
                    else_expr.span,
                    format!("{name} = {bt};"),
                );
                self.cur = join;
                Ok(self.var_val(tmp))
            }
            ExprKind::Cast { ty: CType::Void, .. } => Err(self.error(e.span, "a `void` expression has no value")),
            ExprKind::Cast { ty, expr } => {
                let a = self.value(expr)?;
                self.cast_value(ty, a, e.span)
            }
            ExprKind::Call { callee, args } => self.call_value(callee, args, e.span),
            ExprKind::Comma { lhs, rhs } => {
                self.effect(lhs)?;
                self.value(rhs)
            }
            ExprKind::StmtExpr(b) => {
                self.push_scope();
                let r = self.stmt_expr_value(b, e.span);
                self.pop_scope();
                r
            }
            ExprKind::AddrOf(inner) => {
                let (addr, _) = self.address(inner)?;
                Ok(Val { text: format!("&{}", ast_text(inner)), prec: PREC_UNARY, ..addr })
            }
            ExprKind::Deref(_) | ExprKind::Index { .. } | ExprKind::Member { .. } => {
                let (addr, ty) = self.address(e)?;
                let access = self.access(&ty);
                self.read(addr, ty, access, ast_text(e), e.span)
            }
            ExprKind::InitList(_) => {
                Err(self.error(e.span, "an initializer list `{...}` may only initialize an array or struct in its declaration"))
            }
        }
    }

    /// The plain CFA variable an assignment target names (not in memory), or
    /// `None` when the target is an lvalue in memory.
    fn plain_target(&mut self, target: &'a ast::Expr) -> Res<Option<VarId>> {
        let ExprKind::Var(id) = &target.kind else { return Ok(None) };
        match self.lookup(&id.name) {
            Some(v) if self.variables[v.0 as usize].in_memory => Ok(None),
            Some(v) => Ok(Some(v)),
            None => Err(self.error(id.span, format!("`{}` is not declared", id.name))),
        }
    }

    /// Assignment to a plain variable: an integer (`assign`) or a pointer.
    fn assign_var(&mut self, target: &'a ast::Expr, op: Option<BinaryOp>, value: &'a ast::Expr, span: Span) -> Res<VarId> {
        let Some(v) = self.plain_target(target)? else {
            return Err(self.error(target.span, "internal: not a plain variable"));
        };
        if self.variables[v.0 as usize].ctype.is_some() {
            return self.assign_pointer_var(v, op, value, span);
        }
        let ExprKind::Var(id) = &target.kind else {
            return Err(self.error(target.span, "internal: not a variable"));
        };
        self.assign(id, op, value, span)
    }

    fn stmt_expr_value(&mut self, b: &'a ast::Block, span: Span) -> Res<Val> {
        let Some((last, init)) = b.stmts.split_last() else {
            return Err(self.error(span, "this statement expression has no value"));
        };
        for s in init {
            self.stmt(s)?;
        }
        match &last.kind {
            StmtKind::Expr(e) => self.value(e),
            _ => Err(self.error(span, "this statement expression has no value")),
        }
    }

    /// `a && b`, `a || b` as values: control flow writing 1 or 0 to a temporary.
    fn value_via_cond(&mut self, e: &'a ast::Expr) -> Res<Val> {
        let tmp = self.temp(IntType::Int);
        let t = self.node(e.span.line);
        let f = self.node(e.span.line);
        let join = self.node(e.span.line);
        self.cond(e, Some(t), Some(f))?;
        let name = self.var_name(tmp);
        self.edge(t, join, EdgeKind::Assign { var: tmp, rhs: Rhs::Expr(Expr::int(1)) }, e.span, format!("{name} = 1;"));
        self.edge(f, join, EdgeKind::Assign { var: tmp, rhs: Rhs::Expr(Expr::int(0)) }, e.span, format!("{name} = 0;"));
        self.cur = join;
        Ok(self.var_val(tmp))
    }

    fn incdec(&mut self, v: VarId, increment: bool, span: Span) -> Res<()> {
        let op = if increment { BinaryOp::Add } else { BinaryOp::Sub };
        let one = Val::int(Expr::int(1), "1".into(), PREC_PRIMARY);
        let sum = self.apply(op, self.var_val(v), one, span)?;
        let label = format!("{} = {};", self.var_name(v), sum.text);
        let ty = self.var_cty(v);
        let e = self.convert(sum, &ty, span)?;
        self.step(EdgeKind::Assign { var: v, rhs: Rhs::Expr(e) }, span, label);
        Ok(())
    }

    /// `target = value` / `target op= value`; returns the assigned variable.
    fn assign(&mut self, target: &'a ast::Ident, op: Option<BinaryOp>, value: &'a ast::Expr, span: Span) -> Res<VarId> {
        let Some(v) = self.lookup(&target.name) else {
            return Err(self.error(target.span, format!("`{}` is not declared", target.name)));
        };
        let ty = self.var_ty(v);
        let name = self.var_name(v);
        if op.is_none() {
            if let ExprKind::Call { callee, args } = &value.kind {
                match self.classify(&callee.name) {
                    Callee::Nondet(t) if t == ty => {
                        self.step(EdgeKind::Assign { var: v, rhs: Rhs::Nondet(t) }, span, format!("{name} = {}();", callee.name));
                        return Ok(v);
                    }
                    Callee::Undefined(Type::Int(t)) if t == ty => {
                        self.warn_undefined(callee, true);
                        let argtext = self.effect_args(args)?;
                        self.step(
                            EdgeKind::Assign { var: v, rhs: Rhs::Nondet(t) },
                            span,
                            format!("{name} = {}({argtext});", callee.name),
                        );
                        return Ok(v);
                    }
                    Callee::Defined(fid)
                        if self.functions[fid.0 as usize].ret.map(|r| self.var_cty(r)) == Some(CType::Int(ty)) =>
                    {
                        let (argv, argtext) = self.call_args(fid, callee, args, value.span)?;
                        self.emit_call(fid, argv, Some(v), span, format!("{name} = {}({argtext});", callee.name));
                        return Ok(v);
                    }
                    _ => {}
                }
            }
        }
        let val = self.value(value)?;
        let val = match op {
            None => val,
            Some(op) => self.apply(op, self.var_val(v), val, span)?,
        };
        let label = format!("{name} = {};", val.text);
        let e = self.convert(val, &CType::Int(ty), span)?;
        self.step(EdgeKind::Assign { var: v, rhs: Rhs::Expr(e) }, span, label);
        Ok(v)
    }

    // ----- calls --------------------------------------------------------------

    fn classify(&self, name: &str) -> Callee {
        if ERROR_FUNCTIONS.contains(&name) {
            return Callee::Error;
        }
        if let Some(f) = self.func_ids.get(name) {
            return Callee::Defined(*f);
        }
        match name {
            "__VERIFIER_assert" | "assert" => return Callee::Assert,
            "__VERIFIER_assume" => return Callee::Assume,
            "abort" | "exit" => return Callee::Terminate,
            _ => {}
        }
        if let Some(suffix) = name.strip_prefix("__VERIFIER_nondet_") {
            if let Some(Type::Int(t)) = self.protos.get(name).and_then(|p| p.ret.scalar()) {
                return Callee::Nondet(t);
            }
            return Callee::Nondet(nondet_type(suffix));
        }
        if let Some(m) = memory::MemoryFn::of(name) {
            return Callee::Memory(m);
        }
        match self.protos.get(name) {
            Some(p) => match p.ret.scalar() {
                Some(t) => Callee::Undefined(t),
                None => Callee::UndefinedPointer,
            },
            None => Callee::Undefined(Type::Int(IntType::Int)),
        }
    }

    fn warn_undefined(&mut self, callee: &ast::Ident, scalar: bool) {
        if self.warned.insert(callee.name.clone()) {
            let msg = if scalar {
                format!("`{}` is declared but not defined; each call yields an arbitrary value", callee.name)
            } else {
                format!("`{}` is declared but not defined; calls to it do nothing", callee.name)
            };
            self.warnings.push(Diagnostic::warning(callee.span, msg));
        }
    }

    /// Arguments of a call to an undefined function: evaluated for their
    /// side effects only; returns their text.
    fn effect_args(&mut self, args: &'a [ast::Expr]) -> Res<String> {
        let mut texts = Vec::new();
        for a in args {
            let v = self.value(a)?;
            texts.push(v.text);
        }
        Ok(texts.join(", "))
    }

    /// Arguments of a call to a defined function, converted to the parameter types.
    fn call_args(&mut self, fid: FuncId, callee: &ast::Ident, args: &'a [ast::Expr], span: Span) -> Res<(Vec<Expr>, String)> {
        let params = self.functions[fid.0 as usize].params.clone();
        if params.len() != args.len() {
            return Err(self.error(
                span,
                format!(
                    "`{}` takes {} argument{} but is called with {}",
                    callee.name,
                    params.len(),
                    if params.len() == 1 { "" } else { "s" },
                    args.len()
                ),
            ));
        }
        let mut out = Vec::new();
        let mut texts = Vec::new();
        for (a, p) in args.iter().zip(&params) {
            let v = self.value(a)?;
            texts.push(v.text.clone());
            let ty = self.var_cty(*p);
            out.push(self.convert(v, &ty, a.span)?);
        }
        Ok((out, texts.join(", ")))
    }

    fn emit_call(&mut self, fid: FuncId, args: Vec<Expr>, result: Option<VarId>, span: Span, label: String) {
        let callee = self.functions[fid.0 as usize].clone();
        let call_site = self.cur;
        let return_site = self.node(span.line);
        self.edge(call_site, callee.entry, EdgeKind::Call { callee: fid, args, return_site, result }, span, label);
        self.edge(
            callee.exit,
            return_site,
            EdgeKind::Return { callee: fid, call_site, result },
            span,
            format!("return from {}", callee.name),
        );
        self.cur = return_site;
    }

    /// The error location: a `ReachError` edge to a fresh error node.
    fn reach_error(&mut self, span: Span, label: String) {
        let err = self.node(span.line);
        self.nodes[err.0 as usize].error = true;
        self.edge(self.cur, err, EdgeKind::ReachError, span, label);
        self.dead(span.line);
    }

    fn call_value(&mut self, callee: &'a ast::Ident, args: &'a [ast::Expr], span: Span) -> Res<Val> {
        match self.classify(&callee.name) {
            Callee::Nondet(t) => {
                let tmp = self.temp(t);
                let label = format!("{} = {}();", self.var_name(tmp), callee.name);
                self.step(EdgeKind::Assign { var: tmp, rhs: Rhs::Nondet(t) }, span, label);
                Ok(self.var_val(tmp))
            }
            Callee::Undefined(Type::Int(t)) => {
                self.warn_undefined(callee, true);
                let argtext = self.effect_args(args)?;
                let tmp = self.temp(t);
                let label = format!("{} = {}({argtext});", self.var_name(tmp), callee.name);
                self.step(EdgeKind::Assign { var: tmp, rhs: Rhs::Nondet(t) }, span, label);
                Ok(self.var_val(tmp))
            }
            Callee::Defined(fid) => {
                let Some(ret) = self.functions[fid.0 as usize].ret else {
                    return Err(self.error(span, format!("`{}` returns `void`, so its result cannot be used", callee.name)));
                };
                let ty = self.var_ty(ret);
                let (argv, argtext) = self.call_args(fid, callee, args, span)?;
                let tmp = self.temp(ty);
                self.variables[tmp.0 as usize].ctype = self.variables[ret.0 as usize].ctype.clone();
                let label = format!("{} = {}({argtext});", self.var_name(tmp), callee.name);
                self.emit_call(fid, argv, Some(tmp), span, label);
                Ok(self.var_val(tmp))
            }
            Callee::Memory(f) => match self.memory_call(f, callee, args, span)? {
                Some(v) => Ok(v),
                None => Err(self.error(span, format!("`{}` returns no value, so its result cannot be used", callee.name))),
            },
            Callee::UndefinedPointer => Err(self.error(
                span,
                format!(
                    "`{}` is declared but not defined, and returns a pointer: mini-C cannot invent the object it points to",
                    callee.name
                ),
            )),
            _ => Err(self.error(span, format!("`{}` returns no value, so its result cannot be used", callee.name))),
        }
    }

    fn call_effect(&mut self, callee: &'a ast::Ident, args: &'a [ast::Expr], span: Span) -> Res<()> {
        match self.classify(&callee.name) {
            Callee::Error => {
                let texts: Vec<String> = args.iter().map(ast_text).collect();
                self.reach_error(span, format!("{}({})", callee.name, texts.join(", ")));
                Ok(())
            }
            Callee::Assert | Callee::Assume => {
                let [arg] = args else {
                    return Err(self.error(span, format!("`{}` takes exactly one argument", callee.name)));
                };
                let cont = self.node(span.line);
                if self.classify(&callee.name) == Callee::Assert {
                    let err = self.node(span.line);
                    self.nodes[err.0 as usize].error = true;
                    self.cond(arg, Some(cont), Some(err))?;
                } else {
                    self.cond(arg, Some(cont), None)?;
                }
                self.cur = cont;
                Ok(())
            }
            Callee::Terminate => {
                let argtext = self.effect_args(args)?;
                let term = self.node_in(self.f.id, NodeKind::Terminal, span.line);
                self.edge(self.cur, term, EdgeKind::Terminate, span, format!("{}({argtext})", callee.name));
                self.dead(span.line);
                Ok(())
            }
            Callee::Nondet(_) => {
                self.step(EdgeKind::Blank, span, format!("{}()", callee.name));
                Ok(())
            }
            Callee::Defined(fid) => {
                let (argv, argtext) = self.call_args(fid, callee, args, span)?;
                self.emit_call(fid, argv, None, span, format!("{}({argtext})", callee.name));
                Ok(())
            }
            Callee::Undefined(ret) => {
                self.warn_undefined(callee, ret != Type::Void);
                let argtext = self.effect_args(args)?;
                self.step(EdgeKind::Blank, span, format!("{}({argtext})", callee.name));
                Ok(())
            }
            Callee::UndefinedPointer => {
                self.warn_undefined(callee, false);
                let argtext = self.effect_args(args)?;
                self.step(EdgeKind::Blank, span, format!("{}({argtext})", callee.name));
                Ok(())
            }
            Callee::Memory(f) => self.memory_call(f, callee, args, span).map(|_| ()),
        }
    }

    // ----- expressions for their effect -----------------------------------

    /// An expression statement: its effects; a pure one becomes a blank edge.
    fn effect_stmt(&mut self, e: &'a ast::Expr) -> Res<()> {
        if is_pure(e) {
            self.step(EdgeKind::Blank, e.span, format!("{};", ast_text(e)));
            return Ok(());
        }
        self.effect(e)
    }

    /// Lowers `e` for its side effects only (its value is discarded).
    fn effect(&mut self, e: &'a ast::Expr) -> Res<()> {
        match &e.kind {
            ExprKind::Assign { target, op, value } => match self.plain_target(target)? {
                Some(_) => self.assign_var(target, *op, value, e.span).map(|_| ()),
                None => self.assign_lvalue(target, *op, value, e.span).map(|_| ()),
            },
            ExprKind::IncDec { target, increment, prefix } => match self.plain_target(target)? {
                Some(v) => self.incdec(v, *increment, e.span),
                None => self.incdec_lvalue(target, *increment, *prefix, e.span).map(|_| ()),
            },
            ExprKind::AddrOf(_)
            | ExprKind::Deref(_)
            | ExprKind::Index { .. }
            | ExprKind::Member { .. }
            | ExprKind::InitList(_) => self.value(e).map(|_| ()),
            ExprKind::Call { callee, args } => self.call_effect(callee, args, e.span),
            ExprKind::Comma { lhs, rhs } => {
                self.effect(lhs)?;
                self.effect(rhs)
            }
            ExprKind::Cast { expr, .. } => self.effect(expr),
            ExprKind::StmtExpr(b) => self.block(b),
            ExprKind::Binary { op: BinaryOp::LogAnd | BinaryOp::LogOr, lhs, rhs } if !is_pure(rhs) => {
                let next = self.node(e.span.line);
                let mid = self.node(rhs.span.line);
                if matches!(&e.kind, ExprKind::Binary { op: BinaryOp::LogAnd, .. }) {
                    self.cond(lhs, Some(mid), Some(next))?;
                } else {
                    self.cond(lhs, Some(next), Some(mid))?;
                }
                self.cur = mid;
                self.effect(rhs)?;
                self.join(self.cur, next, e.span);
                self.cur = next;
                Ok(())
            }
            ExprKind::Conditional { cond, then_expr, else_expr } => {
                let n1 = self.node(then_expr.span.line);
                let n2 = self.node(else_expr.span.line);
                let next = self.node(e.span.line);
                self.cond(cond, Some(n1), Some(n2))?;
                self.cur = n1;
                self.effect(then_expr)?;
                self.join(self.cur, next, e.span);
                self.cur = n2;
                self.effect(else_expr)?;
                self.join(self.cur, next, e.span);
                self.cur = next;
                Ok(())
            }
            ExprKind::Binary { lhs, rhs, .. } => {
                self.effect(lhs)?;
                self.effect(rhs)
            }
            ExprKind::Unary { operand, .. } => self.effect(operand),
            ExprKind::IntLit { .. } | ExprKind::Var(_) | ExprKind::StrLit(_) => Ok(()),
        }
    }

    // ----- finishing ----------------------------------------------------------

    fn finish(mut self) -> Program {
        if self.untyped_memory {
            for e in &mut self.edges {
                match &mut e.kind {
                    EdgeKind::Store { access, .. }
                    | EdgeKind::Assign { rhs: Rhs::Load { access, .. }, .. }
                    | EdgeKind::Declare { init: Some(Rhs::Load { access, .. }), .. } => *access = MemAccess::default(),
                    _ => {}
                }
            }
        }
        let n = self.nodes.len();
        let mut out: Vec<Vec<u32>> = vec![Vec::new(); n];
        for e in &self.edges {
            out[e.source.0 as usize].push(e.id.0);
        }
        // 1. Reachability from each entry (intraprocedural: calls step over to the return site).
        let mut keep = vec![false; n];
        for f in &self.functions {
            keep[f.entry.0 as usize] = true;
            keep[f.exit.0 as usize] = true;
            let mut stack = vec![f.entry];
            while let Some(x) = stack.pop() {
                for &eid in &out[x.0 as usize] {
                    let e = &self.edges[eid as usize];
                    let next = match &e.kind {
                        EdgeKind::Call { return_site, .. } => *return_site,
                        EdgeKind::Return { .. } => continue,
                        _ => e.target,
                    };
                    if !keep[next.0 as usize] {
                        keep[next.0 as usize] = true;
                        stack.push(next);
                    }
                }
            }
        }
        let edge_alive = |e: &Edge, keep: &[bool]| -> bool {
            keep[e.source.0 as usize]
                && keep[e.target.0 as usize]
                && match &e.kind {
                    EdgeKind::Call { return_site, .. } => keep[return_site.0 as usize],
                    EdgeKind::Return { call_site, .. } => keep[call_site.0 as usize],
                    _ => true,
                }
        };
        let mut alive: Vec<bool> = self.edges.iter().map(|e| edge_alive(e, &keep)).collect();
        // 2. Contract blank join edges whose source has no other successor.
        let mut out_count = vec![0usize; n];
        for e in self.edges.iter().filter(|e| alive[e.id.0 as usize]) {
            out_count[e.source.0 as usize] += 1;
        }
        let mut alias: Vec<u32> = (0..n as u32).collect();
        fn resolve(alias: &[u32], mut x: u32) -> u32 {
            while alias[x as usize] != x {
                x = alias[x as usize];
            }
            x
        }
        for e in &self.edges {
            let id = e.id.0 as usize;
            if !alive[id] || !self.joins.contains(&e.id.0) {
                continue;
            }
            let src = e.source.0;
            let node = &self.nodes[src as usize];
            if node.kind != NodeKind::Normal || node.error || out_count[src as usize] != 1 {
                continue;
            }
            let tgt = resolve(&alias, e.target.0);
            if tgt == src {
                continue;
            }
            alias[src as usize] = tgt;
            alive[id] = false;
            keep[src as usize] = false;
        }
        for e in self.edges.iter_mut() {
            e.source = NodeId(resolve(&alias, e.source.0));
            e.target = NodeId(resolve(&alias, e.target.0));
            match &mut e.kind {
                EdgeKind::Call { return_site, .. } => *return_site = NodeId(resolve(&alias, return_site.0)),
                EdgeKind::Return { call_site, .. } => *call_site = NodeId(resolve(&alias, call_site.0)),
                _ => {}
            }
        }
        // 3. Renumber: by function, entry first, exit last, else creation order.
        let mut order: Vec<usize> = (0..n).filter(|&i| keep[i]).collect();
        let rank = |k: NodeKind| match k {
            NodeKind::Entry => 0,
            NodeKind::Exit => 2,
            _ => 1,
        };
        order.sort_by_key(|&i| (self.nodes[i].function.0, rank(self.nodes[i].kind), i));
        let mut new_id = vec![u32::MAX; n];
        for (k, &i) in order.iter().enumerate() {
            new_id[i] = k as u32;
        }
        let map = |x: NodeId| NodeId(new_id[x.0 as usize]);
        let mut nodes: Vec<Node> = order
            .iter()
            .map(|&i| {
                let mut nd = self.nodes[i].clone();
                nd.id = NodeId(new_id[i]);
                nd
            })
            .collect();
        let mut edges = Vec::new();
        for e in std::mem::take(&mut self.edges) {
            if !alive[e.id.0 as usize] {
                continue;
            }
            let mut e = e;
            e.id = EdgeId(edges.len() as u32);
            e.source = map(e.source);
            e.target = map(e.target);
            match &mut e.kind {
                EdgeKind::Call { return_site, .. } => *return_site = map(*return_site),
                EdgeKind::Return { call_site, .. } => *call_site = map(*call_site),
                _ => {}
            }
            nodes[e.source.0 as usize].outgoing.push(e.id);
            nodes[e.target.0 as usize].incoming.push(e.id);
            edges.push(e);
        }
        for f in self.functions.iter_mut() {
            f.entry = map(f.entry);
            f.exit = map(f.exit);
        }
        // 4. Lines: a location belongs to the statement that leaves it; a
        //    location without successors to the statement that reaches it.
        for nd in nodes.iter_mut() {
            if nd.error && nd.kind == NodeKind::Normal {
                if let Some(e) = nd.incoming.first() {
                    if nd.line == 0 {
                        nd.line = edges[e.0 as usize].line;
                    }
                }
                continue;
            }
            let intra = nd.outgoing.iter().map(|e| &edges[e.0 as usize]).find(|e| !matches!(e.kind, EdgeKind::Return { .. }));
            if let Some(e) = intra {
                nd.line = e.line;
            } else if let Some(e) = nd
                .incoming
                .iter()
                .map(|e| &edges[e.0 as usize])
                .filter(|e| !matches!(e.kind, EdgeKind::Call { .. }))
                .map(|e| e.line)
                .max()
            {
                nd.line = e;
            }
        }
        let main = self.func_ids.get("main").copied().unwrap_or(FuncId(0));
        let mut program =
            Program { functions: self.functions, nodes, edges, variables: self.variables, main, warnings: self.warnings };
        mark_loop_heads(&mut program);
        program
    }
}

/// Marks as loop heads the targets of back edges of an iterative DFS from
/// each function's entry (calls are stepped over via their return site).
fn mark_loop_heads(p: &mut Program) {
    let n = p.nodes.len();
    // 0 = white, 1 = on stack, 2 = done
    let mut color = vec![0u8; n];
    let mut heads = Vec::new();
    for f in &p.functions {
        let entry = f.entry.0 as usize;
        if color[entry] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(entry, 0)];
        color[entry] = 1;
        while let Some(&mut (x, ref mut i)) = stack.last_mut() {
            let succ = intra_successors(p, NodeId(x as u32));
            if *i < succ.len() {
                let y = succ[*i].0 as usize;
                *i += 1;
                match color[y] {
                    0 => {
                        color[y] = 1;
                        stack.push((y, 0));
                    }
                    1 => heads.push(y),
                    _ => {}
                }
            } else {
                color[x] = 2;
                stack.pop();
            }
        }
    }
    for h in heads {
        p.nodes[h].loop_head = true;
    }
}

/// Successors of a node within its own function: a call edge leads to its
/// return site, return edges (which leave the exit) are skipped.
pub(crate) fn intra_successors(p: &Program, id: NodeId) -> Vec<NodeId> {
    p.successors(id)
        .filter_map(|e| match &e.kind {
            EdgeKind::Call { return_site, .. } => Some(*return_site),
            EdgeKind::Return { .. } => None,
            _ => Some(e.target),
        })
        .collect()
}

fn item_span(i: &Item) -> Span {
    match i {
        Item::Global(v) => v.span,
        Item::Prototype(d) => d.span,
        Item::Function(f) => f.decl.span,
    }
}

/// The line of the last statement of a block (for `default return`).
fn end_line(b: &ast::Block) -> u32 {
    b.stmts.last().map(|s| s.span.line).unwrap_or(b.span.line).max(b.span.line)
}

/// Collects the `case`/`default` labels of a switch body in order
/// (`None` = `default`), not descending into nested switches.
fn collect_cases<'a>(s: &'a ast::Stmt, out: &mut Vec<(Option<&'a ast::Expr>, Span)>) {
    match &s.kind {
        StmtKind::Case { value, stmt } => {
            out.push((Some(value), s.span));
            collect_cases(stmt, out);
        }
        StmtKind::Default(stmt) => {
            out.push((None, s.span));
            collect_cases(stmt, out);
        }
        StmtKind::If { then_branch, else_branch, .. } => {
            collect_cases(then_branch, out);
            if let Some(e) = else_branch {
                collect_cases(e, out);
            }
        }
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::For { body, .. } => collect_cases(body, out),
        StmtKind::Labeled { stmt, .. } => collect_cases(stmt, out),
        StmtKind::Block(b) => {
            for s in &b.stmts {
                collect_cases(s, out);
            }
        }
        _ => {}
    }
}

/// The `static` local declarations of a function body, in source order.
fn collect_static_locals<'a>(s: &'a ast::Stmt, out: &mut Vec<&'a ast::VarDecl>) {
    let decls = |ds: &'a [ast::VarDecl], out: &mut Vec<&'a ast::VarDecl>| {
        out.extend(ds.iter().filter(|d| d.storage == minic::ast::Storage::Static));
    };
    match &s.kind {
        StmtKind::Decl(ds) => decls(ds, out),
        StmtKind::For { init: Some(ForInit::Decl(ds)), body, .. } => {
            decls(ds, out);
            collect_static_locals(body, out);
        }
        StmtKind::If { then_branch, else_branch, .. } => {
            collect_static_locals(then_branch, out);
            if let Some(e) = else_branch {
                collect_static_locals(e, out);
            }
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. }
        | StmtKind::Switch { body, .. } => collect_static_locals(body, out),
        StmtKind::Labeled { stmt, .. } | StmtKind::Case { stmt, .. } | StmtKind::Default(stmt) => {
            collect_static_locals(stmt, out)
        }
        StmtKind::Block(b) => {
            for s in &b.stmts {
                collect_static_locals(s, out);
            }
        }
        _ => {}
    }
}

/// No side effects and no control flow: can be lowered without edges.
fn is_pure(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::IntLit { .. } | ExprKind::Var(_) | ExprKind::StrLit(_) => true,
        ExprKind::Unary { operand, .. } => is_pure(operand),
        ExprKind::Binary { op: BinaryOp::LogAnd | BinaryOp::LogOr, .. } => false,
        ExprKind::Binary { lhs, rhs, .. } => is_pure(lhs) && is_pure(rhs),
        ExprKind::Cast { ty: CType::Int(_), expr } => is_pure(expr),
        _ => false,
    }
}

/// C-like text of an AST expression (for labels of calls that are not lowered).
pub(crate) fn ast_text(e: &ast::Expr) -> String {
    fn go(e: &ast::Expr) -> (String, u8) {
        match &e.kind {
            ExprKind::IntLit { value, ty } => (literal_text(*value, *ty), PREC_PRIMARY),
            ExprKind::StrLit(s) => (format!("{s:?}"), PREC_PRIMARY),
            ExprKind::Var(id) => (id.name.clone(), PREC_PRIMARY),
            ExprKind::Unary { op, operand } => {
                let (t, p) = go(operand);
                (format!("{}{}", op.symbol(), paren(&t, p, PREC_UNARY)), PREC_UNARY)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let p = match BinOp::lowered(*op) {
                    Some(b) => binop_prec(b),
                    None if *op == BinaryOp::LogAnd => 5,
                    None => 4,
                };
                let (l, lp) = go(lhs);
                let (r, rp) = go(rhs);
                (format!("{} {} {}", paren(&l, lp, p), op.symbol(), paren(&r, rp, p + 1)), p)
            }
            ExprKind::Assign { target, op, value } => {
                let (v, vp) = go(value);
                let o = op.map(|o| o.symbol()).unwrap_or("");
                (format!("{} {o}= {}", go(target).0, paren(&v, vp, 2)), 2)
            }
            ExprKind::IncDec { target, increment, prefix } => {
                let o = if *increment { "++" } else { "--" };
                let (t, tp) = go(target);
                if *prefix {
                    (format!("{o}{}", paren(&t, tp, PREC_UNARY)), PREC_UNARY)
                } else {
                    (format!("{}{o}", paren(&t, tp, 15)), 15)
                }
            }
            ExprKind::Conditional { cond, then_expr, else_expr } => {
                let (c, cp) = go(cond);
                let (a, _) = go(then_expr);
                let (b, bp) = go(else_expr);
                (format!("{} ? {a} : {}", paren(&c, cp, 4), paren(&b, bp, 3)), 3)
            }
            ExprKind::Cast { ty, expr } => {
                let (t, p) = go(expr);
                (format!("({ty}){}", paren(&t, p, PREC_UNARY)), PREC_UNARY)
            }
            ExprKind::Call { callee, args } => {
                let a: Vec<String> = args.iter().map(|a| paren(&go(a).0, go(a).1, 2)).collect();
                (format!("{}({})", callee.name, a.join(", ")), 15)
            }
            ExprKind::Comma { lhs, rhs } => {
                let (l, _) = go(lhs);
                let (r, rp) = go(rhs);
                (format!("{l}, {}", paren(&r, rp, 2)), 1)
            }
            ExprKind::StmtExpr(_) => ("({ ... })".to_string(), PREC_PRIMARY),
            ExprKind::AddrOf(inner) => {
                let (t, p) = go(inner);
                (format!("&{}", paren(&t, p, PREC_UNARY)), PREC_UNARY)
            }
            ExprKind::Deref(inner) => {
                let (t, p) = go(inner);
                (format!("*{}", paren(&t, p, PREC_UNARY)), PREC_UNARY)
            }
            ExprKind::Index { base, index } => {
                let (b, bp) = go(base);
                (format!("{}[{}]", paren(&b, bp, 15), go(index).0), 15)
            }
            ExprKind::Member { base, field, arrow } => {
                let (b, bp) = go(base);
                (format!("{}{}{}", paren(&b, bp, 15), if *arrow { "->" } else { "." }, field.name), 15)
            }
            ExprKind::InitList(items) => {
                let texts: Vec<String> = items.iter().map(|i| go(i).0).collect();
                (format!("{{{}}}", texts.join(", ")), PREC_PRIMARY)
            }
        }
    }
    go(e).0
}
