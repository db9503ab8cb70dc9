//! Lowering mini-C's memory: pointers, arrays, structs and the heap.
//!
//! The memory model of the CFA (`docs/minic.md`, "Memory"):
//!
//! * Memory is a set of *objects* (one per array, struct or address-taken
//!   variable, and one per `malloc`/`calloc`/`alloca`), each a number of
//!   bytes. A pointer is the integer `id·2³² + offset` of IR type
//!   [`POINTER_TYPE`]; NULL is 0. So pointer comparison and arithmetic
//!   within an object are ordinary integer operations on edges, and every
//!   analysis may treat a pointer as a number.
//! * A variable whose address is never taken and that is neither an array
//!   nor a struct stays a plain CFA variable (pointers included). The other
//!   variables *live in memory*: the CFA variable of the same name holds the
//!   address of the object ([`Variable::in_memory`]), allocated by its
//!   declaration ([`Rhs::Alloc`]), and every read or write of it is a load
//!   ([`Rhs::Load`]) or store ([`EdgeKind::Store`]).
//! * An lvalue (`*p`, `a[i]`, `s.f`, `p->f`) is lowered to an explicit
//!   address expression: `a[i]` is `a + i·sizeof(a[0])`, `s.f` is
//!   `&s + offsetof(f)`; reading it is one `Load` edge into a temporary.
//! * Conversions are explicit: the constant 0 becomes the null pointer;
//!   `void *` converts to and from every object pointer; anything else
//!   between pointers and integers, or between unrelated pointer types, is
//!   refused with a located message.
//! * Each load and store carries a [`MemAccess`] for the memory regions of
//!   predicate analysis: the accessed type, and `struct S.f` for a field
//!   none of whose addresses is taken (`&s.f`, `&p->f`) anywhere. A program
//!   that uses a `void *` other than a fresh allocation as a typed pointer
//!   may access a cell at two types: all its accesses get the untyped
//!   default access (one region, whatever the setting).

use super::*;
use minic::types::Layout;

/// A memory function of the C library that the lowering knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MemoryFn {
    /// `malloc(n)`: a heap object of `n` uninitialized bytes.
    Malloc,
    /// `calloc(n, size)`: a heap object of `n·size` zero bytes.
    Calloc,
    /// `alloca(n)`: a stack object of `n` uninitialized bytes.
    Alloca,
    /// `free(p)`.
    Free,
}

impl MemoryFn {
    /// The memory function called `name`, if it is one.
    pub(super) fn of(name: &str) -> Option<MemoryFn> {
        Some(match name {
            "malloc" => MemoryFn::Malloc,
            "calloc" => MemoryFn::Calloc,
            "alloca" | "__builtin_alloca" => MemoryFn::Alloca,
            "free" => MemoryFn::Free,
            _ => return None,
        })
    }
}

