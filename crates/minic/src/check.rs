//! Semantic checks on a syntactically correct translation unit.
//!
//! Errors: undeclared variables and functions, wrong argument counts,
//! redeclarations, duplicate function definitions, `break`/`continue`/`case`
//! out of place, duplicate and missing labels, non-constant `case` values and
//! global initializers, results of `void` functions used as values, strings
//! outside the assert helpers, dynamic memory, threads, a missing `main`.
//! Warnings: `return;` in a function that returns a value.
//!
//! The verification vocabulary of SV-COMP (`__VERIFIER_nondet_int`,
//! `reach_error`, `abort`, ...) is known without a declaration.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::span::{LineIndex, Span};
use crate::types::{CType, IntType, Type};
use std::collections::HashMap;

/// The functions that may be called with string arguments.
pub const ASSERT_HELPERS: [&str; 3] = ["__assert_fail", "__assert_perror_fail", "__assert"];

/// The signature of a function of the verification vocabulary that needs no
/// declaration: result type and number of parameters.
pub fn builtin_signature(name: &str) -> Option<(Type, usize)> {
    use IntType::*;
    let int = |t| Some((Type::Int(t), 0));
    match name {
        "__VERIFIER_nondet_int" => int(Int),
        "__VERIFIER_nondet_uint" | "__VERIFIER_nondet_unsigned" => int(UInt),
        "__VERIFIER_nondet_bool" => int(Bool),
        "__VERIFIER_nondet_char" => int(Char),
        "__VERIFIER_nondet_uchar" => int(UChar),
        "__VERIFIER_nondet_short" => int(Short),
        "__VERIFIER_nondet_ushort" => int(UShort),
        "__VERIFIER_nondet_long" => int(Long),
        "__VERIFIER_nondet_ulong" => int(ULong),
        "__VERIFIER_nondet_longlong" => int(LongLong),
        "__VERIFIER_nondet_ulonglong" => int(ULongLong),
        "__VERIFIER_assume" | "__VERIFIER_assert" | "assert" | "exit" => Some((Type::Void, 1)),
        "reach_error" | "__VERIFIER_error" | "abort" => Some((Type::Void, 0)),
        "__assert_fail" | "__assert_perror_fail" => Some((Type::Void, 4)),
        "__assert" => Some((Type::Void, 3)),
        _ => None,
    }
}

/// The memory functions known without a declaration (`malloc(n)`,
/// `calloc(n, size)`, `alloca(n)`, `free(p)`): result type and number of
/// parameters.
pub fn memory_signature(name: &str) -> Option<(CType, usize)> {
    let void_ptr = CType::Void.pointer_to();
    match name {
        "malloc" | "alloca" | "__builtin_alloca" => Some((void_ptr, 1)),
        "calloc" => Some((void_ptr, 2)),
        "free" => Some((CType::Void, 1)),
        _ => None,
    }
}

/// What is known about a function from its declarations.
struct FnSig {
    ret: CType,
    /// `None`: declared with `()`, any arguments are accepted.
    params: Option<Vec<ParamType>>,
    defined_at: Option<Span>,
    declared_at: Span,
}

#[derive(Clone, Copy)]
struct VarInfo {
    at: Span,
}

/// Where a `break`/`continue`/`case` stands.
#[derive(Default)]
struct Switch {
    cases: HashMap<i128, Span>,
    default: Option<Span>,
}

struct Checker<'a> {
    lines: &'a LineIndex,
    diags: Vec<Diagnostic>,
    fns: HashMap<String, FnSig>,
    globals: HashMap<String, (VarDecl, bool)>,
    scopes: Vec<HashMap<String, VarInfo>>,
    loops: usize,
    switches: Vec<Switch>,
    current: Option<(String, CType)>,
    labels: HashMap<String, Span>,
}

/// Runs every semantic check; returns the diagnostics in no particular order.
pub(crate) fn check(unit: &TranslationUnit, lines: &LineIndex) -> Vec<Diagnostic> {
    let mut c = Checker {
        lines,
        diags: Vec::new(),
        fns: HashMap::new(),
        globals: HashMap::new(),
        scopes: Vec::new(),
        loops: 0,
        switches: Vec::new(),
        current: None,
        labels: HashMap::new(),
    };
    c.collect_functions(unit);
    for item in &unit.items {
        match item {
            Item::Global(v) => c.global(v),
            Item::Prototype(_) => {}
            Item::Function(f) => c.function(f),
        }
    }
    if c.fns.get("main").is_none_or(|f| f.defined_at.is_none()) {
        c.diags.push(Diagnostic::error(c.lines.span(0, 0), "the program has no `main` function"));
    }
    c.diags
}

