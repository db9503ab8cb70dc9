// Browser end-to-end tests of the graph views (dist/): the CFA of Listing
// 2.1 as a laid-out graph, reached-state counts and the current node while
// stepping, the ARG with its merged/replaced/covered states, folding of
// straight-line chains, pan/zoom, and linked selection (a node filters the
// reached set; a state highlights its CFA node, its reached-set line and
// its source line).
//
//   node --test tests/e2e/graphs.test.mjs      (after `trunk build --release`)
//
// Environment: DIST_DIR (default dist). Screenshots go to tests/e2e/artifacts/.
// How long a step takes to render with each graph shown is measured by
// tests/bench/render-step.mjs, not here.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analyze as analyzeIn, artifacts, atEvent, shownEvent, expectText, until as untilIn, untilOk, useBrowser } from './harness.mjs';

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-graphs-', timeout: 30_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid=${id}]`);
const analyze = (preset, limit) => analyzeIn(page, preset, limit);
const cfa = (sel = '') => page.locator(`[data-testid=cfa-graph] ${sel}`);
const arg = (sel = '') => page.locator(`[data-testid=arg-graph] ${sel}`);
const shot = (name) => page.screenshot({ path: path.join(artifacts, name) });

/** Seeks the timeline to event k and waits until the panels show it. */
async function seek(k) {
  await byId('timeline').fill(String(k));
  await atEvent(page, k);
}

/** The `data-*` attribute values of the matching elements. */
const attrs = (locator, name) => locator.evaluateAll((els, name) => els.map((e) => e.getAttribute(name)), name);

/** Polls `read()` until it deep-equals `expected` (the page renders asynchronously), then asserts. */
const until = (read, expected, message) => untilIn(page, read, expected, message);

/** The line numbers the editor's gutter marks with `cls`. */
const markedLines = (cls) => page.locator(`[data-testid=editor] .cm-lineNumbers .cm-gutterElement.${cls}`).allInnerTexts();

test("Listing 2.1's CFA is a graph: 13 numbered nodes, 14 labelled edges, the loop head, entry, exit and error marked", async () => {
  await page.goto(baseUrl);
  await cfa('.cfa-node').first().waitFor();
  assert.equal(await cfa('.cfa-node').count(), 13);
  assert.equal(await cfa('.cfa-edge').count(), 14);
  assert.deepEqual(await attrs(cfa('.cfa-node.loop-head'), 'data-node'), ['N3']);
  assert.deepEqual(await attrs(cfa('.cfa-node.error'), 'data-node'), ['N11']);
  assert.deepEqual(await attrs(cfa('.cfa-node.entry'), 'data-node'), ['N0']);
  assert.deepEqual(await attrs(cfa('.cfa-node.exit'), 'data-node'), ['N12']);
  const labels = await cfa('.edge-label').allTextContents();
  assert.ok(labels.includes('ticks = ticks + 1;'), labels.join(' | '));
  assert.ok(labels.includes('[flag <= 0]'), labels.join(' | '));
  // The loop's edge back to its head is drawn as a back edge.
  const back = await cfa('.cfa-edge.back').evaluateAll((els) => els.map((e) => e.querySelector('title').textContent));
  assert.deepEqual(back, ['N4 → N3: ticks = ticks + 1;']);
  // Nodes do not overlap on screen.
  const boxes = await cfa('.cfa-node .shape').evaluateAll((els) => els.map((e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  }));
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      const overlap = a[0] < b[2] - 1 && b[0] < a[2] - 1 && a[1] < b[3] - 1 && b[1] < a[3] - 1;
      assert.ok(!overlap, `nodes ${i} and ${j} overlap`);
    }
  }
  await shot('graphs-1-cfa.png');
});

/** The screen boxes of the elements `locator` matches: [left, top, right, bottom] each. */
const boxes = (locator) => locator.evaluateAll((els) => els.map((e) => {
  const r = e.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom];
}));

/** The scale of a graph's pan/zoom transform. */
const scale = async (graph) => Number((await graph.locator('> g').getAttribute('transform')).match(/scale\(([\d.]+)\)/)[1]);

