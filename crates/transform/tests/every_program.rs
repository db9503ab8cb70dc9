//! The transformation is total: every SV-COMP task and every gallery
//! example transforms without error in every domain and lift set, one
//! transformed edge per CFA edge, and the text has one line per edge that
//! links back to it.

use std::path::Path;
use transform::{print, transform, Address, Domain, LiftSet, Operand, Options, TOp};

fn programs() -> Vec<(String, cfa::Program)> {
    let mut out = Vec::new();
    for t in svcomp_tasks::tasks().into_iter().chain(svcomp_tasks::memory_tasks()) {
        let p = cfa::from_source(&t.source()).unwrap_or_else(|d| panic!("{}: {d:?}", t.path));
        out.push((t.path.clone(), p));
    }
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../static/examples");
    let mut files: Vec<_> = std::fs::read_dir(&examples).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    for f in files.into_iter().filter(|f| f.extension().is_some_and(|x| x == "c")) {
        let src = std::fs::read_to_string(&f).unwrap();
        if let Ok(p) = cfa::from_source(&src) {
            out.push((f.display().to_string(), p));
        }
    }
    assert!(out.len() > 60, "the SV-COMP folder and the gallery: {} programs", out.len());
    out
}

#[test]
fn every_program_transforms_in_every_domain() {
    for (name, p) in programs() {
        for domain in [Domain::Term, Domain::Parity, Domain::Sign] {
            for lift in [LiftSet::Inputs, LiftSet::All, LiftSet::None] {
                let options = Options { lift, ..Options::new(domain) };
                let t = transform(&p, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(t.edges.len(), p.edges.len(), "{name}");
                let lines = print::lines(&p, &t);
                let linked: Vec<_> = lines.iter().filter_map(|l| l.edge).collect();
                assert_eq!(linked.len(), p.edges.len(), "{name}: one line per edge");
                for l in &lines {
                    if let Some(e) = l.edge {
                        assert_eq!(l.span, Some(p.edge(e).span), "{name}: line linked to its edge's span");
                        // The operation alone, as the page shows it beside the original line.
                        assert!(!l.op.is_empty() && !l.op.contains("// line"), "{name}: {l:?}");
                        assert!(l.text.contains(&l.op), "{name}: the op is the text's operation: {l:?}");
                    } else {
                        assert!(l.op.is_empty(), "{name}: a heading has no operation: {l:?}");
                    }
                }
                // Nothing is abstract in the concrete-only configuration,
                // memory included (no cell holds a frozen value).
                if lift == LiftSet::None {
                    for te in &t.edges {
                        assert!(te.lifts.is_empty(), "{name}");
                        let abstract_op = match &te.op {
                            TOp::Store { value, .. } => value.is_abstract(),
                            TOp::Assume { cond, .. } => cond.is_abstract(),
                            TOp::Call { args, .. } => args.iter().any(Operand::is_abstract),
                            TOp::MemStore { addr, value, .. } => value.is_abstract() || matches!(addr, Address::Lower(_)),
                            TOp::Free { addr } => matches!(addr, Address::Lower(_)),
                            _ => false,
                        };
                        assert!(!abstract_op, "{name}: edge {:?} abstract without lifting", te.edge);
                    }
                }
            }
        }
    }
}

#[test]
fn value_propagation_lifts_the_chain_from_one_input_and_freezes_globals() {
    let src = "int g = 3;\nint f(int a) { g = g + a; return a * 2; }\nint main() {\n  int x = __VERIFIER_nondet_int();\n  int y = 5;\n  int z = y + 1;\n  y = f(x);\n  if (y > 10 && g != 0) { reach_error(); }\n  return 0;\n}\n";
    let p = cfa::from_source(src).unwrap();
    let t = transform(&p, &Options::new(Domain::Parity)).unwrap();
    let text = print::text(&p, &t);
    println!("{text}");
    assert!(text.contains("abstract x = lift(*);"), "{text}");
    assert!(text.contains("int z = y + 1;"), "concrete data stays concrete: {text}");
    assert!(text.contains("freeze(&g, a_add(lift(g), a));"), "g is concrete before the first call: {text}");
    assert!(text.contains("return a_mul(a, lift(2));"), "{text}");
    assert!(text.contains("assume(a_gt(y, lift(10)));"), "{text}");
    assert!(text.contains("assume(a_ne(thaw(&g), lift(0)));"), "{text}");
    // Under LiftSet::All even the constant chain is abstract.
    let all = transform(&p, &Options { lift: LiftSet::All, ..Options::new(Domain::Sign) }).unwrap();
    let text = print::text(&p, &all);
    assert!(text.contains("abstract z = a_add(y, lift(1));"), "{text}");
}

#[test]
fn a_lifted_variable_unknown_to_the_program_is_a_readable_error() {
    let p = cfa::from_source("int main() { int x = 0; return x; }").unwrap();
    let e = transform(&p, &Options { variables: vec!["nope".into()], ..Options::new(Domain::Sign) }).unwrap_err();
    assert!(e.contains("no variable `nope`"), "{e}");
    assert!(transform(&p, &Options { variables: vec!["x".into()], ..Options::new(Domain::Sign) }).is_ok());
}
