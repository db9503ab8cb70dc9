//! The memory view of a run: which memory region each lvalue of the
//! program falls into under predicate analysis's
//! `cpa.predicate.memoryRegions` (the regions table, grouped by the run's
//! setting, with the two other settings beside it), the region text a
//! load or store edge shows when hovered in the CFA, and what the page
//! says about memory for an analysis without a memory model. Plain Rust
//! over [`cfa::Program::memory_sites`], tested natively.

use cfa::{EdgeId, Program, RegionModel};
use engine::trace::{Event, RunInfo};

/// The three settings of `cpa.predicate.memoryRegions`, in the table's
/// column order (coarsest first).
pub const MODELS: [RegionModel; 3] = [RegionModel::Single, RegionModel::Type, RegionModel::Bnb];

/// What the page says of memory when the run's analysis has no memory
/// model (every CPA but predicate analysis).
pub const NOT_TRACKED: &str = "Memory is not tracked by this analysis: a load from memory gives an arbitrary value, \
so the values of arrays, struct fields, heap objects and address-taken variables are forgotten.";

/// The region model of a run: `Some(setting)` when one of its CPAs is
/// predicate analysis (which models memory per region; the trace names
/// it `PredicateCPA`), `None` otherwise.
pub fn memory_model(info: &RunInfo) -> Option<RegionModel> {
    info.cpas
        .iter()
        .any(|c| c.rsplit('.').next() == Some("PredicateCPA"))
        .then(|| info.properties.get("cpa.predicate.memoryRegions").and_then(|s| RegionModel::parse(s)).unwrap_or_default())
}

/// [`memory_model`] of the run whose trace is `events` (its first event).
pub fn memory_model_of(events: &[Event]) -> Option<RegionModel> {
    match events.first() {
        Some(Event::AnalysisStarted { info }) => memory_model(info),
        _ => None,
    }
}

/// One load or store of the program in the regions table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionRow {
    /// The edge that performs it.
    pub edge: EdgeId,
    /// Its source line.
    pub line: u32,
    /// The lvalue as written (`p->f`, `a[i]`, `*q`).
    pub lvalue: String,
    /// `store` or `load`.
    pub access: &'static str,
    /// The C type of the value read or written (`int`, `struct node *`);
    /// empty for an untyped program.
    pub ty: String,
    /// Its region under SINGLE, TYPE and BNB ([`MODELS`] order).
    pub regions: [String; 3],
}

/// The lvalues that share one region under the grouping setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionGroup {
    /// The region (`memory`, `int`, `struct S.f`).
    pub region: String,
    /// Its loads and stores, in program order.
    pub rows: Vec<RegionRow>,
}

/// The regions table of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionsTable {
    /// The run's setting (marked column); `None` when the run's analysis
    /// has no memory model (the table then groups by the default, BNB).
    pub active: Option<RegionModel>,
    /// The groups by region under the active setting, largest first.
    pub groups: Vec<RegionGroup>,
    /// Why some lvalues do not get the region one might expect (a field
    /// whose address is taken; an untyped program), one sentence each.
    pub notes: Vec<String>,
}

