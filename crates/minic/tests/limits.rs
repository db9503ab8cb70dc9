//! Hard limits: deep nesting, huge and long inputs must give an error (or
//! parse), never a stack overflow, a panic or a hang. Test threads have small
//! (2 MB) stacks, so these tests also show the parser's stack use is bounded.

fn first_error(src: &str) -> (u32, u32, String) {
    let out = minic::parse(src);
    let d = out.errors().next().unwrap_or_else(|| panic!("expected an error, got {:?}", out.diagnostics));
    (d.span.line, d.span.col, d.message.clone())
}

const TOO_DEEP: &str = "nesting deeper than 200 levels is not supported";

#[test]
fn nesting_just_below_the_limit_parses() {
    // 199 parentheses + the function's `{` = 200 levels.
    let src = format!("int main() {{ return {}1{}; }}", "(".repeat(199), ")".repeat(199));
    let out = minic::parse(&src);
    assert!(out.unit.is_some(), "{:?}", out.diagnostics);
    let blocks = format!("int main() {{ {} return 0; {} }}", "{".repeat(150), "}".repeat(150));
    assert!(minic::parse(&blocks).unit.is_some());
    let ifs = format!("int main() {{ int x = 0; {} x++; return 0; }}", "if (x) ".repeat(150));
    assert!(minic::parse(&ifs).unit.is_some());
}

#[test]
fn deep_blocks_ifs_and_else_chains_are_refused() {
    let blocks = format!("int main() {{\n{}", "{".repeat(5000));
    assert_eq!(first_error(&blocks), (2, 200, TOO_DEEP.to_string()));
    let ifs = format!("int main() {{ int x = 0;\n{} x++; }}", "if (x) ".repeat(5000));
    assert_eq!(first_error(&ifs).2, TOO_DEEP);
    let chain = format!("int main() {{ int x = 0;\n if (x) x++; {} }}", "else if (x) x++; ".repeat(5000));
    assert_eq!(first_error(&chain).2, TOO_DEEP);
    let labels = format!("int main() {{ {} ; }}", (0..5000).map(|i| format!("L{i}: ")).collect::<String>());
    assert_eq!(first_error(&labels).2, TOO_DEEP);
    let cases = format!("int main() {{ switch (1) {{ {} ; }} }}", "case 1: ".repeat(5000));
    assert_eq!(first_error(&cases).2, TOO_DEEP);
    let dos = format!("int main() {{ {} ; {} }}", "do ".repeat(5000), "while (0); ".repeat(5000));
    assert_eq!(first_error(&dos).2, TOO_DEEP);
    let conds = format!("int main() {{ return {} 1 {}; }}", "1 ? ".repeat(5000), ": 1".repeat(5000));
    assert_eq!(first_error(&conds).2, TOO_DEEP);
}

#[test]
fn long_operator_chains_are_refused_not_overflowed() {
    // Flat in the grammar, but a left-deep tree of 30 000 levels.
    let sum = format!("int main() {{ return 1{}; }}", " + 1".repeat(30_000));
    assert_eq!(first_error(&sum), (1, 21, TOO_DEEP.to_string()));
    let assigns = format!("int main() {{ int x; {} 0; }}", "x = ".repeat(30_000));
    assert_eq!(first_error(&assigns).2, TOO_DEEP);
    let negs = format!("int main() {{ return {}1; }}", "- ".repeat(30_000));
    assert_eq!(first_error(&negs).2, TOO_DEEP);
    let casts = format!("int main() {{ return {}1; }}", "(int) ".repeat(30_000));
    assert_eq!(first_error(&casts).2, TOO_DEEP);
}

#[test]
fn input_over_four_megabytes_is_refused() {
    let src = format!("int main() {{ return 0; }}\n{}", "// padding padding padding\n".repeat(160_000));
    assert!(src.len() > minic::MAX_INPUT_BYTES);
    let (line, col, msg) = first_error(&src);
    assert_eq!((line, col), (1, 1));
    assert_eq!(msg, format!("the file is too large ({} bytes); mini-C accepts at most 4194304 bytes (4 MB)", src.len()));
}
