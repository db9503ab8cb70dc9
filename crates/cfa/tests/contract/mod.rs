//! The CFA contract, shared by the tests that check it: `invariants.rs`
//! (every SV-COMP task and example) and `fuzz.rs` (generated and mutated
//! programs).

#![allow(dead_code)]

use cfa::{BinOp, EdgeKind, Expr, NodeKind, Program, Rhs, UnOp};
use minic::IntType;
use std::path::PathBuf;

/// Every SV-COMP task and every `static/examples/*.c`, as (name, text).
pub fn sources() -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out: Vec<(String, String)> = svcomp_tasks::tasks().iter().map(|t| (t.path.clone(), t.source())).collect();
    if let Ok(dir) = std::fs::read_dir(root.join("static/examples")) {
        let mut extra: Vec<_> = dir.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "c")).collect();
        extra.sort();
        for p in extra {
            if let Ok(src) = std::fs::read_to_string(&p) {
                out.push((p.display().to_string(), src));
            }
        }
    }
    out
}

/// Checks that `e` is well typed in the sense of `cfa::expr`: operands of a
/// binary operation have its type (shifts: the promoted left type), constants
/// are in range. Returns the first violation.
fn check_expr(e: &Expr) -> Result<(), String> {
    match e {
        Expr::Const { value, ty } => {
            if *value < ty.min_value() || *value > ty.max_value() {
                return Err(format!("constant {value} out of range for {ty}"));
            }
        }
        Expr::Var { .. } => {}
        Expr::Cast { arg, .. } => check_expr(arg)?,
        Expr::Unary { op, ty, arg } => {
            check_expr(arg)?;
            if *op != UnOp::LogNot && arg.ty() != *ty {
                return Err(format!("unary {op:?} of type {ty} on operand of type {}", arg.ty()));
            }
            if *op != UnOp::LogNot && ty.promote() != *ty {
                return Err(format!("unary {op:?} in unpromoted type {ty}"));
            }
        }
        Expr::Binary { op, ty, lhs, rhs } => {
            check_expr(lhs)?;
            check_expr(rhs)?;
            if lhs.ty() != *ty {
                return Err(format!("{op:?} of type {ty} with left operand of type {}", lhs.ty()));
            }
            let want = if matches!(op, BinOp::Shl | BinOp::Shr) { rhs.ty().promote() } else { *ty };
            if rhs.ty() != want {
                return Err(format!("{op:?} of type {ty} with right operand of type {}", rhs.ty()));
            }
            if ty.promote() != *ty {
                return Err(format!("{op:?} in unpromoted type {ty}"));
            }
        }
    }
    Ok(())
}

/// The violations of the CFA contract in `p` (named `name` in messages):
/// error and terminal nodes have no successors, no dead ends, every node has a
/// line, every edge's nodes exist and it stays in its function (calls and
/// returns match), expressions are well typed, labels are present, reverse
/// postorder starts at each entry. Empty when all hold.
pub fn check_program(name: &str, p: &Program) -> Vec<String> {
    let mut bad = Vec::new();
    // Ids and adjacency first: everything below indexes by them.
    let ids = ids_and_adjacency(p);
    if !ids.is_empty() {
        return ids.into_iter().map(|m| format!("{name}: {m}")).collect();
    }
    let mut fail = |m: String| bad.push(format!("{name}: {m}"));
    for n in &p.nodes {
        if (n.error || n.kind == NodeKind::Terminal) && !n.outgoing.is_empty() {
            fail(format!("{} is an error/terminal node with successors", n.id));
        }
        if n.kind == NodeKind::Normal && !n.error && n.outgoing.is_empty() {
            fail(format!("{} is a dead end", n.id));
        }
        if n.line == 0 {
            fail(format!("{} has no line", n.id));
        }
    }
    for f in &p.functions {
        assert_eq!(p.node(f.entry).kind, NodeKind::Entry);
        assert_eq!(p.node(f.exit).kind, NodeKind::Exit);
    }
    for e in &p.edges {
        let src_fn = p.node(e.source).function;
        let tgt_fn = p.node(e.target).function;
        let var_ty = |v: cfa::VarId| p.variable(v).ty;
        let mut exprs: Vec<(&Expr, Option<IntType>)> = Vec::new();
        match &e.kind {
            EdgeKind::Call { callee, args, return_site, result } => {
                if let Some(r) = result {
                    let ret = p.function(*callee).ret.map(var_ty);
                    if ret != Some(var_ty(*r)) {
                        fail(format!("call edge {} stores a {ret:?} result in a {}", e.id.0, var_ty(*r)));
                    }
                }
                if args.len() != p.function(*callee).params.len() {
                    fail(format!("call edge {} passes {} arguments", e.id.0, args.len()));
                }
                if p.function(*callee).entry != e.target {
                    fail(format!("call edge {} does not enter its callee", e.id.0));
                }
                if p.node(*return_site).function != src_fn {
                    fail(format!("call edge {} returns into another function", e.id.0));
                }
                for (a, prm) in args.iter().zip(&p.function(*callee).params) {
                    exprs.push((a, Some(var_ty(*prm))));
                }
            }
            EdgeKind::Return { callee, call_site, .. } => {
                if p.function(*callee).exit != e.source {
                    fail(format!("return edge {} does not leave its callee's exit", e.id.0));
                }
                let has_call = p
                    .successors(*call_site)
                    .any(|c| matches!(&c.kind, EdgeKind::Call { return_site, .. } if *return_site == e.target));
                if !has_call {
                    fail(format!("return edge {} has no matching call edge", e.id.0));
                }
            }
            _ => {
                if src_fn != tgt_fn {
                    fail(format!("edge {} ({}) crosses functions", e.id.0, e.label));
                }
            }
        }
        match &e.kind {
            EdgeKind::Assume { cond, .. } => exprs.push((cond, None)),
            EdgeKind::Assign { var, rhs } | EdgeKind::Declare { var, init: Some(rhs) } => match rhs {
                Rhs::Expr(x) => exprs.push((x, Some(var_ty(*var)))),
                Rhs::Nondet(t) => {
                    if *t != var_ty(*var) {
                        fail(format!("edge {} assigns a nondet {t} to a {}", e.id.0, var_ty(*var)));
                    }
                }
                // Memory: addresses and sizes are pointer-typed; a load has the variable's type.
                Rhs::Load { addr, ty, .. } => {
                    if *ty != var_ty(*var) {
                        fail(format!("edge {} loads a {ty} into a {}", e.id.0, var_ty(*var)));
                    }
                    exprs.push((addr, Some(cfa::POINTER_TYPE)));
                }
                Rhs::Alloc { size, .. } => {
                    if var_ty(*var) != cfa::POINTER_TYPE {
                        fail(format!("edge {} stores an address in a {}", e.id.0, var_ty(*var)));
                    }
                    exprs.push((size, Some(cfa::POINTER_TYPE)));
                }
            },
            EdgeKind::Store { addr, value, .. } => {
                exprs.push((addr, Some(cfa::POINTER_TYPE)));
                exprs.push((value, None));
            }
            EdgeKind::Free { addr } => exprs.push((addr, Some(cfa::POINTER_TYPE))),
            EdgeKind::ReturnStatement { value: Some(x) } => {
                let ret = p.function(src_fn).ret.map(var_ty);
                exprs.push((x, ret));
            }
            _ => {}
        }
        for (x, want) in exprs {
            if let Err(m) = check_expr(x) {
                fail(format!("edge {} `{}`: {m}", e.id.0, e.label));
            }
            if let Some(t) = want {
                if x.ty() != t {
                    fail(format!("edge {} `{}`: value of type {} where {t} is needed", e.id.0, e.label, x.ty()));
                }
            }
        }
        if e.label.is_empty() && !matches!(e.kind, EdgeKind::Blank) {
            fail(format!("edge {} has no label", e.id.0));
        }
    }
    // reverse postorder: the entry first, a permutation within each function
    let rpo = p.reverse_postorder();
    for f in &p.functions {
        if rpo[f.entry.0 as usize] != 0 {
            fail(format!("entry of {} is not first in reverse postorder", f.name));
        }
        let mut idx: Vec<u32> = p.function_nodes(f.id).map(|n| rpo[n.id.0 as usize]).collect();
        idx.sort();
        if idx != (0..idx.len() as u32).collect::<Vec<_>>() {
            fail(format!("reverse postorder of {} is not a permutation", f.name));
        }
    }
    bad
}

