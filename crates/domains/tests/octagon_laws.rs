//! Domain laws and soundness of the octagon, checked against brute-force
//! enumeration of the integer points of a small box.

use domains::octagon::{Cmp, Dbm, LinExpr, Octagon};
use domains::{Bound, Interval};
use proptest::prelude::*;

/// Half-width of the enumeration box `[−R, R]^n`.
const R: i64 = 10;

/// All integer points of `[−r, r]^n`.
fn points(n: usize, r: i64) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|p: Vec<i64>| {
                (-r..=r).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    out
}

fn gamma(o: &Octagon, r: i64) -> Vec<Vec<i64>> {
    points(o.vars(), r).into_iter().filter(|p| o.contains(p)).collect()
}

/// A random open octagon: up to 6 random cells `V_j − V_i ≤ c`, c ∈ −8..8.
fn octagon(n: usize) -> impl Strategy<Value = Octagon> {
    proptest::collection::vec((0..2 * n, 0..2 * n, -8i64..8), 0..7).prop_map(move |cells| {
        let mut d = Dbm::top(n);
        for (i, j, c) in cells {
            if i != j {
                d.tighten(i, j, Bound::finite(c));
            }
        }
        Octagon::from_dbm(d)
    })
}

fn n_and_two() -> impl Strategy<Value = (Octagon, Octagon)> {
    (2usize..4).prop_flat_map(|n| (octagon(n), octagon(n)))
}

fn lin(n: usize) -> impl Strategy<Value = LinExpr> {
    (proptest::collection::vec((0..n, -2i64..3), 0..4), -5i64..6).prop_map(|(t, c)| LinExpr::new(t, c))
}

fn cmp() -> impl Strategy<Value = Cmp> {
    prop_oneof![Just(Cmp::Le), Just(Cmp::Lt), Just(Cmp::Ge), Just(Cmp::Gt), Just(Cmp::Eq), Just(Cmp::Ne)]
}

fn is_octagonal(e: &LinExpr) -> bool {
    let mut t: Vec<(usize, i64)> = Vec::new();
    for &(v, a) in &e.terms {
        match t.iter_mut().find(|p| p.0 == v) {
            Some(p) => p.1 += a,
            None => t.push((v, a)),
        }
    }
    t.retain(|p| p.1 != 0);
    t.len() <= 2 && t.iter().all(|p| p.1.abs() == 1)
}

fn radius(n: usize) -> i64 {
    if n == 2 {
        R
    } else {
        7
    }
}