/** The boxes of `nodes` that are not inside the graph's viewport (in both dimensions), in words. */
async function outside(graph, nodes) {
  const [view] = await boxes(graph);
  const all = await boxes(nodes);
  if (all.length === 0) return ['no nodes drawn'];
  return all
    .map((b, i) => [b, i])
    .filter(([b]) => !(b[0] >= view[0] - 0.5 && b[1] >= view[1] - 0.5 && b[2] <= view[2] + 0.5 && b[3] <= view[3] + 0.5))
    .map(([b, i]) => `node ${i} at ${b.map(Math.round)} is outside the viewport ${view.map(Math.round)}`);
}

/** Waits until every node of `nodes` lies inside the graph's viewport. */
const allInside = (graph, nodes, what) => untilOk(page, () => outside(graph, nodes), (o) => assert.deepEqual(o, [], what));

test('Fit shows the whole CFA, the error node included, in both dimensions', async () => {
  const fit = page.locator('[data-testid=graphs] [data-testid=graph-fit]');
  // Zoomed in and panned away first: Fit brings all of it back.
  await page.locator('[data-testid=graphs] button[title="Zoom in"]').click();
  await page.locator('[data-testid=graphs] button[title="Zoom in"]').click();
  await fit.click();
  await allInside(cfa(), cfa('.cfa-node .shape'), 'the CFA after Fit');
  await allInside(cfa(), cfa('.cfa-node.error .shape'), 'the error node N11 after Fit');
  await shot('graphs-0-cfa-fit.png');
});

test('while stepping, nodes show their reached-state counts and the current node and edge are highlighted', async () => {
  await analyze('octagon-widening');
  for (let i = 1; i <= 20; i++) {
    await byId('event-next').click();
    await atEvent(page, i);
  }
  // Event 20 (as in analysis.test.mjs): s0..s2 reached at N0..N2; step 3
  // transfers s2 along N2→N3 (`while`).
  const counts = () => cfa('.cfa-node').evaluateAll((els) =>
    Object.fromEntries(els.map((e) => [e.dataset.node, Number(e.dataset.count)]).filter(([, c]) => c > 0)));
  await until(counts, { N0: 1, N1: 1, N2: 1 });
  assert.deepEqual(await cfa('.count-badge').allTextContents(), ['1', '1', '1']);
  await until(() => attrs(cfa('.cfa-node.current'), 'data-node'), ['N2']);
  const current = await cfa('.cfa-edge.current title').allTextContents();
  assert.deepEqual(current, ['N2 → N3: while']);
  await shot('graphs-2-step-20.png');
});

test('clicking a CFA node filters the reached set to it; clicking it again shows all', async () => {
  await seek(60);
  const all = await byId('reached').locator('.loc-group').count();
  assert.ok(all >= 4, `${all} location groups at event 60`);
  await cfa('[data-node=N3]').click();
  await byId('reached-filter').waitFor();
  assert.deepEqual(await attrs(byId('reached').locator('.loc-group'), 'data-node'), ['N3']);
  await expectText(byId('selection-bar'), /node N3 \(line 10\)/);
  await until(() => attrs(cfa('.cfa-node.selected'), 'data-node'), ['N3']);
  await until(() => markedLines('cpa-selected-line'), ['10'], "the editor marks the node's line");
  await shot('graphs-3-node-filter.png');
  await cfa('[data-node=N3]').click();
  await byId('reached-filter').waitFor({ state: 'detached' });
  assert.equal(await byId('reached').locator('.loc-group').count(), all);
  await until(() => cfa('.cfa-node.selected').count(), 0);
  // From the keyboard: Tab to a node, Enter selects it.
  await cfa('[data-node=N2]').focus();
  await page.keyboard.press('Enter');
  await expectText(byId('selection-bar'), /node N2/);
  await page.keyboard.press('Enter');
  await byId('selection-bar').waitFor({ state: 'detached' });
  // From the CFA listing: a node row's button selects the same location.
  const row = byId('cfa-listing').locator('tbody[data-node=N3]');
  await row.locator('button.node-pick').click();
  await until(() => attrs(cfa('.cfa-node.selected'), 'data-node'), ['N3']);
  await expectText(byId('selection-bar'), /node N3 \(line 10\)/);
  await untilOk(page, () => row.getAttribute('class'), (c) => assert.match(c, /\bselected\b/));
  await row.locator('button.node-pick').click();
  await byId('selection-bar').waitFor({ state: 'detached' });
  assert.doesNotMatch(await row.getAttribute('class'), /\bselected\b/);
});

