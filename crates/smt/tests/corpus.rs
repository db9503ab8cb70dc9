//! The recorded-query corpus (`tests/corpus/NNN.smt2`, answers in
//! `answers.tsv`, made by `generate.py` from `cpaplay trace --config
//! symbolic` runs): Debian's z3, through the persistent process back end,
//! gives every recorded answer. The page replays the same files through
//! z3-solver, so native and browser back ends are held to one table.
//!
//! Also: the encoding's SMT-LIB text means to z3 what it means to
//! [`smt::Term::eval`] (z3 agrees on random constant expressions).

#![cfg(not(target_arch = "wasm32"))]

use smt::{parse_response, Query, SolverBackend, Status, Term, Z3Process};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// `(file, answer)` rows of answers.tsv.
fn recorded() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(corpus_dir().join("answers.tsv")).expect("answers.tsv");
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let mut c = l.split('\t');
            Some((c.next()?.to_string(), c.next()?.to_string()))
        })
        .collect()
}

fn z3() -> Z3Process {
    Z3Process::system(Duration::from_secs(20))
}

#[test]
fn corpus_has_at_least_fifty_self_contained_queries() {
    let rows = recorded();
    assert!(rows.len() >= 50, "only {} recorded queries", rows.len());
    let unsat = rows.iter().filter(|(_, a)| a == "unsat").count();
    assert!(unsat >= 10 && rows.len() - unsat >= 10, "want both answers: {unsat} unsat of {}", rows.len());
    for (file, answer) in &rows {
        assert!(answer == "sat" || answer == "unsat", "{file}: recorded answer {answer}");
        let text = std::fs::read_to_string(corpus_dir().join(file)).unwrap();
        assert!(text.contains("(set-logic ") && text.trim_end().ends_with("(check-sat)"), "{file} is not a self-contained query");
    }
}

