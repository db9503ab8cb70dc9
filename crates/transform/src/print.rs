//! The transformed program as text: one line per transformed edge, in the
//! CFA listing's order (functions, then edges by source node), each linked
//! to its original edge and source span, with marks for what the page
//! highlights (lift, thaw, freeze, domain operations, choices).
//!
//! ```text
//! function main (entry N3, exit N13)
//!   N5 -> N6    x = lift(*);                       // line 5: int x = __VERIFIER_nondet_int();
//!   N8 -> N11   assume(a_gt(y, lift(10)));         // line 8: [y > 10]  (choice)
//! ```

use crate::program::{AExpr, Address, Operand, TOp, Transformed};
use cfa::{BinOp, EdgeId, Expr, Program, UnOp, VarId};
use minic::{IntType, Span};
use serde::{Deserialize, Serialize};

/// What a line does that the transformation introduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// A concrete value or input made abstract (`lift`).
    Lift,
    /// A domain operation (`a_add`, …).
    Operation,
    /// An abstract value stored into the shadow slot of a global or a
    /// memory cell (`freeze`).
    Freeze,
    /// An abstract value loaded from the shadow slot of a global or a
    /// memory cell (`thaw`).
    Thaw,
    /// A nondeterministic choice on an abstract condition.
    Choice,
}

/// One line of the transformed program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// The text (location, operation and the original statement as a comment).
    pub text: String,
    /// The transformed operation alone (empty for headings and comments):
    /// what the page shows beside the original line.
    pub op: String,
    /// The transformed edge (`None` for headings and comments).
    pub edge: Option<EdgeId>,
    /// The original statement's span.
    pub span: Option<Span>,
    /// What the transformation introduced on this line.
    pub marks: Vec<Mark>,
}

/// The transformed program as lines (see the module docs).
pub fn lines(program: &Program, t: &Transformed) -> Vec<Line> {
    let comment = |text: String| Line { text, op: String::new(), edge: None, span: None, marks: vec![] };
    let mut out = vec![
        comment(format!(
            "// {} transformed for the {} domain ({} integers); lifted: {}",
            "the program",
            t.options.domain,
            t.options.model.name(),
            lifted_words(program, t)
        )),
        comment("// lift(e): a concrete value made abstract; lift(*): any input; a_op: the domain's operation;".into()),
        comment("// freeze/thaw: an abstract value stored to / loaded from the shadow slot of a global or a memory cell (memory keeps its layout);".into()),
        comment("// *(a) / *(a) = v: a concrete load / store of the cell at address a; alloc(n): a fresh object;".into()),
        comment("// assume on an abstract condition: a nondeterministic choice the domain allows;".into()),
        comment(lower_words(t.options.domain).into()),
    ];
    for f in &program.functions {
        out.push(comment(format!("function {} (entry {}, exit {})", f.name, f.entry, f.exit)));
        let mut edges: Vec<&cfa::Edge> = program.edges.iter().filter(|e| program.node(e.source).function == f.id).collect();
        edges.sort_by_key(|e| (e.source, e.id));
        for e in edges {
            let te = t.edge(e.id);
            let mut marks = Vec::new();
            let mut text = op_text(program, &te.op, &mut marks);
            for v in &te.lifts {
                marks.push(Mark::Lift);
                let name = name(program, *v);
                if program.variable(*v).is_global() {
                    marks.push(Mark::Freeze);
                    text.push_str(&format!(" freeze(&{name}, lift({name}));"));
                } else {
                    text.push_str(&format!(" {name} = lift({name});"));
                }
            }
            marks.sort_by_key(|m| *m as u8);
            marks.dedup();
            let head = format!("  {} -> {}", e.source, e.target);
            out.push(Line {
                text: format!("{head:<14}{text:<44} // line {}: {}", e.line, e.label),
                op: text,
                edge: Some(e.id),
                span: Some(e.span),
                marks,
            });
        }
    }
    out
}

