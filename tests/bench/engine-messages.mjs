// Benchmark (run by hand, not a test): how long the page's main thread
// spends on each message from the engine's worker during a cold load of
// the gallery's Listing 1 link (its compare view starts three runs in the
// worker at once). Each run is a fresh browser profile; the worker's
// `onmessage` handler is timed from the page (decoding the JSON text,
// folding the events, asking for a frame). Printed per run: the first
// messages' times and sizes, and the longest. The first message pays for
// V8 compiling the decoding code unless the worker already ran it
// (`engine_link::warm_decoding`).
//
//   trunk build --release
//   DIST_DIR=dist node tests/bench/engine-messages.mjs [RUNS]   (RUNS default 5)
//
// Nothing is asserted; compare builds by running it with each build's
// DIST_DIR one after the other on the same machine.

import { exampleFragment, openBrowser } from '../e2e/harness.mjs';

const runs = Number(process.argv[2] ?? 5);
const fragment = await exampleFragment('symexec-listing1');
const firsts = [];
for (let run = 1; run <= runs; run++) {
  const { page, baseUrl, close } = await openBrowser({ profilePrefix: 'cpa-bench-messages-', timeout: 120_000 });
  try {
    // Wrap every handler the page sets on a Worker's `onmessage`: the
    // engine's worker sends JSON text (Z3's worker sends objects).
    await page.addInitScript(() => {
      globalThis.__engineMessages = [];
      const own = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
      Object.defineProperty(Worker.prototype, 'onmessage', {
        get() {
          return own.get.call(this);
        },
        set(handler) {
          own.set.call(
            this,
            handler &&
              function (event) {
                const start = performance.now();
                const result = handler.call(this, event);
                if (typeof event.data === 'string') globalThis.__engineMessages.push({ ms: performance.now() - start, bytes: event.data.length });
                return result;
              },
          );
        },
      });
    });
    await page.goto(`${baseUrl}${fragment}`);
    await page.locator('[data-testid=cfa-listing]').first().waitFor();
    await page.waitForFunction(() => globalThis.__engineMessages.length >= 8, null, { timeout: 60_000 });
    await page.waitForTimeout(500);
    const messages = await page.evaluate(() => globalThis.__engineMessages);
    // The first is `ready` (7 bytes); the next is the first with events.
    const first = messages.find((m) => m.bytes > 100);
    firsts.push(first.ms);
    const longest = Math.max(...messages.map((m) => m.ms));
    console.log(
      `run ${run}: first messages ${messages
        .slice(0, 6)
        .map((m) => `${m.ms.toFixed(1)} ms (${m.bytes} B)`)
        .join(', ')}; first with events ${first.ms.toFixed(1)} ms; longest of ${messages.length}: ${longest.toFixed(1)} ms`,
    );
  } finally {
    await close();
  }
}
firsts.sort((a, b) => a - b);
console.log(`median of ${runs}: the first message with events took ${firsts[Math.floor(runs / 2)].toFixed(1)} ms of the main thread`);
