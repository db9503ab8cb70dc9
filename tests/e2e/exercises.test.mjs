// Browser end-to-end test of the exercise view (dist/): one exercise of
// each of the eleven question kinds is answered wrong — its feedback must not
// give the reference answer away — then right (answers
// from static/exercises/cpa-basics/solutions.toml, which the test reads from
// disk and the page never loads), and one next-step exercise is left with a
// partly right answer (fractional points; its list link is marked
// `partial`); the page's points must be the exercise's. A reload
// keeps the answers in the widgets, the feedback, the list's classes and the
// progress; the exported answers file, graded natively by `cpaplay grade`,
// gives the same points per exercise as the page, and its first attempts
// grade with `cpaplay grade --first-attempt`. A set with `reveal_after`
// shows the answer after that many tries; the exercise bar keeps the
// question in view over the playground; Make exercise is edited, tried as a
// student and loaded from a file.
//
//   DIST_DIR=dist node --test tests/e2e/exercises.test.mjs   (after `trunk build --release`;
//   runs `cargo run -p cpaplay`, which builds target/ if needed)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { analyze, artifacts, atEvent, expectCount, settled, until, untilOk, useBrowser, withoutKnownZ3Errors } from './harness.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SET = 'cpa-basics';
const setDir = path.join(repo, 'static', 'exercises', SET);
const STUDENT = 'e2e-student';

// ---------------------------------------------------------------------------
// A small TOML reader, enough for the exercise files (tables, arrays of
// tables, dotted and quoted keys, basic / literal / multi-line strings,
// integers, floats, booleans, arrays and inline tables). Not a validator.

function parseToml(text, file) {
  let i = 0;
  const fail = (msg) => {
    const line = text.slice(0, i).split('\n').length;
    throw new Error(`${file}:${line}: ${msg}`);
  };
  const skip = (newlines) => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\r' || (newlines && c === '\n')) i++;
      else if (c === '#') while (i < text.length && text[i] !== '\n') i++;
      else return;
    }
  };
  const basicString = (multi) => {
    let out = '';
    const end = multi ? '"""' : '"';
    if (multi && text[i] === '\n') i++;
    else if (multi && text.startsWith('\r\n', i)) i += 2;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      if (text.startsWith(end, i)) {
        i += end.length;
        // """ may end with up to two more quotes inside the string.
        while (multi && text[i] === '"') (out += '"'), i++;
        return out;
      }
      const c = text[i++];
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = text[i++];
      const simple = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
      if (e in simple) out += simple[e];
      else if (e === 'u' || e === 'U') {
        const n = e === 'u' ? 4 : 8;
        out += String.fromCodePoint(parseInt(text.slice(i, i + n), 16));
        i += n;
      } else if (multi && /\s/.test(e)) {
        while (/\s/.test(text[i])) i++;
      } else fail(`bad escape \\${e}`);
    }
  };
  const literalString = (multi) => {
    const end = multi ? "'''" : "'";
    if (multi && text[i] === '\n') i++;
    const j = text.indexOf(end, i);
    if (j < 0) fail('unterminated string');
    const s = text.slice(i, j);
    i = j + end.length;
    return s;
  };
  const key = () => {
    const parts = [];
    for (;;) {
      skip(false);
      if (text.startsWith('"', i)) (i += 1), parts.push(basicString(false));
      else if (text.startsWith("'", i)) (i += 1), parts.push(literalString(false));
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i));
        if (!m) fail('a key expected');
        parts.push(m[0]);
        i += m[0].length;
      }
      skip(false);
      if (text[i] !== '.') return parts;
      i++;
    }
  };
  const value = () => {
    skip(false);
    if (text.startsWith('"""', i)) return (i += 3), basicString(true);
    if (text.startsWith("'''", i)) return (i += 3), literalString(true);
    if (text[i] === '"') return (i += 1), basicString(false);
    if (text[i] === "'") return (i += 1), literalString(false);
    if (text[i] === '[') {
      i++;
      const arr = [];
      for (;;) {
        skip(true);
        if (text[i] === ']') return i++, arr;
        arr.push(value());
        skip(true);
        if (text[i] === ',') i++;
        else if (text[i] !== ']') fail('`,` or `]` expected');
      }
    }
    if (text[i] === '{') {
      i++;
      const obj = {};
      skip(false);
      if (text[i] === '}') return i++, obj;
      for (;;) {
        const k = key();
        if (text[i] !== '=') fail('`=` expected');
        i++;
        assign(obj, k, value());
        skip(false);
        if (text[i] === '}') return i++, obj;
        if (text[i] !== ',') fail('`,` or `}` expected');
        i++;
      }
    }
    const m = /^(true|false|[+-]?[0-9_]+(\.[0-9_]+)?([eE][+-]?[0-9]+)?)/.exec(text.slice(i));
    if (!m) fail('a value expected');
    i += m[0].length;
    if (m[0] === 'true') return true;
    if (m[0] === 'false') return false;
    return Number(m[0].replace(/_/g, ''));
  };
  const table = (root, parts) => {
    let t = root;
    for (const p of parts) {
      if (t[p] === undefined) t[p] = {};
      t = Array.isArray(t[p]) ? t[p][t[p].length - 1] : t[p];
    }
    return t;
  };
  const assign = (t, parts, v) => {
    table(t, parts.slice(0, -1))[parts[parts.length - 1]] = v;
  };
  const root = {};
  let current = root;
  for (;;) {
    skip(true);
    if (i >= text.length) return root;
    if (text.startsWith('[[', i)) {
      i += 2;
      const parts = key();
      if (!text.startsWith(']]', i)) fail('`]]` expected');
      i += 2;
      const parent = table(root, parts.slice(0, -1));
      const last = parts[parts.length - 1];
      parent[last] ??= [];
      parent[last].push({});
      current = parent[last][parent[last].length - 1];
    } else if (text[i] === '[') {
      i++;
      const parts = key();
      if (text[i] !== ']') fail('`]` expected');
      i++;
      current = table(root, parts);
    } else {
      const k = key();
      if (text[i] !== '=') fail('`=` expected');
      i++;
      assign(current, k, value());
    }
  }
}

const readToml = (name) => parseToml(fs.readFileSync(path.join(setDir, name), 'utf8'), name);

