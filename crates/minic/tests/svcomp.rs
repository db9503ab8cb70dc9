//! Every task of the SV-COMP corpus (`MANIFEST.tsv` of `svcomp_tasks::folder()`)
//! must parse and check without a single error, unmodified.

#[test]
fn every_manifest_file_parses_without_errors() {
    let tasks = svcomp_tasks::tasks();
    assert!(tasks.len() >= 50, "expected the whole corpus, found {} entries", tasks.len());
    let mut failures = Vec::new();
    for task in &tasks {
        let (path, src) = (&task.path, task.source());
        let out = minic::parse(&src);
        let errors: Vec<String> = out.errors().map(|d| minic::render_diagnostic(path, d)).collect();
        if !errors.is_empty() || out.unit.is_none() {
            failures.push(errors.join("\n"));
            continue;
        }
        let unit = out.unit.expect("checked above");
        // Every file defines `main`, and the corpus has no warnings-worthy constructs.
        assert!(
            unit.items.iter().any(|i| matches!(i, minic::ast::Item::Function(f) if f.decl.name.name == "main")),
            "{path}: no main in the AST"
        );
    }
    assert!(failures.is_empty(), "files with errors:\n{}", failures.join("\n"));
}

#[test]
fn glibc_reach_error_becomes_a_statement_expression_calling_assert_fail() {
    use minic::ast::{ExprKind, Item, StmtKind};
    let src = svcomp_tasks::task("loop-lit/bhmr2007.i").source();
    let unit = minic::parse(&src).unit.expect("parses");
    let reach = unit
        .items
        .iter()
        .find_map(|i| match i {
            Item::Function(f) if f.decl.name.name == "reach_error" => Some(f),
            _ => None,
        })
        .expect("reach_error is defined");
    let StmtKind::Expr(e) = &reach.body.stmts[0].kind else { panic!("an expression statement") };
    let ExprKind::Comma { lhs, rhs } = &e.kind else { panic!("a comma expression, got {e:?}") };
    // `(void) sizeof ((0) ? 1 : 0)` folds to a cast of the constant 4.
    let ExprKind::Cast { ty: minic::CType::Void, expr } = &lhs.kind else { panic!("a void cast") };
    assert_eq!(expr.kind, ExprKind::IntLit { value: 4, ty: minic::IntType::UInt });
    let ExprKind::StmtExpr(block) = &rhs.kind else { panic!("a statement expression") };
    let StmtKind::If { else_branch: Some(els), .. } = &block.stmts[0].kind else { panic!("if/else") };
    let StmtKind::Expr(call) = &els.kind else { panic!("a call statement") };
    let ExprKind::Call { callee, args } = &call.kind else { panic!("a call") };
    assert_eq!(callee.name, "__assert_fail");
    assert_eq!(args.len(), 4);
    assert_eq!(args[0].kind, ExprKind::StrLit("0".into()));
    assert_eq!(args[3].kind, ExprKind::StrLit("reach_error".into()), "__PRETTY_FUNCTION__ is the function name");
    // The multi-line glibc prototypes are kept with their `const char *` parameters.
    let proto = unit
        .items
        .iter()
        .find_map(|i| match i {
            Item::Prototype(p) if p.name.name == "__assert_fail" => Some(p),
            _ => None,
        })
        .expect("the __assert_fail prototype");
    assert_eq!(
        proto.params.iter().map(|p| p.ty.clone()).collect::<Vec<_>>(),
        vec![
            minic::ast::ParamType::CharPointer,
            minic::ast::ParamType::CharPointer,
            minic::ast::ParamType::Int(minic::IntType::UInt),
            minic::ast::ParamType::CharPointer
        ]
    );
    assert_eq!(proto.params[0].name.as_ref().map(|n| n.name.as_str()), Some("__assertion"));
}

#[test]
fn windows_line_endings_and_a_byte_order_mark_change_nothing() {
    let src = svcomp_tasks::task("loop-lit/bhmr2007.i").source();
    let unix = minic::parse(&src).unit.expect("parses");
    let windows = format!("\u{FEFF}{}", src.replace('\n', "\r\n"));
    let out = minic::parse(&windows);
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    let unit = out.unit.expect("parses");
    assert_eq!(unit.items.len(), unix.items.len());
    // Same lines and columns (the mark is column 1 of line 1, not counted after it).
    let main = |u: &minic::ast::TranslationUnit| {
        u.items
            .iter()
            .find_map(|i| match i {
                minic::ast::Item::Function(f) if f.decl.name.name == "main" => {
                    Some((f.decl.name.span.line, f.decl.name.span.col))
                }
                _ => None,
            })
            .expect("main")
    };
    assert_eq!(main(&unit), main(&unix));
}
