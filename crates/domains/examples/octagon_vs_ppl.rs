//! Our half of the same-run, same-instance comparison of the octagon domain
//! with PPL's `Octagonal_Shape` (`scripts/bench-octagon-ppl.sh` drives it;
//! PPL's half is `benches/ppl/octagon_ppl.cc`).
//!
//! ```text
//! octagon_vs_ppl write FILE             writes the seeded instances (text, below)
//! octagon_vs_ppl time FILE              times our operations on them: one TSV row per cell
//! octagon_vs_ppl table OURS PPL_DOUBLE PPL_MPZ
//!                                       checks that all three agree on every result and
//!                                       prints the Markdown table (exit 1 on a mismatch);
//!                                       a file may hold several rounds of its side: a
//!                                       cell is then the fastest of its rounds
//! ```
//!
//! Instance file: per instance the lines `instance KIND N`, `a` and `b`
//! followed by the finite cells `i j c` of two open DBMs (`m[i][j] = c`
//! bounds `V_j − V_i`, `V_2k = x_k`, `V_2k+1 = −x_k`; half-matrix cells
//! only), `guard V W C` (the guard `x_V − x_W ≤ C`), `assign X Y C` (`x_X :=
//! x_Y + C`) and `end`.
//!
//! Timing (identical in the C++ driver): each batch runs the operation on
//! `K` fresh copies prepared outside the clock (`K = max(1, 4096 / n²)`, so a
//! batch is long enough for the clock at n = 4 and its inputs stay in
//! cache at n = 64), at least 15 batches and 0.3 s per cell; a cell is the
//! fastest batch's µs per operation. The fastest rather than the median
//! because the machines we run on are shared: other processes only ever add
//! time to a batch, and on a loaded 2-core machine the median of a cell
//! moved by 2× between runs while the fastest batch stayed put. We time by
//! hand rather than with criterion so that both sides measure with the same
//! protocol.
//!
//! TSV row: `op kind n µs result`, where `result` is `true`/`false` for
//! inclusion and otherwise the tight closure of the resulting octagon as its
//! finite half-matrix cells `i,j:c` (or `empty`) — the canonical form both
//! sides must agree on.

use domains::octagon::{Cmp, Dbm, LinExpr, Octagon};
use domains::Bound;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "../benches/common/instances.rs"]
mod instances;
use instances::{Instance, ASSIGN, SIZES};

/// The operations compared, in table order.
const OPS: [&str; 6] = ["closure", "join", "widening", "inclusion", "assign_then_close", "guard_then_close"];
/// Minimum wall time spent on one cell.
const BUDGET: Duration = Duration::from_millis(300);
/// Minimum number of batches per cell.
const MIN_BATCHES: usize = 15;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["write", file] => write_instances(file),
        ["time", file] => time_ours(file),
        ["table", ours, ppl_double, ppl_mpz] => table(ours, ppl_double, ppl_mpz),
        _ => Err("usage: octagon_vs_ppl write FILE | time FILE | table OURS PPL_DOUBLE PPL_MPZ".into()),
    };
    if let Err(e) = result {
        eprintln!("octagon_vs_ppl: {e}");
        std::process::exit(1);
    }
}

/// The finite off-diagonal half-matrix cells of `d` as `(i, j, c)`.
fn cells(d: &Dbm) -> Vec<(usize, usize, i64)> {
    let mut out = Vec::new();
    for i in 0..2 * d.vars() {
        for j in (0..=(i | 1)).filter(|&j| j != i) {
            if let Some(c) = d.get(i, j).get() {
                out.push((i, j, c));
            }
        }
    }
    out
}

fn write_instances(file: &str) -> Result<(), String> {
    let mut text = String::from("# octagon instances (crates/domains/examples/octagon_vs_ppl.rs)\n");
    for dense in [false, true] {
        for n in SIZES {
            let inst = Instance::generate(n, dense);
            text += &format!("instance {} {n}\n", inst.kind());
            for (name, o) in [("a", &inst.a), ("b", &inst.b)] {
                text += name;
                for (i, j, c) in cells(o.dbm()) {
                    text += &format!(" {i} {j} {c}");
                }
                text += "\n";
            }
            let (v, w, c) = inst.guard(&inst.a.closed());
            let ((y, _), k) = ASSIGN;
            text += &format!("guard {v} {w} {c}\nassign 0 {y} {k}\nend\n");
        }
    }
    std::fs::write(file, text).map_err(|e| format!("cannot write {file}: {e}"))
}