/// Cases per property: 96, or `OCT_CASES` for a longer run.
fn cases() -> u32 {
    std::env::var("OCT_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(96)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn closure_keeps_gamma_and_is_idempotent(a in (2usize..4).prop_flat_map(octagon)) {
        let c = a.closed().into_owned();
        for p in points(a.vars(), radius(a.vars())) {
            prop_assert_eq!(a.contains(&p), c.contains(&p), "point {:?}", p);
        }
        let mut again = Octagon::from_dbm(c.dbm().clone());
        again.close();
        if !c.is_bottom() {
            prop_assert_eq!(again.dbm(), c.dbm());
        }
    }

    #[test]
    fn emptiness_agrees_with_enumeration(a in (2usize..4).prop_flat_map(octagon)) {
        if a.is_bottom() {
            // ⊥ must really be empty: no point in the box.
            prop_assert!(!points(a.vars(), radius(a.vars())).iter().any(|p| a.contains(p)));
        } else {
            // Not ⊥: build an integer witness variable by variable — with a
            // tightly closed form, every value of a projection extends.
            let mut o = a.closed().into_owned();
            let mut p = vec![];
            for v in 0..a.vars() {
                let i = o.interval(v);
                let val = 0i64.clamp(i.lo().unwrap_or(i64::MIN), i.hi().unwrap_or(i64::MAX));
                p.push(val);
                o.guard(&LinExpr::new(vec![(v, 1)], -val), Cmp::Eq);
                prop_assert!(!o.is_bottom(), "value {} of var {} does not extend", val, v);
            }
            prop_assert!(a.contains(&p), "witness {:?}", p);
        }
    }

    #[test]
    fn tight_closure_every_finite_cell_is_attained(a in (2usize..3).prop_flat_map(octagon)) {
        // n = 2: each finite cell of the closed form is reached by an integer point.
        let c = a.closed().into_owned();
        if c.is_bottom() { return Ok(()); }
        let pts = gamma(&c, 20);
        let val = |p: &Vec<i64>, i: usize| if i.is_multiple_of(2) { p[i / 2] } else { -p[i / 2] };
        for i in 0..4 {
            for j in 0..4 {
                if let Some(b) = c.dbm().get(i, j).get() {
                    if i != j && i / 2 == j / 2 {
                        prop_assert_eq!(b % 2, 0, "unary bound not even");
                    }
                    prop_assert!(pts.iter().any(|p| val(p, j) - val(p, i) == b), "cell ({},{}) = {} not attained", i, j, b);
                }
            }
        }
    }

    #[test]
    fn incremental_closure_equals_full_closure(a in (2usize..4).prop_flat_map(octagon), v in 0usize..3, w in 0usize..3, s in 0usize..4, c in -8i64..8) {
        let n = a.vars();
        let (v, w) = (v % n, w % n);
        let mut inc = a.closed().into_owned();
        if inc.is_bottom() { return Ok(()); }
        // the constraint ±x_v ± x_w ≤ c (or unary when v = w)
        let (i, j) = (2 * w + (s & 1), 2 * v + (s >> 1));
        if i == j { return Ok(()); }
        let e = {
            // V_j − V_i ≤ c as a LinExpr
            let sign = |k: usize| if k.is_multiple_of(2) { 1 } else { -1 };
            LinExpr::new(vec![(j / 2, sign(j)), (i / 2, -sign(i))], -c)
        };
        inc.guard(&e, Cmp::Le);
        let mut d = inc.closed().into_owned();
        let mut full_dbm = a.closed().into_owned().dbm().clone();
        full_dbm.tighten(i, j, Bound::finite(c));
        let mut full = Octagon::from_dbm(full_dbm);
        full.close();
        prop_assert_eq!(d.is_bottom(), full.is_bottom());
        if !full.is_bottom() {
            d.close();
            prop_assert_eq!(d.dbm(), full.dbm());
        }
    }

    #[test]
    fn leq_is_a_preorder_matching_gamma((a, b) in n_and_two(), c0 in any::<u8>()) {
        prop_assert!(a.leq(&a));
        let n = a.vars();
        let r = radius(n);
        if a.leq(&b) {
            for p in gamma(&a, r) { prop_assert!(b.contains(&p)); }
        }
        // transitivity through the join
        let c = if c0 % 2 == 0 { a.join(&b) } else { b.clone() };
        if a.leq(&b) && b.leq(&c) { prop_assert!(a.leq(&c)); }
    }

    #[test]
    fn join_is_least_upper_bound((a, b) in n_and_two()) {
        let j = a.join(&b);
        prop_assert!(a.leq(&j) && b.leq(&j));
        let r = radius(a.vars());
        for p in points(a.vars(), r) {
            if a.contains(&p) || b.contains(&p) { prop_assert!(j.contains(&p)); }
        }
        // least: the join of the two is below any upper bound we can build
        let ub = a.widen(&b);
        prop_assert!(j.leq(&ub));
        prop_assert!(j.is_closed());
    }

    #[test]
    fn meet_is_intersection((a, b) in n_and_two()) {
        let m = a.meet(&b);
        for p in points(a.vars(), radius(a.vars())) {
            prop_assert_eq!(m.contains(&p), a.contains(&p) && b.contains(&p));
        }
        prop_assert!(m.leq(&a) && m.leq(&b));
    }

    #[test]
    fn widening_is_upper_bound((a, b) in n_and_two()) {
        for th in [&[][..], &[-3, 0, 4, 9][..]] {
            let w = a.widen_with_thresholds(&b, th);
            prop_assert!(a.leq(&w) && b.leq(&w));
        }
    }

    #[test]
    fn widening_stabilizes_increasing_chains(n in 2usize..4, xs in proptest::collection::vec((0..6usize, 0..6usize, -8i64..8), 1..60), seed in (2usize..4).prop_flat_map(octagon)) {
        let n = seed.vars().min(n.max(2));
        let cells = 2 * n * (n + 1);
        for th in [&[][..], &[-3, 0, 4, 9][..]] {
            let mut w = seed.select(&(0..n).collect::<Vec<_>>());
            let mut increases = 0;
            for &(i, j, c) in &xs {
                // a random octagon with one constraint (plus the seed's shape)
                let mut d = Dbm::top(n);
                let (i, j) = (i % (2 * n), j % (2 * n));
                if i != j { d.tighten(i, j, Bound::finite(c)); }
                let x = Octagon::from_dbm(d);
                let next = w.widen_with_thresholds(&w.join(&x), th);
                prop_assert!(w.leq(&next));
                if !next.leq(&w) { increases += 1; }
                w = next;
            }
            prop_assert!(increases <= cells * (th.len() + 1) + 1, "{} increases", increases);
        }
    }

    #[test]
    fn assignment_is_sound(a in (2usize..4).prop_flat_map(octagon), x in 0usize..3, e in lin(3)) {
        let n = a.vars();
        let x = x % n;
        let e = LinExpr::new(e.terms.iter().map(|&(v, c)| (v % n, c)).collect(), e.constant);
        let mut t = a.clone();
        t.assign(x, &e);
        for p in gamma(&a, radius(n)) {
            let mut q = p.clone();
            q[x] = e.eval_at(&p) as i64;
            prop_assert!(t.contains(&q), "{:?} -> {:?} lost by {} := {:?}", p, q, x, e);
        }
    }

    #[test]
    fn octagonal_assignment_is_exact(a in (2usize..3).prop_flat_map(octagon), x in 0usize..2, y in 0usize..2, neg in any::<bool>(), c in -4i64..5) {
        // x := ±y + c on n = 2: the result is exactly the image (checked in a box
        // small enough that every preimage lies in the big one).
        let e = LinExpr::new(vec![(y, if neg { -1 } else { 1 })], c);
        let mut t = a.clone();
        t.assign(x, &e);
        let image: std::collections::HashSet<Vec<i64>> = gamma(&a, 20).into_iter().map(|p| {
            let mut q = p.clone(); q[x] = e.eval_at(&p) as i64; q
        }).collect();
        for q in points(2, 6) {
            prop_assert_eq!(t.contains(&q), image.contains(&q), "{:?}", q);
        }
    }

    #[test]
    fn guard_is_sound_and_exact_when_octagonal(a in (2usize..4).prop_flat_map(octagon), e in lin(3), op in cmp()) {
        let n = a.vars();
        let e = LinExpr::new(e.terms.iter().map(|&(v, c)| (v % n, c)).collect(), e.constant);
        let mut t = a.clone();
        t.guard(&e, op);
        let exact = is_octagonal(&e) && op != Cmp::Ne;
        for p in points(n, radius(n)) {
            let keep = a.contains(&p) && op.holds(e.eval_at(&p));
            if keep { prop_assert!(t.contains(&p), "{:?} lost by {:?} {:?}", p, e, op); }
            if exact { prop_assert_eq!(t.contains(&p), keep, "{:?} kept by {:?} {:?}", p, e, op); }
            if t.contains(&p) { prop_assert!(a.contains(&p)); }
        }
    }

    #[test]
    fn forget_and_interval_assignment_are_sound(a in (2usize..4).prop_flat_map(octagon), x in 0usize..3, l in -5i64..5, w in 0i64..5) {
        let n = a.vars();
        let x = x % n;
        let mut f = a.clone();
        f.forget(x);
        let mut s = a.clone();
        s.assign_interval(x, Interval::range(l, l + w));
        for p in gamma(&a, radius(n)) {
            for v in [-20, l, l + w, 20] {
                let mut q = p.clone();
                q[x] = v;
                prop_assert!(f.contains(&q));
                if (l..=l + w).contains(&v) { prop_assert!(s.contains(&q)); }
            }
        }
    }

    #[test]
    fn interval_projection_and_removal_are_sound(a in (3usize..4).prop_flat_map(octagon), d in 0usize..3) {
        let mut r = a.clone();
        r.remove_vars(&[d]);
        for p in gamma(&a, 7) {
            for (v, &pv) in p.iter().enumerate() { prop_assert!(a.interval(v).contains(pv)); }
            let q: Vec<i64> = p.iter().enumerate().filter(|(v, _)| *v != d).map(|(_, &x)| x).collect();
            prop_assert!(r.contains(&q));
        }
    }
}

