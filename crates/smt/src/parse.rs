//! Reading SMT-LIB2 text back into [`Term`]s: what a solver printed (a
//! quantifier-eliminated formula, a model value) becomes a formula the
//! analyses can use again — in CPA terms, the abstraction a predicate
//! analysis computes with a solver comes back as a term over program
//! variables.
//!
//! Two layers: [`tokenize`] splits text into s-expressions ([`Sexp`]), and
//! [`term_from_sexp`] / [`parse_term`] turn one s-expression into a term
//! through the constant-folding constructors of [`Term`], so a parsed
//! constant expression is a constant. Every operator the [`crate::Op`] enum
//! has is read, plus what solvers print on top of it: n-ary `+ - * and or`,
//! chained comparisons, `=>`, `xor`, `distinct`, `abs`, `>=`/`>` and
//! `bvuge`/`bvsgt`…, and `(let ((x t) …) body)`.
//!
//! The parser is total: any text gives `Ok` or a readable `Err` (an unknown
//! symbol is named, sorts are checked, nesting is bounded), never a panic.

use crate::term::{Op, Sort, Term};

/// An s-expression of SMT-LIB2 text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sexp {
    /// A symbol, keyword or literal (`x`, `:depth`, `42`, `#xff`).
    Atom(String),
    /// A `|quoted symbol|` (without the bars): always a symbol, even when
    /// it looks like a number or a keyword.
    Quoted(String),
    /// A `"string literal"` (quotes removed, `""` unescaped).
    Str(String),
    /// A parenthesized list.
    List(Vec<Sexp>),
}

impl Sexp {
    /// The symbol this s-expression names, quoted or not.
    pub fn symbol(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a) | Sexp::Quoted(a) => Some(a),
            _ => None,
        }
    }

    /// Whether this is the plain atom `name`.
    pub fn is_atom(&self, name: &str) -> bool {
        matches!(self, Sexp::Atom(a) if a == name)
    }
}

/// Deepest list nesting the tokenizer accepts (deeper text is refused, so
/// neither parsing nor dropping the tree can exhaust the stack).
pub const MAX_DEPTH: usize = 400;

/// Splits text into its top-level s-expressions. Comments (`; …`) are
/// skipped; unbalanced `)` are ignored and unclosed lists closed at the end
/// (truncated output keeps what it had). `Err` only for nesting deeper than
/// [`MAX_DEPTH`].
pub fn tokenize(text: &str) -> Result<Vec<Sexp>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut stack: Vec<Vec<Sexp>> = vec![Vec::new()];
    let mut i = 0;
    let push = |stack: &mut Vec<Vec<Sexp>>, s: Sexp| {
        if let Some(top) = stack.last_mut() {
            top.push(s);
        }
    };
    while i < chars.len() {
        match chars[i] {
            '(' => {
                if stack.len() > MAX_DEPTH {
                    return Err(format!("the text nests parentheses deeper than {MAX_DEPTH} levels"));
                }
                stack.push(Vec::new());
                i += 1;
            }
            ')' => {
                if stack.len() > 1 {
                    let l = stack.pop().unwrap_or_default();
                    push(&mut stack, Sexp::List(l));
                }
                i += 1;
            }
            '"' => {
                let mut s = String::new();
                i += 1;
                while i < chars.len() {
                    if chars[i] == '"' {
                        if chars.get(i + 1) == Some(&'"') {
                            s.push('"');
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    s.push(chars[i]);
                    i += 1;
                }
                i += 1;
                push(&mut stack, Sexp::Str(s));
            }
            ';' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '|' => {
                let mut s = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '|' {
                    s.push(chars[i]);
                    i += 1;
                }
                i += 1;
                push(&mut stack, Sexp::Quoted(s));
            }
            c if c.is_whitespace() => i += 1,
            _ => {
                let mut s = String::new();
                while i < chars.len() && !chars[i].is_whitespace() && !"()\";|".contains(chars[i]) {
                    s.push(chars[i]);
                    i += 1;
                }
                push(&mut stack, Sexp::Atom(s));
            }
        }
    }
    while stack.len() > 1 {
        let l = stack.pop().unwrap_or_default();
        push(&mut stack, Sexp::List(l));
    }
    Ok(stack.pop().unwrap_or_default())
}

/// Parses one SMT-LIB2 term (as a solver prints it) into a Term; the sorts of free symbols come from `sort_of`.
///
/// ```
/// use smt::{parse_term, Sort};
/// let t = parse_term("(and (<= x 1) (>= x 1))", &|_| Some(Sort::Int)).unwrap();
/// assert_eq!(t.to_string(), "(and (<= x 1) (<= 1 x))");
/// assert!(parse_term("(+ x q)", &|n| (n == "x").then_some(Sort::Int)).unwrap_err().contains("`q`"));
/// ```
pub fn parse_term(text: &str, sort_of: &dyn Fn(&str) -> Option<Sort>) -> Result<Term, String> {
    let mut sexps = tokenize(text)?;
    match sexps.len() {
        0 => Err("no term in the text".into()),
        1 => term_from_sexp(&sexps.remove(0), sort_of),
        n => Err(format!("expected one term, found {n}")),
    }
}

/// Same from an already tokenized s-expression.
pub fn term_from_sexp(s: &Sexp, sort_of: &dyn Fn(&str) -> Option<Sort>) -> Result<Term, String> {
    Reader { sort_of, scopes: Vec::new() }.term(s, 0)
}

/// The reader's state: free symbols' sorts and the `let` bindings in scope
/// (innermost last).
struct Reader<'a> {
    sort_of: &'a dyn Fn(&str) -> Option<Sort>,
    scopes: Vec<Vec<(String, Term)>>,
}

