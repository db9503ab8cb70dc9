// Starts the analysis engine's Web Worker (crates/web/src/engine_worker.rs):
// loads the wasm-bindgen glue Trunk built for the `engine-worker` binary
// (a classic script defining `wasm_bindgen`), then its wasm, whose `main`
// starts listening. Started by crates/web/src/platform/engine_worker.rs.
importScripts('./engine-worker.js');
wasm_bindgen({ module_or_path: './engine-worker_bg.wasm' });
