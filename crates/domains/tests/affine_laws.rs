//! Laws and soundness of the affine-equality domain (Karr), checked on
//! concrete points: the hull of random points, random linear programs run
//! concretely next to the abstract transfer.

use domains::affine::Affine;
use proptest::prelude::*;

const N: usize = 3;

fn point() -> impl Strategy<Value = Vec<i128>> {
    proptest::collection::vec(-6i128..6, N)
}

fn hull(points: &[Vec<i128>]) -> Affine {
    points.iter().fold(Affine::bottom(N), |a, p| a.join(&Affine::point(p)))
}

/// One statement of a random straight-line linear program.
#[derive(Clone, Debug)]
enum Op {
    /// `x := Σ c·x + k`.
    Assign(usize, Vec<i128>, i128),
    /// `x := ?` (concretely: `x := v`, a different v per run).
    Havoc(usize, i128),
    /// `[Σ c·x + k == 0]`.
    AssumeEq(Vec<i128>, i128),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..N, proptest::collection::vec(-2i128..3, N), -3i128..4).prop_map(|(x, c, k)| Op::Assign(x, c, k)),
        1 => (0..N, -5i128..5).prop_map(|(x, v)| Op::Havoc(x, v)),
        1 => (proptest::collection::vec(-1i128..2, N), -2i128..3).prop_map(|(c, k)| Op::AssumeEq(c, k)),
    ]
}

fn eval(c: &[i128], k: i128, p: &[i128]) -> i128 {
    c.iter().zip(p).map(|(a, b)| a * b).sum::<i128>() + k
}

/// The concrete run of `op` from `p` (with `salt` choosing havoc values),
/// `None` when a guard blocks it.
fn run(op: &Op, p: &[i128], salt: i128) -> Option<Vec<i128>> {
    let mut q = p.to_vec();
    match op {
        Op::Assign(x, c, k) => q[*x] = eval(c, *k, p),
        Op::Havoc(x, v) => q[*x] = v + salt,
        Op::AssumeEq(c, k) => {
            if eval(c, *k, p) != 0 {
                return None;
            }
        }
    }
    Some(q)
}

fn post(op: &Op, a: &Affine) -> Affine {
    match op {
        Op::Assign(x, c, k) => a.assign(*x, c, *k),
        Op::Havoc(x, _) => a.havoc(*x),
        Op::AssumeEq(c, k) => a.assume_eq(c, *k),
    }
}

proptest! {
    #[test]
    fn join_is_an_upper_bound(a in proptest::collection::vec(point(), 0..4), b in proptest::collection::vec(point(), 0..4)) {
        let (x, y) = (hull(&a), hull(&b));
        let j = x.join(&y);
        prop_assert!(x.leq(&j) && y.leq(&j));
        for p in a.iter().chain(&b) {
            prop_assert!(j.contains(p), "{p:?} lost by the join {j:?}");
        }
        prop_assert_eq!(j, y.join(&x), "the join is commutative");
    }

    #[test]
    fn hull_is_least(a in proptest::collection::vec(point(), 1..4), q in point()) {
        // A point outside the hull of `a` is outside every element containing `a`
        // that the hull is below; here: the hull does not contain points off
        // the affine span (checked by the span's equalities).
        let h = hull(&a);
        if h.contains(&q) {
            let bigger = hull(&[a.clone(), vec![q.clone()]].concat());
            prop_assert_eq!(bigger, h, "adding a point of the hull keeps it");
        }
    }

    #[test]
    fn transfer_is_sound(start in proptest::collection::vec(point(), 1..4), program in proptest::collection::vec(op(), 1..8)) {
        let mut abstract_state = hull(&start);
        let mut concrete: Vec<Vec<i128>> = start;
        for op in &program {
            abstract_state = post(op, &abstract_state);
            concrete = concrete
                .iter()
                .flat_map(|p| (0..2).filter_map(move |salt| run(op, p, salt)))
                .collect();
            for p in &concrete {
                prop_assert!(abstract_state.contains(p), "after {op:?}: {p:?} not in {abstract_state:?}");
            }
            if !concrete.is_empty() {
                prop_assert!(!abstract_state.is_bottom());
            }
        }
    }

    #[test]
    fn ascending_chains_stabilise(points in proptest::collection::vec(point(), 1..10)) {
        // Each strict step of a join chain drops an equality: at most N + 1 steps.
        let mut a = Affine::bottom(N);
        let mut strict = 0;
        for p in &points {
            let next = a.join(&Affine::point(p));
            if next != a {
                strict += 1;
            }
            a = next;
        }
        prop_assert!(strict <= N + 1);
    }
}