/// The names whose address is taken (`&x`) anywhere in the unit: variables
/// of these names live in memory (an over-approximation across scopes only
/// costs precision). A field whose address is taken (`&s.f`, `&p->f`) is
/// in the set as `.f` (no variable name starts with a dot).
pub(super) fn addr_taken_names(unit: &TranslationUnit) -> HashSet<String> {
    fn expr(e: &ast::Expr, out: &mut HashSet<String>) {
        match &e.kind {
            ExprKind::AddrOf(inner) => {
                match &inner.kind {
                    ExprKind::Var(id) => {
                        out.insert(id.name.clone());
                    }
                    ExprKind::Member { field, .. } => {
                        out.insert(format!(".{}", field.name));
                    }
                    _ => {}
                }
                expr(inner, out);
            }
            ExprKind::IntLit { .. } | ExprKind::StrLit(_) | ExprKind::Var(_) => {}
            ExprKind::Unary { operand: a, .. } | ExprKind::Cast { expr: a, .. } | ExprKind::Deref(a) => expr(a, out),
            ExprKind::Member { base: a, .. } => expr(a, out),
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::Comma { lhs, rhs } => {
                expr(lhs, out);
                expr(rhs, out);
            }
            ExprKind::Index { base, index } => {
                expr(base, out);
                expr(index, out);
            }
            ExprKind::Assign { target, value, .. } => {
                expr(target, out);
                expr(value, out);
            }
            ExprKind::IncDec { target, .. } => expr(target, out),
            ExprKind::Conditional { cond, then_expr, else_expr } => {
                expr(cond, out);
                expr(then_expr, out);
                expr(else_expr, out);
            }
            ExprKind::Call { args, .. } | ExprKind::InitList(args) => args.iter().for_each(|a| expr(a, out)),
            ExprKind::StmtExpr(b) => b.stmts.iter().for_each(|s| stmt(s, out)),
        }
    }
    fn decls(ds: &[ast::VarDecl], out: &mut HashSet<String>) {
        ds.iter().filter_map(|d| d.init.as_ref()).for_each(|e| expr(e, out));
    }
    fn stmt(s: &ast::Stmt, out: &mut HashSet<String>) {
        match &s.kind {
            StmtKind::Decl(ds) => decls(ds, out),
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) | StmtKind::Case { value: e, .. } => {
                expr(e, out);
                if let StmtKind::Case { stmt: st, .. } = &s.kind {
                    stmt(st, out);
                }
            }
            StmtKind::If { cond, then_branch, else_branch } => {
                expr(cond, out);
                stmt(then_branch, out);
                if let Some(e) = else_branch {
                    stmt(e, out);
                }
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } | StmtKind::Switch { cond, body } => {
                expr(cond, out);
                stmt(body, out);
            }
            StmtKind::For { init, cond, step, body } => {
                match init {
                    Some(ForInit::Decl(ds)) => decls(ds, out),
                    Some(ForInit::Expr(e)) => expr(e, out),
                    None => {}
                }
                cond.iter().chain(step.iter()).for_each(|e| expr(e, out));
                stmt(body, out);
            }
            StmtKind::Labeled { stmt: st, .. } | StmtKind::Default(st) => stmt(st, out),
            StmtKind::Block(b) => b.stmts.iter().for_each(|s| stmt(s, out)),
            _ => {}
        }
    }
    let mut out = HashSet::new();
    for item in &unit.items {
        match item {
            Item::Global(v) => decls(std::slice::from_ref(v), &mut out),
            Item::Function(f) => f.body.stmts.iter().for_each(|s| stmt(s, &mut out)),
            Item::Prototype(_) => {}
        }
    }
    out
}

/// The pointed-to type of a pointer type.
fn pointee(t: &CType) -> Option<&CType> {
    match t {
        CType::Pointer(inner) => Some(inner),
        _ => None,
    }
}

/// Whether a value of pointer type `from` may be used as a `to` without a cast.
fn pointers_compatible(from: &CType, to: &CType) -> bool {
    match (pointee(from), pointee(to)) {
        (Some(a), Some(b)) => a == b || *a == CType::Void || *b == CType::Void,
        _ => false,
    }
}

/// `a + b` in the pointer type (addresses and byte offsets).
fn ptr_add(a: Expr, b: Expr) -> Expr {
    if let Expr::Const { value: 0, .. } = b {
        return a;
    }
    Expr::Binary { op: BinOp::Add, ty: POINTER_TYPE, lhs: Box::new(a), rhs: Box::new(b) }
}

/// A constant of the pointer type (a byte count or offset).
fn ptr_const(n: u64) -> Expr {
    Expr::Const { value: i128::from(n), ty: POINTER_TYPE }
}

impl<'a> Builder<'a> {
    /// The layout of types with this unit's structs.
    fn size_of(&self, ty: &CType) -> Option<u64> {
        let fields = |tag: &str| self.structs.iter().find(|s| s.tag == tag).map(|s| s.fields.clone());
        Layout { fields: &fields }.size(ty)
    }

    fn field_of(&self, tag: &str, field: &str) -> Option<(u64, CType)> {
        let fields = |tag: &str| self.structs.iter().find(|s| s.tag == tag).map(|s| s.fields.clone());
        Layout { fields: &fields }.field(tag, field)
    }

    /// Whether a variable of type `ty` called `name` lives in memory.
    pub(super) fn lives_in_memory(&self, ty: &CType, name: &str) -> bool {
        matches!(ty, CType::Array(..) | CType::Struct(_)) || self.addr_taken.contains(name)
    }

