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
/// screen reader announces it).
#[function_component(UpdateNotice)]
pub fn update_notice() -> Html {
    let ready = use_state(|| false);
    {
        let ready = ready.clone();
        use_effect_with((), move |_| service_worker::register_when_quiet(move || ready.set(true)));
    }
    let reload = Callback::from(|_: MouseEvent| service_worker::apply_update());
    html! {
        <div class="update-notice-region" role="status" aria-live="polite">
            if *ready {
                <div class="update-notice" data-testid="update-notice">
                    <span>{ "A new version of CPA Playground is available." }</span>
                    <button type="button" data-testid="update-reload" onclick={reload}>{ "Reload to update" }</button>
                </div>
            }
        </div>
    }
}
