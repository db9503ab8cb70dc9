//! Finds the smallest thread stack on which the deepest accepted nesting parses
//! (`cargo run -p minic --example stack_probe`): a guide for WebAssembly, whose
//! stack is fixed (1 MB by default). A stack overflow aborts the process, so
//! pass one size in KB to try just that one.
fn main() {
    let inputs = [
        ("parentheses", format!("int main() {{ return {}1{}; }}", "(".repeat(199), ")".repeat(199))),
        ("blocks", format!("int main() {{ {} return 0; {} }}", "{".repeat(198), "}".repeat(198))),
        ("ifs", format!("int main() {{ int x = 0; {} x++; return 0; }}", "if (x) ".repeat(198))),
        ("stmt-exprs", format!("int main() {{ return {}1{}; }}", "({ ".repeat(99), "; })".repeat(99))),
    ];
    for (name, src) in inputs {
        let sizes: Vec<usize> = match std::env::args().nth(1) {
            Some(kb) => vec![kb.parse().expect("a size in KB")],
            None => vec![128, 256, 384, 512, 768, 1024, 2048, 4096],
        };
        for kb in sizes {
            let s = src.clone();
            let ok = std::thread::Builder::new()
                .stack_size(kb * 1024)
                .spawn(move || minic::parse(&s).diagnostics.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("; "))
                .expect("thread")
                .join();
            match ok {
                Ok(n) if n.is_empty() => {
                    println!("{name}: parses on a {kb} KB stack");
                    break;
                }
                Ok(n) => println!("{name}: {kb} KB is not enough: {n}"),
                Err(_) => println!("{name}: {kb} KB: panic"),
            }
        }
    }
}
