//! From pest pairs to the AST.
//!
//! The grammar (`grammar.pest`) accepts a little more than mini-C: it also
//! recognises unions, function pointers, floats, ... (`bad_*` rules). This
//! builder turns the accepted constructs into [`ast`](crate::ast) nodes and
//! every `bad_*` construct into an error that names it. Operator precedence
//! is decided here by pest's [`PrattParser`].
//!
//! The builder also bounds the depth of the trees it builds (see
//! [`MAX_NESTING`]), so every later recursive pass is safe.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::literal;
use crate::prescan::MAX_NESTING;
use crate::span::{LineIndex, Span};
use crate::types::{CType, IntType, Layout, Type};
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest_derive::Parser;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The pest parser generated from `grammar.pest`.
#[derive(Parser)]
#[grammar = "grammar.pest"]
pub struct MiniCParser;

/// The operator table: lowest precedence first.
fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        use Assoc::*;
        PrattParser::new()
            .op(Op::infix(Rule::comma, Left))
            .op(Op::infix(Rule::assign, Right)
                | Op::infix(Rule::add_assign, Right)
                | Op::infix(Rule::sub_assign, Right)
                | Op::infix(Rule::mul_assign, Right)
                | Op::infix(Rule::div_assign, Right)
                | Op::infix(Rule::rem_assign, Right)
                | Op::infix(Rule::shl_assign, Right)
                | Op::infix(Rule::shr_assign, Right)
                | Op::infix(Rule::and_assign, Right)
                | Op::infix(Rule::or_assign, Right)
                | Op::infix(Rule::xor_assign, Right))
            .op(Op::infix(Rule::conditional, Right))
            .op(Op::infix(Rule::log_or, Left))
            .op(Op::infix(Rule::log_and, Left))
            .op(Op::infix(Rule::bit_or, Left))
            .op(Op::infix(Rule::bit_xor, Left))
            .op(Op::infix(Rule::bit_and, Left))
            .op(Op::infix(Rule::eq, Left) | Op::infix(Rule::ne, Left))
            .op(Op::infix(Rule::lt, Left) | Op::infix(Rule::le, Left) | Op::infix(Rule::gt, Left) | Op::infix(Rule::ge, Left))
            .op(Op::infix(Rule::shl, Left) | Op::infix(Rule::shr, Left))
            .op(Op::infix(Rule::add, Left) | Op::infix(Rule::sub, Left))
            .op(Op::infix(Rule::mul, Left) | Op::infix(Rule::div, Left) | Op::infix(Rule::rem, Left))
            .op(Op::prefix(Rule::cast)
                | Op::prefix(Rule::sizeof_op)
                | Op::prefix(Rule::pre_inc)
                | Op::prefix(Rule::pre_dec)
                | Op::prefix(Rule::neg)
                | Op::prefix(Rule::plus)
                | Op::prefix(Rule::not)
                | Op::prefix(Rule::bit_not)
                | Op::prefix(Rule::address_of)
                | Op::prefix(Rule::deref))
            .op(Op::postfix(Rule::post_inc)
                | Op::postfix(Rule::post_dec)
                | Op::postfix(Rule::call_args)
                | Op::postfix(Rule::subscript)
                | Op::postfix(Rule::member_access))
    })
}

/// Whether `rule` is an operator of the flat expression sequence.
fn is_operator(rule: Rule) -> bool {
    !matches!(
        rule,
        Rule::stmt_expr
            | Rule::paren_expr
            | Rule::sizeof_type
            | Rule::bad_float_lit
            | Rule::int_lit
            | Rule::bad_number
            | Rule::char_lit
            | Rule::str_lits
            | Rule::func_name
            | Rule::ident
    )
}

/// What declaration specifiers (`static unsigned long`) amount to.
struct Specs {
    storage: Storage,
    is_typedef: bool,
    /// `None` when the specifiers were wrong (an error was reported).
    ty: Option<CType>,
    span: Span,
    /// The specifiers define a struct (`struct s { ... };` declares something).
    defines_struct: bool,
}

/// What a declarator (`*x`, `f(int a)`, `a[3]`) amounts to.
struct Declarator {
    name: Option<Ident>,
    /// Spans of the `*`s in front of the name.
    pointers: Vec<Span>,
    /// The array sizes after the name, outermost first (`None` for `[]`).
    arrays: Vec<(Option<u64>, Span)>,
    params: Option<ParamList>,
    span: Span,
    /// An error was already reported for it (array, function pointer).
    bad: bool,
}

struct ParamList {
    params: Vec<RawParam>,
    unspecified: bool,
}

struct RawParam {
    specs: Specs,
    name: Option<Ident>,
    pointers: Vec<Span>,
    /// `int a[]` / `int a[5]`: the parameter is a pointer to the element.
    arrays: usize,
    span: Span,
}

/// Builds the AST from pest pairs, collecting diagnostics.
pub(crate) struct Builder<'a> {
    lines: &'a LineIndex,
    /// The original source (for names and messages; the parsed text differs
    /// only where typedef names were marked).
    src: &'a str,
    diags: RefCell<Vec<Diagnostic>>,
    typedefs: RefCell<HashMap<String, CType>>,
    /// The struct definitions seen so far, in source order.
    structs: RefCell<Vec<StructDef>>,
    depth: Cell<usize>,
    current_fn: RefCell<Option<String>>,
    /// Variable types in scope, for `sizeof expr`.
    scopes: RefCell<Vec<HashMap<String, CType>>>,
    /// Result types of the functions seen so far, for `sizeof f(x)`.
    fn_types: RefCell<HashMap<String, CType>>,
    /// Set when a nesting-limit error was reported (report it only once).
    too_deep: Cell<bool>,
    /// Offset of the parsed text within the source (non-zero when parsing
    /// resumed after a syntax error).
    base: Cell<usize>,
}

impl<'a> Builder<'a> {
    pub(crate) fn new(src: &'a str, lines: &'a LineIndex) -> Self {
        Builder {
            lines,
            src,
            diags: RefCell::new(Vec::new()),
            typedefs: RefCell::new(HashMap::new()),
            structs: RefCell::new(Vec::new()),
            depth: Cell::new(0),
            current_fn: RefCell::new(None),
            scopes: RefCell::new(vec![HashMap::new()]),
            fn_types: RefCell::new(HashMap::new()),
            too_deep: Cell::new(false),
            base: Cell::new(0),
        }
    }