test('the ARG grows with the run and marks merged, replaced and covered states', async () => {
  await seek(20);
  await byId('graph-tab-arg').click();
  await arg('.arg-node').first().waitFor();
  await until(() => attrs(arg('.arg-node'), 'data-state'), ['s0', 's1', 's2', 's3'], 'the states created by event 20');
  assert.equal(await arg('.arg-edge').count(), 3, 'a chain of transfer links');
  await expectText(byId('arg-status'), /^4 states/);

  // The first merge that changed a state: widening at the loop head.
  await byId('bp-merge').click();
  const stepText = await expectText(byId('step-text'), /merge (s\d+) with (s\d+): widening → (s\d+) replaces (s\d+)/);
  const [, newId, replacedId, resultId, saysReplaced] = stepText.match(/merge (s\d+) with (s\d+): widening → (s\d+) replaces (s\d+)/);
  assert.equal(saysReplaced, replacedId);
  await until(() => attrs(arg('.arg-node.merged'), 'data-state'), [resultId]);
  // At the event that says so, the reached operand is replaced: the ARG
  // marks it and the reached set no longer lists it (not one event later).
  const position = await byId('position').innerText();
  const mergeEvent = await shownEvent(page);
  await until(() => attrs(arg('.arg-node.replaced'), 'data-state'), [replacedId]);
  await byId('tab-reached').click();
  await byId('reached').locator('li').first().waitFor();
  await until(() => byId('reached').locator(`li[data-state=${replacedId}]`).count(), 0, `${replacedId} left the reached set`);
  assert.equal(await byId('position').innerText(), position, 'still at the merge event');
  await until(() => arg('.arg-edge.arg-merge').count(), 2, 'the merge result hangs below both operands');
  await shot('graphs-4-arg-merge.png');

  // The merge card: both inputs and the result, their octagons overlaid
  // (in the State tab).
  await byId('tab-state').click();
  const card = byId('merge-card');
  await expectText(card.locator('[data-testid=merge-heading]'), new RegExp(`^merge\\^widening\\(${newId}, ${replacedId}\\) = ${resultId}: ${resultId} replaces ${replacedId}`));
  assert.deepEqual(
    await card.locator('[data-testid=merge-input]').evaluateAll((els) => els.map((e) => [e.dataset.role, e.dataset.state])),
    [['new', newId], ['reached', replacedId], ['result', resultId]],
  );
  assert.deepEqual(await attrs(card.locator('[data-testid=merge-shape]'), 'data-role'), ['new', 'reached', 'result'], 'three shapes overlaid');
  // Each is drawn: an area, a segment, or a dot for a single point.
  const drawn = await card.locator('[data-testid=merge-shape]').evaluateAll((els) =>
    els.map((g) => {
      const r = g.getBoundingClientRect();
      return [g.dataset.role, g.querySelector('circle.point') ? 'point' : g.querySelector('polygon').getAttribute('points').split(' ').length > 1, r.width + r.height > 0];
    }));
  for (const [role, shape, visible] of drawn) assert.ok(shape && visible, `${role}: ${shape} ${visible}`);
  console.log(`merge card shapes: ${JSON.stringify(drawn)}`);
  await card.scrollIntoViewIfNeeded();
  await shot('graphs-4b-merge-card.png');

  // Fit at the first merge fits the states drawn so far, at their own
  // scale, not at the final ARG's.
  const fit = page.locator('[data-testid=graphs] [data-testid=graph-fit]');
  await fit.click();
  await allInside(arg(), arg('.arg-node .shape'), 'the ARG at the first merge after Fit');
  const atMerge = await scale(arg());
  await byId('run-end').click();
  await byId('verdict').waitFor();
  await fit.click();
  await allInside(arg(), arg('.arg-node .shape'), 'the whole ARG after Fit');
  const atEnd = await scale(arg());
  assert.ok(atMerge > atEnd, `the ARG at the first merge is fitted at ${atMerge}, the final one at ${atEnd}`);
  await seek(mergeEvent);

  await byId('bp-covered').click();
  await expectText(byId('step-text'), /covered by/);
  await untilOk(page, () => arg('.arg-node.covered').count(), (n) => assert.ok(n >= 1, `${n} covered states drawn`));
  await untilOk(page, () => arg('.arg-edge.arg-covered').count(), (n) => assert.ok(n >= 1, 'a dashed link to the covering state'));
  await shot('graphs-5-arg-covered.png');
});