/// What `lower(v)` does in `domain` (the text's legend says it).
pub fn lower_words(domain: crate::Domain) -> &'static str {
    match domain {
        crate::Domain::Term => "// lower(v): an abstract address made concrete: the solver gives each value k of v under the path condition (assume v == k), at most 8, else the run ends UNKNOWN;",
        crate::Domain::Parity | crate::Domain::Sign => "// lower(v): an abstract address made concrete: each address of a live cell the domain allows (any other is a memory error that stops the path), at most 64, else the run ends UNKNOWN;",
    }
}

/// The whole text.
pub fn text(program: &Program, t: &Transformed) -> String {
    let mut s = String::new();
    for l in lines(program, t) {
        s.push_str(l.text.trim_end());
        s.push('\n');
    }
    s
}

fn lifted_words(program: &Program, t: &Transformed) -> String {
    let mut parts = Vec::new();
    match t.options.lift {
        crate::LiftSet::All => parts.push("every variable and input".to_string()),
        crate::LiftSet::Inputs => parts.push("the inputs".to_string()),
        crate::LiftSet::None => parts.push("nothing (inputs are concrete)".to_string()),
    }
    if t.options.lift != crate::LiftSet::All {
        for v in t.abstractness.lifted() {
            parts.push(program.variable(*v).qualified.clone());
        }
    }
    parts.join(", ")
}

fn name(program: &Program, v: VarId) -> String {
    program.variable(v).name.clone()
}

fn op_text(program: &Program, op: &TOp, marks: &mut Vec<Mark>) -> String {
    match op {
        TOp::Blank => ";".into(),
        TOp::Terminate => "abort();".into(),
        TOp::ReachError => "reach_error();".into(),
        TOp::Unset { var, lifted } => {
            if *lifted {
                marks.push(Mark::Lift);
            }
            let ty = program.variable(*var).ty.c_name();
            format!("{ty} {};{}", name(program, *var), if *lifted { "  /* first read: lift(*) */" } else { "" })
        }
        TOp::Store { var, value, declare, freeze } => {
            let v = operand_text(program, value, marks);
            let n = name(program, *var);
            if *freeze {
                marks.push(Mark::Freeze);
                format!("freeze(&{n}, {v});")
            } else if *declare {
                format!("{} {n} = {v};", if value.is_abstract() { "abstract" } else { program.variable(*var).ty.c_name() })
            } else {
                format!("{n} = {v};")
            }
        }
        TOp::MemStore { addr, value, freeze, .. } => {
            let a = address_text(program, addr, marks);
            let v = operand_text(program, value, marks);
            if *freeze {
                marks.push(Mark::Freeze);
                format!("freeze({a}, {v});")
            } else {
                format!("*({a}) = {v};")
            }
        }
        TOp::Free { addr } => format!("free({});", address_text(program, addr, marks)),
        TOp::Assume { cond, positive } => {
            let c = operand_text(program, cond, marks);
            if cond.is_abstract() {
                marks.push(Mark::Choice);
            }
            if *positive {
                format!("assume({c});")
            } else if cond.is_abstract() {
                format!("assume(a_not({c}));")
            } else {
                format!("assume(!({c}));")
            }
        }
        TOp::Call { callee, args } => {
            let args: Vec<String> = args.iter().map(|a| operand_text(program, a, marks)).collect();
            format!("call {}({});", program.function(*callee).name, args.join(", "))
        }
        TOp::ReturnValue { value, .. } => match value {
            Some(v) => format!("return {};", operand_text(program, v, marks)),
            None => "return;".into(),
        },
        TOp::Return { callee, result, freeze, .. } => {
            let f = &program.function(*callee).name;
            match result {
                Some(r) if *freeze => {
                    marks.push(Mark::Freeze);
                    format!("freeze(&{}, result of {f});", name(program, *r))
                }
                Some(r) => format!("{} = result of {f};", name(program, *r)),
                None => format!("return from {f};"),
            }
        }
    }
}