/** The set's exercises in order: id, title, points, hints, kind, config, question, program text. */
const SET_TOML = readToml('set.toml');
const EXERCISES = SET_TOML.exercises.map((file) => {
  const t = readToml(file);
  return {
    file,
    id: t.id,
    title: t.title,
    points: t.points ?? 1,
    prompt: t.prompt,
    hints: t.hints ?? [],
    kind: t.question.kind,
    question: t.question,
    preset: t.config.preset,
    locked: t.config.locked ?? true,
    program: t.program.file ? fs.readFileSync(path.join(setDir, t.program.file), 'utf8') : t.program.source,
  };
});
const byExercise = Object.fromEntries(EXERCISES.map((e) => [e.id, e]));
const MAX_POINTS = EXERCISES.reduce((s, e) => s + e.points, 0);
const SOLUTIONS = Object.fromEntries(readToml('solutions.toml').solution.map((s) => [s.exercise, s]));

/**
 * One exercise per kind (fast ones), with the wrong answer to give first
 * (index into the solution's `wrong`) and the right one after it.
 */
const PLAN = [
  { kind: 'verdict', id: 'short-circuit-verdict', wrong: 0, right: 0 },
  { kind: 'count', id: 'short-circuit-count', wrong: 0, right: 0 },
  // Both wrong and right name the preset and the open key's value.
  { kind: 'choose-configuration', id: 'false-alarm-choose', wrong: 1, right: 0 },
  { kind: 'separate', id: 'int-model-separate', wrong: 0, right: 0 },
  { kind: 'abstract-state', id: 'join-point-value', wrong: 0, right: 0 },
  { kind: 'precision', id: 'cegar-precision', wrong: 1, right: 0 },
  // popped right, merge and stop wrong: partial points, still wrong.
  { kind: 'next-step', id: 'short-circuit-stop', wrong: 0, right: 0 },
  { kind: 'invariant', id: 'invariant-lockstep', wrong: 1, right: 0 },
  // Predicate analysis in the page (its solver queries answered by the page's Z3).
  { kind: 'predicates', id: 'predicate-predicates', wrong: 0, right: 0 },
  { kind: 'abstraction', id: 'predicate-boolean', wrong: 0, right: 0 },
  // Graded against the transformed program (nothing runs).
  { kind: 'transformed-line', id: 'transform-line', wrong: 0, right: 0 },
];
/** Answered once, partly right, and left so: fractional points in the export. */
const PARTIAL = { id: 'counter-join-step', wrong: 0 };

/** What grading gives a next-step answer (as crates/exercises does: per asked question, floored to 1/100). */
function nextStepPoints(ex, answer, reference) {
  const asked = ['popped', 'merge', 'stop'].filter((k) => reference[k] !== undefined);
  const right = asked.filter((k) => answer[k] === reference[k]).length;
  return Math.floor(((ex.points * right) / asked.length) * 100) / 100;
}

/**
 * What a wrong answer's feedback must not show of the reference answer
 * `right` (strings and regexps), given the right answer's feedback text
 * `rightText` (where the abstract state's join is named) and the words the
 * page's selects give the next-step keys (`optionWords`).
 */
