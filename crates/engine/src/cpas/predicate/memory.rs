//! Memory in predicate analysis's path formulas: one function per memory
//! region, updated by stores with *retention conditions* (as in the
//! Bornat–Burstall memory model of CPAchecker's predicate analysis), and
//! instantiated finitely so that every formula stays in linear integer
//! arithmetic, where quantifier elimination (the refinement's
//! interpolation) works.
//!
//! * Memory region `R` (see [`cfa::MemAccess::region`] and
//!   `cpa.predicate.memoryRegions`) is a function `f_R` from addresses to
//!   values; a store `*p = e` in `R` makes a new version `f_R'` with
//!   `f_R'(p) = e` and, for every address term `a` of `R` the path formula
//!   knows, the **retention disjunct** `p = a ∨ f_R'(a) = f_R(a)`.
//! * Uninterpreted functions are not eliminated by z3's quantifier
//!   elimination, so each application `f_R^k(a)` the formula needs is a
//!   scalar variable, a *cell* `mem@n` (Ackermann's reduction). A region's
//!   current version is the list of its known cells `(a, mem@n)`: "the
//!   value at address `a` is `mem@n`". A load from an address term with a
//!   cell of the same type reads that cell; any other load makes a new cell,
//!   constrained only by `p = a → mem@new = mem@a` for the region's cells
//!   `a` of the same type (functional consistency): an address the formula
//!   knows nothing about is read as an arbitrary value.
//! * A cell read or written at another type (or size) than a store's is
//!   only kept when the two byte ranges do not overlap: its retention
//!   disjunct is `overlap(p, a) ∨ f_R'(a) = f_R(a)`.
//! * An allocation is a fresh non-null address, different from the
//!   addresses of the allocations made earlier in the same block (each new
//!   object gets `x ≠ 0 ∧ x ≠ o₁ ∧ …`); `free` changes no cell.
//! * At an abstraction, memory is forgotten with the path formula: the
//!   abstraction formula ψ is over program variables only, so predicates
//!   never mention cells (a value loaded into a variable is a variable like
//!   any other). The refiner cuts the error path the same way, so a cell
//!   never crosses a cut.
//!
//! Every constraint added holds of the concrete memory, so the encoding is
//! an over-approximation (sound); the regions themselves are an
//! assumption about aliasing: two lvalues in different regions never
//! refer to the same bytes (always true for `SINGLE`; for `TYPE` when a
//! cell is always accessed at its type; for `BNB` also that a field whose
//! address is never taken is only reached as that field).

use cfa::{MemAccess, RegionModel};
use minic::IntType;
use smt::{Encoding, Term};
use std::collections::BTreeMap;

/// The comment line a solver query carries when its formula has retention
/// disjuncts: `; retention disjuncts: N` (read by the statistics).
pub const RETENTION_COMMENT: &str = "retention disjuncts: ";

/// The number of retention disjuncts a query's SMT-LIB2 text reports
/// (0 when it has no [`RETENTION_COMMENT`] line).
pub fn retention_in_script(smtlib: &str) -> u64 {
    smtlib
        .lines()
        .filter_map(|l| l.trim_start_matches(';').trim().strip_prefix(RETENTION_COMMENT))
        .filter_map(|n| n.trim().parse::<u64>().ok())
        .sum()
}

/// One known cell of a region's current function: the value at an address.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// The address term.
    pub addr: Term,
    /// The term of the value there (a `mem@n` variable).
    pub value: Term,
    /// The IR type it was read or written at.
    pub ty: IntType,
    /// Its size in bytes.
    pub bytes: u64,
}

/// The memory part of a path formula since the block start.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Memory {
    /// The known cells of each region's current version.
    pub regions: BTreeMap<String, Vec<Cell>>,
    /// Stores per region since the block start (the version of `f_R`).
    pub versions: BTreeMap<String, u32>,
    /// The addresses of the objects allocated since the block start.
    pub allocations: Vec<Term>,
    /// Cells made so far (names `mem@n`).
    pub cells: u32,
    /// Retention disjuncts among the path formula's constraints.
    pub retention: u32,
}

/// The SMT name of cell `n`.
pub fn cell_name(n: u32) -> String {
    format!("mem@{n}")
}

impl Memory {
    fn new_cell(&mut self, ty: IntType, enc: Encoding, out: &mut Vec<Term>) -> Term {
        self.cells += 1;
        let t = Term::var(&cell_name(self.cells), enc.sort(ty));
        let range = enc.range_constraint(&t, ty);
        if range != Term::bool(true) {
            out.push(range);
        }
        t
    }

