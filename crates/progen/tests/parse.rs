//! Generated programs are valid mini-C, lower to CFAs, and use the whole
//! vocabulary the generator promises (across a range of seeds).

use progen::{generate, Options, NONDET_FUNCTIONS};

#[test]
fn generated_programs_parse_and_lower() {
    for options in [Options::full(), Options::simple()] {
        for seed in 0..400 {
            let p = generate(seed, &options);
            cfa::from_source(&p.text).unwrap_or_else(|d| panic!("seed {seed}: {d:?}\n{}", p.text));
            let lines = p.text.lines().count();
            assert!(lines <= 60, "seed {seed}: {lines} lines\n{}", p.text);
        }
    }
}

#[test]
fn the_whole_vocabulary_appears() {
    let all: String = (0..400).map(|s| generate(s, &Options::full()).text).collect();
    for needle in [
        "for (",
        "while (",
        "do {",
        "} while (",
        "break;",
        "continue;",
        "rec(",
        "f1(",
        " ? ",
        "&&",
        "||",
        "!(",
        "~",
        "<<",
        ">>",
        "<<=",
        ">>=",
        "+=",
        "%=",
        "++",
        "--",
        " / ",
        " % ",
        "__VERIFIER_assume(",
        "reach_error();",
        "_Bool ",
        "signed char ",
        "unsigned char ",
        "unsigned short ",
        "short ",
        "unsigned long long ",
        "long long ",
        "unsigned long ",
        "long ",
        "unsigned int ",
        "char ",
        "(unsigned int) ",
        "(_Bool) ",
        "ull",
        "ll",
        "u;",
    ] {
        assert!(all.contains(needle), "no program contains `{needle}`");
    }
    for (name, _) in NONDET_FUNCTIONS {
        assert!(all.contains(&format!("{name}()")), "no program calls {name}");
    }
}

#[test]
fn simple_programs_declare_only_int_variables() {
    for seed in 0..100 {
        let p = generate(seed, &Options::simple());
        for line in p.text.lines() {
            let t = line.trim_start();
            for ty in ["char ", "short ", "long ", "unsigned int ", "_Bool "] {
                assert!(!t.starts_with(ty), "seed {seed}: {line}");
            }
        }
    }
}