/// Every id is its index, every edge's nodes and every node's edges exist,
/// and `outgoing` / `incoming` are exactly the edges leaving / entering the
/// node; every variable, function and main id exists.
fn ids_and_adjacency(p: &Program) -> Vec<String> {
    let mut bad = Vec::new();
    let (n, m) = (p.nodes.len() as u32, p.edges.len() as u32);
    for (i, x) in p.nodes.iter().enumerate() {
        if x.id.0 as usize != i {
            bad.push(format!("node {i} has id {}", x.id));
        }
        if x.function.0 as usize >= p.functions.len() {
            bad.push(format!("node {i} is in function {} of {}", x.function.0, p.functions.len()));
        }
        for e in x.outgoing.iter().chain(&x.incoming) {
            if e.0 >= m {
                bad.push(format!("node {i} lists edge {} of {m}", e.0));
            }
        }
    }
    for (i, e) in p.edges.iter().enumerate() {
        if e.id.0 as usize != i {
            bad.push(format!("edge {i} has id {}", e.id.0));
        }
        if e.source.0 >= n || e.target.0 >= n {
            bad.push(format!("edge {i} joins {} and {} of {n} nodes", e.source, e.target));
        }
    }
    for (i, f) in p.functions.iter().enumerate() {
        if f.id.0 as usize != i || f.entry.0 >= n || f.exit.0 >= n {
            bad.push(format!("function {i} ({}) has id {}, entry {}, exit {}", f.name, f.id.0, f.entry, f.exit));
        }
        if f.params.iter().chain(&f.locals).chain(&f.ret).any(|v| v.0 as usize >= p.variables.len()) {
            bad.push(format!("function {} names a variable that does not exist", f.name));
        }
    }
    for (i, v) in p.variables.iter().enumerate() {
        if v.id.0 as usize != i {
            bad.push(format!("variable {i} ({}) has id {}", v.name, v.id.0));
        }
    }
    if p.main.0 as usize >= p.functions.len() {
        bad.push(format!("main is function {} of {}", p.main.0, p.functions.len()));
    }
    if !bad.is_empty() {
        return bad;
    }
    let mut out = vec![Vec::new(); p.nodes.len()];
    let mut inc = vec![Vec::new(); p.nodes.len()];
    for e in &p.edges {
        out[e.source.0 as usize].push(e.id.0);
        inc[e.target.0 as usize].push(e.id.0);
    }
    for x in &p.nodes {
        let sorted = |v: &[cfa::EdgeId]| {
            let mut v: Vec<u32> = v.iter().map(|e| e.0).collect();
            v.sort();
            v
        };
        let (o, i) = (sorted(&x.outgoing), sorted(&x.incoming));
        let k = x.id.0 as usize;
        if o != out[k] || i != inc[k] {
            bad.push(format!("{}: outgoing {o:?} / incoming {i:?}, but the edges say {:?} / {:?}", x.id, out[k], inc[k]));
        }
    }
    bad
}