    pub(crate) fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diags.into_inner()
    }

    /// Sets the offset of the text the next pairs come from.
    pub(crate) fn set_base(&self, base: usize) {
        self.base.set(base);
    }

    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        let b = self.base.get();
        self.lines.span(b + s.start(), b + s.end())
    }

    fn error(&self, span: Span, msg: impl Into<String>) {
        self.diags.borrow_mut().push(Diagnostic::error(span, msg));
    }

    fn warning(&self, span: Span, msg: impl Into<String>) {
        self.diags.borrow_mut().push(Diagnostic::warning(span, msg));
    }

    /// The original text of a pair (typedef marks undone).
    fn text(&self, pair: &Pair<Rule>) -> &'a str {
        let s = pair.as_span();
        let b = self.base.get();
        self.src.get(b + s.start()..b + s.end()).unwrap_or("")
    }

    fn ident(&self, pair: &Pair<Rule>) -> Ident {
        Ident { name: self.text(pair).to_string(), span: self.span(pair) }
    }

    /// Enters one nesting level; `false` (after reporting once) when too deep.
    fn enter(&self, levels: usize, span: Span) -> bool {
        let d = self.depth.get() + levels;
        if d > MAX_NESTING {
            if !self.too_deep.replace(true) {
                self.error(span, format!("nesting deeper than {MAX_NESTING} levels is not supported"));
            }
            return false;
        }
        self.depth.set(d);
        true
    }

    fn leave(&self, levels: usize) {
        self.depth.set(self.depth.get().saturating_sub(levels));
    }

    /// The struct definitions read so far.
    pub(crate) fn take_structs(&self) -> Vec<StructDef> {
        std::mem::take(&mut *self.structs.borrow_mut())
    }

    /// `sizeof(ty)` with the structs defined so far; `None` if incomplete.
    fn size_of_type(&self, ty: &CType) -> Option<u64> {
        let structs = self.structs.borrow();
        let fields = |tag: &str| structs.iter().find(|s| s.tag == tag).map(|s| s.fields.clone());
        Layout { fields: &fields }.size(ty)
    }

    /// The type of field `field` of `struct tag`, if both exist.
    fn field_type(&self, tag: &str, field: &str) -> Option<CType> {
        let structs = self.structs.borrow();
        let def = structs.iter().find(|s| s.tag == tag)?;
        def.fields.iter().find(|(n, _)| n == field).map(|(_, t)| t.clone())
    }

    /// The type a declarator gives to the base type `base`: pointers first,
    /// then array sizes (`int *a[3]` is an array of 3 pointers).
    fn declared_type(&self, base: CType, d: &Declarator) -> Option<CType> {
        let mut ty = base;
        for _ in &d.pointers {
            ty = ty.pointer_to();
        }
        for (n, span) in d.arrays.iter().rev() {
            match n {
                Some(n) => ty = CType::Array(Box::new(ty), *n),
                None => {
                    self.error(*span, "an array needs a size here: write `[N]` with a constant N");
                    return None;
                }
            }
        }
        Some(ty)
    }

    fn declare_var(&self, name: &str, ty: CType) {
        if let Some(scope) = self.scopes.borrow_mut().last_mut() {
            scope.insert(name.to_string(), ty);
        }
    }

    fn push_scope(&self) {
        self.scopes.borrow_mut().push(HashMap::new());
    }

    fn pop_scope(&self) {
        self.scopes.borrow_mut().pop();
    }

    // ───────────────────────── top level ─────────────────────────

    /// Builds the items of a `file` or `file_rest` pair.
    pub(crate) fn items(&self, file: Pair<Rule>, out: &mut Vec<Item>) {
        for pair in file.into_inner() {
            match pair.as_rule() {
                Rule::top_item => {
                    if pair.clone().into_inner().any(|p| p.as_rule() == Rule::block) {
                        if let Some(f) = self.function_def(pair) {
                            out.push(Item::Function(f));
                        }
                    } else {
                        self.declaration(pair, true, out, &mut Vec::new());
                    }
                }
                Rule::bad_asm => self.error(self.span(&pair), "inline assembly is not part of mini-C"),
                Rule::bad_implicit_int => {
                    if let Some(name) = pair.into_inner().next().map(|p| self.ident(&p)) {
                        self.error(
                            name.span,
                            format!(
                                "the function `{}` needs a result type: write `int {}(...)` (mini-C has no implicit `int`)",
                                name.name, name.name
                            ),
                        );
                    }
                }
                _ => {}
            }
        }
    }

    fn function_def(&self, pair: Pair<Rule>) -> Option<FunctionDef> {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let specs = self.specs(inner.next()?);
        let init_decl = inner.find(|p| p.as_rule() == Rule::init_declarator)?;
        let mut parts = init_decl.into_inner();
        let decl = self.declarator(parts.next()?);
        if let Some(init) = parts.next() {
            self.error(self.span(&init), "a function definition cannot have an initializer");
        }
        let body_pair = inner.find(|p| p.as_rule() == Rule::block)?;
        let name = decl.name.clone()?;
        let Some(params) = decl.params else {
            self.error(name.span, format!("expected a parameter list `(...)` after the function name `{}`", name.name));
            return None;
        };
        if specs.is_typedef {
            self.error(specs.span, "a `typedef` cannot have a body");
        }
        let ret = self.result_type(specs.ty, &decl.pointers);
        let header_span = Span { end: decl.span.end, ..span };
        let fdecl = self.function_decl(name, ret.clone(), specs.storage, params, true, header_span);
        self.fn_types.borrow_mut().insert(fdecl.name.name.clone(), ret);
        *self.current_fn.borrow_mut() = Some(fdecl.name.name.clone());
        self.push_scope();
        for p in &fdecl.params {
            match (&p.name, &p.ty) {
                (Some(n), ParamType::Int(t)) => self.declare_var(&n.name, CType::Int(*t)),
                (Some(n), ParamType::Pointer(t)) => self.declare_var(&n.name, t.clone()),
                _ => {}
            }
        }
        let body = self.block(body_pair);
        self.pop_scope();
        *self.current_fn.borrow_mut() = None;
        Some(FunctionDef { decl: fdecl, body })
    }

    /// A function's result type: the specifiers' type with the declarator's `*`s.
    fn result_type(&self, base: Option<CType>, pointers: &[Span]) -> CType {
        let mut ty = base.unwrap_or(CType::Int(IntType::Int));
        for _ in pointers {
            ty = ty.pointer_to();
        }
        ty
    }

    fn function_decl(
        &self,
        name: Ident,
        ret: CType,
        storage: Storage,
        list: ParamList,
        is_definition: bool,
        span: Span,
    ) -> FunctionDecl {
        let mut params = Vec::new();
        for raw in list.params {
            let Some(ty) = raw.specs.ty.clone() else { continue };
            let depth = raw.pointers.len() + raw.arrays;
            let pty = match (&ty, depth) {
                (CType::Int(IntType::Char | IntType::SChar | IntType::UChar), 1) if !is_definition && raw.arrays == 0 => {
                    ParamType::CharPointer
                }
                (CType::Int(t), 0) => ParamType::Int(*t),
                (CType::Void, 0) => {
                    self.error(raw.span, "a parameter cannot have type `void`");
                    continue;
                }
                (CType::Struct(_), 0) => {
                    self.error(raw.span, "a struct cannot be passed by value in mini-C: pass a pointer to it");
                    continue;
                }
                (_, _) => {
                    let mut t = ty;
                    for _ in 0..depth {
                        t = t.pointer_to();
                    }
                    ParamType::Pointer(t)
                }
            };
            if raw.specs.storage != Storage::None || raw.specs.is_typedef {
                self.error(raw.specs.span, "a parameter cannot be `static`, `extern` or `typedef`");
            }
            if is_definition && raw.name.is_none() {
                self.error(raw.span, format!("the parameter of `{}` needs a name", name.name));
            }
            params.push(Param { name: raw.name, ty: pty, span: raw.span });
        }
        FunctionDecl { name, ret, params, unspecified_params: list.unspecified, storage, span }
    }

    /// A declaration: globals (at top level), locals, prototypes, typedefs.
    /// Globals and prototypes go to `items`, locals to `locals`.
    fn declaration(&self, pair: Pair<Rule>, top_level: bool, items: &mut Vec<Item>, locals: &mut Vec<VarDecl>) {
        if let Some((specs, 0)) = self.specs_and_declarators(pair.into_inner(), top_level, items, locals) {
            if specs.ty.is_some() && !specs.defines_struct {
                self.warning(specs.span, "this declaration declares nothing");
            }
        }
    }

    /// The declaration specifiers (the first of `inner`) and every
    /// `init_declarator` after them, declared in order (see [`Self::declaration`]
    /// for where they go): the specifiers and how many names they declared,
    /// or `None` when there were no specifiers.
    fn specs_and_declarators<'i>(
        &self,
        mut inner: impl Iterator<Item = Pair<'i, Rule>>,
        top_level: bool,
        items: &mut Vec<Item>,
        locals: &mut Vec<VarDecl>,
    ) -> Option<(Specs, usize)> {
        let specs = self.specs(inner.next()?);
        let mut declared = 0;
        for p in inner.filter(|p| p.as_rule() == Rule::init_declarator) {
            declared += 1;
            self.init_declarator(p, &specs, top_level, items, locals);
        }
        Some((specs, declared))
    }

    fn init_declarator(
        &self,
        pair: Pair<Rule>,
        specs: &Specs,
        top_level: bool,
        items: &mut Vec<Item>,
        locals: &mut Vec<VarDecl>,
    ) {
        let span = specs.span.to(self.span(&pair));
        let mut inner = pair.into_inner();
        let Some(decl_pair) = inner.next() else {
            return;
        };
        let decl = self.declarator(decl_pair);
        let init_pair = inner.next();
        let Some(name) = decl.name.clone() else {
            return;
        };
        if specs.is_typedef {
            if decl.params.is_some() {
                self.error(name.span, "typedefs of function types are not part of mini-C");
            }
            match specs.ty.clone().and_then(|t| self.declared_type(t, &decl)) {
                Some(CType::Void) => self.error(name.span, "a typedef of `void` is not supported"),
                Some(t) => {
                    self.typedefs.borrow_mut().insert(name.name.clone(), t);
                }
                None => {}
            }
            if let Some(p) = init_pair {
                self.error(self.span(&p), "a typedef cannot have an initializer");
            }
            return;
        }
        if let Some(params) = decl.params {
            let ret = self.result_type(specs.ty.clone(), &decl.pointers);
            if let Some(p) = init_pair {
                self.error(self.span(&p), format!("the function `{}` cannot have an initializer", name.name));
            }
            let fdecl = self.function_decl(name, ret.clone(), specs.storage, params, false, span);
            self.fn_types.borrow_mut().insert(fdecl.name.name.clone(), ret);
            if top_level {
                items.push(Item::Prototype(fdecl));
            } else {
                self.error(
                    fdecl.name.span,
                    format!("declare the function `{}` at the top level, not inside a function", fdecl.name.name),
                );
            }
            return;
        }
        let Some(ty) = specs.ty.clone().and_then(|t| self.declared_type(t, &decl)) else { return };
        if ty == CType::Void {
            self.error(name.span, format!("the variable `{}` cannot have type `void`", name.name));
            return;
        }
        if self.size_of_type(&ty).is_none() && specs.storage != Storage::Extern {
            self.error(
                name.span,
                format!("the variable `{}` has type `{ty}`, whose size is not known (is the struct defined?)", name.name),
            );
            return;
        }
        let init = init_pair.map(|p| self.initializer(p));
        self.declare_var(&name.name, ty.clone());
        let var = VarDecl { name, ty, storage: specs.storage, init, span };
        if top_level {
            items.push(Item::Global(var));
        } else {
            locals.push(var);
        }
    }

    /// Declaration specifiers → storage class and type.
    fn specs(&self, pair: Pair<Rule>) -> Specs {
        let span = self.span(&pair);
        let mut storage = Storage::None;
        let mut is_typedef = false;
        let mut words: Vec<(&str, Span)> = Vec::new();
        let mut typedef_ty: Option<(CType, Span, String)> = None;
        let mut bad = false;
        let mut defines_struct = false;
        let mut abstract_pointers = 0;
        let mut pairs: Vec<Pair<Rule>> = Vec::new();
        // `decl_specs_or_unknown` may give `unknown_type` then `decl_specs`.
        if pair.as_rule() == Rule::decl_specs || pair.as_rule() == Rule::type_name {
            pairs.extend(pair.into_inner());
        } else {
            pairs.push(pair);
        }
        let mut i = 0;
        while i < pairs.len() {
            let p = pairs[i].clone();
            i += 1;
            let ps = self.span(&p);
            match p.as_rule() {
                Rule::decl_specs => pairs.extend(p.into_inner()),
                Rule::storage => match self.text(&p) {
                    "static" => storage = Storage::Static,
                    "extern" => storage = Storage::Extern,
                    _ => is_typedef = true,
                },
                Rule::type_word => words.push((self.text(&p), ps)),
                Rule::typedef_name => {
                    let name = self.text(&p).to_string();
                    match self.typedefs.borrow().get(&name) {
                        Some(t) => {
                            if typedef_ty.is_some() {
                                self.error(ps, "two types in one declaration");
                                bad = true;
                            }
                            typedef_ty = Some((t.clone(), ps, name.clone()));
                        }
                        None => {
                            self.error(ps, format!("unknown type name `{name}`"));
                            bad = true;
                        }
                    }
                }
                Rule::bad_type_word => {
                    bad = true;
                    let msg = match self.text(&p) {
                        "float" | "double" => "floating-point numbers are not part of mini-C",
                        "_Complex" => "complex numbers are not part of mini-C",
                        _ => "128-bit integers are not part of mini-C",
                    };
                    self.error(ps, msg);
                }
                Rule::struct_spec => {
                    if typedef_ty.is_some() {
                        self.error(ps, "two types in one declaration");
                        bad = true;
                    }
                    defines_struct |= p.clone().into_inner().any(|q| q.as_rule() == Rule::struct_close);
                    match self.struct_spec(p) {
                        Some(tag) => typedef_ty = Some((CType::Struct(tag.clone()), ps, format!("struct {tag}"))),
                        None => bad = true,
                    }
                }
                Rule::bad_aggregate => {
                    bad = true;
                    let kw = p.into_inner().next().map(|k| self.text(&k)).unwrap_or("union");
                    let msg = match kw {
                        "union" => "unions are not part of mini-C",
                        _ => "enums are not part of mini-C",
                    };
                    self.error(ps, msg);
                }
                Rule::bad_thread_storage => {
                    bad = true;
                    self.error(ps, "threads are not part of mini-C");
                }
                Rule::unknown_type => {
                    bad = true;
                    let name = p.into_inner().next().map(|k| self.text(&k)).unwrap_or("");
                    if name.starts_with("pthread_") {
                        self.error(ps, "threads are not part of mini-C");
                    } else if name == "FILE" {
                        self.error(ps, "files and input/output are not part of mini-C");
                    } else {
                        self.error(ps, format!("unknown type name `{name}`"));
                    }
                }
                Rule::abstract_declarator => {
                    for q in p.into_inner() {
                        if q.as_rule() == Rule::array_suffix {
                            bad = true;
                            self.error(self.span(&q), "a cast or `sizeof` to an array type is not part of mini-C");
                        } else {
                            abstract_pointers += 1;
                        }
                    }
                }
                _ => {}
            }
        }
        if bad {
            return Specs { storage, is_typedef, ty: None, span, defines_struct };
        }
        let ty = match (typedef_ty, words.is_empty()) {
            (Some((t, _, _)), true) => Some(t),
            (Some((_, s, name)), false) => {
                self.error(s, format!("`{name}` is a typedef name and cannot be combined with other type words"));
                None
            }
            (None, true) => {
                self.error(span, "missing type: write `int` (mini-C has no implicit `int`)");
                None
            }
            (None, false) => self.type_from_words(&words).map(CType::from),
        };
        let ty = ty.map(|mut t| {
            for _ in 0..abstract_pointers {
                t = t.pointer_to();
            }
            t
        });
        Specs { storage, is_typedef, ty, span, defines_struct }
    }

    /// `struct tag`, `struct tag { ... }` or `struct { ... }`: registers a
    /// definition and gives the tag (anonymous structs get `__anon<k>`).
    fn struct_spec(&self, pair: Pair<Rule>) -> Option<String> {
        let span = self.span(&pair);
        let mut tag = None;
        let mut fields: Option<Vec<(String, CType)>> = None;
        let mut ok = true;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ident => tag = Some(self.ident(&p)),
                Rule::struct_field => {
                    let list = fields.get_or_insert_with(Vec::new);
                    let mut inner = p.into_inner();
                    let Some(sp) = inner.next() else { continue };
                    let specs = self.specs(sp);
                    for d in inner.filter(|q| q.as_rule() == Rule::declarator) {
                        let d = self.declarator(d);
                        let Some(name) = d.name.clone() else { continue };
                        if d.params.is_some() {
                            self.error(
                                name.span,
                                "a struct cannot contain a function (function pointers are not part of mini-C)",
                            );
                            ok = false;
                            continue;
                        }
                        let Some(ty) = specs.ty.clone().and_then(|t| self.declared_type(t, &d)) else {
                            ok = false;
                            continue;
                        };
                        if list.iter().any(|(n, _)| *n == name.name) {
                            self.error(name.span, format!("the field `{}` is declared twice", name.name));
                            ok = false;
                        }
                        list.push((name.name.clone(), ty));
                    }
                }
                Rule::struct_close => {
                    fields.get_or_insert_with(Vec::new);
                }
                _ => {}
            }
        }
        let tag_name = match &tag {
            Some(t) => t.name.clone(),
            None => format!("__anon{}", self.structs.borrow().len()),
        };
        if let Some(fields) = fields {
            if !ok {
                return None;
            }
            if self.structs.borrow().iter().any(|s| s.tag == tag_name) {
                self.error(tag.map(|t| t.span).unwrap_or(span), format!("`struct {tag_name}` is defined twice"));
                return None;
            }
            let def = StructDef { tag: tag_name.clone(), fields, span };
            self.structs.borrow_mut().push(def);
            for (fname, fty) in self.structs.borrow().last().map(|d| d.fields.clone()).unwrap_or_default() {
                if self.size_of_type(&fty).is_none() {
                    self.error(
                        span,
                        format!("the field `{fname}` of `struct {tag_name}` has type `{fty}`, whose size is not known"),
                    );
                    return None;
                }
            }
        }
        Some(tag_name)
    }

    /// An initializer: an expression or a (nested) list `{a, b, ...}`.
    fn initializer(&self, pair: Pair<Rule>) -> Expr {
        if pair.as_rule() != Rule::init_list {
            return self.expr(pair);
        }
        let span = self.span(&pair);
        let items = pair.into_inner().filter(|p| p.as_rule() != Rule::init_close).map(|p| self.initializer(p)).collect();
        Expr { kind: ExprKind::InitList(items), span }
    }

    /// `unsigned long long` → `IntType::ULongLong`, etc. (ILP32).
    fn type_from_words(&self, words: &[(&str, Span)]) -> Option<Type> {
        let count = |w: &str| words.iter().filter(|(x, _)| *x == w).count();
        let span = words[0].1.to(words[words.len() - 1].1);
        let (unsigned, signed) = (count("unsigned"), count("signed") + count("__signed__"));
        let (int, char_, short, long, bool_, void) =
            (count("int"), count("char"), count("short"), count("long"), count("_Bool"), count("void"));
        let written: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
        let invalid = || {
            self.error(span, format!("`{}` is not a valid type", written.join(" ")));
            None
        };
        if unsigned + signed > 1 || int > 1 || char_ > 1 || short > 1 || bool_ > 1 || void > 1 {
            return invalid();
        }
        if void == 1 {
            return if words.len() == 1 { Some(Type::Void) } else { invalid() };
        }
        if bool_ == 1 {
            return if words.len() == 1 { Some(Type::Int(IntType::Bool)) } else { invalid() };
        }
        let u = unsigned == 1;
        let t = if char_ == 1 {
            if int + short + long > 0 {
                return invalid();
            }
            if u {
                IntType::UChar
            } else if signed == 1 {
                IntType::SChar
            } else {
                IntType::Char
            }
        } else if short == 1 {
            if long > 0 {
                return invalid();
            }
            if u {
                IntType::UShort
            } else {
                IntType::Short
            }
        } else if long == 1 {
            if u {
                IntType::ULong
            } else {
                IntType::Long
            }
        } else if long == 2 {
            if u {
                IntType::ULongLong
            } else {
                IntType::LongLong
            }
        } else if long > 2 {
            return invalid();
        } else if u {
            IntType::UInt
        } else {
            IntType::Int
        };
        Some(Type::Int(t))
    }

    fn declarator(&self, pair: Pair<Rule>) -> Declarator {
        let span = self.span(&pair);
        let mut d = Declarator { name: None, pointers: Vec::new(), arrays: Vec::new(), params: None, span, bad: false };
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::ptr_star => d.pointers.push(self.span(&p)),
                Rule::ident => d.name = Some(self.ident(&p)),
                Rule::bad_fn_pointer => {
                    d.bad = true;
                    self.error(self.span(&p), "function pointers are not part of mini-C");
                }
                Rule::array_suffix => {
                    let ps = self.span(&p);
                    let size = match p.into_inner().find(|q| q.as_rule() == Rule::expr) {
                        None => None,
                        Some(e) => {
                            let e = self.expr(e);
                            match crate::check::const_eval(&e) {
                                Some(n) if n > 0 && n <= (1 << 31) => Some(n as u64),
                                Some(_) => {
                                    self.error(ps, "an array size must be a positive constant below 2^31");
                                    d.bad = true;
                                    Some(1)
                                }
                                None => {
                                    if !is_placeholder(&e) {
                                        self.error(
                                            ps,
                                            "an array size must be a constant (variable-length arrays are not part of mini-C)",
                                        );
                                    }
                                    d.bad = true;
                                    Some(1)
                                }
                            }
                        }
                    };
                    d.arrays.push((size, ps));
                }
                Rule::params => {
                    if d.params.is_some() {
                        self.error(self.span(&p), "a function cannot return a function");
                    } else {
                        d.params = Some(self.params(p));
                    }
                }
                _ => {}
            }
        }
        d
    }

    fn params(&self, pair: Pair<Rule>) -> ParamList {
        let mut list = ParamList { params: Vec::new(), unspecified: true };
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::void_params => list.unspecified = false,
                Rule::ellipsis => {
                    self.error(self.span(&p), "variadic functions (`...`) are not part of mini-C");
                }
                Rule::param => {
                    list.unspecified = false;
                    let span = self.span(&p);
                    let mut inner = p.into_inner();
                    let Some(sp) = inner.next() else { continue };
                    let mut specs_pairs = vec![sp];
                    let mut name = None;
                    let mut pointers = Vec::new();
                    let mut arrays = 0;
                    let mut bad = false;
                    for q in inner {
                        match q.as_rule() {
                            Rule::declarator => {
                                let d = self.declarator(q);
                                if d.params.is_some() && !d.bad {
                                    self.error(d.span, "function pointers are not part of mini-C");
                                }
                                bad |= d.bad || d.params.is_some();
                                name = d.name;
                                pointers = d.pointers;
                                arrays = d.arrays.len();
                            }
                            Rule::abstract_declarator => {
                                for r in q.into_inner() {
                                    if r.as_rule() == Rule::ptr_star {
                                        pointers.push(self.span(&r));
                                    } else {
                                        arrays += 1;
                                    }
                                }
                            }
                            Rule::decl_specs => specs_pairs.push(q),
                            _ => {}
                        }
                    }
                    let specs = if specs_pairs.len() == 1 {
                        self.specs(specs_pairs.pop().expect("one element"))
                    } else {
                        // `unknown_type` followed by more specifiers: report the unknown type.
                        let first = self.specs(specs_pairs.remove(0));
                        Specs { ty: None, ..first }
                    };
                    // An error was reported already: leave the parameter out.
                    let specs = if bad { Specs { ty: None, ..specs } } else { specs };
                    list.params.push(RawParam { specs, name, pointers, arrays, span });
                }
                _ => {}
            }
        }
        list
    }

    // ───────────────────────── statements ─────────────────────────

    fn block(&self, pair: Pair<Rule>) -> Block {
        let span = self.span(&pair);
        self.block_from_inner(pair.into_inner(), span)
    }

    fn stmt(&self, pair: Pair<Rule>) -> Stmt {
        let span = self.span(&pair);
        if !self.enter(1, span) {
            return Stmt { kind: StmtKind::Empty, span };
        }
        let kind = self.stmt_kind(pair, span);
        self.leave(1);
        Stmt { kind, span }
    }

    fn sub_stmt(&self, p: Option<Pair<Rule>>, span: Span) -> Box<Stmt> {
        Box::new(match p {
            Some(p) => self.stmt(p),
            None => Stmt { kind: StmtKind::Empty, span },
        })
    }

    fn stmt_kind(&self, pair: Pair<Rule>, span: Span) -> StmtKind {
        let rule = pair.as_rule();
        let mut inner = significant(pair.into_inner());
        match rule {
            Rule::block => {
                // `block` pairs reach here only as sub-statements.
                StmtKind::Block(self.block_from_inner(inner, span))
            }
            Rule::if_stmt => {
                let cond = self.opt_expr(inner.next(), span);
                let then_branch = self.sub_stmt(inner.next(), span);
                let else_branch = inner.next().map(|p| Box::new(self.stmt(p)));
                StmtKind::If { cond, then_branch, else_branch }
            }
            Rule::while_stmt => {
                let cond = self.opt_expr(inner.next(), span);
                let body = self.sub_stmt(inner.next(), span);
                StmtKind::While { cond, body }
            }
            Rule::do_stmt => {
                let body = self.sub_stmt(inner.next(), span);
                let cond = self.opt_expr(inner.next(), span);
                StmtKind::DoWhile { body, cond }
            }
            Rule::for_stmt => self.for_stmt(inner, span),
            Rule::switch_stmt => {
                let cond = self.opt_expr(inner.next(), span);
                let body = self.sub_stmt(inner.next(), span);
                StmtKind::Switch { cond, body }
            }
            Rule::case_stmt => {
                let value = self.opt_expr(inner.next(), span);
                let stmt = self.sub_stmt(inner.next(), span);
                StmtKind::Case { value, stmt }
            }
            Rule::default_stmt => StmtKind::Default(self.sub_stmt(inner.next(), span)),
            Rule::break_stmt => StmtKind::Break,
            Rule::continue_stmt => StmtKind::Continue,
            Rule::return_stmt => StmtKind::Return(inner.next().map(|p| self.expr(p))),
            Rule::goto_stmt => match inner.next() {
                Some(p) => StmtKind::Goto(self.ident(&p)),
                None => StmtKind::Empty,
            },
            Rule::labeled_stmt => {
                let Some(l) = inner.next() else {
                    return StmtKind::Empty;
                };
                let label = self.ident(&l);
                let stmt = self.sub_stmt(inner.next(), span);
                StmtKind::Labeled { label, stmt }
            }
            Rule::empty_stmt => StmtKind::Empty,
            Rule::expr_stmt => StmtKind::Expr(self.opt_expr(inner.next(), span)),
            Rule::bad_asm => {
                self.error(span, "inline assembly is not part of mini-C");
                StmtKind::Empty
            }
            Rule::declaration => {
                // A declaration as the body of `if`/`while`/a label (C forbids
                // it, but it is harmless): keep it.
                let mut locals = Vec::new();
                self.specs_and_declarators(inner, false, &mut Vec::new(), &mut locals);
                StmtKind::Decl(locals)
            }
            _ => StmtKind::Empty,
        }
    }

    /// The declarations and statements of a block, in order, in a scope of their own.
    fn block_from_inner<'i>(&self, inner: impl Iterator<Item = Pair<'i, Rule>>, span: Span) -> Block {
        self.push_scope();
        let mut stmts = Vec::new();
        for p in inner {
            match p.as_rule() {
                Rule::declaration => {
                    let dspan = self.span(&p);
                    let mut locals = Vec::new();
                    self.declaration(p, false, &mut Vec::new(), &mut locals);
                    if !locals.is_empty() {
                        stmts.push(Stmt { kind: StmtKind::Decl(locals), span: dspan });
                    }
                }
                Rule::block_close => {}
                _ => stmts.push(self.stmt(p)),
            }
        }
        self.pop_scope();
        Block { stmts, span }
    }

    fn for_stmt<'i>(&self, inner: impl Iterator<Item = Pair<'i, Rule>>, span: Span) -> StmtKind {
        let mut init = None;
        let mut cond = None;
        let mut step = None;
        let mut body = None;
        self.push_scope();
        for p in inner {
            match p.as_rule() {
                Rule::for_decl => {
                    let mut locals = Vec::new();
                    if self.specs_and_declarators(p.into_inner(), false, &mut Vec::new(), &mut locals).is_some() {
                        init = Some(ForInit::Decl(locals));
                    }
                }
                Rule::for_init_expr => init = p.into_inner().next().map(|e| ForInit::Expr(self.expr(e))),
                Rule::for_cond => cond = p.into_inner().next().map(|e| self.expr(e)),
                Rule::for_step => step = p.into_inner().next().map(|e| self.expr(e)),
                Rule::for_open | Rule::for_semi | Rule::for_close => {}
                _ => body = Some(self.stmt(p)),
            }
        }
        self.pop_scope();
        let body = Box::new(body.unwrap_or(Stmt { kind: StmtKind::Empty, span }));
        StmtKind::For { init, cond, step, body }
    }

    // ───────────────────────── expressions ─────────────────────────

    fn opt_expr(&self, p: Option<Pair<Rule>>, span: Span) -> Expr {
        match p {
            Some(p) => self.expr(p),
            None => placeholder(span),
        }
    }

    /// An `expr`/`expr_nc` pair: check its size, then fold it with the Pratt parser.
    pub(crate) fn expr(&self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        let ops = pair.clone().into_inner().filter(|p| is_operator(p.as_rule())).count();
        // Operators are what makes the tree deep (a flat `1 + 1 + ...` is a
        // left-deep tree); bracket nesting was bounded by the pre-scan.
        if !self.enter(ops, span) {
            return placeholder(span);
        }
        let e = pratt()
            .map_primary(|p| self.primary(p))
            .map_prefix(|op, rhs| self.prefix(op, rhs))
            .map_postfix(|lhs, op| self.postfix(lhs, op))
            .map_infix(|lhs, op, rhs| self.infix(lhs, op, rhs))
            .parse(pair.into_inner());
        self.leave(ops);
        e
    }

    fn primary(&self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::int_lit => match literal::int_literal(self.text(&pair)) {
                Ok((value, ty)) => ExprKind::IntLit { value, ty },
                Err(msg) => {
                    self.error(span, msg);
                    return placeholder(span);
                }
            },
            Rule::char_lit => match literal::char_literal(self.text(&pair)) {
                // `char` is signed (ILP32 on x86): '\xff' is the int -1.
                Ok(value) if value > 127 => ExprKind::Unary {
                    op: UnaryOp::Neg,
                    operand: Box::new(Expr { kind: ExprKind::IntLit { value: 256 - value, ty: IntType::Int }, span }),
                },
                Ok(value) => ExprKind::IntLit { value, ty: IntType::Int },
                Err(msg) => {
                    self.error(span, msg);
                    return placeholder(span);
                }
            },
            Rule::bad_float_lit => {
                self.error(span, "floating-point numbers are not part of mini-C");
                return placeholder(span);
            }
            Rule::bad_number => {
                self.error(span, format!("`{}` is not a valid number", self.text(&pair)));
                return placeholder(span);
            }
            Rule::str_lits => {
                let mut s = String::new();
                for p in pair.into_inner() {
                    match literal::string_literal(self.text(&p)) {
                        Ok(part) => s.push_str(&part),
                        Err(msg) => self.error(self.span(&p), msg),
                    }
                }
                ExprKind::StrLit(s)
            }
            Rule::func_name => match self.current_fn.borrow().clone() {
                Some(f) => ExprKind::StrLit(f),
                None => {
                    self.error(span, format!("`{}` can only be used inside a function", self.text(&pair)));
                    return placeholder(span);
                }
            },
            Rule::ident => ExprKind::Var(self.ident(&pair)),
            Rule::paren_expr => {
                let Some(e) = pair.into_inner().next() else {
                    return placeholder(span);
                };
                // Parentheses keep the inner node; the span grows to cover them.
                let inner = self.expr(e);
                return Expr { kind: inner.kind, span };
            }
            Rule::stmt_expr => {
                let Some(b) = pair.into_inner().next() else {
                    return placeholder(span);
                };
                ExprKind::StmtExpr(self.block(b))
            }
            Rule::sizeof_type => {
                let Some(tn) = pair.into_inner().find(|p| p.as_rule() == Rule::type_name) else {
                    return placeholder(span);
                };
                let specs = self.specs(tn);
                let bytes = match specs.ty {
                    Some(CType::Void) => 1,
                    Some(t) => match self.size_of_type(&t) {
                        Some(n) => u128::from(n),
                        None => {
                            self.error(span, format!("`sizeof` of `{t}`, whose size is not known (is the struct defined?)"));
                            return placeholder(span);
                        }
                    },
                    None => return placeholder(span),
                };
                ExprKind::IntLit { value: bytes, ty: IntType::UInt }
            }
            _ => return placeholder(span),
        };
        Expr { kind, span }
    }

    fn prefix(&self, op: Pair<Rule>, rhs: Expr) -> Expr {
        let op_span = self.span(&op);
        let span = op_span.to(rhs.span);
        let uop = match op.as_rule() {
            Rule::neg => Some(UnaryOp::Neg),
            Rule::plus => Some(UnaryOp::Plus),
            Rule::not => Some(UnaryOp::Not),
            Rule::bit_not => Some(UnaryOp::BitNot),
            _ => None,
        };
        if let Some(uop) = uop {
            return Expr { kind: ExprKind::Unary { op: uop, operand: Box::new(rhs) }, span };
        }
        match op.as_rule() {
            Rule::pre_inc | Rule::pre_dec => self.inc_dec(rhs, op.as_rule() == Rule::pre_inc, true, op_span, span),
            Rule::cast => {
                let Some(tn) = op.into_inner().next() else {
                    return placeholder(span);
                };
                match self.specs(tn).ty {
                    Some(ty) => Expr { kind: ExprKind::Cast { ty, expr: Box::new(rhs) }, span },
                    None => placeholder(span),
                }
            }
            Rule::sizeof_op => {
                let bytes = match self.type_of(&rhs) {
                    CType::Void | CType::Struct(_) if is_placeholder(&rhs) => return placeholder(span),
                    CType::Void => 1,
                    t => match self.size_of_type(&t) {
                        Some(n) => u128::from(n),
                        None => {
                            self.error(span, format!("`sizeof` of `{t}`, whose size is not known (is the struct defined?)"));
                            return placeholder(span);
                        }
                    },
                };
                Expr { kind: ExprKind::IntLit { value: bytes, ty: IntType::UInt }, span }
            }
            Rule::address_of => Expr { kind: ExprKind::AddrOf(Box::new(rhs)), span },
            Rule::deref => Expr { kind: ExprKind::Deref(Box::new(rhs)), span },
            _ => placeholder(span),
        }
    }

    /// `++x`, `x++`, `--x`, `x--`: the operand must be an lvalue (a
    /// variable, `*p`, `a[i]`, `s.f`, `p->f`); anything else is an error at
    /// the operator (unless it already was one).
    fn inc_dec(&self, operand: Expr, increment: bool, prefix: bool, op_span: Span, span: Span) -> Expr {
        if is_lvalue(&operand) {
            return Expr { kind: ExprKind::IncDec { target: Box::new(operand), increment, prefix }, span };
        }
        let sym = if increment { "++" } else { "--" };
        if !is_placeholder(&operand) {
            self.error(op_span, format!("`{sym}` needs a variable or another lvalue (`*p`, `a[i]`, `s.f`)"));
        }
        placeholder(span)
    }

    fn postfix(&self, lhs: Expr, op: Pair<Rule>) -> Expr {
        let op_span = self.span(&op);
        let span = lhs.span.to(op_span);
        match op.as_rule() {
            Rule::post_inc | Rule::post_dec => self.inc_dec(lhs, op.as_rule() == Rule::post_inc, false, op_span, span),
            Rule::call_args => {
                let args: Vec<Expr> = op.into_inner().filter(|p| p.as_rule() == Rule::expr_nc).map(|p| self.expr(p)).collect();
                match lhs.kind {
                    ExprKind::Var(callee) => Expr { kind: ExprKind::Call { callee, args }, span },
                    _ => {
                        if !is_placeholder(&lhs) {
                            self.error(op_span, "only a function name can be called (function pointers are not part of mini-C)");
                        }
                        placeholder(span)
                    }
                }
            }
            Rule::subscript => {
                let Some(i) = op.into_inner().find(|p| p.as_rule() == Rule::expr) else {
                    return placeholder(span);
                };
                let index = self.expr(i);
                Expr { kind: ExprKind::Index { base: Box::new(lhs), index: Box::new(index) }, span }
            }
            Rule::member_access => {
                let mut inner = op.into_inner();
                let arrow = inner.next().is_some_and(|p| p.as_rule() == Rule::member_arrow);
                let Some(field) = inner.next().map(|p| self.ident(&p)) else {
                    return placeholder(span);
                };
                Expr { kind: ExprKind::Member { base: Box::new(lhs), field, arrow }, span }
            }
            _ => placeholder(span),
        }
    }

    fn infix(&self, lhs: Expr, op: Pair<Rule>, rhs: Expr) -> Expr {
        let span = lhs.span.to(rhs.span);
        let rule = op.as_rule();
        let assign_op = match rule {
            Rule::assign => Some(None),
            Rule::add_assign => Some(Some(BinaryOp::Add)),
            Rule::sub_assign => Some(Some(BinaryOp::Sub)),
            Rule::mul_assign => Some(Some(BinaryOp::Mul)),
            Rule::div_assign => Some(Some(BinaryOp::Div)),
            Rule::rem_assign => Some(Some(BinaryOp::Rem)),
            Rule::shl_assign => Some(Some(BinaryOp::Shl)),
            Rule::shr_assign => Some(Some(BinaryOp::Shr)),
            Rule::and_assign => Some(Some(BinaryOp::BitAnd)),
            Rule::or_assign => Some(Some(BinaryOp::BitOr)),
            Rule::xor_assign => Some(Some(BinaryOp::BitXor)),
            _ => None,
        };
        if let Some(aop) = assign_op {
            if is_lvalue(&lhs) {
                return Expr { kind: ExprKind::Assign { target: Box::new(lhs), op: aop, value: Box::new(rhs) }, span };
            }
            if !is_placeholder(&lhs) {
                self.error(
                    self.span(&op),
                    format!("the left side of `{}` must be a variable or another lvalue (`*p`, `a[i]`, `s.f`)", op.as_str()),
                );
            }
            return placeholder(span);
        }
        match rule {
            Rule::comma => Expr { kind: ExprKind::Comma { lhs: Box::new(lhs), rhs: Box::new(rhs) }, span },
            Rule::conditional => {
                let mid = op.into_inner().find(|p| p.as_rule() == Rule::expr);
                let then_expr = self.opt_expr(mid, span);
                Expr {
                    kind: ExprKind::Conditional { cond: Box::new(lhs), then_expr: Box::new(then_expr), else_expr: Box::new(rhs) },
                    span,
                }
            }
            _ => match binary_op(rule) {
                Some(bop) => Expr { kind: ExprKind::Binary { op: bop, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span },
                None => placeholder(span),
            },
        }
    }

    /// The C type of an expression, as far as `sizeof` needs it.
    fn type_of(&self, e: &Expr) -> CType {
        let int = CType::Int;
        match &e.kind {
            ExprKind::IntLit { ty, .. } => int(*ty),
            ExprKind::StrLit(_) => int(IntType::Char).pointer_to(),
            ExprKind::Var(id) => self.var_type(&id.name).unwrap_or(int(IntType::Int)),
            ExprKind::Unary { op: UnaryOp::Not, .. } => int(IntType::Int),
            ExprKind::Unary { operand, .. } => match self.type_of(operand) {
                CType::Int(t) => int(t.promote()),
                other => other,
            },
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge
                | BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::LogAnd
                | BinaryOp::LogOr => int(IntType::Int),
                _ => match (self.type_of(lhs), self.type_of(rhs)) {
                    (CType::Int(a), CType::Int(b)) => match op {
                        BinaryOp::Shl | BinaryOp::Shr => int(a.promote()),
                        _ => int(IntType::usual_arithmetic(a, b)),
                    },
                    (a, b) if *op == BinaryOp::Sub && decayed(&a).is_pointer() && decayed(&b).is_pointer() => int(IntType::Int),
                    (a, CType::Int(_)) => decayed(&a),
                    (_, b) => decayed(&b),
                },
            },
            ExprKind::Assign { target, .. } | ExprKind::IncDec { target, .. } => self.type_of(target),
            ExprKind::Conditional { then_expr, else_expr, .. } => match (self.type_of(then_expr), self.type_of(else_expr)) {
                (CType::Int(a), CType::Int(b)) => int(IntType::usual_arithmetic(a, b)),
                (a, _) => decayed(&a),
            },
            ExprKind::Cast { ty: CType::Void, .. } => int(IntType::Char),
            ExprKind::Cast { ty, .. } => ty.clone(),
            ExprKind::Call { callee, .. } => match self.fn_types.borrow().get(&callee.name) {
                Some(CType::Void) => int(IntType::Char),
                Some(t) => t.clone(),
                None if matches!(callee.name.as_str(), "malloc" | "calloc" | "alloca" | "__builtin_alloca") => {
                    CType::Void.pointer_to()
                }
                None => int(IntType::Int),
            },
            ExprKind::Comma { rhs, .. } => self.type_of(rhs),
            ExprKind::StmtExpr(_) => int(IntType::Int),
            ExprKind::AddrOf(inner) => self.type_of(inner).pointer_to(),
            ExprKind::Deref(inner) => pointee(&self.type_of(inner)),
            ExprKind::Index { base, index } => match self.type_of(base) {
                CType::Int(_) => pointee(&self.type_of(index)),
                t => pointee(&t),
            },
            ExprKind::Member { base, field, arrow } => {
                let t = self.type_of(base);
                let s = if *arrow { pointee(&t) } else { t };
                match s {
                    CType::Struct(tag) => self.field_type(&tag, &field.name).unwrap_or(int(IntType::Int)),
                    _ => int(IntType::Int),
                }
            }
            ExprKind::InitList(_) => int(IntType::Int),
        }
    }

    fn var_type(&self, name: &str) -> Option<CType> {
        self.scopes.borrow().iter().rev().find_map(|s| s.get(name).cloned())
    }
}

