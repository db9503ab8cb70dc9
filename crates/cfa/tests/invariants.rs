//! Structural and typing invariants of lowered CFAs, checked on every
//! SV-COMP task and on the example programs: the contract analyses rely on.

use cfa::{EdgeKind, Expr, NodeKind, Program, Rhs, UnOp, BinOp};
use minic::IntType;
use std::path::PathBuf;

fn sources() -> Vec<(String, String)> {
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

fn check_program(name: &str, p: &Program) -> Vec<String> {
    let mut bad = Vec::new();
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
                let has_call = p.successors(*call_site).any(|c| matches!(&c.kind, EdgeKind::Call { return_site, .. } if *return_site == e.target));
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
            },
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

#[test]
fn lowered_programs_satisfy_the_cfa_contract() {
    let mut bad = Vec::new();
    let mut count = 0;
    for (name, src) in sources() {
        match cfa::from_source(&src) {
            Ok(p) => {
                count += 1;
                bad.extend(check_program(&name, &p));
            }
            Err(d) if name.contains("sv-comp") || !name.contains('/') => bad.push(format!("{name}: {d:?}")),
            Err(_) => {}
        }
    }
    assert!(count >= 59);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn loop_heads_are_exactly_the_back_edge_targets() {
    let src = "int main() {\n  int i = 0;\n  while (i < 3) {\n    int j = 0;\n    do { j++; } while (j < i);\n    i++;\n  }\n  L: i--;\n  if (i > 0) goto L;\n  return 0;\n}\n";
    let p = cfa::from_source(src).unwrap();
    let heads: Vec<u32> = p.nodes.iter().filter(|n| n.loop_head).map(|n| n.line).collect();
    // the while head (line 3), the do body (line 5), the label (line 8)
    assert_eq!(heads, vec![3, 5, 8]);
}

#[test]
fn reverse_postorder_puts_the_loop_body_before_the_exit() {
    let src = "int main() {\n  int i = 0;\n  while (i < 3) {\n    i++;\n  }\n  return i;\n}\n";
    let p = cfa::from_source(src).unwrap();
    let rpo = p.reverse_postorder();
    let f = p.main_function();
    let by_label = |l: &str| p.edges.iter().find(|e| e.label == l).unwrap().source;
    assert_eq!(rpo[f.entry.0 as usize], 0);
    assert!(rpo[by_label("i = i + 1;").0 as usize] > rpo[by_label("while").0 as usize]);
    assert!(rpo[by_label("return i;").0 as usize] > rpo[by_label("[!(i < 3)]").0 as usize]);
    assert_eq!(rpo[f.exit.0 as usize] as usize, p.function_nodes(f.id).count() - 1);
}