    /// A new variable for a declaration of C type `ty`: an integer scalar as
    /// before, a pointer of IR type [`POINTER_TYPE`], or — when it lives in
    /// memory — the variable holding its object's address.
    pub(super) fn typed_var(&mut self, name: &str, qualified: String, ty: &CType, scope: VarScope, span: Span) -> Res<VarId> {
        let in_memory = self.lives_in_memory(ty, name);
        let ir = match ty {
            _ if in_memory => POINTER_TYPE,
            CType::Int(t) => *t,
            CType::Pointer(_) => POINTER_TYPE,
            CType::Void => return Err(self.error(span, format!("the variable `{name}` cannot have type `void`"))),
            CType::Array(..) | CType::Struct(_) => POINTER_TYPE,
        };
        if in_memory && self.size_of(ty).is_none() {
            return Err(self.error(span, format!("the size of `{ty}` is not known (is the struct defined?)")));
        }
        let v = self.new_var(name, qualified, ir, scope, Some(span));
        let var = &mut self.variables[v.0 as usize];
        var.in_memory = in_memory;
        if in_memory || !matches!(ty, CType::Int(_)) {
            var.ctype = Some(ty.clone());
        }
        Ok(v)
    }

    /// The C type a plain (not in-memory) variable's value has.
    pub(super) fn var_cty(&self, v: VarId) -> CType {
        let var = &self.variables[v.0 as usize];
        match (&var.ctype, var.in_memory) {
            (Some(t), false) => t.clone(),
            _ => CType::Int(var.ty),
        }
    }

    /// `v` converted to the C type `to` as C's assignment does; refuses
    /// conversions between pointers and integers (except the null pointer
    /// constant 0) and between unrelated pointer types.
    pub(super) fn convert(&mut self, v: Val, to: &CType, span: Span) -> Res<Expr> {
        match (to, &v.ptr) {
            (CType::Int(t), None) => Ok(cast(v.e, *t)),
            (CType::Int(IntType::Bool), Some(_)) => {
                Ok(Expr::Binary { op: BinOp::Ne, ty: POINTER_TYPE, lhs: Box::new(v.e), rhs: Box::new(ptr_const(0)) })
            }
            (CType::Int(t), Some(p)) => {
                Err(self.error(span, format!("a pointer (`{p}`) cannot be converted to the integer type `{t}` in mini-C")))
            }
            (CType::Pointer(_), Some(p)) => {
                if pointers_compatible(p, to) {
                    let fresh = matches!(v.e, Expr::Var { var, .. } if self.alloc_results.contains(&var));
                    if pointee(p) == Some(&CType::Void) && pointee(to) != Some(&CType::Void) && !fresh {
                        self.untyped_memory = true;
                    }
                    Ok(v.e)
                } else {
                    Err(self.error(
                        span,
                        format!("a `{p}` cannot be used as a `{to}`: conversions between unrelated pointer types are not part of mini-C"),
                    ))
                }
            }
            (CType::Pointer(_), None) => match v.e {
                Expr::Const { value: 0, .. } => Ok(ptr_const(0)),
                _ => Err(self.error(
                    span,
                    format!("an integer cannot be converted to the pointer type `{to}` (only the constant 0, the null pointer)"),
                )),
            },
            (CType::Void, _) => Err(self.error(span, "a `void` expression has no value")),
            (CType::Array(..) | CType::Struct(_), _) => {
                Err(self.error(span, format!("a whole `{to}` cannot be assigned in mini-C: assign its elements or fields")))
            }
        }
    }

    /// `(ty) a`: integer conversions as before; pointer casts only to
    /// `void *`, from `void *`, to the same type, or of the constant 0.
    pub(super) fn cast_value(&mut self, ty: &CType, a: Val, span: Span) -> Res<Val> {
        let text = format!("({ty}){}", paren(&a.text, a.prec, PREC_UNARY));
        match ty {
            CType::Int(t) if a.ptr.is_none() => Ok(Val::int(Expr::Cast { ty: *t, arg: Box::new(a.e) }, text, PREC_UNARY)),
            CType::Pointer(_) => {
                let e = match &a.ptr {
                    Some(p) if !pointers_compatible(p, ty) => {
                        return Err(self.error(
                            span,
                            format!(
                                "the cast from `{p}` to `{ty}` is not part of mini-C (casts between unrelated pointer types)"
                            ),
                        ))
                    }
                    _ => self.convert(a, ty, span)?,
                };
                Ok(Val { e, text, prec: PREC_UNARY, ptr: Some(ty.clone()) })
            }
            _ => {
                let e = self.convert(a, ty, span)?;
                Ok(Val::int(e, text, PREC_UNARY))
            }
        }
    }