function referencePieces(kind, right, wrong, rightText, optionWords) {
  switch (kind) {
    case 'verdict':
      return [new RegExp(`\\b${right.verdict.toUpperCase()}\\b`), /finished with/];
    case 'count':
      return [new RegExp(`\\b${right.value}\\b`), /finished with/];
    case 'abstract-state': {
      // The page renders the backquoted join as code: innerText has no backquotes.
      const join = /join(?:, as intervals,)? is `?([^`;]*?)`?; you said/.exec(rightText)?.[1];
      assert.ok(join, `the right answer's feedback names the join: ${rightText}`);
      return [/whose join/, ...(wrong.state.includes(join) ? [] : [join])];
    }
    case 'next-step': {
      const out = [/the algorithm did/];
      if (right.popped !== wrong.popped) out.push(`pop s${right.popped}`);
      for (const q of ['merge', 'stop']) if (right[q] !== undefined && right[q] !== wrong[q]) out.push(optionWords[q][right[q]]);
      return out;
    }
    case 'precision':
      // Naming the variable that can be left out would give the minimal set away.
      return [/without `/, `{${right.variables.join(', ')}}`];
    case 'invariant':
      // Unless the student's own invariant contains it (`x == y + 1` holds `x == y`).
      return wrong.expression.includes(right.expression) ? [] : [right.expression];
    case 'choose-configuration':
      // The feedback is about the student's own configuration: no other
      // configuration that would prove the program is named.
      return Object.entries(right.set ?? {})
        .filter(([k, v]) => wrong.set?.[k] !== v)
        .map(([k, v]) => `${k}=${v}`);
    case 'separate':
      // The feedback is about the student's own program: the reference
      // program is not shown.
      return [right.program.trim()];
    case 'predicates':
      // Neither the predicates the student left out nor the run's own
      // (qualified) spelling of them.
      return [...right.predicates.filter((q) => !wrong.predicates.includes(q)), /main::/, /You said/];
    case 'abstraction': {
      // Neither ψ' nor the choice that is ψ'.
      const choices = byExercise[PLAN.find((p) => p.kind === 'abstraction').id].question.choices;
      return [choices[right.choice - 1], /ψ' =/];
    }
    case 'transformed-line': {
      // Neither the transformed line nor the choice that is it.
      const choices = byExercise[PLAN.find((p) => p.kind === 'transformed-line').id].question.choices;
      return [choices[right.choice - 1], /transforms line/];
    }
    default:
      throw new Error(`no reference pieces for ${kind}`);
  }
}

/** The words of the next-step selects' options, by question and key. */
async function optionWords() {
  return page.evaluate(() => {
    const out = { merge: {}, stop: {} };
    for (const q of ['merge', 'stop']) {
      for (const o of document.querySelectorAll(`[data-testid=answer-${q}] option`)) if (o.value) out[q][o.value] = o.textContent.trim();
    }
    return out;
  });
}

// ---------------------------------------------------------------------------

let page, baseUrl, pageErrors, consoleErrors;
const session = useBrowser({ profilePrefix: 'cpa-e2e-exercises-', timeout: 60_000 });
before(async () => ({ page, baseUrl, pageErrors, consoleErrors } = await session.ready));

const byId = (id) => page.locator(`[data-testid="${id}"]`);
const listLink = (id) => page.locator(`[data-testid=exercise-list] a[data-exercise="${id}"]`);

/** What the page has graded, by exercise id: { correct, points }; the answers last checked; every answer checked. */
const graded = {};
const lastAnswer = {};
const attempts = {};
/** The points of each exercise's first checked answer. */
const firstPoints = {};
const recordAttempt = (id, answer, points) => {
  (attempts[id] ??= []).push(answer);
  if (!(id in firstPoints)) firstPoints[id] = points;
};

/** Opens `#hash` as a new document (not a same-page fragment change). */
async function open(hash) {
  await page.goto('about:blank');
  await page.goto(`${baseUrl}#${hash}`);
}

async function openExercise(id) {
  await open(`exercise=${SET}/${id}`);
  await page.locator(`[data-testid=exercise][data-exercise-id="${id}"]`).waitFor();
}

/** Fills a text input or textarea the way typing does (input, then change). */
async function type(locator, text) {
  await locator.fill(text);
  await locator.dispatchEvent('change');
}

/** Enters `answer` (a solutions.toml answer) in the widgets of the shown exercise. */
async function enter(ex, answer) {
  const a = byId('answer');
  const w = (id) => a.locator(`[data-testid="${id}"]`);
  switch (answer.kind) {
    case 'verdict':
      await w(`answer-verdict-${answer.verdict}`).check();
      break;
    case 'count':
      await type(w('answer-value'), String(answer.value));
      break;
    case 'choose-configuration':
      if (answer.preset !== undefined) await w('answer-preset').selectOption(answer.preset);
      for (const [k, v] of Object.entries(answer.set ?? {})) {
        const control = w(`answer-set-${k}`);
        if ((await control.evaluate((el) => el.tagName)) === 'SELECT') await control.selectOption(v);
        else await type(control, v);
      }
      break;
    case 'separate':
      await type(w('answer-program'), answer.program);
      break;
    case 'abstract-state':
      await type(w('answer-state'), answer.state);
      break;
    case 'precision':
      await type(w('answer-variables'), answer.variables.join(', '));
      break;
    case 'next-step':
      if (answer.popped !== undefined) await type(w('answer-popped'), String(answer.popped));
      if (answer.merge !== undefined) await w('answer-merge').selectOption(answer.merge);
      if (answer.stop !== undefined) await w('answer-stop').selectOption(answer.stop);
      break;
    case 'invariant':
      await type(w('answer-expression'), answer.expression);
      break;
    case 'predicates':
      await type(w('answer-predicates'), answer.predicates.join('\n'));
      break;
    case 'abstraction':
    case 'transformed-line':
      await w(`answer-choice-${answer.choice}`).check();
      break;
    default:
      throw new Error(`no widget for ${answer.kind}`);
  }
}

/** Reads the shown exercise's widgets back as an answer (for the reload check). */
async function readAnswer(ex) {
  const a = byId('answer');
  const w = (id) => a.locator(`[data-testid="${id}"]`);
  switch (ex.kind) {
    case 'verdict': {
      const checked = [];
      for (const v of ['true', 'false', 'unknown']) if (await w(`answer-verdict-${v}`).isChecked()) checked.push(v);
      assert.ok(checked.length <= 1, `${ex.id}: one verdict at most is checked (${checked})`);
      return { kind: 'verdict', verdict: checked[0] };
    }
    case 'count':
      return { kind: 'count', value: Number(await w('answer-value').inputValue()) };
    case 'choose-configuration': {
      const set = {};
      for (const k of Object.keys(ex.question.open ?? {})) {
        const v = await w(`answer-set-${k}`).inputValue();
        if (v !== '') set[k] = v;
      }
      return { kind: 'choose-configuration', preset: await w('answer-preset').inputValue(), set };
    }
    case 'separate':
      return { kind: 'separate', program: await w('answer-program').inputValue() };
    case 'abstract-state':
      return { kind: 'abstract-state', state: await w('answer-state').inputValue() };
    case 'precision':
      return { kind: 'precision', variables: (await w('answer-variables').inputValue()).split(/[\s,]+/).filter(Boolean) };
    case 'next-step': {
      const ans = { kind: 'next-step' };
      if (await w('answer-popped').count()) ans.popped = Number(await w('answer-popped').inputValue());
      if (await w('answer-merge').count()) ans.merge = await w('answer-merge').inputValue();
      if (await w('answer-stop').count()) ans.stop = await w('answer-stop').inputValue();
      return ans;
    }
    case 'invariant':
      return { kind: 'invariant', expression: await w('answer-expression').inputValue() };
    case 'predicates':
      return {
        kind: 'predicates',
        predicates: (await w('answer-predicates').inputValue())
          .split(/[,;\n]/)
          .map((q) => q.trim())
          .filter(Boolean),
      };
    case 'abstraction': {
      const checked = [];
      for (let i = 1; i <= ex.question.choices.length; i++) if (await w(`answer-choice-${i}`).isChecked()) checked.push(i);
      assert.ok(checked.length <= 1, `${ex.id}: one formula at most is chosen (${checked})`);
      return { kind: 'abstraction', choice: checked[0] };
    }
    case 'transformed-line': {
      const checked = [];
      for (let i = 1; i <= ex.question.choices.length; i++) if (await w(`answer-choice-${i}`).isChecked()) checked.push(i);
      assert.ok(checked.length <= 1, `${ex.id}: one line at most is chosen (${checked})`);
      return { kind: 'transformed-line', choice: checked[0] };
    }
    default:
      throw new Error(`no widget for ${ex.kind}`);
  }
}

/** The shown feedback: { correct, points, text } or null. */
async function feedback() {
  return page.evaluate(() => {
    const f = document.querySelector('[data-testid=feedback]');
    return f && { correct: f.dataset.correct, points: f.dataset.points, text: f.innerText };
  });
}

/** Whether the feedback shows a revealed answer. */
const solutionShown = () => page.evaluate(() => !!document.querySelector('[data-testid=feedback-solution]'));

/**
 * Presses Check and waits until new feedback is shown and checking is over
 * (the invariant checks load Z3 first). Returns { correct, points, text }.
 */
async function check(ex) {
  const beforeCheck = await feedback();
  await byId('check-answer').click();
  await page.waitForFunction(
    (old) => {
      const status = document.querySelector('[data-testid=check-status]');
      if (status && status.offsetParent !== null) return false;
      const f = document.querySelector('[data-testid=feedback]');
      if (!f) return false;
      const now = { correct: f.dataset.correct, points: f.dataset.points, text: f.innerText };
      return !old || now.correct !== old.correct || now.points !== old.points || now.text !== old.text;
    },
    beforeCheck,
    { timeout: 120_000, polling: 100 },
  );
  const fb = await feedback();
  assert.match(fb.correct, /^(true|false)$/, `${ex.id}: data-correct is true or false (${fb.correct})`);
  assert.match(fb.points, /^\d+(\.\d+)?$/, `${ex.id}: data-points is a number (${fb.points})`);
  assert.ok(fb.text.trim().length > 10, `${ex.id}: the feedback explains (${JSON.stringify(fb.text)})`);
  return { correct: fb.correct === 'true', points: Number(fb.points), text: fb.text, solutionShown: await solutionShown() };
}

/** The progress line as numbers. */
async function progress() {
  const text = await byId('exercise-progress').innerText();
  const m = /(\d+(?:\.\d+)?) of (\d+) points\s*·\s*(\d+) of (\d+) answered/.exec(text);
  assert.ok(m, `the progress reads "P of M points · A of N answered": ${JSON.stringify(text)}`);
  return { text, points: Number(m[1]), maxPoints: Number(m[2]), answered: Number(m[3]), exercises: Number(m[4]) };
}

/** Waits until the progress line counts what the page graded, then asserts it. */
async function assertProgress(when) {
  const earned = Object.values(graded).reduce((s, g) => s + g.points, 0);
  await untilOk(page, progress, (p) => {
    assert.ok(Math.abs(p.points - earned) < 0.006, `${when}: ${p.text} (the page graded ${earned} points)`);
    assert.equal(p.maxPoints, MAX_POINTS, `${when}: ${p.text}: the set has ${MAX_POINTS} points`);
    assert.equal(p.answered, Object.keys(graded).length, `${when}: ${p.text}`);
    assert.equal(p.exercises, EXERCISES.length, `${when}: ${p.text}`);
  });
}

/**
 * The class of an exercise's link for its last result: `right`, `wrong`,
 * `unanswered`, and `partial` for a wrong answer that earned some points
 * (a next-step answer with some of its predictions right).
 */
const statusClass = (g) => (g === undefined ? 'unanswered' : g.correct ? 'right' : g.points > 0 ? 'partial' : 'wrong');
const linkClass = (id) => listLink(id).evaluate((a) => a.className.match(/\b(right|partial|wrong|unanswered)\b/)?.[1]);

/** The list's class per exercise. */
async function listClasses() {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('[data-testid=exercise-list] a[data-exercise]')].map((a) => [
        a.dataset.exercise,
        ['right', 'partial', 'wrong', 'unanswered'].filter((c) => a.classList.contains(c)).join(' '),
      ]),
    ),
  );
}

