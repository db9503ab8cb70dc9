//! The AST of representative programs: literal types and values, precedence
//! and associativity, casts, `sizeof`, statement expressions, declarations.
//! Expressions are printed as compact S-expressions (`(+ a (* b c))`).

use minic::ast::*;
use minic::IntType;

/// `(op args...)`; literals print as `value:type`.
fn sx(e: &Expr) -> String {
    match &e.kind {
        ExprKind::IntLit { value, ty } => format!("{value}:{ty}"),
        ExprKind::StrLit(s) => format!("{s:?}"),
        ExprKind::Var(id) => id.name.clone(),
        ExprKind::Unary { op, operand } => format!("({} {})", op.symbol(), sx(operand)),
        ExprKind::Binary { op, lhs, rhs } => format!("({} {} {})", op.symbol(), sx(lhs), sx(rhs)),
        ExprKind::Assign { target, op, value } => {
            format!("({}= {} {})", op.map_or("", |o| o.symbol()), sx(target), sx(value))
        }
        ExprKind::IncDec { target, increment, prefix } => {
            let o = if *increment { "++" } else { "--" };
            if *prefix {
                format!("({o}{})", sx(target))
            } else {
                format!("({}{o})", sx(target))
            }
        }
        ExprKind::Conditional { cond, then_expr, else_expr } => {
            format!("(? {} {} {})", sx(cond), sx(then_expr), sx(else_expr))
        }
        ExprKind::Cast { ty, expr } => format!("(cast {ty} {})", sx(expr)),
        ExprKind::Call { callee, args } => {
            let mut s = format!("(call {}", callee.name);
            for a in args {
                s.push(' ');
                s.push_str(&sx(a));
            }
            s + ")"
        }
        ExprKind::Comma { lhs, rhs } => format!("(, {} {})", sx(lhs), sx(rhs)),
        ExprKind::StmtExpr(b) => format!("({{ {} }})", b.stmts.iter().map(st).collect::<Vec<_>>().join(" ")),
        ExprKind::AddrOf(a) => format!("(& {})", sx(a)),
        ExprKind::Deref(a) => format!("(* {})", sx(a)),
        ExprKind::Index { base, index } => format!("([] {} {})", sx(base), sx(index)),
        ExprKind::Member { base, field, arrow } => format!("({} {} {})", if *arrow { "->" } else { "." }, sx(base), field.name),
        ExprKind::InitList(items) => format!("{{{}}}", items.iter().map(sx).collect::<Vec<_>>().join(" ")),
    }
}

/// Statements on one line each: `while (< i n) { ... }`.
fn st(s: &Stmt) -> String {
    match &s.kind {
        StmtKind::Decl(vars) => vars.iter().map(var).collect::<Vec<_>>().join(" "),
        StmtKind::Expr(e) => format!("{};", sx(e)),
        StmtKind::If { cond, then_branch, else_branch } => match else_branch {
            Some(e) => format!("if {} {} else {}", sx(cond), st(then_branch), st(e)),
            None => format!("if {} {}", sx(cond), st(then_branch)),
        },
        StmtKind::While { cond, body } => format!("while {} {}", sx(cond), st(body)),
        StmtKind::DoWhile { body, cond } => format!("do {} while {}", st(body), sx(cond)),
        StmtKind::For { init, cond, step, body } => {
            let init = match init {
                Some(ForInit::Decl(v)) => v.iter().map(var).collect::<Vec<_>>().join(" "),
                Some(ForInit::Expr(e)) => sx(e),
                None => "_".into(),
            };
            let opt = |e: &Option<Expr>| e.as_ref().map_or("_".to_string(), sx);
            format!("for [{init}] [{}] [{}] {}", opt(cond), opt(step), st(body))
        }
        StmtKind::Break => "break;".into(),
        StmtKind::Continue => "continue;".into(),
        StmtKind::Return(e) => format!("return {};", e.as_ref().map_or("_".to_string(), sx)),
        StmtKind::Goto(l) => format!("goto {};", l.name),
        StmtKind::Labeled { label, stmt } => format!("{}: {}", label.name, st(stmt)),
        StmtKind::Block(b) => format!("{{ {} }}", b.stmts.iter().map(st).collect::<Vec<_>>().join(" ")),
        StmtKind::Empty => ";".into(),
        StmtKind::Switch { cond, body } => format!("switch {} {}", sx(cond), st(body)),
        StmtKind::Case { value, stmt } => format!("case {}: {}", sx(value), st(stmt)),
        StmtKind::Default(stmt) => format!("default: {}", st(stmt)),
    }
}

