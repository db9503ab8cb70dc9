//! The "new version available" notice: a new build of the page has been
//! installed by the service worker (`crate::platform::service_worker`) and
//! waits; the page never switches to it on its own, so a student's run is
//! never interrupted and never silently stale. The button switches and
//! reloads.

use yew::prelude::*;

use crate::platform::service_worker;

/// Registers the service worker once the page is quiet after mount
/// ([`service_worker::register_when_quiet`]) and, when a new build is ready,
/// shows the notice with its Reload button (a polite live region, so a
/// screen reader announces it). When the worker could not store Z3 for
/// offline use, the same region says so until dismissed.
#[function_component(UpdateNotice)]
pub fn update_notice() -> Html {
    let ready = use_state(|| false);
    let not_kept = use_state(|| None::<String>);
    {
        let ready = ready.clone();
        let not_kept = not_kept.clone();
        use_effect_with((), move |_| {
            service_worker::register_when_quiet(move || ready.set(true), move |reason| not_kept.set(Some(reason)))
        });
    }
    let reload = Callback::from(|_: MouseEvent| service_worker::apply_update());
    let dismiss = {
        let not_kept = not_kept.clone();
        Callback::from(move |_: MouseEvent| not_kept.set(None))
    };
    html! {
        <div class="update-notice-region" role="status" aria-live="polite">
            if *ready {
                <div class="update-notice" data-testid="update-notice">
                    <span>{ "A new version of CPA Playground is available." }</span>
                    <button type="button" data-testid="update-reload" onclick={reload}>{ "Reload to update" }</button>
                </div>
            } else if let Some(reason) = &*not_kept {
                <div class="update-notice" data-testid="z3-not-kept">
                    <span>
                        { "Z3 could not be kept for offline use: the browser refused to store it (" }
                        { reason.clone() }
                        { "). Online, every analysis still works; to use Z3 offline, free some disk space and run a solver-backed analysis again." }
                    </span>
                    <button type="button" data-testid="z3-not-kept-dismiss" onclick={dismiss}>{ "Dismiss" }</button>
                </div>
            }
        </div>
    }
}
