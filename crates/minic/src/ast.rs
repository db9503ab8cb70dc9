//! The abstract syntax tree of a mini-C translation unit.
//!
//! What the parser hands to semantic checks and to CFA lowering. Every node
//! carries the [`Span`] of its source text. Things that mean nothing to the
//! analysis are dropped by the parser (GCC attributes, `__extension__`,
//! `const`/`volatile`/`register`/`inline`, preprocessor lines); typedef names
//! are resolved to their scalar type; `sizeof` is folded to a constant; and
//! `__PRETTY_FUNCTION__`/`__func__` become string literals.

use crate::span::Span;
use crate::types::{CType, IntType};
use serde::{Deserialize, Serialize};

/// A name as written in the source, with its location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ident {
    /// The name as written.
    pub name: String,
    /// Where it is written.
    pub span: Span,
}

/// A whole source file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TranslationUnit {
    /// The top-level items in source order (typedefs are resolved, not kept).
    pub items: Vec<Item>,
    /// The struct definitions, in source order (tags are unique).
    pub structs: Vec<StructDef>,
}

/// `struct tag { T1 f1; T2 f2; ... };`: a struct type's fields in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructDef {
    /// The tag (`node` in `struct node`); anonymous structs of a typedef get `__anon<k>`.
    pub tag: String,
    /// The fields in declaration order.
    pub fields: Vec<(String, CType)>,
    /// The definition, from `struct` to `}`.
    pub span: Span,
}

impl TranslationUnit {
    /// The fields of `struct tag`, if it is defined.
    pub fn struct_fields(&self, tag: &str) -> Option<Vec<(String, CType)>> {
        self.structs.iter().find(|s| s.tag == tag).map(|s| s.fields.clone())
    }
}

/// A top-level declaration or definition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Item {
    /// A global variable declaration (`int a, b = 2;` gives two items).
    Global(VarDecl),
    /// A function prototype (`extern int f(int);`, `void reach_error();`).
    Prototype(FunctionDecl),
    /// A function with a body.
    Function(FunctionDef),
}

/// `static`/`extern` as written; `None` for neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Storage {
    /// No storage class.
    None,
    /// `static`.
    Static,
    /// `extern`.
    Extern,
}

/// One declared variable (global or local): `int x = 3`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VarDecl {
    /// The declared name.
    pub name: Ident,
    /// Its type (typedef names resolved): a scalar, pointer, array or struct.
    pub ty: CType,
    /// `static`/`extern` as written.
    pub storage: Storage,
    /// The initial value, if written.
    pub init: Option<Expr>,
    /// The whole declarator, from the type to the end of the initializer.
    pub span: Span,
}

/// The type of a parameter in a prototype. `char *`/`const char *` in a
/// prototype is kept apart so glibc's assert prototypes parse; a function
/// with such a parameter can be called only if it is one of the known
/// assert helpers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ParamType {
    /// An integer scalar.
    Int(IntType),
    /// `char *` or `const char *` (prototypes of the assert helpers only).
    CharPointer,
    /// A pointer (an array parameter `int a[5]` is the pointer `int *a`).
    Pointer(CType),
}

/// A parameter of a function declaration or definition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    /// Absent in prototypes such as `int f(int);`.
    pub name: Option<Ident>,
    /// The parameter's type.
    pub ty: ParamType,
    /// The whole parameter, type and name.
    pub span: Span,
}

/// The part common to prototypes and definitions: `int f(int x, unsigned y)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionDecl {
    /// The function's name.
    pub name: Ident,
    /// The result type (`void`, a scalar or a pointer).
    pub ret: CType,
    /// The parameters in order (empty for `(void)` and `()`).
    pub params: Vec<Param>,
    /// `int f()` — an old-style empty list: any arguments are accepted.
    pub unspecified_params: bool,
    /// `static`/`extern` as written.
    pub storage: Storage,
    /// From the start of the specifiers to the end of the parameter list.
    pub span: Span,
}

/// A function definition: its declaration and its body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionDef {
    /// Name, result and parameters.
    pub decl: FunctionDecl,
    /// The body.
    pub body: Block,
}

/// `{ ... }`: a list of statements with the span of the braces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    /// The statements in order.
    pub stmts: Vec<Stmt>,
    /// From `{` to `}`.
    pub span: Span,
}

/// A statement with its span.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stmt {
    /// What kind of statement.
    pub kind: StmtKind,
    /// The whole statement.
    pub span: Span,
}

/// The statement forms of mini-C.
#[allow(clippy::large_enum_variant)] // `For` is big; statements are not hot enough to box it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StmtKind {
    /// A local declaration, possibly with several declarators.
    Decl(Vec<VarDecl>),
    /// An expression statement (`x = 3;`, `f(x);`, `x++;`).
    Expr(Expr),
    /// `if (cond) then_branch else else_branch`.
    If {
        /// The condition.
        cond: Expr,
        /// Runs when the condition is non-zero.
        then_branch: Box<Stmt>,
        /// Runs otherwise, if present.
        else_branch: Option<Box<Stmt>>,
    },
    /// `while (cond) body`.
    While {
        /// Checked before each iteration.
        cond: Expr,
        /// The loop body.
        body: Box<Stmt>,
    },
    /// `do body while (cond);`.
    DoWhile {
        /// The loop body, run at least once.
        body: Box<Stmt>,
        /// Checked after each iteration.
        cond: Expr,
    },
    /// `for (init; cond; step) body`; every part may be absent.
    For {
        /// Runs once before the loop.
        init: Option<ForInit>,
        /// Checked before each iteration; absent means always true.
        cond: Option<Expr>,
        /// Runs after each iteration.
        step: Option<Expr>,
        /// The loop body.
        body: Box<Stmt>,
    },
    /// `break;`.
    Break,
    /// `continue;`.
    Continue,
    /// `return;` or `return e;`.
    Return(Option<Expr>),
    /// `goto L;`.
    Goto(Ident),
    /// `L: stmt`.
    Labeled {
        /// The label.
        label: Ident,
        /// The labelled statement.
        stmt: Box<Stmt>,
    },
    /// A nested block `{ ... }`.
    Block(Block),
    /// The empty statement `;`.
    Empty,
    /// `switch (cond) body`.
    Switch {
        /// The value compared with the `case`s.
        cond: Expr,
        /// The body holding the `case`/`default` labels.
        body: Box<Stmt>,
    },
    /// `case value: stmt` — `value` is a constant expression.
    Case {
        /// The constant compared with the switch value.
        value: Expr,
        /// The labelled statement.
        stmt: Box<Stmt>,
    },
    /// `default: stmt`.
    Default(Box<Stmt>),
}