#[test]
fn debian_z3_gives_the_recorded_answers() {
    let mut z3 = z3();
    if let Err(e) = z3.version() {
        panic!("the native z3 is needed (scripts/setup.sh installs it): {e}");
    }
    let mut times = Vec::new();
    let mut wrong = Vec::new();
    for (file, answer) in recorded() {
        let script = std::fs::read_to_string(corpus_dir().join(&file)).unwrap();
        let t = Instant::now();
        let out = z3.solve(&script).unwrap_or_else(|e| panic!("{file}: {e}"));
        times.push(t.elapsed());
        // The first output line is the status.
        let first = out.lines().next().unwrap_or("").trim().to_string();
        if first != answer || parse_response(&out).status().as_str() != answer {
            wrong.push(format!("{file}: recorded {answer}, z3 says {first}"));
        }
    }
    times.sort();
    println!("{} queries, median {:?} per query (persistent z3 process)", times.len(), times[times.len() / 2]);
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn the_process_is_reused_and_survives_bad_input() {
    let mut z3 = z3();
    let x = Term::var("x", smt::Sort::Int);
    let sat = Query::new(vec![Term::lt(x.clone(), Term::int(0))]).to_smtlib();
    let unsat = Query::new(vec![Term::lt(x.clone(), Term::int(0)), Term::lt(Term::int(0), x.clone())]).to_smtlib();
    for _ in 0..3 {
        assert_eq!(parse_response(&z3.solve(&sat).unwrap()).status(), Status::Sat);
        assert_eq!(parse_response(&z3.solve(&unsat).unwrap()).status(), Status::Unsat);
    }
    // A broken script: an error line, no status — unknown, and the next
    // query still works.
    let out = z3.solve("(assert (undeclared 1))\n(check-sat)\n").unwrap_or_else(|e| e.as_output());
    assert_ne!(parse_response(&out).status(), Status::Unsat);
    assert_eq!(parse_response(&z3.solve(&unsat).unwrap()).status(), Status::Unsat);
    // With a model.
    let mut q = Query::new(vec![Term::eq(Term::add(x.clone(), Term::int(2)), Term::int(7))]);
    q.want_model = true;
    let r = parse_response(&z3.solve(&q.to_smtlib()).unwrap());
    assert_eq!(r.status(), Status::Sat);
    assert_eq!(r.model.get("x"), Some(&smt::Value::Int(5)));
}

/// A long symbolic run declares a fresh input per query. The process keeps
/// declarations across queries, and `(get-model)` prints every declared
/// constant: the answers must stay the size of their query, not grow with
/// the run (which made long runs quadratic).
#[test]
fn models_stay_the_size_of_their_query_over_many_fresh_declarations() {
    let mut z3 = z3();
    let mut largest = 0;
    for i in 0..300 {
        let v = Term::var(&format!("in{i}"), smt::Sort::Int);
        let mut q = Query::new(vec![Term::lt(Term::int(0), v)]);
        q.want_model = true;
        let r = parse_response(&z3.solve(&q.to_smtlib()).unwrap());
        assert_eq!(r.status(), Status::Sat);
        assert!(r.model.contains_key(&format!("in{i}")));
        largest = largest.max(r.model.len());
    }
    assert!(largest <= 70, "a one-variable query's model had {largest} entries");
}

#[test]
fn a_missing_solver_is_an_error_not_a_panic() {
    let mut z = Z3Process::new("/nonexistent/z3", Duration::from_secs(1));
    let e = z.solve("(check-sat)\n").unwrap_err();
    assert!(e.reason.contains("cannot start z3"), "{e}");
    assert_eq!(parse_response(&e.as_output()).status(), Status::Unknown);
}

#[test]
fn a_query_over_time_is_cut_off() {
    // A hard nonlinear problem with a tiny time limit.
    let mut z = Z3Process::system(Duration::from_millis(50));
    let v = |n: &str| Term::var(n, smt::Sort::Int);
    let cube = |t: Term| Term::mul(t.clone(), Term::mul(t.clone(), t));
    let q = Query::new(vec![
        Term::eq(Term::add(cube(v("x")), Term::add(cube(v("y")), cube(v("z")))), Term::int(33)),
        Term::lt(Term::int(1000), Term::mul(v("x"), v("x"))),
    ]);
    // Cut off, the query is `unknown` (never a made-up sat or unsat); how
    // long the cut-off takes is not asserted (no timed tests).
    let out = z.solve_text(&q.to_smtlib());
    assert_eq!(parse_response(&out).status(), Status::Unknown, "{out}");
}

mod agree {
    //! z3 and `Term::eval` agree on the encoding of random constant
    //! expressions (bit-vectors, c model): `(= term value)` is valid.
    use super::*;
    use cfa::{BinOp, Expr, UnOp};
    use minic::{IntModel, IntType};
    use smt::{encode_expr, Encoding, MapEnv, Theory, Value};
    use xorshift::XorShift;

    fn random_expr(s: &mut XorShift, depth: u32, ty: IntType) -> Expr {
        let vals = [0i128, 1, -1, 7, -7, 3, 2147483647, -2147483648, 255, 65535, 100000];
        if depth == 0 || s.next_u64().is_multiple_of(4) {
            let v = vals[s.index(vals.len())];
            return Expr::Const { value: ty.wrap(v), ty };
        }
        let ops = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Div,
            BinOp::Rem,
            BinOp::Shl,
            BinOp::Shr,
            BinOp::BitAnd,
            BinOp::BitOr,
            BinOp::BitXor,
            BinOp::Lt,
            BinOp::Ge,
        ];
        match s.below(5) {
            0 => Expr::Unary {
                op: if s.next_u64().is_multiple_of(2) { UnOp::Neg } else { UnOp::BitNot },
                ty,
                arg: Box::new(random_expr(s, depth - 1, ty)),
            },
            1 => {
                let from = [IntType::Char, IntType::UChar, IntType::Short, IntType::UInt, IntType::Int][s.index(5)];
                Expr::Cast { ty, arg: Box::new(random_expr(s, depth - 1, from)) }
            }
            _ => {
                let op = ops[s.index(ops.len())];
                let e = Expr::Binary {
                    op,
                    ty,
                    lhs: Box::new(random_expr(s, depth - 1, ty)),
                    rhs: Box::new(random_expr(s, depth - 1, ty)),
                };
                if op.is_comparison() {
                    Expr::Cast { ty, arg: Box::new(e) }
                } else {
                    e
                }
            }
        }
    }

    /// Keeps constants from folding: each constant becomes a variable
    /// pinned to its value by an assertion, so z3 evaluates the operators.
    fn unfold(e: &Expr, enc: Encoding, pins: &mut Vec<Term>) -> Expr {
        match e {
            Expr::Const { value, ty } => {
                let id = pins.len() as u32;
                let name = format!("c{id}");
                pins.push(Term::eq(Term::var(&name, enc.sort(*ty)), enc.constant(*value, *ty)));
                Expr::Var { var: cfa::VarId(id), ty: *ty }
            }
            Expr::Var { .. } => e.clone(),
            Expr::Unary { op, ty, arg } => Expr::Unary { op: *op, ty: *ty, arg: Box::new(unfold(arg, enc, pins)) },
            Expr::Binary { op, ty, lhs, rhs } => {
                let l = unfold(lhs, enc, pins);
                let r = unfold(rhs, enc, pins);
                Expr::Binary { op: *op, ty: *ty, lhs: Box::new(l), rhs: Box::new(r) }
            }
            Expr::Cast { ty, arg } => Expr::Cast { ty: *ty, arg: Box::new(unfold(arg, enc, pins)) },
        }
    }

    #[test]
    fn z3_agrees_with_term_eval_on_the_bitvector_encoding() {
        let enc = Encoding::new(Theory::Bitvector, IntModel::C);
        let mut z3 = z3();
        let mut rng = XorShift::new(0x9e3779b97f4a7c15);
        let mut checked = 0;
        for _ in 0..60 {
            let e = random_expr(&mut rng, 3, IntType::Int);
            let Ok(Some(expected)) = e.eval(IntModel::C, &mut |_| None) else { continue };
            let mut pins = Vec::new();
            let open = unfold(&e, enc, &mut pins);
            let mut env = MapEnv::new(enc, "");
            for (i, pin) in pins.iter().enumerate() {
                let ty = match &pin.args()[1].sort() {
                    smt::Sort::Bv(w) => *w,
                    _ => 32,
                };
                env.vars.insert(cfa::VarId(i as u32), Term::var(&format!("c{i}"), smt::Sort::Bv(ty)));
            }
            let t = encode_expr(&open, enc, &mut env);
            // Valid iff its negation is unsat.
            let mut asserts = pins.clone();
            asserts.push(Term::ne(t.clone(), Term::bv(expected, 32)));
            let out = z3.solve(&Query::new(asserts).to_smtlib()).unwrap();
            assert_eq!(parse_response(&out).status(), Status::Unsat, "{e:?}\n{t}\nexpected {expected}");
            // And the term evaluates to it.
            let env_vals = |n: &str| -> Option<Value> {
                let i: usize = n.strip_prefix('c')?.parse().ok()?;
                pins.get(i)?.args()[1].as_value()
            };
            assert_eq!(t.eval(&env_vals).and_then(|v| Term::bv(0, 32).as_value().map(|_| v)), Term::bv(expected, 32).as_value());
            checked += 1;
        }
        assert!(checked >= 40, "only {checked} defined expressions");
    }
}