    /// The address of an lvalue and the type of the object there.
    pub(super) fn address(&mut self, e: &'a ast::Expr) -> Res<(Val, CType)> {
        let r = self.address_of(e);
        if !matches!(e.kind, ExprKind::Member { .. }) {
            self.lvalue_field = None;
        }
        r
    }

    /// The memory access of an lvalue of type `ty` whose address
    /// [`Self::address`] just computed (its own-region field, if any).
    pub(super) fn access(&mut self, ty: &CType) -> MemAccess {
        MemAccess { ty: ty.to_string(), field: self.lvalue_field.take() }
    }

    /// [`Self::address`] without the bookkeeping of [`Self::lvalue_field`].
    fn address_of(&mut self, e: &'a ast::Expr) -> Res<(Val, CType)> {
        match &e.kind {
            ExprKind::Var(id) => {
                let Some(v) = self.lookup(&id.name) else {
                    return Err(self.error(id.span, format!("`{}` is not declared", id.name)));
                };
                let var = &self.variables[v.0 as usize];
                let Some(ty) = var.ctype.clone().filter(|_| var.in_memory) else {
                    return Err(self.error(id.span, format!("internal: `{}` does not live in memory", id.name)));
                };
                let val = Val { ptr: Some(ty.clone().pointer_to()), text: format!("&{}", id.name), ..self.var_val(v) };
                Ok((val, ty))
            }
            ExprKind::Deref(inner) => {
                let p = self.value(inner)?;
                let Some(ty) = p.ptr.as_ref().and_then(pointee).cloned() else {
                    return Err(self.error(e.span, format!("`*` needs a pointer, but `{}` is an integer", p.text)));
                };
                if ty == CType::Void {
                    return Err(self.error(e.span, "a `void *` cannot be dereferenced: cast it to a pointer type first"));
                }
                Ok((p, ty))
            }
            ExprKind::Index { base, index } => {
                let b = self.value(base)?;
                let i = self.value(index)?;
                let (b, i) = if b.ptr.is_none() && i.ptr.is_some() { (i, b) } else { (b, i) };
                let text = format!("{}[{}]", paren(&b.text, b.prec, PREC_PRIMARY), i.text);
                let Some(elem) = b.ptr.as_ref().and_then(pointee).cloned() else {
                    return Err(self.error(e.span, format!("`{}` is not an array or pointer, so it cannot be indexed", b.text)));
                };
                let addr = self.pointer_offset(b, i, false, e.span)?;
                Ok((Val { text: format!("&{text}"), ..addr }, elem))
            }
            ExprKind::Member { base, field, arrow } => {
                let (addr, sty) = if *arrow {
                    let p = self.value(base)?;
                    let Some(t) = p.ptr.as_ref().and_then(pointee).cloned() else {
                        return Err(
                            self.error(base.span, format!("`->` needs a pointer to a struct, but `{}` is not a pointer", p.text))
                        );
                    };
                    (p, t)
                } else {
                    self.address(base)?
                };
                let CType::Struct(tag) = &sty else {
                    return Err(self.error(field.span, format!("`{}` is not a struct (it has type `{sty}`)", ast_text(base))));
                };
                let Some((offset, fty)) = self.field_of(tag, &field.name) else {
                    return Err(self.error(field.span, format!("`struct {tag}` has no field `{}`", field.name)));
                };
                let text = format!("&{}", ast_text(e));
                self.lvalue_field =
                    (!self.addr_taken.contains(&format!(".{}", field.name))).then(|| format!("struct {tag}.{}", field.name));
                let e = ptr_add(addr.e, ptr_const(offset));
                Ok((Val { e, text, prec: PREC_UNARY, ptr: Some(fty.clone().pointer_to()) }, fty))
            }
            _ => Err(self.error(e.span, format!("`{}` is not an lvalue, so it has no address", ast_text(e)))),
        }
    }