fn line_of(span: Span) -> u32 {
    span.line
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

impl Checker<'_> {
    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    fn collect_functions(&mut self, unit: &TranslationUnit) {
        for item in &unit.items {
            let (decl, body) = match item {
                Item::Prototype(d) => (d, false),
                Item::Function(f) => (&f.decl, true),
                Item::Global(_) => continue,
            };
            let name = decl.name.name.clone();
            let params =
                if decl.unspecified_params { None } else { Some(decl.params.iter().map(|p| p.ty.clone()).collect::<Vec<_>>()) };
            match self.fns.get_mut(&name) {
                Some(sig) => {
                    if body {
                        if let Some(first) = sig.defined_at {
                            let msg =
                                format!("the function `{name}` is defined twice (first definition at line {})", line_of(first));
                            self.diags.push(Diagnostic::error(decl.name.span, msg));
                            continue;
                        }
                        sig.defined_at = Some(decl.name.span);
                    }
                    if let (Some(old), Some(new)) = (&sig.params, &params) {
                        if old.len() != new.len() || sig.ret != decl.ret {
                            let msg =
                                format!("`{name}` does not match its earlier declaration at line {}", line_of(sig.declared_at));
                            self.diags.push(Diagnostic::error(decl.name.span, msg));
                        }
                    }
                    if params.is_some() && (body || sig.params.is_none()) {
                        sig.params = params;
                    }
                }
                None => {
                    self.fns.insert(
                        name,
                        FnSig {
                            ret: decl.ret.clone(),
                            params,
                            defined_at: body.then_some(decl.name.span),
                            declared_at: decl.name.span,
                        },
                    );
                }
            }
        }
    }

    fn global(&mut self, v: &VarDecl) {
        let name = &v.name.name;
        if let Some(f) = self.fns.get(name) {
            let msg = format!("`{name}` is already declared as a function at line {}", line_of(f.declared_at));
            self.error(v.name.span, msg);
            return;
        }
        if let Some(init) = &v.init {
            self.initializer(init);
            if !is_static_initializer(init) {
                self.error(init.span, format!("the initial value of the global variable `{name}` must be a constant"));
            }
        }
        match self.globals.get(name) {
            Some((old, _)) if old.ty != v.ty => {
                let msg = format!(
                    "`{name}` was declared with type `{}` at line {}; it cannot be redeclared as `{}`",
                    old.ty,
                    line_of(old.name.span),
                    v.ty
                );
                self.error(v.name.span, msg);
            }
            Some((old, true)) if v.init.is_some() => {
                let msg = format!("the global variable `{name}` is defined twice (first at line {})", line_of(old.name.span));
                self.error(v.name.span, msg);
            }
            Some(_) => {
                if v.init.is_some() {
                    self.globals.insert(name.clone(), (v.clone(), true));
                }
            }
            None => {
                self.globals.insert(name.clone(), (v.clone(), v.init.is_some()));
            }
        }
    }

    fn function(&mut self, f: &FunctionDef) {
        let name = f.decl.name.name.clone();
        if self.globals.contains_key(&name) {
            let msg = format!("`{name}` is already declared as a global variable");
            self.error(f.decl.name.span, msg);
        }
        self.current = Some((name, f.decl.ret.clone()));
        self.labels.clear();
        self.collect_labels(&f.body.stmts);
        self.scopes.push(HashMap::new());
        for p in &f.decl.params {
            if let Some(n) = &p.name {
                self.declare(n);
            }
        }
        // The parameters and the outermost block share one scope (C11 6.2.1).
        for s in &f.body.stmts {
            self.stmt(s);
        }
        self.scopes.pop();
        self.current = None;
    }

    fn collect_labels(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.collect_labels_stmt(s);
        }
    }

    fn collect_labels_stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Labeled { label, stmt } => {
                if let Some(first) = self.labels.get(&label.name) {
                    let msg = format!("the label `{}` is defined twice (first at line {})", label.name, line_of(*first));
                    self.error(label.span, msg);
                } else {
                    self.labels.insert(label.name.clone(), label.span);
                }
                self.collect_labels_stmt(stmt);
            }
            StmtKind::If { then_branch, else_branch, .. } => {
                self.collect_labels_stmt(then_branch);
                if let Some(e) = else_branch {
                    self.collect_labels_stmt(e);
                }
            }
            StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. }
            | StmtKind::For { body, .. }
            | StmtKind::Switch { body, .. } => self.collect_labels_stmt(body),
            StmtKind::Case { stmt, .. } | StmtKind::Default(stmt) => self.collect_labels_stmt(stmt),
            StmtKind::Block(b) => self.collect_labels(&b.stmts),
            _ => {}
        }
    }

    fn declare(&mut self, id: &Ident) {
        let Some(scope) = self.scopes.last_mut() else {
            return;
        };
        if let Some(old) = scope.get(&id.name) {
            let msg = format!("`{}` is already declared in this scope (at line {})", id.name, line_of(old.at));
            self.diags.push(Diagnostic::error(id.span, msg));
            return;
        }
        scope.insert(id.name.clone(), VarInfo { at: id.span });
    }

    fn is_var(&self, name: &str) -> bool {
        self.scopes.iter().rev().any(|s| s.contains_key(name)) || self.globals.contains_key(name)
    }

    fn local_decl(&mut self, vars: &[VarDecl]) {
        for v in vars {
            if let Some(init) = &v.init {
                self.initializer(init);
            }
            if v.storage == Storage::Static {
                if let Some(init) = &v.init {
                    if !is_static_initializer(init) {
                        let msg = format!("the initial value of the static variable `{}` must be a constant", v.name.name);
                        self.error(init.span, msg);
                    }
                }
            }
            self.declare(&v.name);
        }
    }

    /// A block's statements, in a scope of their own.
    fn block(&mut self, b: &Block) {
        self.scopes.push(HashMap::new());
        for s in &b.stmts {
            self.stmt(s);
        }
        self.scopes.pop();
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Decl(vars) => self.local_decl(vars),
            StmtKind::Expr(e) => self.expr(e, false),
            StmtKind::If { cond, then_branch, else_branch } => {
                self.expr(cond, true);
                self.stmt(then_branch);
                if let Some(e) = else_branch {
                    self.stmt(e);
                }
            }
            StmtKind::While { cond, body } => {
                self.expr(cond, true);
                self.loop_body(body);
            }
            StmtKind::DoWhile { body, cond } => {
                self.loop_body(body);
                self.expr(cond, true);
            }
            StmtKind::For { init, cond, step, body } => {
                self.scopes.push(HashMap::new());
                match init {
                    Some(ForInit::Decl(vars)) => self.local_decl(vars),
                    Some(ForInit::Expr(e)) => self.expr(e, false),
                    None => {}
                }
                if let Some(c) = cond {
                    self.expr(c, true);
                }
                if let Some(st) = step {
                    self.expr(st, false);
                }
                self.loop_body(body);
                self.scopes.pop();
            }
            StmtKind::Break => {
                if self.loops == 0 && self.switches.is_empty() {
                    self.error(s.span, "`break` outside of a loop or `switch`");
                }
            }
            StmtKind::Continue => {
                if self.loops == 0 {
                    self.error(s.span, "`continue` outside of a loop");
                }
            }
            StmtKind::Return(value) => self.ret(value.as_ref(), s.span),
            StmtKind::Goto(label) => {
                if !self.labels.contains_key(&label.name) {
                    self.error(label.span, format!("`goto` to the undefined label `{}`", label.name));
                }
            }
            StmtKind::Labeled { stmt, .. } => self.stmt(stmt),
            StmtKind::Block(b) => self.block(b),
            StmtKind::Empty => {}
            StmtKind::Switch { cond, body } => {
                self.expr(cond, true);
                self.switches.push(Switch::default());
                // `continue` inside a switch refers to an enclosing loop, so
                // the loop count is unchanged.
                self.stmt(body);
                self.switches.pop();
            }
            StmtKind::Case { value, stmt } => {
                self.expr(value, true);
                let v = const_eval(value);
                match (self.switches.last_mut(), v) {
                    (None, _) => self.error(s.span, "`case` outside of a `switch`"),
                    (Some(_), None) => self.error(value.span, "the value of a `case` must be a constant"),
                    (Some(sw), Some(v)) => {
                        if let Some(first) = sw.cases.get(&v) {
                            let msg = format!("duplicate `case {v}` (first at line {})", line_of(*first));
                            self.diags.push(Diagnostic::error(value.span, msg));
                        } else {
                            sw.cases.insert(v, value.span);
                        }
                    }
                }
                self.stmt(stmt);
            }
            StmtKind::Default(stmt) => {
                match self.switches.last_mut() {
                    None => self.error(s.span, "`default` outside of a `switch`"),
                    Some(sw) => {
                        if let Some(first) = sw.default {
                            let msg = format!("a second `default` in one `switch` (first at line {})", line_of(first));
                            self.diags.push(Diagnostic::error(s.span, msg));
                        } else {
                            sw.default = Some(s.span);
                        }
                    }
                }
                self.stmt(stmt);
            }
        }
    }

    fn loop_body(&mut self, body: &Stmt) {
        self.loops += 1;
        // A switch outside this loop does not take `break`s from inside it;
        // `break` checks only need "some loop or switch", so no reset needed.
        self.stmt(body);
        self.loops -= 1;
    }

    fn ret(&mut self, value: Option<&Expr>, span: Span) {
        let Some((name, ret)) = self.current.clone() else {
            return;
        };
        match (value, ret) {
            (Some(e), CType::Void) => {
                self.expr(e, false);
                self.error(e.span, format!("the function `{name}` returns `void`, so `return` cannot have a value"));
            }
            (Some(e), _) => self.expr(e, true),
            (None, CType::Void) => {}
            (None, t) => {
                let msg = format!("`return` without a value in the function `{name}`, which returns `{t}`");
                self.diags.push(Diagnostic::warning(span, msg));
            }
        }
    }

    /// Checks an expression; `needed` says whether its value is used.
    fn expr(&mut self, e: &Expr, needed: bool) {
        match &e.kind {
            ExprKind::IntLit { .. } => {}
            ExprKind::StrLit(_) => self.error(
                e.span,
                "strings are not part of mini-C (they may only be passed to `__assert_fail`, `__assert_perror_fail` and `__assert`)",
            ),
            ExprKind::Var(id) => self.use_var(id, false),
            ExprKind::Unary { operand, .. } => self.expr(operand, true),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs, true);
                self.expr(rhs, true);
            }
            ExprKind::Assign { target, value, .. } => {
                self.lvalue(target);
                self.expr(value, true);
            }
            ExprKind::IncDec { target, .. } => self.lvalue(target),
            ExprKind::Conditional { cond, then_expr, else_expr } => {
                self.expr(cond, true);
                self.expr(then_expr, needed);
                self.expr(else_expr, needed);
            }
            ExprKind::Cast { ty, expr } => self.expr(expr, *ty != CType::Void),
            ExprKind::AddrOf(inner) => match &inner.kind {
                ExprKind::Var(id) if self.fns.contains_key(&id.name) || builtin_signature(&id.name).is_some() => {
                    self.error(e.span, "function pointers are not part of mini-C")
                }
                _ => self.expr(inner, true),
            },
            ExprKind::Deref(inner) => self.expr(inner, true),
            ExprKind::Index { base, index } => {
                self.expr(base, true);
                self.expr(index, true);
            }
            ExprKind::Member { base, .. } => self.expr(base, true),
            ExprKind::InitList(items) => {
                self.error(e.span, "an initializer list `{...}` may only initialize an array or struct in its declaration");
                for i in items {
                    self.expr(i, true);
                }
            }
            ExprKind::Call { callee, args } => self.call(e, callee, args, needed),
            ExprKind::Comma { lhs, rhs } => {
                self.expr(lhs, false);
                self.expr(rhs, needed);
            }
            ExprKind::StmtExpr(block) => {
                self.block(block);
                if needed && !matches!(block.stmts.last(), Some(Stmt { kind: StmtKind::Expr(_), .. })) {
                    self.error(e.span, "this statement expression `({ ... })` has no value (its last statement is not an expression)");
                }
            }
        }
    }

    /// The initializer of a declaration: an expression or a (nested) list.
    fn initializer(&mut self, init: &Expr) {
        match &init.kind {
            ExprKind::InitList(items) => items.iter().for_each(|i| self.initializer(i)),
            _ => self.expr(init, true),
        }
    }

    /// The target of an assignment or `++`/`--`.
    fn lvalue(&mut self, target: &Expr) {
        match &target.kind {
            ExprKind::Var(id) => self.use_var(id, true),
            _ => self.expr(target, true),
        }
    }

    fn use_var(&mut self, id: &Ident, assigned: bool) {
        if self.is_var(&id.name) {
            return;
        }
        let msg = if self.fns.contains_key(&id.name) || builtin_signature(&id.name).is_some() {
            format!("`{}` is a function; call it with `{}(...)` (function pointers are not part of mini-C)", id.name, id.name)
        } else if assigned {
            format!("assignment to the undeclared variable `{}`", id.name)
        } else {
            format!("undeclared variable `{}`", id.name)
        };
        self.error(id.span, msg);
    }

    fn call(&mut self, e: &Expr, callee: &Ident, args: &[Expr], needed: bool) {
        let name = callee.name.as_str();
        let is_helper = ASSERT_HELPERS.contains(&name);
        for a in args {
            if is_helper && matches!(a.kind, ExprKind::StrLit(_)) {
                continue;
            }
            self.expr(a, true);
        }
        if self.scopes.iter().any(|s| s.contains_key(name)) || self.globals.contains_key(name) {
            self.error(callee.span, format!("`{name}` is a variable, not a function"));
            return;
        }
        let (ret, params): (CType, Option<usize>) = if let Some(sig) = self.fns.get(name) {
            if let Some(ps) = &sig.params {
                if !is_helper && ps.contains(&ParamType::CharPointer) {
                    let msg = format!(
                        "`{name}` takes a string (`char *`) parameter; only `__assert_fail`, `__assert_perror_fail` and `__assert` may be called with strings"
                    );
                    self.error(callee.span, msg);
                    return;
                }
            }
            (sig.ret.clone(), sig.params.as_ref().map(|p| p.len()))
        } else if let Some((ret, n)) = builtin_signature(name) {
            (ret.into(), Some(n))
        } else if let Some((ret, n)) = memory_signature(name) {
            (ret, Some(n))
        } else {
            let msg = match name {
                "realloc" => "`realloc` is not part of mini-C (use `malloc`, copy, and `free`)".to_string(),
                _ if name.starts_with("pthread_") => "threads are not part of mini-C".to_string(),
                _ if name.starts_with("__VERIFIER_nondet_") => {
                    format!("`{name}` is not part of mini-C (only nondet functions of integer types are)")
                }
                _ => format!("call of the undeclared function `{name}`"),
            };
            self.error(callee.span, msg);
            return;
        };
        if let Some(n) = params {
            if n != args.len() {
                let given = if args.len() == 1 { "1 was given".to_string() } else { format!("{} were given", args.len()) };
                let msg = format!("`{name}` expects {}, but {given}", plural(n, "argument"));
                self.error(e.span, msg);
            }
        }
        if needed && ret == CType::Void {
            self.error(e.span, format!("`{name}` returns `void`, so its result cannot be used"));
        }
    }
}

