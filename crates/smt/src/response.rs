//! Parsing what a solver printed for a script: the status (`sat`, `unsat`,
//! `unknown`), the model's values (from `(get-model)`), and error lines.
//!
//! The parser is total: any text gives a [`Response`]; text without a status
//! line is `unknown` with a reason, so a crashed or confused solver can only
//! ever make an analysis less precise, never unsound.

use crate::parse::{tokenize, Sexp};
use crate::term::Value;
use std::collections::BTreeMap;
use std::fmt;

/// The answer to a satisfiability query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// The assertions have a model.
    Sat,
    /// The assertions have no model.
    Unsat,
    /// The solver could not decide (timeout, incompleteness, failure).
    Unknown,
}

impl Status {
    /// `sat`, `unsat` or `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A parsed solver answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Response {
    /// The status (`Unknown` when the output had none).
    pub status: Option<Status>,
    /// Variable values of the model, when one was printed.
    pub model: BTreeMap<String, Value>,
    /// `(error "…")` messages and other problems, in order.
    pub errors: Vec<String>,
}

impl Response {
    /// The status, `Unknown` when there was none.
    pub fn status(&self) -> Status {
        self.status.unwrap_or(Status::Unknown)
    }

    /// Why the answer is `unknown`, when it is and something was said.
    pub fn reason(&self) -> Option<String> {
        (self.status() == Status::Unknown && !self.errors.is_empty()).then(|| self.errors.join("; "))
    }
}

fn parse_value(s: &Sexp, sort: &Sexp) -> Option<Value> {
    let width = match sort {
        Sexp::List(l) if l.len() == 3 && l[0] == Sexp::Atom("_".into()) && l[1] == Sexp::Atom("BitVec".into()) => match &l[2] {
            Sexp::Atom(w) => w.parse::<u32>().ok(),
            _ => None,
        },
        _ => None,
    };
    match s {
        Sexp::Atom(a) if a == "true" => Some(Value::Bool(true)),
        Sexp::Atom(a) if a == "false" => Some(Value::Bool(false)),
        Sexp::Atom(a) if a.starts_with("#b") => {
            let v = u128::from_str_radix(&a[2..], 2).ok()?;
            Some(Value::Bv { value: v, width: width.unwrap_or((a.len() - 2) as u32) })
        }
        Sexp::Atom(a) if a.starts_with("#x") => {
            let v = u128::from_str_radix(&a[2..], 16).ok()?;
            Some(Value::Bv { value: v, width: width.unwrap_or(4 * (a.len() - 2) as u32) })
        }
        Sexp::Atom(a) => a.parse::<i128>().ok().map(Value::Int),
        Sexp::List(l) => match l.as_slice() {
            [Sexp::Atom(m), x] if m == "-" => match parse_value(x, sort)? {
                Value::Int(i) => Some(Value::Int(-i)),
                _ => None,
            },
            [Sexp::Atom(u), Sexp::Atom(bv), Sexp::Atom(w)] if u == "_" && bv.starts_with("bv") => {
                let v = bv[2..].parse::<u128>().ok()?;
                Some(Value::Bv { value: v, width: w.parse().ok()? })
            }
            _ => None,
        },
        Sexp::Str(_) | Sexp::Quoted(_) => None,
    }
}

fn collect_model(s: &Sexp, out: &mut BTreeMap<String, Value>) {
    if let Sexp::List(l) = s {
        if let [head, name, Sexp::List(params), sort, value] = l.as_slice() {
            if let (true, Some(name), true) = (head.is_atom("define-fun"), name.symbol(), params.is_empty()) {
                if let Some(v) = parse_value(value, sort) {
                    out.insert(name.to_string(), v);
                }
                return;
            }
        }
        l.iter().for_each(|x| collect_model(x, out));
    }
}

/// Parses a solver's output for one script.
pub fn parse_response(text: &str) -> Response {
    let mut r = Response::default();
    for s in tokenize(text).unwrap_or_default() {
        match &s {
            Sexp::Atom(a) if r.status.is_none() && (a == "sat" || a == "unsat" || a == "unknown") => {
                r.status = Some(match a.as_str() {
                    "sat" => Status::Sat,
                    "unsat" => Status::Unsat,
                    _ => Status::Unknown,
                });
            }
            Sexp::List(l) if matches!(l.first(), Some(Sexp::Atom(h)) if h == "error") => {
                let msg = match l.get(1) {
                    Some(Sexp::Str(m)) | Some(Sexp::Atom(m)) => m.clone(),
                    _ => "error".into(),
                };
                r.errors.push(msg);
            }
            Sexp::List(_) => collect_model(&s, &mut r.model),
            _ => {}
        }
    }
    if r.status.is_none() {
        r.errors.push(if text.trim().is_empty() {
            "the solver printed nothing".into()
        } else {
            "no sat/unsat/unknown in the solver's output".into()
        });
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_z3_output() {
        let r = parse_response("sat\n(\n  (define-fun x () Int\n    (- 3))\n  (define-fun y () (_ BitVec 8)\n    #xff)\n)\n");
        assert_eq!(r.status(), Status::Sat);
        assert_eq!(r.model["x"], Value::Int(-3));
        assert_eq!(r.model["y"], Value::Bv { value: 255, width: 8 });
        let r = parse_response("unsat\n(error \"line 7 column 10: model is not available\")\n");
        assert_eq!(r.status(), Status::Unsat);
        assert_eq!(r.errors.len(), 1);
        let r = parse_response("");
        assert_eq!(r.status(), Status::Unknown);
        assert!(r.reason().is_some());
        let r = parse_response("(model (define-fun |a b| () Int 4))");
        assert_eq!(r.model["a b"], Value::Int(4));
    }
}