/// An operand as text (`lift(*)`, `a_add(x, lift(1))`, `x + 1`).
pub fn operand_text(program: &Program, o: &Operand, marks: &mut Vec<Mark>) -> String {
    match o {
        Operand::Concrete(e) => expr_text(program, e),
        Operand::Input { lifted: true, .. } => {
            marks.push(Mark::Lift);
            "lift(*)".into()
        }
        Operand::Input { lifted: false, .. } => "*".into(),
        Operand::Abstract(a) => aexpr_text(program, a, marks),
        Operand::Load { addr, thaw, .. } => {
            let a = address_text(program, addr, marks);
            if *thaw {
                marks.push(Mark::Thaw);
                format!("thaw({a})")
            } else {
                format!("*({a})")
            }
        }
        Operand::Alloc { size, zeroed, .. } => {
            format!("alloc{}({})", if *zeroed { "_zeroed" } else { "" }, address_text(program, size, marks))
        }
    }
}

/// An address as text: the concrete expression, or `lower(a_op…)`.
pub fn address_text(program: &Program, a: &Address, marks: &mut Vec<Mark>) -> String {
    match a {
        Address::Concrete(e) => expr_text(program, e),
        Address::Lower(x) => {
            marks.push(Mark::Operation);
            format!("lower({})", aexpr_text(program, x, marks))
        }
    }
}

fn aexpr_text(program: &Program, a: &AExpr, marks: &mut Vec<Mark>) -> String {
    match a {
        AExpr::Lift(e) => {
            marks.push(Mark::Lift);
            format!("lift({})", expr_text(program, e))
        }
        AExpr::Var { var, thaw: true, .. } => {
            marks.push(Mark::Thaw);
            format!("thaw(&{})", name(program, *var))
        }
        AExpr::Var { var, .. } => name(program, *var),
        AExpr::Unary { op, arg, .. } => {
            marks.push(Mark::Operation);
            format!("a_{}({})", unary_name(*op), aexpr_text(program, arg, marks))
        }
        AExpr::Binary { op, lhs, rhs, .. } => {
            marks.push(Mark::Operation);
            let l = aexpr_text(program, lhs, marks);
            let r = aexpr_text(program, rhs, marks);
            format!("a_{}({l}, {r})", binary_name(*op))
        }
        AExpr::Cast { ty, arg, .. } => {
            marks.push(Mark::Operation);
            format!("a_cast_{}({})", type_word(*ty), aexpr_text(program, arg, marks))
        }
    }
}

fn type_word(ty: IntType) -> String {
    ty.c_name().replace(' ', "_")
}

/// The domain operation's name for a unary operator (`neg`, `bitnot`, `not`).
pub fn unary_name(op: UnOp) -> &'static str {
    match op {
        UnOp::Neg => "neg",
        UnOp::BitNot => "bitnot",
        UnOp::LogNot => "not",
    }
}

/// The domain operation's name for a binary operator (`add`, `lt`, …).
pub fn binary_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "add",
        BinOp::Sub => "sub",
        BinOp::Mul => "mul",
        BinOp::Div => "div",
        BinOp::Rem => "rem",
        BinOp::Shl => "shl",
        BinOp::Shr => "shr",
        BinOp::BitAnd => "and",
        BinOp::BitOr => "or",
        BinOp::BitXor => "xor",
        BinOp::Lt => "lt",
        BinOp::Le => "le",
        BinOp::Gt => "gt",
        BinOp::Ge => "ge",
        BinOp::Eq => "eq",
        BinOp::Ne => "ne",
    }
}

/// A concrete expression in C syntax (casts written out).
pub fn expr_text(program: &Program, e: &Expr) -> String {
    match e {
        Expr::Const { value, .. } => value.to_string(),
        Expr::Var { var, .. } => name(program, *var),
        Expr::Unary { op, arg, .. } => format!("{}{}", op.symbol(), atom(program, arg)),
        Expr::Binary { op, lhs, rhs, .. } => format!("{} {} {}", atom(program, lhs), op.symbol(), atom(program, rhs)),
        Expr::Cast { ty, arg } => format!("({}){}", ty.c_name(), atom(program, arg)),
    }
}

fn atom(program: &Program, e: &Expr) -> String {
    match e {
        Expr::Const { .. } | Expr::Var { .. } => expr_text(program, e),
        _ => format!("({})", expr_text(program, e)),
    }
}