#[test]
fn loop_counter_example() {
    // i := 0; while (i < n) i := i + 1;  with n ∈ [0, 100]: at the exit i == n.
    let (i, n) = (0, 1);
    let mut s = Octagon::top(2);
    s.assign_interval(n, Interval::range(0, 100));
    s.assign(i, &LinExpr::constant(0));
    let mut head = s.clone();
    loop {
        let mut body = head.clone();
        body.guard(&LinExpr::new(vec![(i, 1), (n, -1)], 0), Cmp::Lt);
        body.assign(i, &LinExpr::new(vec![(i, 1)], 1));
        let next = head.widen(&head.join(&body));
        if next.leq(&head) {
            break;
        }
        head = next;
    }
    let mut exit = head.clone();
    exit.guard(&LinExpr::new(vec![(i, 1), (n, -1)], 0), Cmp::Ge);
    assert_eq!(exit.interval(i), Interval::range(0, 100));
    // i == n is known relationally
    assert_eq!(exit.eval(&LinExpr::new(vec![(i, 1), (n, -1)], 0)).as_constant(), None); // intervals alone cannot see it
    let names = ["i", "n"];
    let texts: Vec<String> = exit.constraints(&names).into_iter().map(|c| c.text).collect();
    assert!(texts.contains(&"i == n".to_string()), "{texts:?}");
}

