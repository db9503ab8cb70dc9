//! Generated programs are valid mini-C, lower to CFAs, and use the whole
//! vocabulary the generator promises (across a range of seeds).

use progen::{generate, Options, NONDET_FUNCTIONS};

#[test]
fn generated_programs_parse_and_lower() {
    for options in [Options::full(), Options::simple(), Options::memory()] {
        for seed in 0..400 {
            let p = generate(seed, &options);
            cfa::from_source(&p.text).unwrap_or_else(|d| panic!("seed {seed}: {d:?}\n{}", p.text));
            let lines = p.text.lines().count();
            // The memory declarations add at most 8 lines.
            let limit = if options.memory { 68 } else { 60 };
            assert!(lines <= limit, "seed {seed}: {lines} lines\n{}", p.text);
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

/// Memory programs run without a memory error on the interpreter (their
/// accesses are valid by construction), and use every memory form.
#[test]
fn memory_programs_make_only_valid_accesses() {
    let mut all = String::new();
    for seed in 0..200 {
        let g = generate(seed, &Options::memory());
        let p = cfa::from_source(&g.text).unwrap_or_else(|d| panic!("seed {seed}: {d:?}\n{}", g.text));
        for run in 0..4 {
            let options = concrete::Options { model: minic::IntModel::C, max_steps: 10_000, record_states: false };
            let e = concrete::execute(&p, &mut progen::Inputs::for_run(&g, run), options);
            assert!(!matches!(e.outcome, concrete::Outcome::MemoryError { .. }), "seed {seed}: {}\n{}", e.outcome, g.text);
        }
        all.push_str(&g.text);
    }
    for needle in ["m_arr[(", "*m_p = ", "m_p = &m_arr[", "m_ps->g", "m_h[(", "*m_q = ", "(*m_q)", "(m_p - m_arr)"] {
        assert!(all.contains(needle), "no `{needle}` in 200 memory programs");
    }
}