impl RegionsTable {
    /// The table of `program` for a run with region model `active`;
    /// `None` when the program has no load or store.
    pub fn of(program: &Program, active: Option<RegionModel>) -> Option<RegionsTable> {
        let sites = program.memory_sites();
        if sites.is_empty() {
            return None;
        }
        let by = MODELS.iter().position(|&m| m == active.unwrap_or_default()).unwrap_or(2);
        let mut groups: Vec<RegionGroup> = Vec::new();
        let mut notes: Vec<String> = Vec::new();
        for s in &sites {
            let row = RegionRow {
                edge: s.edge,
                line: s.line,
                lvalue: s.lvalue.clone(),
                access: if s.store { "store" } else { "load" },
                ty: s.access.ty.clone(),
                regions: MODELS.map(|m| s.access.region(m)),
            };
            let note = if s.access.untyped() {
                Some(
                    "The program uses a `void *` (other than a fresh allocation) as a typed pointer, so a cell may be \
                      accessed at two types: every access falls into the one region `memory`, whatever the setting."
                        .to_string(),
                )
            } else {
                s.access.field_without_region(&s.lvalue).map(|f| {
                    format!(
                        "The address of a field `{f}` is taken (`&….{f}`) → `{f}` falls back to its type's region `{}` under BNB.",
                        s.access.ty
                    )
                })
            };
            if let Some(n) = note.filter(|n| !notes.contains(n)) {
                notes.push(n);
            }
            match groups.iter_mut().find(|g| g.region == row.regions[by]) {
                Some(g) => g.rows.push(row),
                None => groups.push(RegionGroup { region: row.regions[by].clone(), rows: vec![row] }),
            }
        }
        // Largest first; ties in order of first appearance (stable sort).
        groups.sort_by_key(|g| std::cmp::Reverse(g.rows.len()));
        Some(RegionsTable { active, groups, notes })
    }

    /// The column of the active setting ([`MODELS`] index), if any.
    pub fn active_column(&self) -> Option<usize> {
        self.active.and_then(|a| MODELS.iter().position(|&m| m == a))
    }

    /// One line above the table: what it shows and under which setting.
    pub fn caption(&self) -> String {
        let n: usize = self.groups.iter().map(|g| g.rows.len()).sum();
        let loads = if n == 1 { "load or store" } else { "loads and stores" };
        match self.active {
            Some(m) => format!(
                "{n} {loads} in {} region{} under cpa.predicate.memoryRegions = {} (the run's setting, marked ▸); \
                 lvalues in different regions are assumed never to alias.",
                self.groups.len(),
                if self.groups.len() == 1 { "" } else { "s" },
                m.name()
            ),
            None => format!(
                "{n} {loads}. This analysis has no memory model; the table shows the regions predicate analysis \
                 would use (grouped by BNB, its default)."
            ),
        }
    }
}

/// The words for a group's size: `3 lvalues share it`, `1 lvalue`.
pub fn group_size_text(g: &RegionGroup) -> String {
    match g.rows.len() {
        1 => "1 lvalue, alone in its region".to_string(),
        n => format!("{n} lvalues share it"),
    }
}

/// The region of the lvalue edge `edge` loads or stores under `model`, as
/// the CFA shows it on hover: `p->f — region struct S.f (BNB)`; `None`
/// for an edge without memory access.
pub fn edge_region_text(program: &Program, edge: EdgeId, model: RegionModel) -> Option<String> {
    let site = program.edges.get(edge.0 as usize)?.memory_site()?;
    Some(format!("{} — region {} ({})", site.lvalue, site.access.region(model), model.name()))
}

/// The region of edge `edge`'s lvalue under `model` (for highlighting the
/// table's rows of that region); `None` for an edge without memory access.
pub fn edge_region(program: &Program, edge: EdgeId, model: RegionModel) -> Option<String> {
    Some(program.edges.get(edge.0 as usize)?.memory_site()?.access.region(model))
}

/// One region of a predicate state's memory view: its cells readable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionCells {
    /// The region (`struct S.f`).
    pub region: String,
    /// `3 stores since the block start` / `no store yet (cells read only)`.
    pub stores: String,
    /// `(address, value)`: the address without the C model's wrap-around
    /// case split, the value with what φ equates it to (`mem@1 = a₁`).
    pub cells: Vec<(String, String)>,
}

/// The memory part of a predicate state's path formula, region by region
/// (empty when φ has no cell).
pub fn region_cells(memory: &[engine::trace::RegionCellsView], path: &[String]) -> Vec<RegionCells> {
    memory
        .iter()
        .map(|r| RegionCells {
            region: r.region.clone(),
            stores: match r.stores {
                0 => "no store yet (cells only read)".to_string(),
                1 => "1 store since the block start".to_string(),
                n => format!("{n} stores since the block start"),
            },
            cells: r.cells.iter().map(|(a, v)| (unwrapped(a), with_known_value(v, path))).collect(),
        })
        .collect()
}

