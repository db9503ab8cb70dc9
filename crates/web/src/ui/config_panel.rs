//! The configuration panel (Yew): a form to compose the analysis (which
//! CPAs, merge operator, only at loop heads, waitlist order, precision,
//! CEGAR, state limit) next to the equivalent properties text; editing
//! either updates the other. What the form shows and how a change edits the
//! text is decided in [`crate::model::config_panel`].
//!
//! The panel reports the text through `on_change` (`None` = back to the
//! plain preset); the analysis chooser runs it instead of the preset.
//! Below the text it shows what the engine would refuse in it (checked live,
//! `config-invalid`), the configuration error of the last Analyze that
//! depends on the program (`run_problem`, also `config-invalid`), and the
//! options that have no effect (`config-warning`).

use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::model::config_panel::{apply, check, preset_text, Change, Domain, OptionField, PanelValues};

/// Properties of [`ConfigPanel`].
#[derive(Properties, PartialEq)]
pub struct ConfigPanelProps {
    /// The preset chosen in the chooser (where the text starts).
    pub preset: String,
    /// The panel's text, once it differs from the plain preset.
    pub properties: Option<String>,
    /// Called with the new text (`None`: back to the preset).
    pub on_change: Callback<Option<String>>,
    /// The configuration error the last Analyze reported (the checks that
    /// need the program, e.g. calls without the Callstack CPA), shown with
    /// the panel's own problems.
    #[prop_or_default]
    pub run_problem: Option<String>,
}