/// The first part of a `for` header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForInit {
    /// `for (int i = 0; ...)`.
    Decl(Vec<VarDecl>),
    /// `for (i = 0; ...)`.
    Expr(Expr),
}

/// An expression with its span.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expr {
    /// What kind of expression.
    pub kind: ExprKind,
    /// The whole expression (including parentheses around it).
    pub span: Span,
}

/// Unary operators `- + ! ~`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnaryOp {
    /// `-e`.
    Neg,
    /// `+e`.
    Plus,
    /// `!e`: 1 if `e` is zero, else 0.
    Not,
    /// `~e`.
    BitNot,
}

/// Binary operators; `&&`/`||` are kept here and lowered to control flow by the CFA builder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinaryOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/` (truncates toward zero).
    Div,
    /// `%` (sign of the dividend).
    Rem,
    /// `<<`.
    Shl,
    /// `>>`.
    Shr,
    /// `&`.
    BitAnd,
    /// `|`.
    BitOr,
    /// `^`.
    BitXor,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `&&` (short-circuit).
    LogAnd,
    /// `||` (short-circuit).
    LogOr,
}

impl BinaryOp {
    /// The C spelling of the operator.
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Shl => "<<",
            Shr => ">>",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            LogAnd => "&&",
            LogOr => "||",
        }
    }
}

impl UnaryOp {
    /// The C spelling of the operator.
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Plus => "+",
            UnaryOp::Not => "!",
            UnaryOp::BitNot => "~",
        }
    }
}

/// The expression forms of mini-C (before lowering removes side effects).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExprKind {
    /// An integer or character literal with its C type (from suffix and value,
    /// C11 6.4.4.1); `sizeof` folds to one of type `unsigned int`. Character
    /// constants have type `int`; as `char` is signed, one above 127 (`'\xff'`)
    /// is written as the negation `-(256 - v)` instead.
    IntLit {
        /// The value (at most 64 bits).
        value: u128,
        /// Its C type.
        ty: IntType,
    },
    /// A string literal; legal only as an argument of the assert helpers.
    StrLit(String),
    /// A variable.
    Var(Ident),
    /// `op operand`.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// Its operand.
        operand: Box<Expr>,
    },
    /// `lhs op rhs`.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// The left operand.
        lhs: Box<Expr>,
        /// The right operand.
        rhs: Box<Expr>,
    },
    /// `target = value` (op `None`) or `target op= value`.
    Assign {
        /// The assigned lvalue: a variable, `*p`, `a[i]`, `s.f` or `p->f`.
        target: Box<Expr>,
        /// `None` for `=`, `Some(Add)` for `+=`, ...
        op: Option<BinaryOp>,
        /// The right-hand side.
        value: Box<Expr>,
    },
    /// `++x`, `x++`, `--x`, `x--`.
    IncDec {
        /// The lvalue changed.
        target: Box<Expr>,
        /// `++` (true) or `--` (false).
        increment: bool,
        /// `++x` (true: the value after) or `x++` (false: the value before).
        prefix: bool,
    },
    /// `cond ? then_expr : else_expr`.
    Conditional {
        /// The condition.
        cond: Box<Expr>,
        /// The value when the condition is non-zero.
        then_expr: Box<Expr>,
        /// The value otherwise.
        else_expr: Box<Expr>,
    },
    /// `(T) e`, including `(void) e` and pointer casts.
    Cast {
        /// The target type.
        ty: CType,
        /// The converted expression.
        expr: Box<Expr>,
    },
    /// `callee(args...)`.
    Call {
        /// The called function.
        callee: Ident,
        /// The arguments in order.
        args: Vec<Expr>,
    },
    /// `a, b`: evaluates `a`, then yields `b`.
    Comma {
        /// Evaluated first, value discarded.
        lhs: Box<Expr>,
        /// Evaluated second: the value of the whole.
        rhs: Box<Expr>,
    },
    /// GCC statement expression `({ ... })`; its value is that of the last
    /// expression statement, if any.
    StmtExpr(Block),
    /// `&e`: the address of an lvalue.
    AddrOf(Box<Expr>),
    /// `*e`: the object a pointer points to.
    Deref(Box<Expr>),
    /// `base[index]`: `*(base + index)`.
    Index {
        /// The array or pointer.
        base: Box<Expr>,
        /// The element number.
        index: Box<Expr>,
    },
    /// `base.field` (`arrow: false`) or `base->field` (`arrow: true`).
    Member {
        /// The struct (or the pointer to it, for `->`).
        base: Box<Expr>,
        /// The field's name.
        field: Ident,
        /// `->` rather than `.`.
        arrow: bool,
    },
    /// `{a, b, ...}`: the initializer of an array or struct (declarations only).
    InitList(Vec<Expr>),
}