/// An array's type as a value: the pointer to its first element.
fn decayed(t: &CType) -> CType {
    match t {
        CType::Array(inner, _) => (**inner).clone().pointer_to(),
        other => other.clone(),
    }
}

/// What a pointer (or array) points to; `int` for anything else (an error
/// reported later by lowering).
fn pointee(t: &CType) -> CType {
    match t {
        CType::Pointer(inner) | CType::Array(inner, _) => (**inner).clone(),
        _ => CType::Int(IntType::Int),
    }
}

/// Whether `e` can stand left of `=`: a variable, `*p`, `a[i]`, `s.f`, `p->f`.
fn is_lvalue(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Index { .. } | ExprKind::Member { .. })
}

/// Keyword and punctuation pairs carry no information for the AST.
fn significant<'i>(pairs: Pairs<'i, Rule>) -> impl Iterator<Item = Pair<'i, Rule>> {
    pairs.filter(|p| {
        !matches!(
            p.as_rule(),
            Rule::kw_if
                | Rule::kw_else
                | Rule::kw_while
                | Rule::kw_do
                | Rule::kw_for
                | Rule::kw_switch
                | Rule::kw_case
                | Rule::kw_default
                | Rule::kw_break
                | Rule::kw_continue
                | Rule::kw_return
                | Rule::kw_goto
                | Rule::cond_open
                | Rule::cond_close
                | Rule::do_while
                | Rule::case_colon
                | Rule::default_colon
                | Rule::stmt_semi
                | Rule::expr_semi
                | Rule::block_close
        )
    })
}