/// The configuration panel.
#[function_component(ConfigPanel)]
pub fn config_panel(props: &ConfigPanelProps) -> Html {
    let problem = use_state(|| None::<String>);
    // Open at first when a custom configuration arrives (a share link, a
    // reload); afterwards the student opens and closes it.
    let open = use_state(|| props.properties.is_some());
    let on_toggle = {
        let open = open.clone();
        Callback::from(move |e: Event| open.set(e.target_unchecked_into::<web_sys::Element>().has_attribute("open")))
    };
    let text = props.properties.clone().unwrap_or_else(|| preset_text(&props.preset));
    let values = PanelValues::read(&text);
    // What the engine would refuse (or ignore) in the text, checked live.
    let validation = check(&text).unwrap_or_default();

    let change = |make: fn(String) -> Option<Change>, target: fn(&Event) -> String| {
        let (text, on_change, problem) = (text.clone(), props.on_change.clone(), problem.clone());
        Callback::from(move |e: Event| {
            let Some(c) = make(target(&e)) else { return };
            match apply(&text, &c) {
                Ok(t) => {
                    problem.set(None);
                    on_change.emit(Some(t));
                }
                Err(m) => problem.set(Some(m)),
            }
        })
    };
    // How each control's new value is read from its change event.
    fn select_value(e: &Event) -> String {
        e.target_unchecked_into::<HtmlSelectElement>().value()
    }
    fn checked(e: &Event) -> String {
        e.target_unchecked_into::<HtmlInputElement>().checked().to_string()
    }
    fn input_value(e: &Event) -> String {
        e.target_unchecked_into::<HtmlInputElement>().value()
    }
    let on_domain = change(|v| Some(Change::Domain(Domain::from_name(&v))), select_value);
    let on_merge = change(|v| Some(Change::Merge(v)), select_value);
    let on_loop_heads = change(|v| Some(Change::OnlyLoopHeads(v == "true")), checked);
    let on_order = change(|v| Some(Change::Order(v)), select_value);
    let on_rpo = change(|v| Some(Change::ReversePostorder(v == "true")), checked);
    let on_precision = change(|v| Some(Change::Precision(v)), select_value);
    let on_cegar = change(|v| Some(Change::Cegar(v == "true")), checked);
    let on_states = change(|v| v.trim().parse().ok().map(Change::MaxStates), input_value);
    let on_text = {
        let (on_change, problem) = (props.on_change.clone(), problem.clone());
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            problem.set(None);
            on_change.emit(Some(area.value()));
        })
    };
    let on_reset = {
        let on_change = props.on_change.clone();
        Callback::from(move |_: MouseEvent| on_change.emit(None))
    };

    let form = match &values {
        Ok(v) if !v.stages.is_empty() => html! {
            <p class="hint" data-testid="config-sequential">
                { format!("A sequential combination (restart algorithm): its stages {} are whole configurations, run one after the other. Edit them in the text below.", v.stages) }
            </p>
        },
        Ok(v) => {
            let octagon = v.domain == Domain::Octagon;
            html! {
                <div class="config-form" data-testid="config-form">
                    <label>{ "CPAs: location × call stack × " }
                        <select data-testid="config-domain" onchange={on_domain}>
                            { for Domain::CHOICES.iter().map(|(d, label)| html! {
                                <option value={d.name()} selected={v.domain == *d}>{ *label }</option>
                            }) }
                            if v.domain == Domain::Other { <option value="other" selected=true>{ "(as written in the text)" }</option> }
                        </select>
                    </label>
                    <label title="merge^sep keeps states apart; merge^join combines them; merge^widening (octagons) extrapolates">{ "merge " }
                        <select data-testid="config-merge" onchange={on_merge} disabled={!v.domain.has_merge_and_precision()}>
                            { for ["SEP", "JOIN", "WIDENING"].iter().filter(|m| octagon || **m != "WIDENING").map(|m| html! {
                                <option value={*m} selected={v.merge == *m}>{ m.to_lowercase() }</option>
                            }) }
                        </select>
                    </label>
                    { checkbox("cpa.octagon.mergeop.onlyMergeAtLoopHeads", "config-loop-heads", v.only_loop_heads, !octagon, on_loop_heads, " only at loop heads") }
                    <span class="config-fixed" data-testid="config-stop" title="cpa.composite.stop: stop^sep (a state covered by a reached one is not added) in every configuration but symbolic execution's, which needs stop^never (every path on its own: the ARG is the symbolic-execution tree); set with the CPAs">{ format!("stop: {}", v.stop.to_lowercase()) }</span>
                    <label>{ "waitlist " }
                        <select data-testid="config-order" onchange={on_order}>
                            { for ["DFS", "BFS"].iter().map(|o| html! { <option value={*o} selected={v.order == *o}>{ *o }</option> }) }
                        </select>
                    </label>
                    { checkbox("analysis.traversal.useReversePostorder", "config-rpo", v.reverse_postorder, false, on_rpo, " reverse postorder first") }
                    <label title="FULL: track everything (static); EMPTY: track nothing until CEGAR refines it">{ "precision " }
                        <select data-testid="config-precision" onchange={on_precision} disabled={!v.domain.has_merge_and_precision()}>
                            <option value="FULL" selected={v.precision == "FULL"}>{ "static (full)" }</option>
                            <option value="EMPTY" selected={v.precision == "EMPTY"}>{ "refinable (empty)" }</option>
                        </select>
                    </label>
                    { checkbox("analysis.algorithm.CEGAR", "config-cegar", v.cegar, false, on_cegar, " CEGAR") }
                    <label title="limits.states: UNKNOWN after this many reached states (0: none)">{ "state limit " }
                        <input type="number" min="0" step="100" data-testid="config-states" value={v.max_states.to_string()} onchange={on_states} />
                    </label>
                    if !v.predicate.is_empty() {
                        { option_group(OptionGroup::Predicate, &v.predicate, &text, &props.on_change, &problem) }
                    }
                    if !v.symexec.is_empty() {
                        { option_group(OptionGroup::SymExec, &v.symexec, &text, &props.on_change, &problem) }
                    }
                </div>
            }
        }
        Err(_) => html! { <p class="hint">{ "Fix the text below to use the form again." }</p> },
    };
    let error = problem.as_ref().cloned().or_else(|| values.as_ref().err().cloned());
    html! {
        <details class="config-panel" data-testid="config-panel" open={*open} ontoggle={on_toggle}>
            <summary>{ if props.properties.is_some() { "Configuration panel (custom configuration in use)" } else { "Configuration panel: compose your own" } }</summary>
            { form }
            <label class="config-text-label" id="config-text-label">{ "Properties (CPAchecker style; the integer model and step limit above override them)" }</label>
            <textarea data-testid="config-text" class="config-text" aria-labelledby="config-text-label" spellcheck="false" rows="6" value={text} oninput={on_text} />
            if let Some(e) = error {
                <p class="status status-error" data-testid="config-error">{ e }</p>
            }
            { for validation.errors.iter().map(|e| html! { <p class="status status-error" data-testid="config-invalid">{ e.clone() }</p> }) }
            if let Some(e) = props.run_problem.clone() {
                <p class="status status-error" data-testid="config-invalid">{ e }</p>
            }
            { for validation.warnings.iter().map(|w| html! { <p class="hint" data-testid="config-warning">{ format!("warning: {w}") }</p> }) }
            if props.properties.is_some() {
                <button data-testid="config-reset" onclick={on_reset}>{ format!("Back to the {} preset", props.preset) }</button>
            }
        </details>
    }
}

