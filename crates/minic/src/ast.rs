//! The abstract syntax tree of a mini-C translation unit.
//!
//! What the parser hands to semantic checks and to CFA lowering. Every node
//! carries the [`Span`] of its source text. Things that mean nothing to the
//! analysis are dropped by the parser (GCC attributes, `__extension__`,
//! `const`/`volatile`/`register`/`inline`, preprocessor lines); typedef names
//! are resolved to their scalar type; `sizeof` is folded to a constant; and
//! `__PRETTY_FUNCTION__`/`__func__` become string literals.

use crate::span::Span;
use crate::types::{IntType, Type};
use serde::{Deserialize, Serialize};

/// A name as written in the source, with its location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A whole source file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TranslationUnit {
    pub items: Vec<Item>,
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
    None,
    Static,
    Extern,
}

/// One declared variable (global or local): `int x = 3`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VarDecl {
    pub name: Ident,
    pub ty: IntType,
    pub storage: Storage,
    pub init: Option<Expr>,
    /// The whole declarator, from the type to the end of the initializer.
    pub span: Span,
}

/// The type of a parameter in a prototype. `char *`/`const char *` is
/// accepted only so glibc's assert prototypes parse; a function with such a
/// parameter can be called only if it is one of the known assert helpers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ParamType {
    Int(IntType),
    CharPointer,
}

/// A parameter of a function declaration or definition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    /// Absent in prototypes such as `int f(int);`.
    pub name: Option<Ident>,
    pub ty: ParamType,
    pub span: Span,
}

/// The part common to prototypes and definitions: `int f(int x, unsigned y)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionDecl {
    pub name: Ident,
    pub ret: Type,
    pub params: Vec<Param>,
    /// `int f()` — an old-style empty list: any arguments are accepted.
    pub unspecified_params: bool,
    pub storage: Storage,
    pub span: Span,
}

/// A function definition: its declaration and its body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionDef {
    pub decl: FunctionDecl,
    pub body: Block,
}

/// `{ ... }`: a list of statements with the span of the braces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

/// A statement with its span.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// The statement forms of mini-C.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StmtKind {
    /// A local declaration, possibly with several declarators.
    Decl(Vec<VarDecl>),
    /// An expression statement (`x = 3;`, `f(x);`, `x++;`).
    Expr(Expr),
    If { cond: Expr, then_branch: Box<Stmt>, else_branch: Option<Box<Stmt>> },
    While { cond: Expr, body: Box<Stmt> },
    DoWhile { body: Box<Stmt>, cond: Expr },
    /// `for (init; cond; step) body`; every part may be absent.
    For { init: Option<ForInit>, cond: Option<Expr>, step: Option<Expr>, body: Box<Stmt> },
    Break,
    Continue,
    Return(Option<Expr>),
    Goto(Ident),
    Labeled { label: Ident, stmt: Box<Stmt> },
    Block(Block),
    /// The empty statement `;`.
    Empty,
    Switch { cond: Expr, body: Box<Stmt> },
    /// `case value: stmt` — `value` is a constant expression.
    Case { value: Expr, stmt: Box<Stmt> },
    Default(Box<Stmt>),
}

/// The first part of a `for` header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForInit {
    Decl(Vec<VarDecl>),
    Expr(Expr),
}

/// An expression with its span.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// Unary operators `- + ! ~`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
    BitNot,
}

/// Binary operators; `&&`/`||` are kept here and lowered to control flow by the CFA builder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LogAnd,
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
    /// C11 6.4.4.1); `sizeof` folds to one of type `unsigned int`.
    IntLit { value: u128, ty: IntType },
    /// A string literal; legal only as an argument of the assert helpers.
    StrLit(String),
    Var(Ident),
    Unary { op: UnaryOp, operand: Box<Expr> },
    Binary { op: BinaryOp, lhs: Box<Expr>, rhs: Box<Expr> },
    /// `target = value` (op `None`) or `target op= value`.
    Assign { target: Ident, op: Option<BinaryOp>, value: Box<Expr> },
    /// `++x`, `x++`, `--x`, `x--`.
    IncDec { target: Ident, increment: bool, prefix: bool },
    Conditional { cond: Box<Expr>, then_expr: Box<Expr>, else_expr: Box<Expr> },
    /// `(T) e`, including `(void) e`.
    Cast { ty: Type, expr: Box<Expr> },
    Call { callee: Ident, args: Vec<Expr> },
    /// `a, b`: evaluates `a`, then yields `b`.
    Comma { lhs: Box<Expr>, rhs: Box<Expr> },
    /// GCC statement expression `({ ... })`; its value is that of the last
    /// expression statement, if any.
    StmtExpr(Block),
}