    /// The value of the object of type `ty` at `addr` (source text `text`):
    /// a load into a temporary for scalars and pointers; an array decays to
    /// the address of its first element.
    pub(super) fn read(&mut self, addr: Val, ty: CType, access: MemAccess, text: String, span: Span) -> Res<Val> {
        let ir = match &ty {
            CType::Int(t) => *t,
            CType::Pointer(_) => POINTER_TYPE,
            CType::Array(elem, _) => {
                return Ok(Val { e: addr.e, text, prec: PREC_PRIMARY, ptr: Some((**elem).clone().pointer_to()) });
            }
            CType::Struct(_) => {
                return Err(
                    self.error(span, format!("a whole struct (`{text}`) cannot be used as a value in mini-C: use its fields"))
                )
            }
            CType::Void => return Err(self.error(span, "a `void` expression has no value")),
        };
        let bytes = self.size_of(&ty).unwrap_or(0);
        let tmp = self.temp(ir);
        if !matches!(ty, CType::Int(_)) {
            self.variables[tmp.0 as usize].ctype = Some(ty.clone());
        }
        let label = format!("{} = {text};", self.var_name(tmp));
        self.step(EdgeKind::Assign { var: tmp, rhs: Rhs::Load { addr: addr.e, ty: ir, bytes, access } }, span, label);
        Ok(Val { text, ..self.var_val(tmp) })
    }

    /// `p + i` (or `p - i`) for a pointer `p`: `i` scaled by the size of
    /// what `p` points to.
    fn pointer_offset(&mut self, p: Val, i: Val, subtract: bool, span: Span) -> Res<Val> {
        let Some(elem) = p.ptr.as_ref().and_then(pointee).cloned() else {
            return Err(self.error(span, "internal: pointer arithmetic on a non-pointer"));
        };
        if i.ptr.is_some() {
            return Err(self.error(span, "two pointers cannot be added"));
        }
        let Some(size) = self.size_of(&elem) else {
            return Err(self.error(
                span,
                format!(
                    "arithmetic on `{}` is not part of mini-C: the size of `{elem}` is not known",
                    p.ptr.clone().unwrap_or(CType::Void)
                ),
            ));
        };
        let op = if subtract { BinOp::Sub } else { BinOp::Add };
        let scaled = match cast(i.e, POINTER_TYPE) {
            Expr::Const { value, .. } if value >= 0 => Expr::Const { value: value * i128::from(size), ty: POINTER_TYPE },
            other if size == 1 => other,
            other => Expr::Binary { op: BinOp::Mul, ty: POINTER_TYPE, lhs: Box::new(other), rhs: Box::new(ptr_const(size)) },
        };
        let e = Expr::Binary { op, ty: POINTER_TYPE, lhs: Box::new(p.e), rhs: Box::new(scaled) };
        let prec = binop_prec(op);
        let text = format!("{} {} {}", paren(&p.text, p.prec, prec), op.symbol(), paren(&i.text, i.prec, prec + 1));
        Ok(Val { e, text, prec, ptr: p.ptr })
    }

