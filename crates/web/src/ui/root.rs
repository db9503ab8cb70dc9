//! The page's root: opens an exercise link (`#exercises`,
//! `#exercise=SET/ID`, or `#exercise-draft`: the draft kept in this
//! browser) by fetching the set's files, then mounts the
//! playground ([`crate::ui::page::App`]) with the exercise's program and
//! configuration, or mounts it at once.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::exercise::{file_url, run_spec, FetchedFiles, Route, Session, EXERCISES_DIR};
use crate::platform::files::fetch_text;

/// Fetches what `route` names: the index of sets, or a set's files in
/// rounds (see [`FetchedFiles`]).
async fn open(route: Route) -> Session {
    match route {
        Route::Draft => crate::model::exercise::draft_session(crate::platform::storage::load_exercise_draft().as_deref()),
        Route::Sets => {
            let index = match fetch_text(&format!("{EXERCISES_DIR}/{}", exercises::load::SETS_INDEX)).await {
                Ok(t) => t,
                Err(e) => return Session::Sets(Err(e)),
            };
            let ids = match exercises::load::parse_index(&index) {
                Ok(ids) => ids,
                Err(e) => return Session::Sets(Err(e.to_string())),
            };
            let mut sets = Vec::new();
            for id in ids {
                let mut files = FetchedFiles::new();
                files.insert(exercises::load::SET_INDEX, fetch_text(&file_url(&id, exercises::load::SET_INDEX)).await);
                let (load, _) = files.load();
                let title = load.set.map(|s| s.title).unwrap_or_else(|| "(cannot be loaded)".into());
                sets.push((id, title));
            }
            Session::Sets(Ok(sets))
        }
        Route::Set { set, exercise } => {
            let mut files = FetchedFiles::new();
            let mut rounds = 0;
            let load = loop {
                let (load, missing) = files.load();
                rounds += 1;
                if missing.is_empty() || rounds > 4 {
                    break load;
                }
                for path in missing {
                    let text = fetch_text(&file_url(&set, &path)).await;
                    files.insert(&path, text);
                }
            };
            let problems: Vec<String> = load.errors.iter().map(|e| e.to_string()).collect();
            let Some(loaded) = load.set.filter(|s| !s.exercises.is_empty()) else {
                return Session::Failed(format!("The exercise set `{set}` cannot be opened. {}", problems.join(" ")));
            };
            let mut problems = problems;
            let current = match &exercise {
                None => 0,
                Some(id) => loaded.exercises.iter().position(|e| &e.id == id).unwrap_or_else(|| {
                    problems.push(format!("There is no exercise `{id}` in this set; the first one is shown."));
                    0
                }),
            };
            Session::Set { set: Rc::new(loaded), current, problems }
        }
    }
}

/// The page's root: opens an exercise link (the playground then mounts
/// with the exercise's program and configuration, as a share link's), or
/// shows the playground at once.
#[function_component(Root)]
pub fn root() -> Html {
    let session = use_state(|| None::<Rc<Session>>);
    let hash = crate::platform::location::hash();
    let route = Route::parse(&hash);
    let waiting = route.is_some() && session.is_none();
    {
        let session = session.clone();
        use_effect_with((), move |_| {
            if let Some(route) = route {
                wasm_bindgen_futures::spawn_local(async move {
                    let s = open(route).await;
                    if let Some(ex) = s.exercise() {
                        crate::ui::share::open_with(crate::model::share::ShareState::new(&ex.program, &run_spec(&ex.config)));
                    }
                    session.set(Some(Rc::new(s)));
                });
            } else if Route::is_exercise_hash(&hash) {
                session.set(Some(Rc::new(Session::Failed(
                    "This exercise link cannot be opened: set and exercise ids are 1 to 64 of a-z, 0-9 and -.".into(),
                ))));
            }
        });
    }
    if waiting {
        return html! { <p class="exercise-loading" data-testid="exercise-loading">{ "Loading the exercises…" }</p> };
    }
    html! {
        <>
            <crate::ui::update_notice::UpdateNotice />
            <crate::ui::page::App exercise={(*session).clone()} />
        </>
    }
}