#[test]
fn relational_assignment_keeps_differences() {
    // x := y + z  ⇒  x − y ∈ [z] and x − z ∈ [y]
    let mut s = Octagon::top(3);
    s.assign_interval(1, Interval::range(0, 5));
    s.assign_interval(2, Interval::range(10, 20));
    s.assign(0, &LinExpr::new(vec![(1, 1), (2, 1)], 0));
    assert_eq!(s.interval(0), Interval::range(10, 25));
    let names = ["x", "y", "z"];
    let texts: Vec<String> = s.constraints(&names).into_iter().map(|c| c.text).collect();
    assert_eq!(texts, vec!["10 <= x <= 25", "0 <= y <= 5", "10 <= z <= 20", "10 <= x - y <= 20", "0 <= x - z <= 5"]);
}

#[test]
fn polygon_of_a_known_octagon() {
    // 0 ≤ x ≤ 4, 0 ≤ y ≤ 4, x − y ≤ 2, x + y ≤ 7 (the corner (4, 4) is cut)
    let (x, y) = (0, 1);
    let mut s = Octagon::top(2);
    s.assign_interval(x, Interval::range(0, 4));
    s.assign_interval(y, Interval::range(0, 4));
    s.guard(&LinExpr::new(vec![(x, 1), (y, -1)], -2), Cmp::Le);
    s.guard(&LinExpr::new(vec![(x, 1), (y, 1)], -7), Cmp::Le);
    let v = s.plot(x, y, [-10, 10, -10, 10]);
    assert_eq!(v.x_range, Interval::range(0, 4));
    assert_eq!(v.polygon, vec![[0.0, 0.0], [2.0, 0.0], [4.0, 2.0], [4.0, 3.0], [3.0, 4.0], [0.0, 4.0]]);
    // x − y ≤ 1 and x + y ≤ 0 meet at (½, −½), but over the integers
    // 2x ≤ 1 tightens to x ≤ 0, which cuts that corner off.
    let mut h = Octagon::top(2);
    h.guard(&LinExpr::new(vec![(x, 1), (y, -1)], -1), Cmp::Le);
    h.guard(&LinExpr::new(vec![(x, 1), (y, 1)], 0), Cmp::Le);
    let v = h.plot(x, y, [-4, 4, -4, 4]);
    assert_eq!(v.x_range.hi(), Some(0));
    assert!(v.polygon.contains(&[0.0, -1.0]) && v.polygon.contains(&[0.0, 0.0]), "{:?}", v.polygon);
    // unbounded sides end at the clip box
    assert!(v.polygon.contains(&[-4.0, 4.0]));
    // ⊥ has no polygon
    let mut b = s.clone();
    b.guard(&LinExpr::new(vec![(x, 1)], -9), Cmp::Ge);
    assert!(b.plot(x, y, [-10, 10, -10, 10]).polygon.is_empty());
}

#[test]
fn matrix_view_labels_and_cells() {
    let mut s = Octagon::top(2);
    s.guard(&LinExpr::new(vec![(0, 1), (1, -1)], -3), Cmp::Le); // a − b ≤ 3
    let m = s.matrix(&["a", "b"]);
    assert_eq!(m.labels, vec!["+a", "-a", "+b", "-b"]);
    // row +b, column +a: a − b ≤ 3; and its coherent twin row −a, column −b
    assert_eq!(m.cells[2][0], Some(3));
    assert_eq!(m.cells[1][3], Some(3));
    assert_eq!(m.cells[0][2], None);
    assert!(m.closed && !m.bottom);
    let texts: Vec<String> = s.constraints(&["a", "b"]).into_iter().map(|c| c.text).collect();
    assert_eq!(texts, vec!["a - b <= 3"]);
    assert_eq!(Octagon::bottom(2).constraints(&["a", "b"])[0].text, "false");
}