test('selecting a state in the ARG highlights its CFA node, its reached-set line and its source line', async () => {
  await seek(60);
  // s2 @N2: still in the reached set at event 60 (the loop head's s3 was
  // replaced by widening).
  // The view follows the current state; Fit shows the top of the ARG again.
  await page.locator('[data-testid=graphs] [data-testid=graph-fit]').click();
  await byId('tab-reached').click();
  await arg('[data-state=s2]').click();
  await expectText(byId('selection-bar'), /state s2 @N2/);
  await until(() => attrs(arg('.arg-node.selected'), 'data-state'), ['s2']);
  await until(() => attrs(byId('reached').locator('li.selected'), 'data-state'), ['s2']);
  await until(() => markedLines('cpa-selected-line'), ['10'], 'N2 is at the while loop, line 10');
  await shot('graphs-6-arg-selected.png');
  await byId('graph-tab-cfa').click();
  await cfa('.cfa-node').first().waitFor();
  await until(() => attrs(cfa('.cfa-node.selected'), 'data-node'), ['N2']);
  assert.deepEqual(await cfa('.cfa-edge.selected title').allTextContents(), ['N1 → N2: int flag = __VERIFIER_nondet_int();'], 'the edge s2 was computed along');

  // Selecting in the reached set works the other way round.
  await byId('reached').locator('li[data-state=s1]').click();
  await expectText(byId('selection-bar'), /state s1 @N1/);
  await until(() => attrs(cfa('.cfa-node.selected'), 'data-node'), ['N1']);
  await until(() => markedLines('cpa-selected-line'), ['9']);
  // An edge: its line.
  await cfa('.cfa-edge.back .label-bg').click();
  await expectText(byId('selection-bar'), /edge N4→N3 `ticks = ticks \+ 1;`/);
  await until(() => markedLines('cpa-selected-line'), ['11']);
  await page.locator('.selection-bar button').click();
  await byId('selection-bar').waitFor({ state: 'detached' });
  await until(() => markedLines('cpa-selected-line'), []);
});

test('straight-line chains fold into one box listing their operations', async () => {
  await byId('graph-fold').click();
  await cfa('.cfa-node.folded').first().waitFor();
  assert.equal(await cfa('.cfa-node').count(), 12, 'N1 and N2 fold into one box');
  assert.deepEqual(await attrs(cfa('.cfa-node.folded'), 'data-node'), ['N1']);
  assert.match(await cfa('.cfa-node.folded').textContent(), /N1–N2/);
  // Counts of a folded chain add up.
  assert.equal(await cfa('.cfa-node.folded').getAttribute('data-count'), '2');
  await shot('graphs-7-folded.png');
  await byId('graph-fold').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=cfa-graph] .cfa-node').length === 13);
});