/// `x + k` for the C model's wrapped sum
/// `M < x + k ? x - c : (x + k < 0 ? x + d : x + k)` (the path formula's
/// encoding of `x + k` modulo 2ⁿ); any other term unchanged.
pub fn unwrapped(term: &str) -> String {
    let simplified = (|| {
        let (limit, rest) = term.split_once(" < ")?;
        if limit.is_empty() || !limit.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let (x, _) = rest.split_once(" ? ")?;
        let tail = rest.strip_suffix(&format!(" : {x})"))?;
        tail.contains(&format!(" : ({x} < 0 ? ")).then(|| x.to_string())
    })();
    simplified.unwrap_or_else(|| term.to_string())
}

/// A cell's value term with what a conjunct of φ equates it to:
/// `mem@1 = a₁` for the conjunct `mem@1 == a₁`; else the term alone.
fn with_known_value(value: &str, path: &[String]) -> String {
    let prefix = format!("{value} == ");
    match path.iter().find_map(|c| c.strip_prefix(&prefix)) {
        Some(v) => format!("{value} = {}", unwrapped(v)),
        None => value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    const EXAMPLE: &str = include_str!("../../../../static/examples/predicate-memory-regions.c");

    fn info(cpas: &[&str], regions: Option<&str>) -> RunInfo {
        RunInfo {
            cpas: cpas.iter().map(|s| s.to_string()).collect(),
            merge: None,
            order: "DFS".into(),
            int_model: minic::IntModel::C,
            properties: regions
                .map(|r| ("cpa.predicate.memoryRegions".to_string(), r.to_string()))
                .into_iter()
                .collect::<BTreeMap<_, _>>(),
        }
    }

    #[test]
    fn a_predicate_run_reports_its_setting_and_a_value_run_none() {
        use crate::model::analysis::{Run, RunSpec};
        let props = "#include predicate.properties\ncpa.predicate.memoryRegions = TYPE\n";
        let spec = RunSpec { preset: "predicate".into(), properties: Some(props.into()), max_steps: 5, ..RunSpec::default() };
        let run = Run::start(EXAMPLE, spec).unwrap().complete();
        assert_eq!(memory_model_of(run.cursor.events()), Some(RegionModel::Type));
        let spec = RunSpec { preset: "value".into(), max_steps: 5, ..RunSpec::default() };
        let run = Run::start(EXAMPLE, spec).unwrap().complete();
        assert_eq!(memory_model_of(run.cursor.events()), None);
    }

    #[test]
    fn only_predicate_analysis_has_a_memory_model() {
        let pred = ["LocationCPA", "PredicateCPA"];
        assert_eq!(memory_model(&info(&pred, Some("TYPE"))), Some(RegionModel::Type));
        assert_eq!(memory_model(&info(&pred, None)), Some(RegionModel::Bnb));
        assert_eq!(memory_model(&info(&["LocationCPA", "ValueAnalysisCPA"], Some("TYPE"))), None);
    }

    #[test]
    fn the_example_groups_its_fields_by_region_under_each_setting() {
        let p = cfa::from_source(EXAMPLE).unwrap();
        let bnb = RegionsTable::of(&p, Some(RegionModel::Bnb)).unwrap();
        assert_eq!(bnb.active_column(), Some(2));
        let regions: Vec<&str> = bnb.groups.iter().map(|g| g.region.as_str()).collect();
        // p->f is stored and loaded: the largest group.
        assert_eq!(regions, ["struct S.f", "struct S.g", "struct S.h"]);
        let f = &bnb.groups[0];
        assert_eq!(group_size_text(f), "2 lvalues share it");
        assert!(f.rows.iter().all(|r| r.lvalue == "p->f" && r.ty == "int"), "{f:?}");
        assert_eq!(f.rows.iter().map(|r| r.access).collect::<Vec<_>>(), ["store", "load"]);
        assert_eq!(f.rows[0].regions, ["memory", "int", "struct S.f"].map(String::from));
        assert!(bnb.notes.is_empty(), "no field address is taken: {:?}", bnb.notes);
        assert!(bnb.caption().contains("3 regions under cpa.predicate.memoryRegions = BNB"), "{}", bnb.caption());

        let ty = RegionsTable::of(&p, Some(RegionModel::Type)).unwrap();
        let regions: Vec<(&str, usize)> = ty.groups.iter().map(|g| (g.region.as_str(), g.rows.len())).collect();
        assert_eq!(regions, [("int", 3), ("char", 1)]);
        let single = RegionsTable::of(&p, Some(RegionModel::Single)).unwrap();
        assert_eq!(single.groups.len(), 1);
        assert_eq!(group_size_text(&single.groups[0]), "4 lvalues share it");
    }

    #[test]
    fn a_taken_field_address_is_explained() {
        let src = "struct S { int f; int h; };\nint main(void) {\n  struct S s;\n  int *q = &s.h;\n  s.h = 1;\n  return *q;\n}\n";
        let p = cfa::from_source(src).unwrap();
        let t = RegionsTable::of(&p, None).unwrap();
        assert_eq!(t.active_column(), None);
        assert!(t.caption().contains("no memory model"), "{}", t.caption());
        assert_eq!(t.groups.len(), 1, "s.h and *q share int: {:?}", t.groups);
        assert_eq!(t.notes.len(), 1);
        assert!(t.notes[0].contains("field `h` is taken") && t.notes[0].contains("region `int`"), "{}", t.notes[0]);
    }

    #[test]
    fn hovering_an_edge_names_its_region() {
        let p = cfa::from_source(EXAMPLE).unwrap();
        let store = p.edges.iter().find(|e| e.label.starts_with("p->h = ")).unwrap();
        assert_eq!(edge_region_text(&p, store.id, RegionModel::Bnb).unwrap(), "p->h — region struct S.h (BNB)");
        assert_eq!(edge_region_text(&p, store.id, RegionModel::Type).unwrap(), "p->h — region int (TYPE)");
        assert_eq!(edge_region(&p, store.id, RegionModel::Single).unwrap(), "memory");
        let plain = p.edges.iter().find(|e| e.memory_site().is_none()).unwrap();
        assert_eq!(edge_region_text(&p, plain.id, RegionModel::Bnb), None);
    }

    #[test]
    fn cells_read_without_the_wrap_around_split_and_with_their_known_value() {
        let wrapped = "18446744073709551615 < main::p₁ + 8 ? main::p₁ - 18446744073709551608 : (main::p₁ + 8 < 0 ? main::p₁ + 18446744073709551624 : main::p₁ + 8)";
        assert_eq!(unwrapped(wrapped), "main::p₁ + 8");
        assert_eq!(unwrapped("main::p₁"), "main::p₁");
        assert_eq!(unwrapped("x < y ? a : b"), "x < y ? a : b");
        let view = engine::trace::RegionCellsView {
            region: "struct S.h".into(),
            stores: 1,
            cells: vec![(wrapped.into(), "mem@3".into())],
        };
        let path = ["main::a₁ == nondet1".to_string(), "mem@3 == 7".to_string()];
        let r = region_cells(&[view], &path);
        assert_eq!(r[0].cells, [("main::p₁ + 8".to_string(), "mem@3 = 7".to_string())]);
        assert_eq!(r[0].stores, "1 store since the block start");
    }

    #[test]
    fn a_program_without_memory_has_no_table() {
        let p = cfa::from_source("int main(void) { int x = 1; return x; }").unwrap();
        assert_eq!(RegionsTable::of(&p, Some(RegionModel::Bnb)), None);
    }
}
