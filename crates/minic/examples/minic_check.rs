//! Parses the files given on the command line and prints their diagnostics
//! (`cargo run -p minic --example minic_check -- FILE...`); with `--ast`, also the AST.
fn main() {
    let mut show_ast = false;
    for arg in std::env::args().skip(1) {
        if arg == "--ast" {
            show_ast = true;
            continue;
        }
        let src = match std::fs::read_to_string(&arg) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{arg}: {e}");
                continue;
            }
        };
        let t = std::time::Instant::now();
        let out = minic::parse(&src);
        let dt = t.elapsed();
        for d in &out.diagnostics {
            println!("{}", minic::render_diagnostic(&arg, d));
        }
        if show_ast {
            println!("{:#?}", out.unit);
        }
        eprintln!("{arg}: {} lines, {:?}", src.lines().count(), dt);
    }
}