/// A domain's own group of options in the form.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OptionGroup {
    /// `cpa.predicate.*`.
    Predicate,
    /// `symexec.*`.
    SymExec,
}

impl OptionGroup {
    /// The form change that sets `key` to `value`.
    fn change(self, key: String, value: String) -> Change {
        match self {
            OptionGroup::Predicate => Change::PredicateOption(key, value),
            OptionGroup::SymExec => Change::SymExecOption(key, value),
        }
    }

    /// (legend, test id of the group, prefix of its fields' test ids).
    fn words(self) -> (&'static str, &'static str, &'static str) {
        match self {
            OptionGroup::Predicate => ("Predicate analysis (cpa.predicate.*)", "config-predicate", "config-pred-"),
            OptionGroup::SymExec => ("Symbolic execution (symexec.*; stop^never)", "config-symexec", "config-symexec-"),
        }
    }
}

/// A domain's own options (`cpa.predicate.*` or `symexec.*`, the engine's
/// option table), one field each: a checkbox, a number or a select,
/// titled with the option's meaning.
fn option_group(
    group: OptionGroup,
    fields: &[OptionField],
    text: &str,
    on_change: &Callback<Option<String>>,
    problem: &UseStateHandle<Option<String>>,
) -> Html {
    let field = |f: &OptionField| {
        let (text, on_change, problem, key) = (text.to_string(), on_change.clone(), problem.clone(), f.key);
        let number = f.number;
        let is_bool = f.choices.is_none() && !number;
        let onchange = Callback::from(move |e: Event| {
            let value = if is_bool {
                e.target_unchecked_into::<HtmlInputElement>().checked().to_string()
            } else if number {
                e.target_unchecked_into::<HtmlInputElement>().value().trim().to_string()
            } else {
                e.target_unchecked_into::<HtmlSelectElement>().value()
            };
            match apply(&text, &group.change(key.to_string(), value)) {
                Ok(t) => {
                    problem.set(None);
                    on_change.emit(Some(t));
                }
                Err(m) => problem.set(Some(m)),
            }
        });
        let testid = format!("{}{}", group.words().2, f.label.replace('.', "-"));
        let control = match f.choices {
            Some(words) => html! {
                <select data-testid={testid} {onchange}>
                    { for words.iter().map(|w| html! { <option value={*w} selected={f.value == *w}>{ w.to_lowercase() }</option> }) }
                </select>
            },
            None if number => html! { <input type="number" min="0" data-testid={testid} value={f.value.clone()} {onchange} /> },
            None => html! { <input type="checkbox" data-testid={testid} checked={f.value == "true"} {onchange} /> },
        };
        html! { <label title={format!("{}: {}", f.key, f.doc)}>{ control }{ format!(" {}", f.label) }</label> }
    };
    html! {
        <fieldset class="config-group" data-testid={group.words().1}>
            <legend>{ group.words().0 }</legend>
            { for fields.iter().map(field) }
        </fieldset>
    }
}

/// One of the form's on/off options: a checkbox (`disabled` when the
/// chosen CPAs ignore it) with its words, titled with the property it sets.
fn checkbox(
    property: &'static str,
    testid: &'static str,
    checked: bool,
    disabled: bool,
    onchange: Callback<Event>,
    words: &'static str,
) -> Html {
    html! {
        <label title={property}>
            <input type="checkbox" data-testid={testid} {checked} {onchange} {disabled} />
            { words }
        </label>
    }
}