fn is_numeral(a: &str) -> bool {
    !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit())
}

fn numeral(a: &str) -> Option<u128> {
    is_numeral(a).then(|| a.parse::<u128>().ok()).flatten()
}

fn width(w: u128, what: &str) -> Result<u32, String> {
    if (1..=64).contains(&w) {
        Ok(w as u32)
    } else {
        Err(format!("{what}: bit-vectors of width {w} are not supported (1 to 64 bits)"))
    }
}

fn bv_literal(a: &str) -> Option<Result<Term, String>> {
    let (digits, radix, bits) = if let Some(d) = a.strip_prefix("#x") {
        (d, 16, 4)
    } else if let Some(d) = a.strip_prefix("#b") {
        (d, 2, 1)
    } else {
        return None;
    };
    Some((|| {
        let w = width(digits.len() as u128 * bits, a)?;
        let v = u128::from_str_radix(digits, radix).map_err(|_| format!("`{a}` is not a bit-vector literal"))?;
        if digits.starts_with('+') {
            return Err(format!("`{a}` is not a bit-vector literal"));
        }
        Ok(Term::bv(v as i128, w))
    })())
}

/// Which family of operator a name is, with the op it builds.
enum Builder {
    Unary(Op),
    /// Left-associative binary op (n-ary allowed).
    Fold(Op),
    /// Exactly two arguments.
    Binary(Op),
    /// Comparison with swapped arguments (`bvuge a b` = `bvule b a`).
    Swapped(Op),
}

fn bv_builder(name: &str) -> Option<Builder> {
    use Builder::*;
    Some(match name {
        "bvneg" => Unary(Op::BvNeg),
        "bvnot" => Unary(Op::BvNot),
        "bvadd" => Fold(Op::BvAdd),
        "bvmul" => Fold(Op::BvMul),
        "bvand" => Fold(Op::BvAnd),
        "bvor" => Fold(Op::BvOr),
        "bvxor" => Fold(Op::BvXor),
        "bvsub" => Binary(Op::BvSub),
        "bvudiv" => Binary(Op::BvUdiv),
        "bvurem" => Binary(Op::BvUrem),
        "bvsdiv" => Binary(Op::BvSdiv),
        "bvsrem" => Binary(Op::BvSrem),
        "bvshl" => Binary(Op::BvShl),
        "bvlshr" => Binary(Op::BvLshr),
        "bvashr" => Binary(Op::BvAshr),
        "bvult" => Binary(Op::BvUlt),
        "bvule" => Binary(Op::BvUle),
        "bvslt" => Binary(Op::BvSlt),
        "bvsle" => Binary(Op::BvSle),
        "bvugt" => Swapped(Op::BvUlt),
        "bvuge" => Swapped(Op::BvUle),
        "bvsgt" => Swapped(Op::BvSlt),
        "bvsge" => Swapped(Op::BvSle),
        _ => return None,
    })
}

