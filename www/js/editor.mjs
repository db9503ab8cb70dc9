// The page's code editor: CodeMirror 6 with a small mini-C tokenizer,
// exposed to the Rust app as the global `CpaEditor` (see
// crates/web/src/editor.rs for the wasm-bindgen side).
//
// The API is deliberately small and takes only strings, numbers and DOM
// elements, so the Rust side needs no JS object plumbing:
//
//   const view = CpaEditor.create(parentElement, text, onChange)
//   CpaEditor.getText(view) / CpaEditor.setText(view, text)
//   CpaEditor.setDiagnostics(view, json)   // [{line, col, endLine, endCol, severity, message}]
//   CpaEditor.highlightLine(view, kind, line)  // kind "current" | "selected"; line 0 clears
//   CpaEditor.setPathLines(view, json)     // [line, …]: an error path's lines; [] clears
//   CpaEditor.setCaret(view, line, col)    // 1-based, col in characters; focuses
//   CpaEditor.find(element)                // the view inside `element` (tests)
//   CpaEditor.setCaretOffset(view, offset) // UTF-16 offset (tests)
//   CpaEditor.destroy(view)
//
// Token classes come from @lezer/highlight's classHighlighter (`tok-keyword`,
// `tok-comment`, …) so the page's stylesheet colours them.

import { EditorState, RangeSet, StateEffect, StateField } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  GutterMarker,
  drawSelection,
  gutterLineClass,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { StreamLanguage, bracketMatching, indentUnit, syntaxHighlighting } from '@codemirror/language';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { setDiagnostics } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { classHighlighter } from '@lezer/highlight';

// ---- mini-C tokens (docs/minic.md) ----

const KEYWORDS = new Set([
  'if', 'else', 'while', 'do', 'for', 'break', 'continue', 'return', 'goto', 'switch', 'case', 'default',
  'typedef', 'extern', 'static', 'const', 'volatile', 'register', 'inline', '__inline', '__extension__',
  '__attribute__', 'sizeof',
]);
const TYPES = new Set([
  'int', 'signed', 'unsigned', 'short', 'long', 'char', '_Bool', 'void',
]);
// The verification vocabulary: nondeterminism, assumptions, the error location.
const BUILTIN = /^(__VERIFIER_\w+|reach_error|assert|abort|exit|__assert_fail|__assert_perror_fail|__assert|__PRETTY_FUNCTION__|__func__)$/;

