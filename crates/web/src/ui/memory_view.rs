//! The memory view (Yew), in the State tab below the inspector: the
//! regions table of a program that uses memory (each load and store, its C
//! type and its region under SINGLE, TYPE and BNB, grouped by the run's
//! `cpa.predicate.memoryRegions`), the note that an analysis without a
//! memory model forgets memory, and — inside a predicate state in the
//! inspector — the cells its path formula knows per region. Computed by
//! [`crate::model::memory_view`]; this only draws it. Hovering a load or
//! store in the CFA marks its region's rows
//! ([`crate::platform::region_hover`]).

use std::sync::Arc;

use cfa::{Program, RegionModel};
use yew::prelude::*;

use crate::model::memory_view::{group_size_text, region_cells, RegionsTable, MODELS, NOT_TRACKED};
use crate::model::state_view::PredicatePart;

/// Properties of [`MemorySection`].
#[derive(Properties)]
pub struct MemorySectionProps {
    /// The analysed program.
    pub program: Arc<Program>,
    /// The run's region model ([`crate::model::memory_view::memory_model`]);
    /// `None` when its analysis does not model memory.
    pub active: Option<RegionModel>,
}

/// Same program (by pointer: a run's CFA never changes) and setting.
impl PartialEq for MemorySectionProps {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.program, &other.program) && self.active == other.active
    }
}

/// The memory section of the State tab for a run of `program`
/// (re-rendered only when the run changes, not on every step); nothing for
/// a program without loads and stores.
#[function_component(MemorySection)]
pub fn memory_section(props: &MemorySectionProps) -> Html {
    let active = props.active;
    let Some(table) = RegionsTable::of(&props.program, active) else { return Html::default() };
    html! {
        <details class="memory-view" data-testid="memory-view" open=true>
            <summary class="insp-sub">{ "Memory regions (cpa.predicate.memoryRegions)" }</summary>
            if active.is_none() {
                <p class="hint" data-testid="memory-not-tracked">{ NOT_TRACKED }</p>
            }
            <p class="hint" data-testid="regions-caption">{ table.caption() }</p>
            { regions_table(&table) }
            if !table.notes.is_empty() {
                <ul class="region-notes" data-testid="region-notes">
                    { for table.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }
                </ul>
            }
        </details>
    }
}

/// The table: one body per region of the active setting (a header row
/// with the region and how many lvalues share it), one row per load or
/// store; the active setting's column is marked with ▸ and bold, not by
/// colour alone.
fn regions_table(t: &RegionsTable) -> Html {
    let active = t.active_column();
    let header = |k: usize| {
        let on = active == Some(k);
        html! {
            <th class={classes!("region-col", on.then_some("active"))} scope="col" data-testid={format!("region-col-{}", MODELS[k].name())} title={if on { "the run's setting" } else { "" }}>
                { if on { format!("▸ {}", MODELS[k].name()) } else { MODELS[k].name().to_string() } }
            </th>
        }
    };
    html! {
        <table class="regions-table" data-testid="regions-table">
            <thead>
                <tr>
                    <th scope="col">{ "line" }</th>
                    <th scope="col">{ "lvalue" }</th>
                    <th scope="col">{ "access" }</th>
                    <th scope="col">{ "C type" }</th>
                    { for (0..MODELS.len()).map(header) }
                </tr>
            </thead>
            { for t.groups.iter().map(|g| html! {
                <tbody data-testid="region-group" data-region={g.region.clone()}>
                    <tr class="region-head">
                        <th colspan="7" scope="rowgroup">
                            <span class="region-name">{ g.region.clone() }</span>{ " — " }{ group_size_text(g) }
                        </th>
                    </tr>
                    { for g.rows.iter().map(|r| html! {
                        <tr class="region-row" data-testid="region-row" data-region={g.region.clone()} data-edge={format!("e{}", r.edge.0)}
                            data-lvalue={r.lvalue.clone()}>
                            <td class="num">{ r.line }</td>
                            <td class="lvalue">{ r.lvalue.clone() }</td>
                            <td>{ r.access }</td>
                            <td class="ctype">{ if r.ty.is_empty() { "(untyped)".to_string() } else { r.ty.clone() } }</td>
                            { for r.regions.iter().enumerate().map(|(k, reg)| html! {
                                <td class={classes!("region-cell", (active == Some(k)).then_some("active"))} data-model={MODELS[k].name()}>{ reg.clone() }</td>
                            }) }
                        </tr>
                    }) }
                </tbody>
            }) }
        </table>
    }
}

/// The memory part of a predicate state's path formula in the inspector:
/// per region the cells (address → value) φ introduced since the block
/// start; at an abstraction state, that memory was forgotten with φ.
pub fn memory_cells(p: &PredicatePart) -> Html {
    if p.memory.is_empty() {
        return if p.abstraction_state {
            html! {
                <>
                    <div class="insp-sub">{ "Memory in φ" }</div>
                    <p class="insp-formula" data-testid="inspect-memory-cells">{ "no cells: memory is forgotten at an abstraction (ψ is over program variables only)" }</p>
                </>
            }
        } else {
            Html::default()
        };
    }
    let regions = region_cells(&p.memory, &p.path);
    html! {
        <>
            <div class="insp-sub">{ "Memory in φ — the cells of each region (address → value)" }</div>
            <table class="insp-values memory-cells" data-testid="inspect-memory-cells">
                { for regions.iter().map(|r| html! {
                    <>
                        <tr class="cells-region" data-region={r.region.clone()}>
                            <th colspan="2" scope="rowgroup">{ format!("region {} — {}", r.region, r.stores) }</th>
                        </tr>
                        { for r.cells.iter().map(|(a, v)| html! {
                            <tr data-testid="memory-cell"><td class="vname">{ format!("[{a}]") }</td><td class="vval">{ format!("→ {v}") }</td></tr>
                        }) }
                    </>
                }) }
            </table>
        </>
    }
}