impl Reader<'_> {
    fn lookup(&self, name: &str) -> Option<Term> {
        self.scopes.iter().rev().find_map(|scope| scope.iter().find(|(n, _)| n == name).map(|(_, t)| t.clone()))
    }

    fn symbol(&self, name: &str, quoted: bool) -> Result<Term, String> {
        if let Some(t) = self.lookup(name) {
            return Ok(t);
        }
        if !quoted {
            match name {
                "true" => return Ok(Term::bool(true)),
                "false" => return Ok(Term::bool(false)),
                _ => {}
            }
            if is_numeral(name) {
                return numeral(name)
                    .and_then(|n| i128::try_from(n).ok())
                    .map(Term::int)
                    .ok_or_else(|| format!("the number {name} is too large"));
            }
            if let Some(bv) = bv_literal(name) {
                return bv;
            }
        }
        match (self.sort_of)(name) {
            Some(Sort::Bv(w)) if !(1..=64).contains(&w) => Err(format!("`{name}` has unsupported sort (_ BitVec {w})")),
            Some(sort) => Ok(Term::var(name, sort)),
            None => Err(format!("unknown symbol `{name}`")),
        }
    }

    fn term(&mut self, s: &Sexp, depth: usize) -> Result<Term, String> {
        if depth > MAX_DEPTH {
            return Err(format!("the term nests deeper than {MAX_DEPTH} levels"));
        }
        match s {
            Sexp::Atom(a) => self.symbol(a, false),
            Sexp::Quoted(a) => self.symbol(a, true),
            Sexp::Str(text) => Err(format!("a string \"{text}\" is not a term")),
            Sexp::List(items) => match items.as_slice() {
                [] => Err("`()` is not a term".into()),
                [Sexp::Atom(u), Sexp::Atom(bv), Sexp::Atom(w)] if u == "_" && bv.starts_with("bv") => {
                    let v = numeral(&bv[2..]).ok_or_else(|| format!("`(_ {bv} {w})` is not a bit-vector literal"))?;
                    let w = width(numeral(w).unwrap_or(0), &format!("(_ {bv} {w})"))?;
                    Ok(Term::bv(v as i128, w))
                }
                [head, rest @ ..] => self.application(head, rest, depth),
            },
        }
    }

    fn args(&mut self, rest: &[Sexp], depth: usize) -> Result<Vec<Term>, String> {
        rest.iter().map(|a| self.term(a, depth + 1)).collect()
    }

    fn application(&mut self, head: &Sexp, rest: &[Sexp], depth: usize) -> Result<Term, String> {
        // Indexed operators: ((_ extract 7 0) x) …
        if let Sexp::List(idx) = head {
            let args = self.args(rest, depth)?;
            return indexed(idx, args);
        }
        let Some(name) = head.symbol() else { return Err("an operator must be a symbol".into()) };
        match name {
            "let" => return self.let_term(rest, depth),
            "exists" | "forall" => return Err(format!("the formula still has a quantifier (`{name}`)")),
            "!" => {
                // Annotation `(! t :named n)`: the term itself.
                return match rest.first() {
                    Some(t) => self.term(t, depth + 1),
                    None => Err("`(!)` without a term".into()),
                };
            }
            _ => {}
        }
        let args = self.args(rest, depth)?;
        apply(name, args)
    }

    fn let_term(&mut self, rest: &[Sexp], depth: usize) -> Result<Term, String> {
        let [Sexp::List(bindings), body] = rest else {
            return Err("`let` needs a list of bindings and a body".into());
        };
        // Parallel binding: every bound term is read in the outer scope.
        let mut scope = Vec::new();
        for b in bindings {
            match b {
                Sexp::List(pair) if pair.len() == 2 => {
                    let name = pair[0].symbol().ok_or("a `let` binding must name a symbol")?;
                    let t = self.term(&pair[1], depth + 1)?;
                    scope.push((name.to_string(), t));
                }
                _ => return Err("a `let` binding must be `(name term)`".into()),
            }
        }
        self.scopes.push(scope);
        let body = self.term(body, depth + 1);
        self.scopes.pop();
        body
    }
}

fn need(args: &[Term], sort: Sort, name: &str) -> Result<(), String> {
    match args.iter().find(|a| a.sort() != sort) {
        Some(bad) => Err(format!("`{name}` expects {} arguments, but {bad} is {}", sort, bad.sort())),
        None => Ok(()),
    }
}

fn need_count(args: &[Term], ok: bool, name: &str, expected: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!("`{name}` expects {expected} argument(s), got {}", args.len()))
    }
}

fn same_sort(args: &[Term], name: &str) -> Result<(), String> {
    match args.first() {
        Some(a) => need(args, a.sort(), name),
        None => Ok(()),
    }
}

fn same_bv(args: &[Term], name: &str) -> Result<(), String> {
    match args.first().map(Term::sort) {
        Some(Sort::Bv(w)) => need(args, Sort::Bv(w), name),
        Some(other) => Err(format!("`{name}` expects bit-vector arguments, but {} is {}", args[0], other)),
        None => Ok(()),
    }
}

