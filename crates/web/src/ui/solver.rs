//! The Solver log panel (Yew): Z3's loading progress, the round-trip
//! button, a box for the student's own SMT-LIB2 query, and every query
//! asked in this page with its answer, each copyable.
//!
//! Everything shown comes from [`crate::model::solver`]; Z3 is loaded only when the
//! first query is sent. The log is closed by default — one line with Z3's
//! status, so it never pushes the analysis out of view — and opens on demand
//! or when the analysis runs to a solver call (the analysis pane holds its
//! open state: `crate::model::analysis::AnalysisState::solver_open`).

use std::rc::Rc;

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::model::solver::{LoadStatus, LogEntry, ROUND_TRIP};
use crate::platform::z3;

/// The most log entries drawn (the newest); older ones stay in the log.
const SHOWN: usize = 200;

/// A query to start from in the "your own query" box.
const OWN_QUERY: &str = "(declare-const x Int)\n(declare-const y Int)\n(assert (and (< x y) (< y x)))\n(check-sat)\n";

/// Properties of [`SolverPanel`].
#[derive(Properties, PartialEq)]
pub struct SolverPanelProps {
    /// The log is open (else only its one-line summary shows).
    pub open: bool,
    /// Told when the user opens or closes the log.
    pub on_toggle: Callback<bool>,
}

/// The Solver log panel.
#[function_component(SolverPanel)]
pub fn solver_panel(props: &SolverPanelProps) -> Html {
    let redraw = use_force_update();
    {
        let redraw = redraw.clone();
        use_effect_with((), move |_| {
            let key = z3::subscribe(Callback::from(move |_| redraw.force_update()));
            move || z3::unsubscribe(key)
        });
    }
    let own = use_state(|| OWN_QUERY.to_string());

    let on_round_trip = Callback::from(|_: MouseEvent| {
        wasm_bindgen_futures::spawn_local(async {
            for q in ROUND_TRIP {
                let _ = z3::check_logged(&format!("round trip: {}", q.label), q.script, Some(q.expected)).await;
            }
        });
    });
    let on_own_input = {
        let own = own.clone();
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            own.set(area.value());
        })
    };
    let on_own_check = {
        let own = own.clone();
        Callback::from(move |_: MouseEvent| {
            let script = (*own).clone();
            wasm_bindgen_futures::spawn_local(async move {
                let _ = z3::check_logged("your query", &script, None).await;
            });
        })
    };

    let on_toggle = {
        let (on_toggle, open) = (props.on_toggle.clone(), props.open);
        Callback::from(move |e: Event| {
            let now = e.target_unchecked_into::<web_sys::Element>().has_attribute("open");
            if now != open {
                on_toggle.emit(now);
            }
        })
    };
    let status = z3::status();
    let log = z3::log();
    let status_class = classes!(
        "solver-status",
        if status.ready() {
            "ready"
        } else if status.loading() {
            "loading"
        } else if status.phase == "failed" {
            "failed"
        } else {
            "idle"
        }
    );
    html! {
        <details class="panel solver-panel" data-testid="solver-panel" aria-label="Solver log" open={props.open} ontoggle={on_toggle}>
            <summary data-testid="solver-log-toggle" title="Open or close the solver log">
                <h3>{ format!("Solver log ({})", log.entries.len()) }</h3>
                <span class={status_class} data-testid="solver-status" data-phase={status.phase.clone()}>
                { status.text() }
                { load_progress(&status, "solver-progress") }
                </span>
            </summary>
            <div class="solver-actions">
                <button data-testid="solver-round-trip" onclick={on_round_trip}
                    title="Send a feasible and an infeasible path condition of the example through Z3">
                    { "Z3 round trip (sat + unsat)" }
                </button>
            </div>
            <details class="solver-own">
                <summary>{ "Ask Z3 your own SMT-LIB2 query" }</summary>
                <textarea data-testid="solver-own-text" spellcheck="false" rows="5" value={(*own).clone()} oninput={on_own_input} />
                <button data-testid="solver-own-check" onclick={on_own_check}>{ "Check" }</button>
            </details>
            <p class="hint" data-testid="solver-log-scope">
                { "Listed: what Z3 itself answered. A run's queries answered without Z3 \
                   (the same query as an earlier one up to renaming, sat by an earlier model, \
                   unsat because they contain an earlier unsatisfiable query; in this or an \
                   earlier CEGAR iteration; or decided exactly by the engine because each \
                   constraint has one input, which cpa.constraints.decideOneInput = false \
                   turns off) are only in its trace: \u{201c}solver call\u{201d} steps to each \
                   and the step says why." }
            </p>
            <ol class="solver-log" data-testid="solver-log">
                { for log.entries.iter().rev().take(SHOWN).map(|e| html! { <SolverEntry key={e.id} entry={SharedEntry(e.clone())} /> }) }
            </ol>
            if log.entries.len() > SHOWN {
                <p class="hint">{ format!("{} older queries are not shown.", log.entries.len() - SHOWN) }</p>
            }
        </details>
    }
}