// A plain function, not a method: StreamLanguage calls `token` unbound, so
// the block-comment case below must not go through `this`.
function miniCToken(stream, state) {
  if (state.inComment) {
    if (stream.skipTo('*/')) {
      stream.next();
      stream.next();
      state.inComment = false;
    } else {
      stream.skipToEnd();
    }
    return 'comment';
  }
  if (stream.eatSpace()) return null;
  if (stream.sol() && stream.peek() === '#') {
    stream.skipToEnd();
    return 'meta';
  }
  if (stream.match('//')) {
    stream.skipToEnd();
    return 'comment';
  }
  if (stream.match('/*')) {
    state.inComment = true;
    return miniCToken(stream, state) ?? 'comment';
  }
  if (stream.match(/^0[xX][0-9a-fA-F]+[uUlL]*/) || stream.match(/^\d+[uUlL]*/)) return 'number';
  if (stream.match(/^'(\\.|[^'\\])*'/)) return 'string';
  if (stream.match(/^"(\\.|[^"\\])*"?/)) return 'string';
  const word = stream.match(/^[A-Za-z_]\w*/);
  if (word) {
    const w = word[0];
    if (KEYWORDS.has(w)) return 'keyword';
    if (TYPES.has(w)) return 'typeName';
    if (w === 'ERROR' && stream.match(/^\s*:/, false)) return 'labelName';
    // Dotted names apply @lezer/highlight modifiers: special(variableName).
    if (BUILTIN.test(w)) return 'variableName.special';
    if (stream.match(/^\s*\(/, false)) return 'variableName.function';
    return 'variableName';
  }
  if (stream.match(/^[{}()[\]]/)) return 'bracket';
  if (stream.match(/^(<<=?|>>=?|[-+*/%&|^!=<>]=?|&&|\|\||\+\+|--|[~?:])/)) return 'operator';
  if (stream.match(/^[;,]/)) return 'punctuation';
  stream.next();
  return null;
}

const miniC = StreamLanguage.define({
  name: 'minic',
  startState: () => ({ inComment: false }),
  token: miniCToken,
  blankLine(state) {
    return state;
  },
  copyState: (s) => ({ inComment: s.inComment }),
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
});

// ---- line highlights: the current edge's line and the selected state's line ----

const setLine = StateEffect.define();

class LineClass extends GutterMarker {
  constructor(cls) {
    super();
    this.elementClass = cls;
  }
}

/**
 * Per kind ("current", "selected") the 1-based line to highlight (0 = none),
 * with the line decorations and gutter classes that show them.
 */
const highlightedLines = StateField.define({
  create: () => ({ current: 0, selected: 0, decorations: Decoration.none, gutter: RangeSet.empty }),
  update(value, tr) {
    let next = value;
    for (const e of tr.effects) {
      if (e.is(setLine)) next = { ...next, [e.value.kind]: e.value.line };
    }
    if (next === value && !tr.docChanged) return value;
    const state = tr.state;
    return {
      ...next,
      decorations: lineRanges(state, next, (cls) => Decoration.line({ class: cls })),
      gutter: lineRanges(state, next, (cls) => new LineClass(cls)),
    };
  },
  provide: (field) => [
    EditorView.decorations.from(field, (v) => v.decorations),
    gutterLineClass.from(field, (v) => v.gutter),
  ],
});

function lineRanges(state, lines, make) {
  const ranges = [];
  for (const [kind, cls] of [['selected', 'cpa-selected-line'], ['current', 'cpa-current-line']]) {
    const n = lines[kind];
    if (n >= 1 && n <= state.doc.lines) ranges.push(make(cls).range(state.doc.line(n).from));
  }
  ranges.sort((a, b) => a.from - b.from);
  return RangeSet.of(ranges, true);
}

// Lines holding an error diagnostic get a class in the line-number gutter.
const setErrorLines = StateEffect.define();
const errorMarker = new LineClass('cpa-error-line');
const errorLines = StateField.define({
  create: () => RangeSet.empty,
  update(value, tr) {
    let v = value.map(tr.changes);
    for (const e of tr.effects) if (e.is(setErrorLines)) v = e.value;
    return v;
  },
  provide: (field) => gutterLineClass.from(field),
});

// Lines an error path goes through (the error path panel): a line class
// and a gutter class, replaced as a whole.
const setPathLinesEffect = StateEffect.define();
const pathLineMarker = new LineClass('cpa-path-line-gutter');
const pathLineDecoration = Decoration.line({ class: 'cpa-path-line' });
const pathLines = StateField.define({
  create: () => ({ lines: [], decorations: Decoration.none, gutter: RangeSet.empty }),
  update(value, tr) {
    let lines = value.lines;
    for (const e of tr.effects) if (e.is(setPathLinesEffect)) lines = e.value;
    if (lines === value.lines && !tr.docChanged) return value;
    const doc = tr.state.doc;
    const starts = lines.filter((n) => n >= 1 && n <= doc.lines).map((n) => doc.line(n).from);
    return {
      lines,
      decorations: RangeSet.of(starts.map((at) => pathLineDecoration.range(at)), true),
      gutter: RangeSet.of(starts.map((at) => pathLineMarker.range(at)), true),
    };
  },
  provide: (field) => [
    EditorView.decorations.from(field, (v) => v.decorations),
    gutterLineClass.from(field, (v) => v.gutter),
  ],
});

/** Marks the 1-based lines of the JSON array `json` as an error path's. */
function setPathLines(view, json) {
  let lines;
  try {
    lines = JSON.parse(json);
  } catch {
    lines = [];
  }
  if (!Array.isArray(lines)) lines = [];
  const unique = [...new Set(lines.filter((n) => Number.isInteger(n)))].sort((a, b) => a - b);
  view.dispatch({ effects: [setPathLinesEffect.of(unique)] });
}

// ---- the editor ----

/** Inserts two spaces at the caret, or indents the selected lines. */
function indentOrInsert(view) {
  const { state } = view;
  if (state.selection.ranges.some((r) => !r.empty)) return false;
  view.dispatch(state.update(state.replaceSelection('  '), { scrollIntoView: true, userEvent: 'input' }));
  return true;
}

function create(parent, text, onChange) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        history(),
        drawSelection(),
        EditorState.allowMultipleSelections.of(false),
        indentUnit.of('  '),
        miniC,
        syntaxHighlighting(classHighlighter),
        bracketMatching(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        highlightedLines,
        pathLines,
        errorLines,
        EditorView.lineWrapping,
        // An explicit tabindex: the editable content is already in the tab
        // order, but accessibility checkers (axe-core) only count it as the
        // keyboard's way into the scrolling editor with the attribute.
        EditorView.contentAttributes.of({ 'aria-label': 'mini-C program', spellcheck: 'false', tabindex: '0' }),
        keymap.of([{ key: 'Tab', run: indentOrInsert }, ...defaultKeymap, ...historyKeymap, ...searchKeymap]),
        EditorView.updateListener.of((u) => {
          // Told after CodeMirror's update has finished, so the page may
          // update the editor again (diagnostics) in its answer.
          if (u.docChanged && onChange) queueMicrotask(() => onChange(u.view.state.doc.toString()));
        }),
      ],
    }),
  });
  return view;
}