/// Pairwise `rel(a_i, a_{i+1})`, conjoined (SMT-LIB's chainable operators).
fn chain(args: Vec<Term>, rel: impl Fn(Term, Term) -> Term) -> Term {
    Term::and(args.windows(2).map(|w| rel(w[0].clone(), w[1].clone())).collect())
}

fn fold(args: Vec<Term>, f: impl Fn(Term, Term) -> Term) -> Term {
    let mut it = args.into_iter();
    let first = it.next().unwrap_or_else(|| Term::int(0));
    it.fold(first, f)
}

fn apply(name: &str, args: Vec<Term>) -> Result<Term, String> {
    let n = args.len();
    match name {
        "not" => {
            need_count(&args, n == 1, name, "1")?;
            need(&args, Sort::Bool, name)?;
            Ok(Term::not(args[0].clone()))
        }
        "and" | "or" => {
            need(&args, Sort::Bool, name)?;
            Ok(if name == "and" { Term::and(args) } else { Term::or(args) })
        }
        "=>" => {
            need_count(&args, n >= 2, name, "2 or more")?;
            need(&args, Sort::Bool, name)?;
            // Right-associative: a => (b => c).
            let mut it = args.into_iter().rev();
            let last = it.next().unwrap_or_else(|| Term::bool(true));
            Ok(it.fold(last, |acc, a| Term::or(vec![Term::not(a), acc])))
        }
        "xor" => {
            need_count(&args, n >= 2, name, "2 or more")?;
            need(&args, Sort::Bool, name)?;
            Ok(fold(args, Term::ne))
        }
        "=" | "distinct" => {
            need_count(&args, n >= 2, name, "2 or more")?;
            same_sort(&args, name)?;
            if name == "=" {
                return Ok(chain(args, Term::eq));
            }
            let mut out = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    out.push(Term::ne(args[i].clone(), args[j].clone()));
                }
            }
            Ok(Term::and(out))
        }
        "ite" => {
            need_count(&args, n == 3, name, "3")?;
            need(&args[..1], Sort::Bool, name)?;
            same_sort(&args[1..], name)?;
            let mut it = args.into_iter();
            match (it.next(), it.next(), it.next()) {
                (Some(c), Some(a), Some(b)) => Ok(Term::ite(c, a, b)),
                _ => Err("`ite` expects 3 arguments".into()),
            }
        }
        "<=" | "<" | ">=" | ">" => {
            need_count(&args, n >= 2, name, "2 or more")?;
            need(&args, Sort::Int, name)?;
            Ok(match name {
                "<=" => chain(args, Term::le),
                "<" => chain(args, Term::lt),
                ">=" => chain(args, |a, b| Term::le(b, a)),
                _ => chain(args, |a, b| Term::lt(b, a)),
            })
        }
        "+" | "*" => {
            need_count(&args, n >= 1, name, "1 or more")?;
            need(&args, Sort::Int, name)?;
            Ok(if name == "+" { fold(args, Term::add) } else { fold(args, Term::mul) })
        }
        "-" => {
            need_count(&args, n >= 1, name, "1 or more")?;
            need(&args, Sort::Int, name)?;
            Ok(if n == 1 { Term::neg(args[0].clone()) } else { fold(args, Term::sub) })
        }
        "div" | "mod" => {
            need_count(&args, n == 2, name, "2")?;
            need(&args, Sort::Int, name)?;
            let (a, b) = (args[0].clone(), args[1].clone());
            Ok(if name == "div" { Term::div(a, b) } else { Term::modulo(a, b) })
        }
        "abs" => {
            need_count(&args, n == 1, name, "1")?;
            need(&args, Sort::Int, name)?;
            let a = args[0].clone();
            Ok(Term::ite(Term::le(Term::int(0), a.clone()), a.clone(), Term::neg(a)))
        }
        _ => match bv_builder(name) {
            Some(b) => apply_bv(name, b, args),
            None => Err(format!("unknown operator `{name}`")),
        },
    }
}

fn apply_bv(name: &str, b: Builder, args: Vec<Term>) -> Result<Term, String> {
    let n = args.len();
    same_bv(&args, name)?;
    match b {
        Builder::Unary(op) => {
            need_count(&args, n == 1, name, "1")?;
            Ok(Term::bv1(op, args[0].clone()))
        }
        Builder::Fold(op) => {
            need_count(&args, n >= 2, name, "2 or more")?;
            Ok(fold(args, |a, b| Term::bv2(op, a, b)))
        }
        Builder::Binary(op) => {
            need_count(&args, n == 2, name, "2")?;
            Ok(Term::bv2(op, args[0].clone(), args[1].clone()))
        }
        Builder::Swapped(op) => {
            need_count(&args, n == 2, name, "2")?;
            Ok(Term::bv2(op, args[1].clone(), args[0].clone()))
        }
    }
}