/// A log entry compared by pointer: a changed entry is a new `Rc` (see
/// [`crate::model::solver::SolverLog::entries`]), so comparing the
/// pointers says whether to draw it again without comparing its script.
#[derive(Clone)]
struct SharedEntry(Rc<LogEntry>);

impl PartialEq for SharedEntry {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Properties of [`SolverEntry`].
#[derive(Properties, PartialEq)]
struct SolverEntryProps {
    entry: SharedEntry,
}

/// One query of the log, drawn again only when that entry changed (a new
/// query or an answer redraws one entry, not the two hundred shown).
#[function_component(SolverEntry)]
fn solver_entry(props: &SolverEntryProps) -> Html {
    entry(&props.entry.0)
}

/// One query of the log: its number, origin, answer, time, a Copy button,
/// what it is for (the script's first comment line) and the SMT-LIB2 script.
fn entry(e: &LogEntry) -> Html {
    let answer_class = classes!(
        "solver-answer",
        match &e.result {
            None => "pending",
            Some(Ok(a)) => a.word(),
            Some(Err(_)) => "error",
        },
        e.wrong().then_some("wrong")
    );
    let copy = {
        let text = e.copy_text();
        Callback::from(move |_: MouseEvent| crate::platform::clipboard::copy(&text))
    };
    let time = e.elapsed_ms.map(|ms| format!("{ms:.0} ms")).unwrap_or_default();
    html! {
        <li class="solver-entry" data-testid="solver-entry" data-id={e.id.to_string()}>
            <div class="solver-head">
                <span class="solver-id">{ format!("#{}", e.id) }</span>
                <span class="solver-origin">{ e.origin.clone() }</span>
                <span class={answer_class} data-testid="solver-answer">{ e.answer_text() }</span>
                <span class="solver-time">{ time }</span>
                <button class="solver-copy" title="Copy the query and its answer" onclick={copy}>{ "Copy" }</button>
            </div>
            if let Some(p) = e.purpose() {
                <p class="solver-purpose" data-testid="solver-purpose">{ p }</p>
            }
            if !e.legend.is_empty() {
                <p class="solver-legend" data-testid="solver-legend">
                    { "Symbols: " }
                    { e.legend.iter().map(|(sym, name)| format!("{sym} = {name}")).collect::<Vec<_>>().join(" · ") }
                    { " (x@k: the k-th SSA version of x)" }
                </p>
            }
            <pre class="solver-script" data-testid="solver-script" tabindex="0">{ e.script.clone() }</pre>
        </li>
    }
}

/// Z3's download progress while it loads (a determinate bar once the size
/// is known), nothing otherwise; `testid` names it for the browser tests.
pub fn load_progress(status: &LoadStatus, testid: &'static str) -> Html {
    match (status.loading(), status.fraction()) {
        (false, _) => Html::default(),
        (true, Some(f)) => html! { <progress data-testid={testid} max="1" value={format!("{f:.3}")}></progress> },
        (true, None) => html! { <progress data-testid={testid}></progress> },
    }
}
