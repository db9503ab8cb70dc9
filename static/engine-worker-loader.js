// Starts the analysis engine's Web Worker (a module worker): the page posts
// its own wasm-bindgen glue's URL and the WebAssembly.Module it compiled,
// and this worker instantiates that same module — nothing is compiled
// again, and the compiled code is shared with the page. The module's `main`
// finds no document here and runs the engine's side
// (crates/web/src/platform/engine_scope.rs), which installs its own message
// handler and says `ready`. Started by crates/web/src/platform/engine_worker.rs.
self.onmessage = async (event) => {
  const { glue, module } = event.data ?? {};
  self.onmessage = null;
  const bindings = await import(glue);
  await bindings.default({ module_or_path: module });
};