function getText(view) {
  return view.state.doc.toString();
}

/** Replaces the whole text (e.g. "Reset example"); keeps undo history. */
function setText(view, text) {
  if (text === getText(view)) return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/** The offset of 1-based `line`, `col` (characters), clamped to the text. */
function offsetOf(doc, line, col) {
  if (line < 1) return 0;
  if (line > doc.lines) return doc.length;
  const l = doc.line(line);
  // Characters, not UTF-16 units: step over surrogate pairs.
  let at = l.from;
  let chars = 1;
  const text = l.text;
  let i = 0;
  while (chars < col && i < text.length) {
    const code = text.charCodeAt(i);
    i += code >= 0xd800 && code < 0xdc00 ? 2 : 1;
    chars += 1;
  }
  at += i;
  return Math.min(at, l.to);
}

/** The editors that have shown diagnostics (an empty list must clear them). */
const marked = new WeakSet();

function setDiagnosticsJson(view, json) {
  let rows;
  try {
    rows = JSON.parse(json);
  } catch {
    rows = [];
  }
  // Nothing to mark and nothing marked yet: no transaction. The lint
  // extension's first update costs ≈ 15 ms, on the page's first render.
  if (rows.length === 0 && !marked.has(view)) return;
  marked.add(view);
  const doc = view.state.doc;
  const diagnostics = [];
  const marks = [];
  for (const r of rows) {
    let from = offsetOf(doc, r.line, r.col);
    let to = offsetOf(doc, r.endLine ?? r.line, r.endCol ?? r.col);
    if (to <= from) {
      // An empty span (e.g. a missing `;` at the end of a line): mark the
      // next character, or the line's last one when the line ends there.
      const line = doc.lineAt(from);
      if (from < line.to) to = from + 1;
      else if (from > line.from) [from, to] = [from - 1, from];
    }
    const severity = r.severity === 'warning' ? 'warning' : 'error';
    diagnostics.push({ from, to, severity, message: r.message, source: 'mini-C' });
    if (severity === 'error') marks.push(errorMarker.range(doc.lineAt(from).from));
  }
  marks.sort((a, b) => a.from - b.from);
  const spec = setDiagnostics(view.state, diagnostics);
  const effects = [].concat(spec.effects ?? [], setErrorLines.of(RangeSet.of(marks, true)));
  view.dispatch({ effects });
}

/** Highlights 1-based `line` as `kind` ("current" or "selected"), 0 clears; scrolls it into view. */
function highlightLine(view, kind, line) {
  const effects = [setLine.of({ kind, line })];
  if (line >= 1 && line <= view.state.doc.lines) {
    effects.push(EditorView.scrollIntoView(view.state.doc.line(line).from, { y: 'nearest' }));
  }
  view.dispatch({ effects });
}

function setCaretOffset(view, offset) {
  const at = Math.max(0, Math.min(offset, view.state.doc.length));
  view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
  view.focus();
}

function setCaret(view, line, col) {
  setCaretOffset(view, offsetOf(view.state.doc, line, col));
}

function find(element) {
  const dom = element?.classList?.contains('cm-editor') ? element : element?.querySelector('.cm-editor');
  return dom ? EditorView.findFromDOM(dom) : null;
}

globalThis.CpaEditor = {
  create,
  getText,
  setText,
  setDiagnostics: setDiagnosticsJson,
  highlightLine,
  setPathLines,
  setCaret,
  setCaretOffset,
  find,
  focus: (view) => view.focus(),
  destroy: (view) => view.destroy(),
};