#[test]
fn embed_permutes_and_adds_fresh_variables() {
    let mut s = Octagon::top(2);
    s.assign_interval(1, Interval::range(0, 5));
    s.guard(&LinExpr::new(vec![(0, 1), (1, -1)], -3), Cmp::Le); // v0 − v1 ≤ 3
                                                                // new order: fresh, old v1, old v0
    let e = s.embed(&[None, Some(1), Some(0)]);
    assert_eq!(e.vars(), 3);
    assert!(e.interval(0).is_top());
    assert_eq!(e.interval(1), Interval::range(0, 5));
    assert!(e.contains(&[100, 0, 3]) && !e.contains(&[100, 0, 4]));
}

/// Constants at the edges of `i64`, to shake out overflow.
fn extreme() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(i64::MIN),
        Just(i64::MIN + 1),
        Just(i64::MAX),
        Just(i64::MAX - 1),
        Just(1i64 << 62),
        Just(-(1i64 << 62)),
        -3i64..4,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Extreme constants never panic and never lose a point.
    #[test]
    fn extreme_constants_stay_sound(a in (2usize..3).prop_flat_map(octagon), x in 0usize..2, y in 0usize..2, k in extreme(), c in extreme(), g in extreme(), op in cmp()) {
        let e = LinExpr::new(vec![(y, k)], c);
        let mut t = a.clone();
        t.assign(x, &e);
        let mut u = a.clone();
        let ge = LinExpr::new(vec![(x, 1), (y, k)], g);
        u.guard(&ge, op);
        let w = a.widen_with_thresholds(&t, &[i64::MIN, -1, 0, i64::MAX]);
        prop_assert!(a.leq(&w));
        let j = t.join(&u);
        prop_assert!(t.leq(&j) && u.leq(&j), "the join is an upper bound");
        prop_assert!(!j.constraints(&["x", "y"]).iter().any(|c| c.text.is_empty()));
        for p in gamma(&a, R) {
            let v = e.eval_at(&p);
            if let Ok(v) = i64::try_from(v) {
                let mut q = p.clone();
                q[x] = v;
                prop_assert!(t.contains(&q), "{:?} -> {:?} lost", p, q);
            }
            if op.holds(ge.eval_at(&p)) {
                prop_assert!(u.contains(&p), "{:?} lost by guard", p);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// `x := e + [lo, hi]`: every choice of the remainder is kept.
    #[test]
    fn interval_linear_assignment_is_sound(a in (2usize..4).prop_flat_map(octagon), x in 0usize..3, e in lin(3), lo in -3i64..3, w in 0i64..4, unbounded in 0u8..4) {
        let n = a.vars();
        let x = x % n;
        let e = LinExpr::new(e.terms.iter().map(|&(v, c)| (v % n, c)).collect(), e.constant);
        let rest = match unbounded {
            0 => Interval::new(None, Some(lo + w)),
            1 => Interval::new(Some(lo), None),
            _ => Interval::range(lo, lo + w),
        };
        let mut t = a.clone();
        t.assign_with_interval(x, &e, rest);
        for p in gamma(&a, radius(n)) {
            for r in [lo, lo + w, lo - 5, lo + w + 5] {
                if !rest.contains(r) { continue; }
                let mut q = p.clone();
                q[x] = (e.eval_at(&p) + r as i128) as i64;
                prop_assert!(t.contains(&q), "{:?} -> {:?} lost by {} := {:?} + {}", p, q, x, e, rest);
            }
        }
    }
}

#[test]
fn interval_shift_keeps_relations() {
    // y ∈ [0, 10], x == y; x := x + [1, 2]  ⇒  1 <= x - y <= 2
    let mut s = Octagon::top(2);
    s.assign_interval(1, Interval::range(0, 10));
    s.assign(0, &LinExpr::var(1));
    s.assign_with_interval(0, &LinExpr::var(0), Interval::range(1, 2));
    let texts: Vec<String> = s.constraints(&["x", "y"]).into_iter().map(|c| c.text).collect();
    assert_eq!(texts, vec!["1 <= x <= 12", "0 <= y <= 10", "1 <= x - y <= 2"]);
}
