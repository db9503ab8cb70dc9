//! The transformed text of small memory programs, table-driven: an
//! abstract value stored into an array cell is frozen and a read thaws it,
//! a struct field likewise, a heap block too; a concrete store stays a
//! plain store; an address that reads an abstract value is lowered; with
//! nothing lifted, memory is plain concrete loads and stores.

use transform::{print, transform, Domain, LiftSet, Options};

const ARRAY: &str = "extern int __VERIFIER_nondet_int(void);\nint main(void) {\n  int a[2];\n  int x = __VERIFIER_nondet_int();\n  a[0] = x + 1;\n  a[1] = 5;\n  int b = a[0];\n  return b;\n}\n";

const STRUCT: &str = "extern int __VERIFIER_nondet_int(void);\nstruct pt { int x; int y; };\nint main(void) {\n  struct pt s;\n  int v = __VERIFIER_nondet_int();\n  s.y = 2 * v;\n  return s.y;\n}\n";

const INDEX: &str = "extern int __VERIFIER_nondet_int(void);\nint main(void) {\n  int a[4];\n  int i = __VERIFIER_nondet_int();\n  if (i >= 0 && i < 4) {\n    a[i] = 7;\n  }\n  return 0;\n}\n";

const HEAP: &str = "extern int __VERIFIER_nondet_int(void);\nextern void *malloc(unsigned int);\nextern void free(void *);\nint main(void) {\n  int *p = malloc(8);\n  p[1] = __VERIFIER_nondet_int();\n  int y = p[1];\n  free(p);\n  return y;\n}\n";

struct Case {
    name: &'static str,
    src: &'static str,
    lift: LiftSet,
    /// Transformed operations the text must contain.
    present: &'static [&'static str],
    /// … and must not.
    absent: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "array with an abstract element",
        src: ARRAY,
        lift: LiftSet::Inputs,
        present: &["freeze(a + 0, a_add(x, lift(1)));", "*(a + 4) = 5;", "= thaw(a + 0);", "abstract b = __tmp0;"],
        absent: &["lower("],
    },
    Case {
        name: "struct field frozen and thawed",
        src: STRUCT,
        lift: LiftSet::Inputs,
        present: &["unsigned long long s = alloc(8);", "freeze(s + 4, a_mul(lift(2), v));", "= thaw(s + 4);"],
        absent: &["lower("],
    },
    Case {
        name: "abstract index lowered",
        src: INDEX,
        lift: LiftSet::Inputs,
        present: &["*(lower(a_add(lift(a), a_mul(a_cast_unsigned_long_long(i), lift(4))))) = 7;"],
        absent: &["freeze("],
    },
    Case {
        name: "heap block: an input stored into it is frozen, a read thaws it",
        src: HEAP,
        lift: LiftSet::Inputs,
        present: &["= alloc(8);", "__tmp1 = lift(*);", "freeze(p + 4, __tmp1);", "= thaw(p + 4);", "free(p);"],
        absent: &["lower("],
    },
    Case {
        name: "nothing lifted: concrete loads and stores",
        src: ARRAY,
        lift: LiftSet::None,
        present: &["*(a + 0) = x + 1;", "*(a + 4) = 5;", "= *(a + 0);"],
        absent: &["freeze(", "thaw(", "lower(", "lift("],
    },
];

#[test]
fn memory_programs_transform_to_freeze_thaw_and_lower() {
    for c in CASES {
        let p = cfa::from_source(c.src).unwrap_or_else(|d| panic!("{}: {d:?}", c.name));
        for domain in [Domain::Term, Domain::Parity, Domain::Sign] {
            let t = transform(&p, &Options { lift: c.lift, ..Options::new(domain) }).unwrap();
            let lines = print::lines(&p, &t);
            let ops: Vec<&str> = lines.iter().filter(|l| l.edge.is_some()).map(|l| l.op.as_str()).collect();
            let text = ops.join("\n");
            for want in c.present {
                assert!(text.contains(want), "{} ({domain}): no `{want}` in\n{text}", c.name);
            }
            for not in c.absent {
                let legend_free = ops.iter().all(|o| !o.contains(not));
                assert!(legend_free, "{} ({domain}): `{not}` in\n{text}", c.name);
            }
            // freeze and thaw lines carry their marks (the page's badges).
            for l in lines.iter().filter(|l| l.edge.is_some()) {
                if l.op.starts_with("freeze(") {
                    assert!(l.marks.contains(&print::Mark::Freeze), "{}: {l:?}", c.name);
                }
                if l.op.contains("thaw(") {
                    assert!(l.marks.contains(&print::Mark::Thaw), "{}: {l:?}", c.name);
                }
            }
        }
    }
}

#[test]
fn the_legend_says_how_each_domain_lowers() {
    let p = cfa::from_source(INDEX).unwrap();
    let term = print::text(&p, &transform(&p, &Options::new(Domain::Term)).unwrap());
    assert!(term.contains("the solver gives each value k of v under the path condition"), "{term}");
    let sign = print::text(&p, &transform(&p, &Options::new(Domain::Sign)).unwrap());
    assert!(sign.contains("each address of a live cell the domain allows"), "{sign}");
}