    /// A binary operator with a pointer operand: `p ± i`, `i + p`, `p - q`
    /// (in elements, as `int`), and comparisons of pointers (with each other
    /// or with the null pointer constant 0).
    pub(super) fn pointer_binary(&mut self, op: BinOp, l: Val, r: Val, span: Span) -> Res<Val> {
        match (op, l.ptr.is_some(), r.ptr.is_some()) {
            (BinOp::Add, true, false) => self.pointer_offset(l, r, false, span),
            (BinOp::Add, false, true) => self.pointer_offset(r, l, false, span),
            (BinOp::Sub, true, false) => self.pointer_offset(l, r, true, span),
            (BinOp::Sub, true, true) => {
                let elem = l.ptr.as_ref().and_then(pointee).cloned().unwrap_or(CType::Void);
                let Some(size) = self.size_of(&elem).filter(|_| l.ptr == r.ptr) else {
                    return Err(self.error(span, "pointers can only be subtracted when they have the same (non-`void`) type"));
                };
                let diff = Expr::Binary {
                    op: BinOp::Sub,
                    ty: IntType::LongLong,
                    lhs: Box::new(cast(l.e, IntType::LongLong)),
                    rhs: Box::new(cast(r.e, IntType::LongLong)),
                };
                let elems = Expr::Binary {
                    op: BinOp::Div,
                    ty: IntType::LongLong,
                    lhs: Box::new(diff),
                    rhs: Box::new(Expr::Const { value: i128::from(size), ty: IntType::LongLong }),
                };
                let text = format!("{} - {}", paren(&l.text, l.prec, 12), paren(&r.text, r.prec, 13));
                Ok(Val::int(cast(elems, IntType::Int), text, 12))
            }
            (op, _, _) if op.is_comparison() => {
                let null_ok = |v: &Val| v.ptr.is_some() || matches!(v.e, Expr::Const { value: 0, .. });
                if !null_ok(&l) || !null_ok(&r) {
                    return Err(self.error(span, "a pointer can only be compared with a pointer or with 0 (the null pointer)"));
                }
                if let (Some(a), Some(b)) = (&l.ptr, &r.ptr) {
                    if !pointers_compatible(a, b) {
                        return Err(
                            self.error(span, format!("a `{a}` cannot be compared with a `{b}` (unrelated pointer types)"))
                        );
                    }
                }
                let (l, r) = (Val { ptr: None, ..l }, Val { ptr: None, ..r });
                let (l, r) = (Val { e: cast(l.e.clone(), POINTER_TYPE), ..l }, Val { e: cast(r.e.clone(), POINTER_TYPE), ..r });
                Ok(combine(op, l, r))
            }
            _ => {
                Err(self.error(span, format!("`{}` does not apply to pointers (only `+`, `-` and comparisons do)", op.symbol())))
            }
        }
    }

    /// Writes `value` (converted to `ty`) to the object at `addr`; returns
    /// the value written.
    pub(super) fn write(
        &mut self,
        addr: Val,
        ty: &CType,
        access: MemAccess,
        value: Val,
        target_text: &str,
        span: Span,
    ) -> Res<Val> {
        let text = value.text.clone();
        let stored = self.convert(value, ty, span)?;
        let bytes = self.size_of(ty).unwrap_or(0);
        self.step(
            EdgeKind::Store { addr: addr.e, value: stored.clone(), bytes, access },
            span,
            format!("{target_text} = {text};"),
        );
        let ptr = ty.is_pointer().then(|| ty.clone());
        Ok(Val { e: stored, text, prec: PREC_PRIMARY, ptr })
    }

    /// `target = value` or `target op= value` for a target in memory (or a
    /// pointer variable); returns the value assigned.
    pub(super) fn assign_lvalue(
        &mut self,
        target: &'a ast::Expr,
        op: Option<BinaryOp>,
        value: &'a ast::Expr,
        span: Span,
    ) -> Res<Val> {
        let (addr, ty) = self.address(target)?;
        let access = self.access(&ty);
        let target_text = ast_text(target);
        let val = self.value(value)?;
        let val = match op {
            None => val,
            Some(op) => {
                let old = self.read(addr.clone(), ty.clone(), access.clone(), target_text.clone(), span)?;
                self.apply(op, old, val, span)?
            }
        };
        self.write(addr, &ty, access, val, &target_text, span)
    }

    /// `old op val` for compound assignments, pointers included.
    pub(super) fn apply(&mut self, op: BinaryOp, old: Val, val: Val, span: Span) -> Res<Val> {
        let Some(bop) = BinOp::lowered(op) else {
            return Err(self.error(span, "this compound assignment is not part of mini-C"));
        };
        if old.ptr.is_some() || val.ptr.is_some() {
            self.pointer_binary(bop, old, val, span)
        } else {
            Ok(combine(bop, old, val))
        }
    }