test('the graph pans, zooms with the wheel and fits back', async () => {
  const g = cfa('> g');
  const fit = page.locator('[data-testid=graphs] [data-testid=graph-fit]');
  await fit.click();
  const fitted = await g.getAttribute('transform');
  const box = await cfa().boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  await page.waitForFunction((t) => document.querySelector('[data-testid=cfa-graph] > g').getAttribute('transform') !== t, fitted);
  const zoomed = await g.getAttribute('transform');
  assert.ok(Number(zoomed.match(/scale\(([\d.]+)\)/)[1]) > Number(fitted.match(/scale\(([\d.]+)\)/)[1]), `${fitted} → ${zoomed}`);
  // Drag on the background pans (and selects nothing).
  await page.mouse.move(box.x + 8, box.y + box.height - 8);
  await page.mouse.down();
  await page.mouse.move(box.x + 60, box.y + box.height - 40, { steps: 5 });
  await page.mouse.up();
  const panned = await g.getAttribute('transform');
  assert.notEqual(panned, zoomed);
  assert.equal(await byId('selection-bar').count(), 0);
  await fit.click();
  assert.equal(await g.getAttribute('transform'), fitted);
});

test('with ~1,000 reached states the ARG draws at most 300 of them and says the older ones are hidden', async () => {
  await page.getByRole('button', { name: 'Reset example' }).click();
  // Analyze runs the program the pane was last rendered with: wait until
  // the example (one function) is back.
  await page.waitForFunction(() => {
    const status = document.querySelector('[data-testid=status]');
    return status.classList.contains('status-ok') && status.innerText.startsWith('1 function,');
  });
  await analyze('octagon-sep', 1100);
  await byId('run-end').click();
  await byId('verdict').waitFor();
  const stats = await byId('stats').innerText();
  const reached = Number(stats.match(/reached (\d+)/)[1]);
  assert.ok(reached >= 1000, stats);
  await byId('graph-tab-arg').click();
  await arg('.arg-node').first().waitFor();
  const capped = async (when) => {
    await expectText(byId('arg-status'), /older states hidden/, when);
    const drawn = await arg('.arg-node').count();
    assert.ok(drawn <= 300, `${when}: the ARG is capped (${drawn} states drawn)`);
    assert.ok(drawn >= 100, `${when}: the most recent states are drawn (${drawn})`);
  };
  await capped('at the end');
  // A step back changes classes of the drawn states; it does not remove
  // and re-create them (the same element stays in the document).
  const kept = await arg('.arg-node').first().elementHandle();
  // Stepping back keeps the cap (the drawn window moves with the position).
  for (let i = 0; i < 6; i++) {
    const k = await shownEvent(page);
    await byId('event-back').click();
    await atEvent(page, k - 1);
  }
  await capped('six steps back');
  assert.equal(await kept.evaluate((el) => el.isConnected), true, 'the ARG keeps its elements while stepping');
  // The long state lists are windowed: every state is a row of the list,
  // only the rows in view (and a few around them) are in the document.
  await byId('tab-reached').click();
  const rows = Number(await byId('reached').getAttribute('data-rows'));
  assert.ok(rows >= reached, `${rows} rows for ${reached} reached states (and their locations)`);
  const inDocument = await byId('reached').locator('li').count();
  assert.ok(inDocument > 0 && inDocument < 200, `${inDocument} rows in the document`);
  // Scrolling to the end shows the last location's newest states.
  await byId('reached-window').evaluate((el) => { el.scrollTop = el.scrollHeight; });
  // (The scroll event and the window's render come a frame or two later:
  // wait for the late rows rather than read the rows still shown.)
  await untilOk(
    page,
    () => byId('reached').locator('li').last().getAttribute('data-state'),
    (id) => assert.ok(/^s\d+$/.test(id ?? '') && Number(id.slice(1)) >= 1000, `the end of the list shows a late state (${id})`),
  );
  await byId('tab-state').click();
  await shot('graphs-8-large-arg.png');
  await byId('graph-tab-cfa').click();
});

test('the graph views raised no errors', () => {
  assert.deepEqual(pageErrors, [], 'uncaught exceptions or panics in the page');
  assert.deepEqual(consoleErrors, [], 'console errors');
});