/// One instance as read back from the file.
struct Parsed {
    kind: String,
    n: usize,
    a: Octagon,
    b: Octagon,
    guard: (usize, usize, i64),
    assign: (usize, usize, i64),
}

fn parse(file: &str) -> Result<Vec<Parsed>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.starts_with('#'));
    while let Some((no, line)) = lines.next() {
        let bad = |what: &str| format!("{file}:{}: {what}", no + 1);
        let head: Vec<&str> = line.split_whitespace().collect();
        let [_, kind, n] = head.as_slice() else { return Err(bad("expected `instance KIND N`")) };
        let n: usize = n.parse().map_err(|_| bad("bad N"))?;
        let mut field = |name: &str| -> Result<Vec<i64>, String> {
            let (no, l) = lines.next().ok_or_else(|| bad("instance ends early"))?;
            let mut words = l.split_whitespace();
            if words.next() != Some(name) {
                return Err(format!("{file}:{}: expected `{name}`", no + 1));
            }
            words.map(|w| w.parse().map_err(|_| format!("{file}:{}: bad number {w}", no + 1))).collect()
        };
        let mut octagon = |name: &str| -> Result<Octagon, String> {
            let mut d = Dbm::top(n);
            for t in field(name)?.chunks(3) {
                let [i, j, c] = *t else { return Err(bad("cells come in triples")) };
                d.tighten(i as usize, j as usize, Bound::finite(c));
            }
            Ok(Octagon::from_dbm(d))
        };
        let (a, b) = (octagon("a")?, octagon("b")?);
        let triple = |v: Vec<i64>| match v.as_slice() {
            &[x, y, c] => Ok((x as usize, y as usize, c)),
            _ => Err(bad("expected three numbers")),
        };
        let guard = triple(field("guard")?)?;
        let assign = triple(field("assign")?)?;
        field("end")?;
        out.push(Parsed { kind: kind.to_string(), n, a, b, guard, assign });
    }
    Ok(out)
}

/// The canonical string of an octagon: its tight closure's finite cells.
fn canonical(o: &Octagon) -> String {
    let c = o.closed();
    if c.is_bottom() {
        return "empty".into();
    }
    let cells: Vec<String> = cells(c.dbm()).iter().map(|(i, j, c)| format!("{i},{j}:{c}")).collect();
    cells.join(" ")
}

/// µs per operation in the fastest batch of `k` runs of `op` on fresh inputs.
fn fastest_us<T>(k: usize, mut fresh: impl FnMut() -> T, mut op: impl FnMut(&mut T)) -> f64 {
    let start = Instant::now();
    let mut per_op = Vec::new();
    while per_op.len() < MIN_BATCHES || start.elapsed() < BUDGET {
        let mut inputs: Vec<T> = (0..k).map(|_| fresh()).collect();
        let t = Instant::now();
        for x in inputs.iter_mut() {
            op(black_box(x));
        }
        per_op.push(t.elapsed().as_secs_f64() * 1e6 / k as f64);
    }
    per_op.into_iter().fold(f64::INFINITY, f64::min)
}