    /// `++`/`--` of an lvalue in memory; the value before or after.
    pub(super) fn incdec_lvalue(&mut self, target: &'a ast::Expr, increment: bool, prefix: bool, span: Span) -> Res<Val> {
        let (addr, ty) = self.address(target)?;
        let access = self.access(&ty);
        let text = ast_text(target);
        let old = self.read(addr.clone(), ty.clone(), access.clone(), text.clone(), span)?;
        let one = Val::int(Expr::int(1), "1".into(), PREC_PRIMARY);
        let op = if increment { BinaryOp::Add } else { BinaryOp::Sub };
        let new = self.apply(op, old.clone(), one, span)?;
        let written = self.write(addr, &ty, access, new, &text, span)?;
        Ok(if prefix { written } else { old })
    }

    /// A pointer variable (not in memory) as an assignment target.
    pub(super) fn assign_pointer_var(&mut self, v: VarId, op: Option<BinaryOp>, value: &'a ast::Expr, span: Span) -> Res<VarId> {
        let val = self.value(value)?;
        let val = match op {
            None => val,
            Some(op) => {
                let old = self.var_val(v);
                self.apply(op, old, val, span)?
            }
        };
        let text = val.text.clone();
        let ty = self.var_cty(v);
        let e = self.convert(val, &ty, span)?;
        let label = format!("{} = {text};", self.var_name(v));
        self.step(EdgeKind::Assign { var: v, rhs: Rhs::Expr(e) }, span, label);
        Ok(v)
    }

    /// The declaration of a variable that lives in memory: its object is
    /// allocated (zeroed for globals and `{...}` initializers), then the
    /// initializer is stored.
    pub(super) fn declare_in_memory(&mut self, v: VarId, init: Option<&'a ast::Expr>, zeroed: bool, span: Span) -> Res<()> {
        let ty = self.variables[v.0 as usize].ctype.clone().unwrap_or(CType::Int(IntType::Int));
        let size = self.size_of(&ty).unwrap_or(0);
        let zeroed = zeroed || matches!(init.map(|e| &e.kind), Some(ExprKind::InitList(_)));
        let name = self.var_name(v);
        let storage = if self.variables[v.0 as usize].is_global() && self.variables[v.0 as usize].qualified.contains("::") {
            "static "
        } else {
            ""
        };
        let decl_text = declared(&ty, &name);
        self.step(
            EdgeKind::Declare { var: v, init: Some(Rhs::Alloc { size: ptr_const(size), zeroed, heap: false }) },
            span,
            format!("{storage}{decl_text};"),
        );
        if let Some(init) = init {
            let addr = Val { ptr: Some(ty.clone().pointer_to()), ..self.var_val(v) };
            self.initialize(addr, &ty, None, init, &name, span)?;
        }
        Ok(())
    }

    /// Stores an initializer into the object of type `ty` at `addr`;
    /// `field`: its own-region field when the object is one
    /// ([`MemAccess::field`]).
    fn initialize(
        &mut self,
        addr: Val,
        ty: &CType,
        field: Option<String>,
        init: &'a ast::Expr,
        text: &str,
        span: Span,
    ) -> Res<()> {
        match (&init.kind, ty) {
            (ExprKind::InitList(items), CType::Array(elem, n)) => {
                if items.len() as u64 > *n {
                    return Err(
                        self.error(init.span, format!("too many initializers for `{text}` ({} for {n} elements)", items.len()))
                    );
                }
                let size = self.size_of(elem).unwrap_or(0);
                for (k, item) in items.iter().enumerate() {
                    let at = ptr_add(addr.e.clone(), ptr_const(size * k as u64));
                    let a = Val { e: at, ptr: Some((**elem).clone().pointer_to()), ..addr.clone() };
                    self.initialize(a, elem, None, item, &format!("{text}[{k}]"), item.span)?;
                }
                Ok(())
            }
            (ExprKind::InitList(items), CType::Struct(tag)) => {
                let fields = self.structs.iter().find(|s| s.tag == *tag).map(|s| s.fields.clone()).unwrap_or_default();
                if items.len() > fields.len() {
                    return Err(self.error(
                        init.span,
                        format!("too many initializers for `{text}` (`struct {tag}` has {} fields)", fields.len()),
                    ));
                }
                for (item, (fname, _)) in items.iter().zip(&fields) {
                    let Some((offset, fty)) = self.field_of(tag, fname) else { continue };
                    let a = Val {
                        e: ptr_add(addr.e.clone(), ptr_const(offset)),
                        ptr: Some(fty.clone().pointer_to()),
                        ..addr.clone()
                    };
                    let own = (!self.addr_taken.contains(&format!(".{fname}"))).then(|| format!("struct {tag}.{fname}"));
                    self.initialize(a, &fty, own, item, &format!("{text}.{fname}"), item.span)?;
                }
                Ok(())
            }
            (ExprKind::InitList(_), _) => {
                Err(self.error(init.span, format!("`{text}` is a `{ty}`: it cannot have an initializer list")))
            }
            (_, CType::Array(..) | CType::Struct(_)) => {
                Err(self.error(init.span, format!("`{text}` is a `{ty}`: initialize it with a list `{{...}}`")))
            }
            _ => {
                let v = self.value(init)?;
                let access = MemAccess { ty: ty.to_string(), field };
                self.write(addr, ty, access, v, text, span).map(|_| ())
            }
        }
    }

