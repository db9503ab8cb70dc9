//! Entry point of the page's WebAssembly module: mounts the Yew app on the
//! document body — or, started in the analysis engine's Web Worker (no
//! document there), runs the engine's side of that worker
//! (`web::platform::engine_scope`). Natively it only explains itself, so
//! the workspace builds on the host.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    if web_sys::window().is_none() {
        web::platform::engine_scope::run();
        return;
    }
    // A link to a solver-backed analysis: Z3 loads while the page renders.
    web::ui::share::prefetch_solver_for_link();
    // The root opens an exercise link first, then mounts the playground.
    yew::Renderer::<web::ui::root::Root>::new().render();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("cpa-playground is the web page; build it with `trunk build` (see README.md)");
    std::process::exit(2);
}