async function assertListClasses(when) {
  const expected = Object.fromEntries(EXERCISES.map((e) => [e.id, statusClass(graded[e.id])]));
  await until(page, listClasses, expected, `${when}: the list's classes are the last results`);
}

/** The answers file the export test downloaded (the import test loads it back). */
let exportedFile;

const shot = (name) => page.screenshot({ path: path.join(artifacts, `exercises-${name}.png`), fullPage: true });

// ---------------------------------------------------------------------------

test('the set list, the top bar button, the first exercise and the student name', async () => {
  assert.equal(EXERCISES.length, 46, 'the test knows the set (set.toml read)');
  for (const p of PLAN) assert.equal(byExercise[p.id].kind, p.kind, `${p.id} is a ${p.kind} exercise`);
  assert.deepEqual([...new Set(PLAN.map((p) => p.kind))].sort(), [...new Set(EXERCISES.map((e) => e.kind))].sort(), 'every kind is covered');

  // The top bar button goes to the list of sets.
  await open('');
  await byId('exercises-button').click();
  const setLink = page.locator(`a[data-set="${SET}"]`);
  await setLink.waitFor();
  assert.equal(await page.evaluate(() => location.hash), '#exercises');
  assert.match(await setLink.innerText(), new RegExp(SET_TOML.title.split(':')[0]), 'the set link shows its title');

  // The set opens on its first exercise, with every exercise in the list.
  await setLink.click();
  await page.locator(`[data-testid=exercise][data-exercise-id="${EXERCISES[0].id}"]`).waitFor();
  assert.match(await page.evaluate(() => decodeURIComponent(location.hash)), new RegExp(`^#exercise=${SET}(/${EXERCISES[0].id})?$`));
  await byId('exercise-pane').waitFor();
  const links = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=exercise-list] a[data-exercise]')].map((a) => [a.dataset.exercise, a.getAttribute('href')]),
  );
  assert.deepEqual(
    links,
    EXERCISES.map((e) => [e.id, `#exercise=${SET}/${e.id}`]),
    'one link per exercise, in the set order',
  );
  await assertListClasses('at the start');
  await assertProgress('at the start');

  // A link of the list opens its exercise (the page reloads on the new fragment).
  const target = PLAN[0].id;
  const loaded = page.waitForEvent('load', { timeout: 10_000 }).catch(() => null);
  await listLink(target).click();
  await loaded;
  await page.locator(`[data-testid=exercise][data-exercise-id="${target}"]`).waitFor();
  assert.equal(await page.evaluate(() => decodeURIComponent(location.hash)), `#exercise=${SET}/${target}`);

  await type(byId('student-name'), STUDENT);
});