fn time_ours(file: &str) -> Result<(), String> {
    for p in parse(file)? {
        let k = (4096 / (p.n * p.n)).max(1);
        let mut ac = p.a.clone();
        ac.close();
        let mut bc = p.b.clone();
        bc.close();
        let joined = ac.join(&bc);
        let (x, y, c) = p.assign;
        let assign = LinExpr::new(vec![(y, 1)], c);
        let (v, w, c) = p.guard;
        let guard = LinExpr::new(vec![(v, 1), (w, -1)], -c);
        for op in OPS {
            let (us, result) = match op {
                "closure" => {
                    let us = fastest_us(k, || p.a.clone(), |o| o.close());
                    (us, canonical(&ac))
                }
                "join" => (fastest_us(k, || (), |_| drop(black_box(ac.join(&bc)))), canonical(&joined)),
                "widening" => {
                    let us = fastest_us(k, || (), |_| drop(black_box(ac.widen(&joined))));
                    (us, canonical(&ac.widen(&joined)))
                }
                "inclusion" => {
                    let us = fastest_us(
                        k,
                        || (),
                        |_| {
                            black_box(ac.leq(&joined));
                        },
                    );
                    (us, ac.leq(&joined).to_string())
                }
                "assign_then_close" => {
                    let us = fastest_us(k, || ac.clone(), |o| o.assign(x, &assign));
                    let mut o = ac.clone();
                    o.assign(x, &assign);
                    (us, canonical(&o))
                }
                _ => {
                    let us = fastest_us(k, || ac.clone(), |o| o.guard(&guard, Cmp::Le));
                    let mut o = ac.clone();
                    o.guard(&guard, Cmp::Le);
                    (us, canonical(&o))
                }
            };
            println!("{op}\t{}\t{}\t{us:.4}\t{result}", p.kind, p.n);
        }
    }
    Ok(())
}

/// `(op, kind, n) → (µs, result)` from one driver's TSV output (one or more rounds).
type Rows = HashMap<(String, String, usize), (f64, String)>;

fn read_rows(file: &str) -> Result<Rows, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let mut rows = Rows::new();
    for (no, line) in text.lines().enumerate() {
        let bad = || format!("{file}:{}: expected `op kind n µs result`", no + 1);
        let f: Vec<&str> = line.splitn(5, '\t').collect();
        let [op, kind, n, us, result] = f.as_slice() else { return Err(bad()) };
        let n = n.parse().map_err(|_| bad())?;
        let us = us.parse().map_err(|_| bad())?;
        // Several rounds of one side in one file: keep the fastest (load on
        // a shared machine only ever adds time), and insist that
        // every round computed the same result.
        match rows.entry((op.to_string(), kind.to_string(), n)) {
            Entry::Vacant(e) => {
                e.insert((us, result.to_string()));
            }
            Entry::Occupied(mut e) => {
                if e.get().1 != *result {
                    return Err(format!("{file}:{}: {op} {kind} {n} differs between rounds", no + 1));
                }
                e.get_mut().0 = e.get().0.min(us);
            }
        }
    }
    Ok(rows)
}

/// A time in µs with three significant digits.
fn fmt_us(us: f64) -> String {
    match us {
        u if u >= 100.0 => format!("{u:.0}"),
        u if u >= 10.0 => format!("{u:.1}"),
        u if u >= 1.0 => format!("{u:.2}"),
        u => format!("{u:.3}"),
    }
}

fn table(ours: &str, ppl_double: &str, ppl_mpz: &str) -> Result<(), String> {
    let (o, d, z) = (read_rows(ours)?, read_rows(ppl_double)?, read_rows(ppl_mpz)?);
    let mut mismatches = Vec::new();
    println!("| operation | n | octagons | ours µs | PPL double µs | ours / PPL double | PPL mpz µs | ours / PPL mpz |");
    println!("|---|---|---|---|---|---|---|---|");
    for op in OPS {
        for n in SIZES {
            for kind in ["sparse", "dense"] {
                let key = (op.to_string(), kind.to_string(), n);
                let get = |rows: &Rows, side: &str| {
                    rows.get(&key).cloned().ok_or_else(|| format!("{side} has no row for {op} {kind} {n}"))
                };
                let (ours_us, ours_result) = get(&o, "ours")?;
                let (d_us, d_result) = get(&d, "PPL double")?;
                let (z_us, z_result) = get(&z, "PPL mpz")?;
                for (side, r) in [("PPL double", &d_result), ("PPL mpz", &z_result)] {
                    if *r != ours_result {
                        mismatches.push(format!("{op} {kind} n={n}: ours {ours_result:.200} ≠ {side} {r:.200}"));
                    }
                }
                let (op_name, rd, rz) = (op.replace('_', " "), ours_us / d_us, ours_us / z_us);
                let (od, oz) = (fmt_us(ours_us), fmt_us(d_us));
                println!("| {op_name} | {n} | {kind} | {od} | {oz} | {rd:.2} | {} | {rz:.2} |", fmt_us(z_us));
            }
        }
    }
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(format!("results differ:\n{}", mismatches.join("\n")))
    }
}
