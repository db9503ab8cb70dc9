fn main() {
    let path = std::env::args().nth(1).expect("json file");
    let text = std::fs::read_to_string(path).expect("readable");
    // Minimal JSON array-of-pairs reader: use serde_json-free parsing via the debug format.
    let cases: Vec<(String, String)> = parse(&text);
    for (name, src) in cases {
        let out = minic::parse(&src);
        println!("{name}:");
        for d in &out.diagnostics {
            println!("    ({}, {}, {:?}, {:?}),", d.span.line, d.span.col, d.severity, d.message);
        }
    }
}

fn parse(text: &str) -> Vec<(String, String)> {
    // Strings in the file are JSON strings; decode the few escapes used.
    let mut out = Vec::new();
    let mut strs = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '"' {
            let mut s = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => match chars.next() {
                        Some('n') => s.push('\n'),
                        Some('t') => s.push('\t'),
                        Some('u') => {
                            let hex: String = (0..4).filter_map(|_| chars.next()).collect();
                            s.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
                        }
                        Some(o) => s.push(o),
                        None => {}
                    },
                    o => s.push(o),
                }
            }
            strs.push(s);
        }
    }
    for pair in strs.chunks(2) {
        out.push((pair[0].clone(), pair[1].clone()));
    }
    out
}