/// The pigeonhole principle for `n + 1` pigeons in `n` holes, in the shape
/// `Query::to_smtlib` prints: unsat, and beyond z3 in seconds for n = 11.
fn pigeonhole(n: usize) -> String {
    let p = |i: usize, j: usize| format!("p{i}_{j}");
    let mut s = String::from("(set-logic QF_UF)\n");
    for i in 0..=n {
        for j in 0..n {
            s += &format!("(declare-fun {} () Bool)\n", p(i, j));
        }
    }
    for i in 0..=n {
        s += &format!("(assert (or {}))\n", (0..n).map(|j| p(i, j)).collect::<Vec<_>>().join(" "));
    }
    for j in 0..n {
        for a in 0..=n {
            for b in a + 1..=n {
                s += &format!("(assert (not (and {} {})))\n", p(a, j), p(b, j));
            }
        }
    }
    s + "(check-sat)\n"
}

#[test]
fn a_query_gets_no_more_than_the_limit_asked_for_it() {
    // The process's own limit is a minute; the run's limit for the next
    // query (what is left of a stage) is a few hundred milliseconds.
    let mut z = Z3Process::system(Duration::from_secs(60));
    let hard = pigeonhole(11);
    let started = Instant::now();
    z.limit_next(Duration::from_millis(300));
    assert_eq!(parse_response(&z.solve_text(&hard)).status(), Status::Unknown);
    // Once: the next query has the process's limit again, in the same
    // incremental session (same logic and declarations).
    let easy = "(set-logic QF_UF)\n(declare-fun p0_0 () Bool)\n(assert p0_0)\n(check-sat)\n";
    assert_eq!(parse_response(&z.solve_text(easy)).status(), Status::Sat);
    z.limit_next(Duration::from_millis(200));
    assert_eq!(parse_response(&z.solve_text(&hard)).status(), Status::Unknown);
    // Not a speed test: a minute against two limits under a second.
    assert!(started.elapsed() < Duration::from_secs(30), "the limits were not applied: {:?}", started.elapsed());
}