fn var(v: &VarDecl) -> String {
    let storage = match v.storage {
        Storage::None => "",
        Storage::Static => "static ",
        Storage::Extern => "extern ",
    };
    match &v.init {
        Some(e) => format!("{storage}{} {} = {};", v.ty, v.name.name, sx(e)),
        None => format!("{storage}{} {};", v.ty, v.name.name),
    }
}

/// The whole unit, one item per line.
fn render(unit: &TranslationUnit) -> String {
    let mut out = String::new();
    for item in &unit.items {
        let line = match item {
            Item::Global(v) => format!("global {}", var(v)),
            Item::Prototype(d) => format!("proto {}", decl(d)),
            Item::Function(f) => {
                let body: Vec<String> = f.body.stmts.iter().map(|s| format!("  {}", st(s))).collect();
                format!("fn {}\n{}", decl(&f.decl), body.join("\n"))
            }
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn decl(d: &FunctionDecl) -> String {
    let params: Vec<String> = d
        .params
        .iter()
        .map(|p| {
            let ty = match &p.ty {
                ParamType::Int(t) => t.to_string(),
                ParamType::CharPointer => "char *".to_string(),
                ParamType::Pointer(t) => t.to_string(),
            };
            match &p.name {
                Some(n) => format!("{ty} {}", n.name),
                None => ty,
            }
        })
        .collect();
    let list = if d.unspecified_params { "()".to_string() } else { format!("({})", params.join(", ")) };
    format!("{:?} {} {}{list}", d.storage, d.ret, d.name.name)
}

fn parse_ok(src: &str) -> TranslationUnit {
    let out = minic::parse(src);
    assert!(out.diagnostics.iter().all(|d| !d.is_error()), "{src}\n{:?}", out.diagnostics);
    out.unit.expect("no errors")
}

/// The expression of `return E;` in `main`, with `int a, b, c, x, y; char ch;` in scope.
fn expr(e: &str) -> String {
    let src = format!("int main() {{ int a, b, c, d, x, y; char ch; long long big; return {e}; }}");
    let unit = parse_ok(&src);
    let Item::Function(f) = &unit.items[0] else { panic!() };
    let StmtKind::Return(Some(e)) = &f.body.stmts.last().expect("return").kind else { panic!() };
    sx(e)
}

#[test]
fn precedence_and_associativity() {
    assert_eq!(expr("a + b * c"), "(+ a (* b c))");
    assert_eq!(expr("a * b + c"), "(+ (* a b) c)");
    assert_eq!(expr("a - b - c"), "(- (- a b) c)");
    assert_eq!(expr("a / b % c"), "(% (/ a b) c)");
    assert_eq!(expr("x = y = 0"), "(= x (= y 0:int))");
    assert_eq!(expr("x += y -= 1"), "(+= x (-= y 1:int))");
    assert_eq!(expr("a || b && c"), "(|| a (&& b c))");
    assert_eq!(expr("a | b ^ c & d"), "(| a (^ b (& c d)))");
    assert_eq!(expr("a < b == c >= d"), "(== (< a b) (>= c d))");
    assert_eq!(expr("a << b + c"), "(<< a (+ b c))");
    assert_eq!(expr("-a * b"), "(* (- a) b)");
    assert_eq!(expr("!a && ~b"), "(&& (! a) (~ b))");
    assert_eq!(expr("- -a"), "(- (- a))");
    assert_eq!(expr("a ? b : c ? d : x"), "(? a b (? c d x))");
    assert_eq!(expr("a ? b = 1 : c"), "(? a (= b 1:int) c)");
    assert_eq!(expr("x = a ? b : c"), "(= x (? a b c))");
    assert_eq!(expr("(a + b) * c"), "(* (+ a b) c)");
    assert_eq!(expr("x++ + ++y"), "(+ (x++) (++y))");
    assert_eq!(expr("x--, --y"), "(, (x--) (--y))");
    assert_eq!(expr("a+++b"), "(+ (a++) b)");
    assert_eq!(expr("a - -1"), "(- a (- 1:int))");
}

#[test]
fn literal_types_and_values() {
    assert_eq!(expr("42"), "42:int");
    assert_eq!(expr("0x7fffffff"), "2147483647:int");
    assert_eq!(expr("0x80000000"), "2147483648:unsigned int");
    assert_eq!(expr("2147483648"), "2147483648:long long");
    assert_eq!(expr("4294967295u"), "4294967295:unsigned int");
    assert_eq!(expr("10L"), "10:long");
    assert_eq!(expr("10UL"), "10:unsigned long");
    assert_eq!(expr("7ull"), "7:unsigned long long");
    assert_eq!(expr("017"), "15:int");
    assert_eq!(expr("'A'"), "65:int");
    assert_eq!(expr("'\\n'"), "10:int");
    assert_eq!(expr("'\\0'"), "0:int");
    assert_eq!(expr("'\\x41'"), "65:int");
    assert_eq!(expr("'\\''"), "39:int");
    // `char` is signed: a character constant above 127 is negative.
    assert_eq!(expr("'\\xff'"), "(- 1:int)");
    assert_eq!(expr("'\\200'"), "(- 128:int)");
}

#[test]
fn casts_and_sizeof() {
    assert_eq!(expr("(unsigned char) a + 1"), "(+ (cast unsigned char a) 1:int)");
    assert_eq!(expr("(long long) -1"), "(cast long long (- 1:int))");
    assert_eq!(expr("(void) a, b"), "(, (cast void a) b)");
    assert_eq!(expr("(_Bool) a"), "(cast _Bool a)");
    assert_eq!(expr("(signed char) a"), "(cast signed char a)");
    assert_eq!(expr("(unsigned) a"), "(cast unsigned int a)");
    assert_eq!(expr("(short int) a"), "(cast short a)");
    assert_eq!(expr("(unsigned long int) a"), "(cast unsigned long a)");
    assert_eq!(expr("sizeof(int)"), "4:unsigned int");
    assert_eq!(expr("sizeof(long long)"), "8:unsigned int");
    assert_eq!(expr("sizeof(unsigned short)"), "2:unsigned int");
    assert_eq!(expr("sizeof(_Bool)"), "1:unsigned int");
    assert_eq!(expr("sizeof ch"), "1:unsigned int");
    assert_eq!(expr("sizeof big"), "8:unsigned int");
    assert_eq!(expr("sizeof (ch + 1)"), "4:unsigned int");
    assert_eq!(expr("sizeof ((0) ? 1 : 0)"), "4:unsigned int");
    assert_eq!(expr("sizeof a + 1"), "(+ 4:unsigned int 1:int)");
    assert_eq!(expr("__extension__ a"), "a");
}

#[test]
fn statement_expressions_and_function_names() {
    assert_eq!(expr("({ int t = a; t + 1; })"), "({ int t = a; (+ t 1:int); })");
    assert_eq!(expr("__extension__ ({ a; })"), "({ a; })");
    let unit = parse_ok(
        "extern void __assert_fail(const char *, const char *, unsigned int, const char *);\n\
         int main() { __assert_fail(\"x\" \"y\", \"f.c\", 3, __func__); return 0; }",
    );
    assert_eq!(
        render(&unit),
        "proto Extern void __assert_fail(char *, char *, unsigned int, char *)\n\
         fn None int main()\n  (call __assert_fail \"xy\" \"f.c\" 3:int \"main\");\n  return 0:int;\n"
    );
}

#[test]
fn typedef_names_resolve_to_their_type() {
    let unit = parse_ok(
        "typedef unsigned int u32;\ntypedef u32 word;\nu32 g = 3;\n\
         int main() { word w = (u32) -1; int y = 0; int z = (y) - 1; return sizeof(word) + w + z; }\n",
    );
    assert_eq!(
        render(&unit),
        "global unsigned int g = 3:int;\n\
         fn None int main()\n  \
         unsigned int w = (cast unsigned int (- 1:int));\n  \
         int y = 0:int;\n  \
         int z = (- y 1:int);\n  \
         return (+ (+ 4:unsigned int w) z);\n"
    );
}

#[test]
fn declarations_prototypes_and_storage() {
    let unit = parse_ok(
        "int a, b = 2;\nstatic unsigned long c;\nextern int e;\n\
         extern int f(int, unsigned y);\nint g(void);\nint h();\n\
         static inline int k(const int x) { register int r = x; return r; }\n\
         int main(void) { return f(a, b) + g() + h(1, 2) + k(3) + e; }\nint e = 5;\n",
    );
    assert_eq!(
        render(&unit),
        "global int a;\nglobal int b = 2:int;\nglobal static unsigned long c;\nglobal extern int e;\n\
         proto Extern int f(int, unsigned int y)\nproto None int g()\nproto None int h()\n\
         fn Static int k(int x)\n  int r = x;\n  return r;\n\
         fn None int main()\n  return (+ (+ (+ (+ (call f a b) (call g)) (call h 1:int 2:int)) (call k 3:int)) e);\n\
         global int e = 5:int;\n"
    );
    let Item::Prototype(g) = &unit.items[5] else { panic!() };
    assert!(!g.unspecified_params && g.params.is_empty(), "(void) is an empty list");
    let Item::Prototype(h) = &unit.items[6] else { panic!() };
    assert!(h.unspecified_params, "() accepts any arguments");
}

#[test]
fn statements() {
    let unit = parse_ok(
        "int main() {\n  int x = 0, i;\n  for (int j = 0; j < 3; j++) x += j;\n  for (;;) break;\n\
         do x--; while (x > 0);\n  switch (x) { case 1: case 2 + 1: x = 0; break; default: ; }\n\
         if (x) goto L; else { x = 1; }\n  L: while (x < 10) { if (x == 5) continue; x++; }\n\
         ERROR: return x;\n}\n",
    );
    assert_eq!(
        render(&unit),
        "fn None int main()\n  \
         int x = 0:int; int i;\n  \
         for [int j = 0:int;] [(< j 3:int)] [(j++)] (+= x j);\n  \
         for [_] [_] [_] break;\n  \
         do (x--); while (> x 0:int)\n  \
         switch x { case 1:int: case (+ 2:int 1:int): (= x 0:int); break; default: ; }\n  \
         if x goto L; else { (= x 1:int); }\n  \
         L: while (< x 10:int) { if (== x 5:int) continue; (x++); }\n  \
         ERROR: return x;\n"
    );
}

#[test]
fn spans_point_at_the_source() {
    let src = "int main() {\n  int x;\n  x = 41 + 1;\n  return x;\n}\n";
    let unit = parse_ok(src);
    let Item::Function(f) = &unit.items[0] else { panic!() };
    let StmtKind::Expr(e) = &f.body.stmts[1].kind else { panic!() };
    assert_eq!((e.span.line, e.span.col), (3, 3));
    assert_eq!(&src[e.span.start..e.span.end], "x = 41 + 1");
    let ExprKind::Assign { value, target, .. } = &e.kind else { panic!() };
    assert_eq!(&src[value.span.start..value.span.end], "41 + 1");
    assert_eq!((target.span.line, target.span.col), (3, 3));
    assert_eq!((f.body.stmts[1].span.line, f.body.stmts[1].span.col), (3, 3));
    assert_eq!(&src[f.decl.name.span.start..f.decl.name.span.end], "main");
    assert_eq!(f.decl.ret, minic::CType::Int(IntType::Int));
}

#[test]
fn whole_program_snapshot() {
    let src = svcomp_tasks::task("loop-lit/bhmr2007.i").source();
    insta::assert_snapshot!(render(&parse_ok(&src)));
}