fn indexed(idx: &[Sexp], args: Vec<Term>) -> Result<Term, String> {
    let text = || format!("(_ {})", idx.iter().skip(1).filter_map(Sexp::symbol).collect::<Vec<_>>().join(" "));
    let nums: Vec<Option<u128>> = idx.iter().skip(2).map(|s| s.symbol().and_then(numeral)).collect();
    let op_name = match idx {
        [u, op, ..] if u.is_atom("_") => op.symbol().unwrap_or(""),
        _ => return Err("an indexed operator must look like `(_ name index …)`".into()),
    };
    if args.len() != 1 {
        return Err(format!("`{}` expects 1 argument, got {}", text(), args.len()));
    }
    let w = match args[0].sort() {
        Sort::Bv(w) => w,
        other => return Err(format!("`{}` expects a bit-vector, but {} is {}", text(), args[0], other)),
    };
    let a = args[0].clone();
    match (op_name, nums.as_slice()) {
        ("extract", [Some(h), Some(l)]) if l <= h && *h < w as u128 => Ok(Term::bv1(Op::Extract(*h as u32, *l as u32), a)),
        ("zero_extend" | "sign_extend", [Some(k)]) if w as u128 + k <= 64 => {
            let k = *k as u32;
            if k == 0 {
                return Ok(a);
            }
            Ok(Term::bv1(if op_name == "zero_extend" { Op::ZeroExt(k) } else { Op::SignExt(k) }, a))
        }
        ("extract" | "zero_extend" | "sign_extend", _) => {
            Err(format!("`{}` does not fit a bit-vector of width {w} (at most 64 bits)", text()))
        }
        _ => Err(format!("unknown operator `{}`", text())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(_: &str) -> Option<Sort> {
        Some(Sort::Int)
    }

    #[test]
    fn reads_what_z3_prints() {
        let t = parse_term("(let ((a!1 (<= (+ y (* (- 1) z)) 1))) (or a!1 (not a!1)))", &ints).unwrap();
        assert_eq!(t.to_string(), "(or (<= (- y z) 1) (not (<= (- y z) 1)))");
        assert_eq!(parse_term("(- 5)", &ints).unwrap(), Term::int(-5));
        assert_eq!(parse_term("(= 0 (mod y 2))", &ints).unwrap().to_string(), "(= 0 (mod y 2))");
        assert_eq!(parse_term("#xff", &ints).unwrap(), Term::bv(255, 8));
        assert_eq!(parse_term("#b101", &ints).unwrap(), Term::bv(5, 3));
        assert_eq!(parse_term("(_ bv7 32)", &ints).unwrap(), Term::bv(7, 32));
        let bv = |_: &str| Some(Sort::Bv(8));
        assert_eq!(parse_term("((_ sign_extend 24) x)", &bv).unwrap().sort(), Sort::Bv(32));
        assert_eq!(parse_term("((_ extract 3 0) x)", &bv).unwrap().sort(), Sort::Bv(4));
        assert_eq!(parse_term("(bvsge x #x01)", &bv).unwrap().to_string(), "(bvsle (_ bv1 8) x)");
        assert_eq!(parse_term("|a b|", &ints).unwrap(), Term::var("a b", Sort::Int));
        assert_eq!(parse_term("|5|", &ints).unwrap(), Term::var("5", Sort::Int));
    }

    #[test]
    fn let_binds_in_parallel_and_nests() {
        let t = parse_term("(let ((x 1) (y x)) (let ((x (+ x 1))) (+ x y)))", &ints).unwrap();
        // y is bound to the free x; the inner x to 1 + 1.
        assert_eq!(t.to_string(), "(+ x 2)");
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        for bad in [
            "",
            "(",
            ")",
            "(+ 1 true)",
            "(foo 1)",
            "(exists ((x Int)) (= x y))",
            "((_ extract 40 0) #xff)",
            "#xg",
            "(_ bv1 0)",
            "(let ((x)) x)",
            "1 2",
            "\"s\"",
            "99999999999999999999999999999999999999999999",
        ] {
            assert!(parse_term(bad, &ints).is_err(), "{bad}");
        }
        assert!(parse_term("(+ x q)", &|n| (n == "x").then_some(Sort::Int)).unwrap_err().contains("`q`"));
        let deep = "(".repeat(100_000);
        assert!(parse_term(&deep, &ints).is_err());
    }
}