    /// The value loaded from `addr` (type `ty`, `bytes` wide) in the region
    /// of `access`; constraints go to `out`.
    #[allow(clippy::too_many_arguments)]
    pub fn load(
        &mut self,
        model: RegionModel,
        access: &MemAccess,
        addr: Term,
        ty: IntType,
        bytes: u64,
        enc: Encoding,
        out: &mut Vec<Term>,
    ) -> Term {
        let region = access.region(model);
        if let Some(c) = self.regions.get(&region).and_then(|cells| cells.iter().find(|c| c.addr == addr && c.ty == ty)) {
            return c.value.clone();
        }
        let value = self.new_cell(ty, enc, out);
        let cells = self.regions.entry(region).or_default();
        for c in cells.iter().filter(|c| c.ty == ty) {
            out.push(Term::or(vec![Term::ne(addr.clone(), c.addr.clone()), Term::eq(value.clone(), c.value.clone())]));
        }
        cells.push(Cell { addr, value: value.clone(), ty, bytes });
        value
    }

    /// `*addr = value` (type `ty`, `bytes` wide) in the region of `access`:
    /// a new version of the region with a retention disjunct per known
    /// cell; constraints go to `out`. Returns the number of retention
    /// disjuncts added.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        model: RegionModel,
        access: &MemAccess,
        addr: Term,
        value: Term,
        ty: IntType,
        bytes: u64,
        enc: Encoding,
        out: &mut Vec<Term>,
    ) -> u32 {
        let region = access.region(model);
        let old = self.regions.remove(&region).unwrap_or_default();
        let stored = self.new_cell(ty, enc, out);
        out.push(Term::eq(stored.clone(), value));
        let mut cells = vec![Cell { addr: addr.clone(), value: stored.clone(), ty, bytes }];
        let mut added = 0;
        for c in old {
            if c.addr == addr && c.ty == ty {
                continue;
            }
            let kept = self.new_cell(c.ty, enc, out);
            let same_type = c.ty == ty && c.bytes == bytes;
            // Written here: p = a ∨ f'(a) = f(a) (or, at another type, "the
            // byte ranges overlap").
            let hit = if same_type { Term::eq(addr.clone(), c.addr.clone()) } else { overlap(&addr, bytes, &c.addr, c.bytes) };
            out.push(Term::or(vec![hit, Term::eq(kept.clone(), c.value.clone())]));
            added += 1;
            if same_type {
                // f'(p) = e, so a = p → f'(a) = e.
                out.push(Term::or(vec![Term::ne(addr.clone(), c.addr.clone()), Term::eq(kept.clone(), stored.clone())]));
            }
            cells.push(Cell { addr: c.addr, value: kept, ty: c.ty, bytes: c.bytes });
        }
        *self.versions.entry(region.clone()).or_insert(0) += 1;
        self.regions.insert(region, cells);
        self.retention += added;
        added
    }

    /// `x = malloc(…)` (or any new object): `addr` is the new object's
    /// address; constraints go to `out`.
    pub fn allocate(&mut self, addr: Term, enc: Encoding, out: &mut Vec<Term>) {
        out.push(Term::ne(addr.clone(), enc.constant(0, cfa::POINTER_TYPE)));
        for a in &self.allocations {
            out.push(Term::ne(addr.clone(), a.clone()));
        }
        self.allocations.push(addr);
    }

    /// The memory after the join of two paths whose formulas become
    /// `left ∧ …` and `right ∧ …` (constraints for each side go to `left`
    /// and `right`): a cell both sides know at the same address keeps a
    /// value equal to each side's; the other cells are forgotten (sound: an
    /// unknown cell reads an arbitrary value).
    pub fn merge(&self, other: &Memory, enc: Encoding, left: &mut Vec<Term>, right: &mut Vec<Term>) -> Memory {
        let mut out =
            Memory { cells: self.cells.max(other.cells), retention: self.retention + other.retention, ..Memory::default() };
        for (region, cells) in &self.regions {
            let Some(theirs) = other.regions.get(region) else { continue };
            let mut merged = Vec::new();
            for c in cells {
                let Some(d) = theirs.iter().find(|d| d.addr == c.addr && d.ty == c.ty) else { continue };
                if d.value == c.value {
                    merged.push(c.clone());
                    continue;
                }
                out.cells += 1;
                let v = Term::var(&cell_name(out.cells), enc.sort(c.ty));
                left.push(Term::eq(v.clone(), c.value.clone()));
                right.push(Term::eq(v.clone(), d.value.clone()));
                merged.push(Cell { value: v, ..c.clone() });
            }
            out.regions.insert(region.clone(), merged);
        }
        for (region, k) in self.versions.iter().chain(other.versions.iter()) {
            let e = out.versions.entry(region.clone()).or_insert(0);
            *e = (*e).max(*k);
        }
        out.allocations = self.allocations.iter().filter(|a| other.allocations.contains(a)).cloned().collect();
        out
    }
}

/// The byte ranges `[p, p + n)` and `[a, a + m)` overlap:
/// `a < p + n ∧ p < a + m`.
fn overlap(p: &Term, n: u64, a: &Term, m: u64) -> Term {
    Term::and(vec![
        Term::lt(a.clone(), Term::add(p.clone(), Term::int(n.max(1) as i128))),
        Term::lt(p.clone(), Term::add(a.clone(), Term::int(m.max(1) as i128))),
    ])
}