    /// A call of `malloc`, `calloc`, `alloca` or `free`: its value (the new
    /// pointer, of type `void *`), or `None` for `free`.
    pub(super) fn memory_call(
        &mut self,
        f: MemoryFn,
        callee: &ast::Ident,
        args: &'a [ast::Expr],
        span: Span,
    ) -> Res<Option<Val>> {
        let want = if f == MemoryFn::Calloc { 2 } else { 1 };
        if args.len() != want {
            return Err(self.error(span, format!("`{}` takes {want} argument{}", callee.name, if want == 1 { "" } else { "s" })));
        }
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.value(a)?);
        }
        let texts: Vec<String> = vals.iter().map(|v| v.text.clone()).collect();
        let call_text = format!("{}({})", callee.name, texts.join(", "));
        if f == MemoryFn::Free {
            let p = vals.pop().expect("one argument");
            if p.ptr.is_none() && !matches!(p.e, Expr::Const { value: 0, .. }) {
                return Err(self.error(span, "`free` needs a pointer"));
            }
            let addr = cast(p.e, POINTER_TYPE);
            self.step(EdgeKind::Free { addr }, span, format!("{call_text};"));
            return Ok(None);
        }
        let mut size: Option<Expr> = None;
        for v in vals {
            if v.ptr.is_some() {
                return Err(self.error(span, format!("the size given to `{}` must be an integer", callee.name)));
            }
            let n = cast(v.e, POINTER_TYPE);
            size = Some(match size {
                None => n,
                Some(m) => Expr::Binary { op: BinOp::Mul, ty: POINTER_TYPE, lhs: Box::new(m), rhs: Box::new(n) },
            });
        }
        let size = size.unwrap_or_else(|| ptr_const(0));
        let tmp = self.temp(POINTER_TYPE);
        self.alloc_results.insert(tmp);
        let void_ptr = CType::Void.pointer_to();
        self.variables[tmp.0 as usize].ctype = Some(void_ptr.clone());
        let rhs = Rhs::Alloc { size, zeroed: f == MemoryFn::Calloc, heap: f != MemoryFn::Alloca };
        let label = format!("{} = {call_text};", self.var_name(tmp));
        self.step(EdgeKind::Assign { var: tmp, rhs }, span, label);
        Ok(Some(Val { ptr: Some(void_ptr), text: call_text, ..self.var_val(tmp) }))
    }
}

/// A declaration's text as C writes it: `int *p`, `int a[2][3]`, `struct s v`.
pub(super) fn declared(ty: &CType, name: &str) -> String {
    match ty {
        CType::Array(..) => declared_array(ty, name),
        CType::Pointer(_) => format!("{ty}{name}"),
        _ => format!("{ty} {name}"),
    }
}

/// `int a[2][3]` from the array type and the name.
fn declared_array(ty: &CType, name: &str) -> String {
    let mut dims = String::new();
    let mut t = ty;
    while let CType::Array(inner, n) = t {
        dims.push_str(&format!("[{n}]"));
        t = inner;
    }
    format!("{t} {name}{dims}")
}
