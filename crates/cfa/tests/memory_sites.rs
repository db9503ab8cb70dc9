//! The loads and stores of a program as the page's regions table lists
//! them ([`cfa::Program::memory_sites`]): the lvalue's text, whether it is
//! a store, and its region under each `cpa.predicate.memoryRegions`.

use cfa::{lvalue_member, RegionModel};

const REGIONS: &str = "struct S { int f; char g; int h; };\nint main(void) {\n  struct S s;\n  struct S *p = &s;\n  p->f = 1;\n  s.g = 'x';\n  int *q = &p->h;\n  *q = 2;\n  int a[2];\n  a[1] = p->f;\n  return 0;\n}\n";

/// One site: lvalue, store, line, regions (SINGLE, TYPE, BNB), the field
/// without its own region.
type Site = (String, bool, u32, [String; 3], Option<String>);

fn sites(src: &str) -> Vec<Site> {
    let p = cfa::from_source(src).unwrap();
    p.memory_sites()
        .into_iter()
        .map(|s| {
            let r = [RegionModel::Single, RegionModel::Type, RegionModel::Bnb].map(|m| s.access.region(m));
            (s.lvalue.clone(), s.store, s.line, r, s.access.field_without_region(&s.lvalue))
        })
        .collect()
}

#[test]
fn loads_and_stores_carry_their_lvalue_text_and_regions() {
    let got = sites(REGIONS);
    let find = |text: &str, store: bool| {
        got.iter().find(|s| s.0 == text && s.1 == store).unwrap_or_else(|| panic!("{text} (store {store}) in {got:#?}"))
    };
    let pf = find("p->f", true);
    assert_eq!(pf.2, 5);
    assert_eq!(pf.3, ["memory", "int", "struct S.f"].map(String::from));
    assert_eq!(pf.4, None);
    assert_eq!(find("p->f", false).3[2], "struct S.f");
    assert_eq!(find("s.g", true).3, ["memory", "char", "struct S.g"].map(String::from));
    // `&p->h` is taken: h has no region of its own, so BNB puts it with `int`.
    let star_q = find("*q", true);
    assert_eq!(star_q.3, ["memory", "int", "int"].map(String::from));
    assert_eq!(star_q.4, None, "`*q` is not a field access");
    let a1 = find("a[1]", true);
    assert_eq!(a1.3[2], "int");
}

#[test]
fn a_field_whose_address_is_taken_is_flagged_as_falling_back_to_its_type() {
    let src = "struct S { int f; int h; };\nint main(void) {\n  struct S s;\n  int *q = &s.h;\n  s.h = 1;\n  s.f = 2;\n  return *q;\n}\n";
    let got = sites(src);
    let sh = got.iter().find(|s| s.0 == "s.h" && s.1).unwrap();
    assert_eq!(sh.3[2], "int");
    assert_eq!(sh.4.as_deref(), Some("h"));
    let sf = got.iter().find(|s| s.0 == "s.f" && s.1).unwrap();
    assert_eq!(sf.3[2], "struct S.f");
    assert_eq!(sf.4, None);
}

#[test]
fn a_program_without_memory_has_no_sites() {
    let p = cfa::from_source("int main(void) { int x = 1; return x; }").unwrap();
    assert!(p.memory_sites().is_empty());
}

#[test]
fn the_member_an_lvalue_ends_with() {
    assert_eq!(lvalue_member("p->f"), Some("f"));
    assert_eq!(lvalue_member("a[i].next"), Some("next"));
    assert_eq!(lvalue_member("p->q->val_2"), Some("val_2"));
    assert_eq!(lvalue_member("s.a[2]"), None);
    assert_eq!(lvalue_member("*p"), None);
    assert_eq!(lvalue_member("x"), None);
    assert_eq!(lvalue_member("s.1"), None);
}
