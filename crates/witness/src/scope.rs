//! Which program variables an invariant at a loop head may name, and how:
//! globals and the enclosing function's parameters and locals declared
//! before the loop keyword, by their C name — leaving out temporaries,
//! other functions' variables and names that are ambiguous there (a
//! shadowed local), so every invariant we write is a C expression over
//! variables in scope at its location.

use crate::source_map::SourceMap;
use cfa::{FuncId, NodeId, Program, VarId, VarScope};
use std::collections::BTreeMap;

/// The variables nameable at byte `offset` inside function `function`, by id, with their C names.
pub fn in_scope(program: &Program, function: FuncId, offset: usize) -> BTreeMap<VarId, String> {
    let prefix = format!("{}::", program.function(function).name);
    let mut by_name: BTreeMap<&str, Vec<VarId>> = BTreeMap::new();
    for v in &program.variables {
        let declared_before = v.span.is_some_and(|s| s.start < offset);
        let visible = match v.scope {
            VarScope::Global => !v.qualified.contains("::") || v.qualified.starts_with(&prefix),
            VarScope::Local(f) | VarScope::Param(f) => f == function,
            VarScope::Return(_) | VarScope::Temp(_) => false,
        };
        if visible && declared_before {
            by_name.entry(v.name.as_str()).or_default().push(v.id);
        }
    }
    by_name.into_iter().filter(|(_, ids)| ids.len() == 1).map(|(name, ids)| (ids[0], name.to_string())).collect()
}

/// The loop heads that have a loop keyword (`while`, `for`) in the source:
/// each with the keyword's byte offset (the CFA's loop-entry edge into the
/// head starts its span at the keyword).
pub fn loop_keywords(program: &Program, map: &SourceMap) -> BTreeMap<NodeId, usize> {
    let mut out = BTreeMap::new();
    for node in program.nodes.iter().filter(|n| n.loop_head) {
        let keyword = node.incoming.iter().map(|e| program.edge(*e)).find_map(|e| {
            ["while", "for"].into_iter().find(|k| e.label == *k && map.is_keyword_at(e.span.start, k)).map(|_| e.span.start)
        });
        if let Some(at) = keyword {
            out.insert(node.id, at);
        }
    }
    out
}

/// The identifiers of a C expression, in order of first appearance
/// (keywords of casts left out).
pub fn identifiers(expression: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for c in expression.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphanumeric() || c == '_' || (c == ':' && !current.is_empty()) {
            current.push(c);
        } else if !current.is_empty() {
            let word = std::mem::take(&mut current);
            let is_number = word.starts_with(|c: char| c.is_ascii_digit());
            let is_keyword = matches!(word.as_str(), "long" | "unsigned" | "int" | "signed" | "short" | "char");
            if !is_number && !is_keyword && !out.contains(&word) {
                out.push(word);
            }
        }
    }
    out
}