/// The binary operator of an infix rule.
fn binary_op(rule: Rule) -> Option<BinaryOp> {
    Some(match rule {
        Rule::log_or => BinaryOp::LogOr,
        Rule::log_and => BinaryOp::LogAnd,
        Rule::bit_or => BinaryOp::BitOr,
        Rule::bit_xor => BinaryOp::BitXor,
        Rule::bit_and => BinaryOp::BitAnd,
        Rule::eq => BinaryOp::Eq,
        Rule::ne => BinaryOp::Ne,
        Rule::lt => BinaryOp::Lt,
        Rule::le => BinaryOp::Le,
        Rule::gt => BinaryOp::Gt,
        Rule::ge => BinaryOp::Ge,
        Rule::shl => BinaryOp::Shl,
        Rule::shr => BinaryOp::Shr,
        Rule::add => BinaryOp::Add,
        Rule::sub => BinaryOp::Sub,
        Rule::mul => BinaryOp::Mul,
        Rule::div => BinaryOp::Div,
        Rule::rem => BinaryOp::Rem,
        _ => return None,
    })
}

/// The value that marks a placeholder (no real literal is this large).
const PLACEHOLDER: u128 = u128::MAX;

/// Stands in for an expression that had an error (the AST is discarded then).
fn placeholder(span: Span) -> Expr {
    Expr { kind: ExprKind::IntLit { value: PLACEHOLDER, ty: IntType::Int }, span }
}

/// Whether `e` stands in for an expression that already had an error.
fn is_placeholder(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::IntLit { value: PLACEHOLDER, .. })
}