/// Whether `e` may initialize a global or `static` variable: a constant,
/// the address of a variable, or a list of those.
fn is_static_initializer(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::InitList(items) => items.iter().all(is_static_initializer),
        ExprKind::AddrOf(inner) => is_static_address(inner),
        ExprKind::Cast { expr, .. } => is_static_initializer(expr),
        _ => const_eval(e).is_some(),
    }
}

/// Whether the lvalue `e` has an address known before the program runs:
/// a variable, an element with a constant index, or a field of one.
fn is_static_address(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) => true,
        ExprKind::Index { base, index } => is_static_address(base) && const_eval(index).is_some(),
        ExprKind::Member { base, arrow: false, .. } => is_static_address(base),
        _ => false,
    }
}

/// The value of a constant expression (literals and operators on them), or
/// `None` if it is not constant (or divides by zero, or overflows 128 bits).
pub fn const_eval(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::IntLit { value, .. } => i128::try_from(*value).ok(),
        ExprKind::Unary { op, operand } => {
            let v = const_eval(operand)?;
            Some(match op {
                UnaryOp::Neg => v.checked_neg()?,
                UnaryOp::Plus => v,
                UnaryOp::Not => (v == 0) as i128,
                UnaryOp::BitNot => !v,
            })
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let a = const_eval(lhs)?;
            let b = const_eval(rhs)?;
            use BinaryOp::*;
            Some(match op {
                Add => a.checked_add(b)?,
                Sub => a.checked_sub(b)?,
                Mul => a.checked_mul(b)?,
                Div => a.checked_div(b)?,
                Rem => a.checked_rem(b)?,
                Shl => a.checked_shl(u32::try_from(b).ok().filter(|s| *s < 64)?)?,
                Shr => a.checked_shr(u32::try_from(b).ok().filter(|s| *s < 64)?)?,
                BitAnd => a & b,
                BitOr => a | b,
                BitXor => a ^ b,
                Lt => (a < b) as i128,
                Le => (a <= b) as i128,
                Gt => (a > b) as i128,
                Ge => (a >= b) as i128,
                Eq => (a == b) as i128,
                Ne => (a != b) as i128,
                LogAnd => (a != 0 && b != 0) as i128,
                LogOr => (a != 0 || b != 0) as i128,
            })
        }
        ExprKind::Conditional { cond, then_expr, else_expr } => {
            if const_eval(cond)? != 0 {
                const_eval(then_expr)
            } else {
                const_eval(else_expr)
            }
        }
        ExprKind::Cast { ty: CType::Int(t), expr } => Some(t.wrap(const_eval(expr)?)),
        _ => None,
    }
}