for (const p of PLAN) {
  test(`${p.kind}: ${p.id} — a wrong answer, then a right one`, async () => {
    const ex = byExercise[p.id];
    const wrong = SOLUTIONS[p.id].wrong[p.wrong];
    const right = SOLUTIONS[p.id].right[p.right];
    assert.ok(wrong && right, `${p.id}: solutions.toml has the answers`);
    await openExercise(p.id);
    const shown = page.locator(`[data-testid=exercise][data-exercise-id="${p.id}"]`);
    assert.equal(await shown.getAttribute('data-kind'), p.kind);
    const heading = await shown.innerText();
    assert.ok(heading.includes(ex.title), `${p.id}: the title is shown`);
    const config = await byId('exercise-config').innerText();
    assert.ok(config.includes(ex.preset), `${p.id}: the configuration names ${ex.preset}: ${config}`);
    if (ex.locked) assert.match(config, /locked/, `${p.id}: the configuration is locked`);
    else assert.doesNotMatch(config, /\(locked/, `${p.id}: the configuration is not locked`);
    assert.equal(await byId('feedback').count(), 0, `${p.id}: no feedback before a check`);
    assert.equal(await byId('student-name').inputValue(), STUDENT, 'the student name is kept');
    if (p.kind === 'separate') {
      assert.equal(
        (await byId('answer-program').inputValue()).trimEnd(),
        ex.program.trimEnd(),
        'the program to edit starts as the exercise program',
      );
    }

    // Wrong first.
    await enter(ex, wrong);
    const w = await check(ex);
    // Recorded before the assertions: later tests compare with what the page did.
    graded[p.id] = { correct: w.correct, points: w.points };
    lastAnswer[p.id] = wrong;
    recordAttempt(p.id, wrong, w.points);
    assert.equal(w.correct, false, `${p.id}: ${JSON.stringify(wrong)} is graded wrong: ${w.text}`);
    const wrongPoints = p.kind === 'next-step' ? nextStepPoints(ex, wrong, right) : 0;
    assert.ok(Math.abs(w.points - wrongPoints) < 0.006, `${p.id}: the wrong answer earns ${wrongPoints} points, not ${w.points}`);
    await until(page, () => linkClass(p.id), statusClass(graded[p.id]), `${p.id}: the list marks the wrong answer`);
    if (['next-step', 'invariant', 'predicates', 'abstraction'].includes(p.kind)) await shot(`${p.id}-wrong`);

    // Then right.
    await enter(ex, right);
    const r = await check(ex);
    graded[p.id] = { correct: r.correct, points: r.points };
    lastAnswer[p.id] = right;
    recordAttempt(p.id, right, r.points);
    assert.equal(r.correct, true, `${p.id}: ${JSON.stringify(right)} is graded right: ${r.text}`);
    assert.equal(r.points, ex.points, `${p.id}: a right answer earns the exercise's ${ex.points} points`);
    await until(page, () => linkClass(p.id), 'right', `${p.id}: the list marks the right answer`);
    await assertProgress(`after ${p.id}`);

    // The wrong answer's feedback gave nothing of the right one away, and
    // the set (no reveal_after) showed no answer after it.
    for (const piece of referencePieces(p.kind, right, wrong, r.text, await optionWords())) {
      const found = typeof piece === 'string' ? w.text.includes(piece) : piece.test(w.text);
      assert.ok(!found, `${p.id}: the feedback of the wrong answer ${JSON.stringify(wrong)} gives away ${piece}:\n${w.text}`);
    }
    assert.equal(w.solutionShown, false, `${p.id}: no answer is revealed after a wrong answer`);
    if (['separate', 'choose-configuration', 'predicates', 'abstraction'].includes(p.kind)) await shot(`${p.id}-right`);
  });
}

test('hints are revealed one at a time', async () => {
  const ex = EXERCISES.find((e) => e.hints.length >= 2);
  await openExercise(ex.id);
  assert.equal(await byId('hint').count(), 0, 'no hint shown at first');
  const plain = (md) => md.replace(/[`*_]/g, '').replace(/\s+/g, ' ').trim();
  for (let k = 1; k <= ex.hints.length; k++) {
    await byId('hint-button').click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=hint]').length === n, k);
    const texts = await byId('hint').allInnerTexts();
    assert.equal(plain(texts[k - 1]), plain(ex.hints[k - 1]), `hint ${k} of ${ex.id}`);
  }
  // All shown: the button is gone or does nothing more.
  const button = byId('hint-button');
  if ((await button.count()) && (await button.isEnabled()) && (await button.isVisible())) {
    await button.click();
    await settled(page);
  }
  assert.equal(await byId('hint').count(), ex.hints.length, 'never more hints than the exercise has');
});

test('a set with reveal_after shows the answer after that many tries, not before', async () => {
  // A set of one exercise, served under another id, whose set.toml says reveal_after = 2.
  const id = 'short-circuit-count';
  const file = SET_TOML.exercises.find((f) => f.includes(id));
  const revealSet = `format = 1\nid = "e2e-reveal"\ntitle = "Reveal after two"\nreveal_after = 2\nexercises = ["${file}"]\n`;
  await page.route('**/exercises/e2e-reveal/**', (route) => {
    const name = new URL(route.request().url()).pathname.split('/e2e-reveal/')[1];
    if (name === 'set.toml') return route.fulfill({ status: 200, contentType: 'text/plain', body: revealSet });
    const onDisk = path.join(setDir, name);
    if (!fs.existsSync(onDisk)) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({ status: 200, contentType: 'text/plain', body: fs.readFileSync(onDisk, 'utf8') });
  });
  try {
    await open(`exercise=e2e-reveal/${id}`);
    await page.locator(`[data-testid=exercise][data-exercise-id="${id}"]`).waitFor();
    const ex = byExercise[id];
    const right = SOLUTIONS[id].right[0];
    const [first, second] = SOLUTIONS[id].wrong;
    const answerAt = new RegExp(`\\b${right.value}\\b`);

    await enter(ex, first);
    const f1 = await check(ex);
    assert.equal(f1.correct, false);
    assert.equal(f1.solutionShown, false, 'one try of two: the answer is not shown');
    assert.doesNotMatch(f1.text, answerAt, `the first wrong try's feedback does not give ${right.value} away: ${f1.text}`);
    assert.match(f1.text, /too (low|high)/, 'it says which way the count is off');
    assert.match(await byId('reveal-note').innerText(), /shown after 2 checked answers \(1 so far\)/);

    await enter(ex, second);
    const f2 = await check(ex);
    assert.equal(f2.correct, false, 'still wrong');
    assert.equal(f2.points, 0, 'a revealed answer earns nothing');
    assert.equal(f2.solutionShown, true, 'after two tries the answer is shown');
    assert.match(await byId('feedback-solution').innerText(), answerAt, 'the revealed explanation has the count');
    await shot('revealed-after-two');
  } finally {
    await page.unroute('**/exercises/e2e-reveal/**');
  }
});

test('the exercise bar keeps the question in view while the playground is used', async () => {
  const id = PLAN[1].id;
  const ex = byExercise[id];
  await openExercise(id);
  const bar = byId('exercise-bar');
  await bar.waitFor();
  assert.ok((await bar.innerText()).includes(ex.title), 'the bar names the exercise');
  // Down to the playground: the bar sticks to the top, the panes fill the rest.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  // At the bottom of the page the bar is at the window's top (less its margin).
  await page.waitForFunction(() => document.querySelector('[data-testid=exercise-bar]').getBoundingClientRect().top < 10);
  const box = await bar.boundingBox();
  const panes = await page.locator('main.panes').boundingBox();
  const viewport = page.viewportSize();
  assert.ok(box.y >= -1 && box.y < 10, `the bar is at the top of the window (${box.y})`);
  assert.ok(panes.y >= box.y + box.height - 1, `the playground starts below the bar (${panes.y} vs ${box.y + box.height})`);
  assert.ok(panes.y + panes.height <= viewport.height + 1, 'the whole playground fits under the bar');
  assert.ok(await byId('exercise-bar-prompt').isVisible(), 'the question is in view');
  assert.ok(await byId('cfa-listing').isVisible(), 'the playground is in view too');
  // The prompt's question: its last paragraph.
  const paragraphs = ex.prompt.split('\n\n').map((t) => t.trim()).filter(Boolean);
  const asked = paragraphs[paragraphs.length - 1].replace(/[`*_]/g, '').split(/\s+/).slice(0, 4).join(' ');
  assert.ok((await byId('exercise-bar-prompt').innerText()).replace(/\s+/g, ' ').includes(asked), `the bar shows the question (${asked})`);
  await page.screenshot({ path: path.join(artifacts, 'exercises-bar-playground.png') });
  // "More" opens the whole prompt over the playground; the layout does not move.
  await byId('exercise-bar-more').click();
  await byId('exercise-bar-drawer').waitFor();
  assert.deepEqual(await page.locator('main.panes').boundingBox(), panes, 'the drawer does not move the playground');
  await page.screenshot({ path: path.join(artifacts, 'exercises-bar-drawer.png') });
  await byId('exercise-bar-more').click();
  // Hidden exercise: the bar stays; "Answer ↑" shows the exercise and its answer again.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('.exercise-collapse').click();
  await expectCount(byId('exercise'), 0, 'Hide exercise hides the pane body');
  assert.ok(await bar.isVisible(), 'the bar stays when the exercise is hidden');
  await page.screenshot({ path: path.join(artifacts, 'exercises-bar-hidden.png') });
  await byId('exercise-bar-answer').click();
  await byId('answer').waitFor();
  await page.waitForFunction(() => {
    const r = document.querySelector('[data-testid=answer]').getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
});

test('a partly right next-step answer earns part of the points', async () => {
  const ex = byExercise[PARTIAL.id];
  assert.equal(ex.kind, 'next-step');
  const answer = SOLUTIONS[PARTIAL.id].wrong[PARTIAL.wrong];
  const expected = nextStepPoints(ex, answer, SOLUTIONS[PARTIAL.id].right[0]);
  assert.ok(expected > 0 && expected < ex.points, 'the chosen answer is partly right');
  await openExercise(PARTIAL.id);
  await enter(ex, answer);
  const fb = await check(ex);
  graded[PARTIAL.id] = { correct: fb.correct, points: fb.points };
  lastAnswer[PARTIAL.id] = answer;
  recordAttempt(PARTIAL.id, answer, fb.points);
  assert.equal(fb.correct, false, fb.text);
  assert.ok(Math.abs(fb.points - expected) < 0.006, `${PARTIAL.id}: ${expected} points, the page gave ${fb.points}`);
  await until(page, () => linkClass(PARTIAL.id), 'partial', `${PARTIAL.id}: the list marks the partly right answer`);
  await assertProgress(`after ${PARTIAL.id}`);
});

test('a reload keeps the answers, the feedback, the list and the progress', async () => {
  assert.equal(Object.keys(graded).length, PLAN.length + 1, 'every exercise above was graded');
  for (const id of Object.keys(graded)) {
    const ex = byExercise[id];
    await openExercise(id);
    const prior = await feedback();
    await page.reload();
    await page.locator(`[data-testid=exercise][data-exercise-id="${id}"]`).waitFor();
    await byId('feedback').waitFor();
    const after = await feedback();
    assert.deepEqual(after, prior, `${id}: the same feedback after a reload`);
    assert.equal(after.correct, String(graded[id].correct), `${id}: the feedback is the last result`);
    assert.ok(Math.abs(Number(after.points) - graded[id].points) < 1e-9, `${id}: the points are the last result`);
    const expected = { ...lastAnswer[id] };
    const shown = await readAnswer(ex);
    if (ex.kind === 'choose-configuration') expected.set ??= {};
    assert.deepEqual(shown, expected, `${id}: the widgets show the last answer`);
    assert.equal(await byId('student-name').inputValue(), STUDENT);
    if (id === PLAN[0].id) {
      await assertListClasses('after a reload');
      await assertProgress('after a reload');
    }
  }
  await assertListClasses('after the reloads');
  await assertProgress('after the reloads');
  await openExercise('short-circuit-stop');
  await byId('feedback').waitFor();
  await shot('reloaded-next-step');
});

test('the exported answers file grades to the same points with cpaplay grade', { timeout: 660_000 }, async () => {
  await openExercise(PLAN[0].id);
  const downloading = page.waitForEvent('download');
  await byId('export-answers').click();
  const download = await downloading;
  assert.equal(download.suggestedFilename(), `answers-${STUDENT}-${SET}.json`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cpa-e2e-exercises-answers-'));
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  exportedFile = fs.readFileSync(file, 'utf8');
  const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(exported.format, 1);
  assert.equal(exported.student, STUDENT);
  assert.equal(exported.set, SET);
  const dropNull = (o) => JSON.parse(JSON.stringify(o, (k, v) => (v === null ? undefined : v)));
  const answers = dropNull(exported.answers);
  for (const a of Object.values(answers)) if (a.kind === 'choose-configuration') a.set ??= {};
  const expectedAnswers = dropNull(lastAnswer);
  for (const a of Object.values(expectedAnswers)) if (a.kind === 'choose-configuration') a.set ??= {};
  assert.deepEqual(answers, expectedAnswers, 'the file holds the last answer of each exercise answered');
  const fileAttempts = dropNull(exported.attempts);
  for (const list of Object.values(fileAttempts)) for (const a of list) if (a.kind === 'choose-configuration') a.set ??= {};
  const expectedAttempts = dropNull(attempts);
  for (const list of Object.values(expectedAttempts)) for (const a of list) if (a.kind === 'choose-configuration') a.set ??= {};
  assert.deepEqual(fileAttempts, expectedAttempts, 'the file holds every checked answer, first to last');
  if (exported.results !== undefined) {
    for (const [id, g] of Object.entries(graded)) {
      assert.ok(Math.abs(Number(exported.results[id]?.points) - g.points) < 1e-9, `results.${id}.points is what the page showed`);
    }
  }

  const t0 = Date.now();
  const { stdout } = await promisify(execFile)(
    'cargo',
    ['run', '--quiet', '-p', 'cpaplay', '--', 'grade', path.join('static', 'exercises', SET), file],
    { cwd: repo, timeout: 600_000, maxBuffer: 16 << 20 },
  );
  console.log(`cpaplay grade: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const [header, ...rows] = stdout.trim().split('\n');
  assert.equal(header, 'student,exercise,points');
  const csv = rows.map((r) => r.split(','));
  assert.deepEqual(
    csv.map((r) => r[1]),
    EXERCISES.map((e) => e.id),
    'one row per exercise of the set, in order',
  );
  for (const [student, id, points] of csv) {
    assert.equal(student, STUDENT);
    const expected = graded[id]?.points ?? 0;
    assert.ok(Math.abs(Number(points) - expected) < 0.006, `${id}: cpaplay grade gives ${points}, the page ${expected}`);
  }
  const total = csv.reduce((s, r) => s + Number(r[2]), 0);
  assert.ok(Math.abs(total - (await progress()).points) < 0.02, 'the total is the progress line');

  // First attempts only: every exercise above was answered wrong first.
  const first = await promisify(execFile)(
    'cargo',
    ['run', '--quiet', '-p', 'cpaplay', '--', 'grade', '--first-attempt', path.join('static', 'exercises', SET), file],
    { cwd: repo, timeout: 600_000, maxBuffer: 16 << 20 },
  );
  const firstRows = first.stdout.trim().split('\n').slice(1).map((r) => r.split(','));
  for (const [, id, points] of firstRows) {
    const expected = firstPoints[id] ?? 0;
    assert.ok(Math.abs(Number(points) - expected) < 0.006, `${id}: --first-attempt gives ${points}, the first check gave ${expected}`);
  }
  assert.ok(
    firstRows.reduce((s, r) => s + Number(r[2]), 0) < total,
    'scoring first attempts gives fewer points than the last (every exercise was wrong first)',
  );
  fs.rmSync(dir, { recursive: true, force: true });
});

test('forgetting the progress asks first, then starts the set afresh', async () => {
  const before = await byId('exercise-progress').innerText();
  assert.doesNotMatch(before, /^0 of /, 'there is progress to forget');
  // Declined: nothing changes.
  page.once('dialog', (d) => d.dismiss());
  await byId('forget-progress').click();
  await settled(page);
  assert.equal(await byId('exercise-progress').innerText(), before);
  // Accepted: the page reloads with nothing answered.
  page.once('dialog', (d) => d.accept());
  await byId('forget-progress').click();
  await page.waitForFunction(() => /^0 of \d+ points · 0 of \d+ answered$/.test(document.querySelector('[data-testid=exercise-progress]')?.innerText ?? ''));
  assert.equal(await byId('feedback').count(), 0, 'no feedback is left');
  assert.equal(await page.locator('[data-testid=exercise-list] a.unanswered').count(), EXERCISES.length);
});

test('importing the exported file after forgetting re-checks every answer to the same progress', async () => {
  assert.ok(exportedFile, 'the export test ran');
  await page.waitForFunction(() => /^0 of /.test(document.querySelector('[data-testid=exercise-progress]')?.innerText ?? ''));
  // A file for another set is refused before anything is asked, and nothing changes.
  await byId('import-answers').setInputFiles({
    name: 'other.json', mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ ...JSON.parse(exportedFile), set: 'another-set' })),
  });
  await page.waitForFunction(() => /answers the set `another-set`/.test(document.querySelector('[data-testid=import-note]')?.innerText ?? ''));
  assert.match(await byId('exercise-progress').innerText(), /^0 of /);
  // The real file: confirmed, every answer is checked again in the page.
  page.once('dialog', (d) => d.accept());
  await byId('import-answers').setInputFiles({ name: 'answers.json', mimeType: 'application/json', buffer: Buffer.from(exportedFile) });
  await page.waitForFunction(() => /^Imported and re-checked/.test(document.querySelector('[data-testid=import-note]')?.innerText ?? ''), null, { timeout: 120_000 });
  assert.match(await byId('import-note').innerText(), new RegExp(`${Object.keys(graded).length} answer\\(s\\) of “${STUDENT}”`));
  await assertProgress('after the import');
  await assertListClasses('after the import');
  assert.equal(await byId('student-name').inputValue(), STUDENT, "the file's student name");
  // The shown exercise's widgets and feedback are its imported answer.
  await byId('feedback').waitFor();
  await shot('imported');
});

test('Make exercise: what the playground shows becomes an exercise file that cpaplay loads and grades', { timeout: 660_000 }, async () => {
  await page.goto(baseUrl); // the playground, no exercise
  await byId('cfa-listing').waitFor();
  await analyze(page, 'value', 300);
  const status = await byId('run-status').innerText();
  const verdict = status.match(/: (TRUE|FALSE|UNKNOWN)\b/)[1].toLowerCase();
  for (let i = 1; i <= 25; i++) {
    await byId('event-next').click();
    await atEvent(page, i);
  }
  const steps = Number((await byId('stats').innerText()).match(/steps (\d+)/)[1]);

  await byId('make-exercise').click();
  // The step named is the step shown; a next-step question asks about the one after it.
  const source = await byId('skeleton-source').innerText();
  assert.match(source, new RegExp(`the run shown at step ${steps} \\(a next-step question asks about step ${steps + 1}\\)`), source);
  await byId('skeleton-id').fill('made-here');
  await byId('skeleton-kind').selectOption('next-step');
  await page.waitForFunction(() => /kind = "next-step"/.test(document.querySelector('[data-testid=skeleton-toml]').textContent));
  const nextStep = await byId('skeleton-toml').textContent();
  assert.match(nextStep, new RegExp(`^step = ${steps + 1}$`, 'm'), 'the step after the shown one');
  assert.match(nextStep, /^preset = "value"$/m);
  assert.match(nextStep, /"limits\.steps" = "300"/, 'the step limit of the run');
  await byId('skeleton-kind').selectOption('verdict');
  await page.waitForFunction(() => /kind = "verdict"/.test(document.querySelector('[data-testid=skeleton-toml]').textContent));
  const downloading = page.waitForEvent('download');
  await byId('skeleton-download').click();
  const download = await downloading;
  assert.equal(download.suggestedFilename(), 'made-here.toml');

  // An instructor's set with that file: cpaplay loads it and grades the
  // verdict the page showed as right.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cpa-e2e-made-'));
  await download.saveAs(path.join(dir, 'made-here.toml'));
  fs.writeFileSync(path.join(dir, 'set.toml'), 'format = 1\nid = "made"\ntitle = "Made in the page"\nexercises = ["made-here.toml"]\n');
  const answers = path.join(dir, 'answers.json');
  fs.writeFileSync(answers, JSON.stringify({ format: 1, student: 'teacher', set: 'made', answers: { 'made-here': { kind: 'verdict', verdict } } }));
  const { stdout } = await promisify(execFile)('cargo', ['run', '--quiet', '-p', 'cpaplay', '--', 'grade', dir, answers], {
    cwd: repo, timeout: 600_000, maxBuffer: 16 << 20,
  });
  assert.deepEqual(stdout.trim().split('\n'), ['student,exercise,points', 'teacher,made-here,1']);
  madeFile = fs.readFileSync(path.join(dir, 'made-here.toml'), 'utf8');
  madeVerdict = verdict;
  fs.rmSync(dir, { recursive: true, force: true });
});

let madeFile, madeVerdict;

test('Make exercise: the prompt and points are edited, the exercise is tried as a student, and a file is loaded', async () => {
  assert.ok(madeFile, 'the Make exercise test ran');
  // Edit: prompt and points go into the file.
  const prompt = 'Does **value** prove this program? Answer with the verdict.';
  await byId('skeleton-prompt').fill(prompt);
  await byId('skeleton-points').fill('3');
  await page.waitForFunction(() => /^points = 3$/m.test(document.querySelector('[data-testid=skeleton-toml]').textContent));
  assert.ok((await byId('skeleton-toml').textContent()).includes(prompt), 'the prompt is in the file');
  await byId('skeleton-points').fill('');
  await expectCount(byId('skeleton-error'), 1, 'points that are not a number are refused');
  assert.equal(await byId('skeleton-try').isDisabled(), true, 'nothing to try while the file would not load');
  await byId('skeleton-points').fill('3');
  await expectCount(byId('skeleton-error'), 0, 'the error goes with the fix');
  await page.screenshot({ path: path.join(artifacts, 'exercises-make-edit.png') });

  // Try it: the page opens it as a student sees it.
  await byId('skeleton-try').click();
  await page.locator('[data-testid=exercise][data-exercise-id="made-here"]').waitFor();
  assert.equal(await page.evaluate(() => location.hash), '#exercise-draft');
  const shown = await byId('exercise').innerText();
  assert.ok(shown.includes('Does value prove this program?'), `the prompt as written: ${shown}`);
  assert.match(shown, /3 points/, 'the points as written');
  const wrongVerdict = madeVerdict === 'true' ? 'false' : 'true';
  await page.locator(`[data-testid=answer-verdict-${wrongVerdict}]`).check();
  const w = await check({ id: 'made-here' });
  assert.equal(w.correct, false, w.text);
  assert.doesNotMatch(w.text, new RegExp(`\\b${madeVerdict.toUpperCase()}\\b`), `the wrong answer's feedback does not name the verdict: ${w.text}`);
  await page.locator(`[data-testid=answer-verdict-${madeVerdict}]`).check();
  const r = await check({ id: 'made-here' });
  assert.equal(r.correct, true, r.text);
  assert.equal(r.points, 3, 'the points as written');
  await shot('draft-tried');

  // Edit again: the dialog starts from the draft being tried.
  await byId('make-exercise').click();
  assert.equal(await byId('skeleton-id').inputValue(), 'made-here');
  assert.equal(await byId('skeleton-prompt').inputValue(), prompt);
  assert.equal(await byId('skeleton-points').inputValue(), '3');

  // Load a file: a broken one is refused with its location, a good one opens.
  await byId('skeleton-load').setInputFiles({ name: 'broken.toml', mimeType: 'text/plain', buffer: Buffer.from('format = 1\nid = "x"\n') });
  await expectCount(byId('skeleton-load-error'), 1, 'a broken file is refused');
  assert.match(await byId('skeleton-load-error').innerText(), /broken\.toml: This exercise would not load: exercise\.toml:\d+:\d+/);
  const loaded = madeFile.replace(/^title = .*$/m, 'title = "Loaded from a file"');
  await byId('skeleton-load').setInputFiles({ name: 'loaded.toml', mimeType: 'text/plain', buffer: Buffer.from(loaded) });
  await page.waitForFunction(() => /Loaded from a file/.test(document.querySelector('[data-testid=exercise]')?.innerText ?? ''));
  assert.equal(await page.evaluate(() => location.hash), '#exercise-draft');
  assert.equal(await byId('feedback').count(), 0, 'a loaded exercise starts afresh');
});

test('the solutions are not served and the page raised no errors', async () => {
  const solutions = await fetch(new URL(`exercises/${SET}/solutions.toml`, baseUrl));
  assert.equal(solutions.status, 404, 'solutions.toml must not be published with the page');
  const setFile = await fetch(new URL(`exercises/${SET}/set.toml`, baseUrl));
  assert.equal(setFile.status, 200, 'the set itself is served (so the 404 above means something)');
  assert.deepEqual(pageErrors, [], 'uncaught exceptions or panics in the page');
  // The invariant exercises load Z3 (its known thread-start message is not an error of the page).
  assert.deepEqual(withoutKnownZ3Errors(consoleErrors), [], 'console errors');
});
