//! A part of a view drawn one task after the rest: a large view's first
//! render (a compare view a link opens, with its panes, heat map and
//! plots) is then two main-thread tasks instead of one long one. Only for
//! parts the first frame can do without (below the fold, not focused).

use gloo_timers::callback::Timeout;
use yew::prelude::*;

/// Properties of [`Later`].
#[derive(Properties, PartialEq)]
pub struct LaterProps {
    /// What is drawn from the second render on.
    pub children: Html,
}

/// Draws nothing when mounted and asks, in a zero timeout (a task of its
/// own), to be drawn again with its children; from then on it draws them
/// on every render like any element.
#[function_component(Later)]
pub fn later(props: &LaterProps) -> Html {
    let drawn = use_state(|| false);
    {
        let drawn = drawn.clone();
        use_effect_with((), move |_| {
            let draw = Timeout::new(0, move || drawn.set(true));
            // Unmounted first: the timeout is dropped, so cancelled.
            move || drop(draw)
        });
    }
    if *drawn {
        props.children.clone()
    } else {
        Html::default()
    }
}
