//! User input never makes lowering panic: every SV-COMP task, cut and
//! mangled in many deterministic ways, either lowers or yields diagnostics.

use xorshift::XorShift;

fn bench(path: &str) -> String {
    svcomp_tasks::task(path).source()
}

const SNIPPETS: [&str; 16] = [
    "break;",
    "continue;",
    "goto ERROR;",
    "ERROR:",
    "case 1:",
    "default:",
    "return;",
    "return 1;",
    "x++",
    "&&",
    "?",
    "reach_error()",
    "__VERIFIER_assert(",
    "}",
    "{",
    "int x;",
];

#[test]
fn mangled_programs_never_panic() {
    let files =
        ["recursive-simple/fibo_5-2.c", "loop-lit/gsv2008.i", "loop-acceleration/diamond_1-2.c", "loop-simple/nested_2.c"];
    let mut rng = XorShift::new(0x5eed_1234_abcd_0001);
    let mut lowered = 0;
    let mut rejected = 0;
    for f in files {
        let src = bench(f);
        let chars: Vec<char> = src.chars().collect();
        for _ in 0..150 {
            let mut c = chars.clone();
            for _ in 0..1 + rng.index(3) {
                let at = rng.index(c.len());
                match rng.index(3) {
                    0 => {
                        let len = 1 + rng.index(8);
                        c.drain(at..(at + len).min(c.len()));
                    }
                    1 => {
                        let s = SNIPPETS[rng.index(SNIPPETS.len())];
                        for (k, ch) in s.chars().enumerate() {
                            c.insert(at + k, ch);
                        }
                    }
                    _ => {
                        let from = rng.index(c.len());
                        let len = rng.index(30);
                        let piece: Vec<char> = c[from..(from + len).min(c.len())].to_vec();
                        for (k, ch) in piece.into_iter().enumerate() {
                            c.insert((at + k).min(c.len()), ch);
                        }
                    }
                }
            }
            let text: String = c.into_iter().collect();
            match std::panic::catch_unwind(|| cfa::from_source(&text)) {
                Ok(Ok(_)) => lowered += 1,
                Ok(Err(d)) => {
                    assert!(!d.is_empty());
                    assert!(d.iter().any(|x| x.is_error()));
                    rejected += 1
                }
                Err(_) => panic!("from_source panicked on:\n{text}"),
            }
        }
    }
    assert!(lowered > 0 && rejected > 0, "lowered {lowered}, rejected {rejected}");
}

/// The front end rejects these first; lowering still checks them itself, so
/// an AST built by other means cannot make it panic. We take a parsed
/// program and move statements where the checker would not let them be.
#[test]
fn lowering_reports_what_it_cannot_lower() {
    use minic::ast::{Item, StmtKind};
    let src = "int f(int a) { return a; }\nint main() {\n  while (1) { break; }\n  goto L;\n  L: return f(1);\n}\n";
    let unit = minic::parse(src).unit.expect("parses");
    let body = |u: &minic::ast::TranslationUnit| match &u.items[1] {
        Item::Function(f) => f.body.stmts.clone(),
        _ => unreachable!(),
    };
    let set_body = |u: &mut minic::ast::TranslationUnit, stmts| {
        if let Item::Function(f) = &mut u.items[1] {
            f.body.stmts = stmts;
        }
    };
    assert!(cfa::build(&unit).is_ok());

    // `break` outside its loop
    let mut u = unit.clone();
    let mut stmts = body(&u);
    let StmtKind::While { body: loop_body, .. } = &stmts[0].kind else { panic!() };
    let StmtKind::Block(b) = &loop_body.kind else { panic!() };
    stmts[0] = b.stmts[0].clone();
    set_body(&mut u, stmts);
    let errs = cfa::build(&u).unwrap_err();
    assert_eq!(errs[0].message, "`break` outside a loop or `switch`");
    assert_eq!(errs[0].span.line, 3);

    // `goto` without its label
    let mut u = unit.clone();
    let stmts = body(&u);
    set_body(&mut u, stmts[..2].to_vec());
    let errs = cfa::build(&u).unwrap_err();
    assert_eq!(errs[0].message, "label `L` is used by `goto` but never defined");

    // wrong number of arguments
    let mut u = unit.clone();
    if let Item::Function(f) = &mut u.items[0] {
        f.decl.params.clear();
    }
    let errs = cfa::build(&u).unwrap_err();
    let msgs: Vec<&str> = errs.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(msgs, ["`a` is not declared", "`f` takes 0 arguments but is called with 1"]);

    // no main
    let mut u = unit.clone();
    u.items.truncate(1);
    let errs = cfa::build(&u).unwrap_err();
    assert_eq!(errs[0].message, "the program has no `main` function");
}
