//! The Octagon CPA's transfer relation: assignments (exact for octagonal
//! right-hand sides, split per wrap window under `c`), guards, calls and
//! returns (saving and restoring the callee's variables).

use super::*;

impl OctagonCpa {
    /// Adds the value to `o` as a linear expression: its exact form, or a
    /// fresh temporary dimension bounded by its interval (pushed on `temps`).
    pub(super) fn materialize(&self, o: &mut Octagon, a: &AVal, temps: &mut Vec<usize>) -> Option<Lin> {
        if let Some(l) = &a.lin {
            if l.to_linexpr().is_some() {
                return Some(l.clone());
            }
        }
        if a.itv.is_bottom() {
            return None;
        }
        let t = o.vars();
        o.add_vars(1);
        o.assign_interval(t, a.itv);
        temps.push(t);
        Some(Lin::var(t))
    }

    /// `l op r` as a guard on a copy of `o` (⊥ if it cannot hold).
    pub(super) fn guard_cmp(&self, o: &Octagon, l: &AVal, r: &AVal, op: BinOp) -> Octagon {
        let mut out = o.clone();
        let mut temps = Vec::new();
        let (Some(a), Some(b)) = (self.materialize(&mut out, l, &mut temps), self.materialize(&mut out, r, &mut temps)) else {
            return Octagon::bottom(o.vars());
        };
        let cmp = comparison_cmp(op).unwrap_or(Cmp::Ne);
        match a.add(&b, -1).and_then(|d| d.to_linexpr()) {
            Some(diff) => out.guard(&diff, cmp),
            None => {
                // Coefficients too large for the domain: only check the intervals.
                let feasible = match cmp {
                    Cmp::Lt => l.itv.lo().zip(r.itv.hi()).is_none_or(|(x, y)| x < y),
                    Cmp::Le => l.itv.lo().zip(r.itv.hi()).is_none_or(|(x, y)| x <= y),
                    Cmp::Gt => l.itv.hi().zip(r.itv.lo()).is_none_or(|(x, y)| x > y),
                    Cmp::Ge => l.itv.hi().zip(r.itv.lo()).is_none_or(|(x, y)| x >= y),
                    Cmp::Eq => !l.itv.meet(r.itv).is_bottom(),
                    Cmp::Ne => !(l.itv.as_constant().is_some() && l.itv.as_constant() == r.itv.as_constant()),
                };
                if !feasible {
                    return Octagon::bottom(o.vars());
                }
            }
        }
        if !temps.is_empty() {
            out.remove_vars(&temps);
        }
        out
    }

    /// `[cond]` (`positive`) or `[!(cond)]` on a copy of `o`.
    pub(super) fn assume(&self, o: &Octagon, cond: &Expr, positive: bool) -> Octagon {
        match cond {
            Expr::Unary { op: UnOp::LogNot, arg, .. } => self.assume(o, arg, !positive),
            Expr::Binary { op, lhs, rhs, .. } if op.is_comparison() => {
                let op = if positive { *op } else { op.negate_comparison().expect("comparison") };
                let l = self.eval(o, lhs);
                let r = self.eval(o, rhs);
                // A cast that wraps part of its operand's values (e.g.
                // `(unsigned) x` for an int x that may be negative): guard
                // each wrap window separately, exactly, and join the parts.
                if l.lin.is_none() {
                    if let Some(parts) = self.cast_split(o, lhs) {
                        return self.join_parts(o, parts.into_iter().map(|(p, l)| self.guard_cmp(&p, &l, &r, op)));
                    }
                }
                if r.lin.is_none() {
                    if let Some(parts) = self.cast_split(o, rhs) {
                        return self.join_parts(o, parts.into_iter().map(|(p, r)| self.guard_cmp(&p, &l, &r, op)));
                    }
                }
                self.guard_cmp(o, &l, &r, op)
            }
            Expr::Cast { ty, arg } => {
                // (T) a is non-zero iff a is, when the conversion keeps the
                // value or is the conversion to _Bool.
                let a = self.eval(o, arg);
                let keeps = *ty == IntType::Bool || (!self.c_model()) || a.itv.fits_in(ty.min_value(), ty.max_value());
                if keeps {
                    self.assume(o, arg, positive)
                } else {
                    let v = self.convert(a, *ty);
                    self.truth(o, &v, positive)
                }
            }
            _ => {
                let v = self.eval(o, cond);
                self.truth(o, &v, positive)
            }
        }
    }

    /// For `(T) a` under `c` whose operand has an exact linear form spanning
    /// exactly two wrap-around windows of `T`: the two parts of `o` (one per
    /// window) with the cast's exact value on each. `None` otherwise.
    pub(super) fn cast_split(&self, o: &Octagon, e: &Expr) -> Option<Vec<(Octagon, AVal)>> {
        let Expr::Cast { ty, arg } = e else { return None };
        if !self.c_model() || *ty == IntType::Bool || ty.bits() > 32 {
            return None;
        }
        let a = self.eval(o, arg);
        let lin = a.lin.clone()?;
        let (lo, hi) = (a.itv.lo()? as i128, a.itv.hi()? as i128);
        let (min, max) = (ty.min_value(), ty.max_value());
        let period = 1i128 << ty.bits();
        let (k_lo, k_hi) = ((lo - min).div_euclid(period), (hi - min).div_euclid(period));
        if k_hi - k_lo != 1 {
            return None;
        }
        let mut parts = Vec::new();
        for k in [k_lo, k_hi] {
            let (wlo, whi) = (min + k * period, max + k * period);
            let low = AVal { lin: Some(Lin::constant(wlo)), itv: itv_i128(Some(wlo), Some(wlo)) };
            let high = AVal { lin: Some(Lin::constant(whi)), itv: itv_i128(Some(whi), Some(whi)) };
            let part = self.guard_cmp(o, &a, &low, BinOp::Ge);
            let part = self.guard_cmp(&part, &a, &high, BinOp::Le);
            if part.is_bottom() {
                continue;
            }
            let itv = itv_i128(Some(lo.max(wlo) - k * period), Some(hi.min(whi) - k * period));
            parts.push((part, AVal { lin: lin.add(&Lin::constant(-k * period), 1), itv }.normalized()));
        }
        Some(parts)
    }

    /// The octagon hull of the parts (⊥ when all are ⊥).
    pub(super) fn join_parts(&self, o: &Octagon, parts: impl Iterator<Item = Octagon>) -> Octagon {
        parts.filter(|p| !p.is_bottom()).reduce(|a, b| a.join(&b)).unwrap_or_else(|| Octagon::bottom(o.vars()))
    }

    pub(super) fn truth(&self, o: &Octagon, v: &AVal, positive: bool) -> Octagon {
        let zero = AVal { lin: Some(Lin::constant(0)), itv: Interval::constant(0) };
        self.guard_cmp(o, v, &zero, if positive { BinOp::Ne } else { BinOp::Eq })
    }

    /// `x := a` (with `a` already converted to `x`'s type).
    pub(super) fn assign(&self, o: &mut Octagon, x: usize, a: &AVal) {
        if a.itv.is_bottom() {
            *o = Octagon::bottom(o.vars());
            return;
        }
        match a.lin.as_ref().and_then(Lin::to_linexpr) {
            Some(e) => {
                o.assign(x, &e);
                if let Some(h) = a.itv.hi() {
                    o.guard(&LinExpr::new(vec![(x, 1)], -h), Cmp::Le);
                }
                if let Some(l) = a.itv.lo() {
                    o.guard(&LinExpr::new(vec![(x, 1)], -l), Cmp::Ge);
                }
            }
            None => o.assign_interval(x, a.itv),
        }
    }

    /// `var := rhs` with conversion to `var`'s type.
    pub(super) fn assign_rhs(&self, o: &mut Octagon, var: VarId, rhs: &Rhs) {
        let ty = self.var_ty(var);
        let a = match rhs {
            Rhs::Expr(e) => self.eval(o, e),
            // A read of memory or a new object: memory is not tracked, so any value.
            Rhs::Nondet(_) | Rhs::Load { .. } | Rhs::Alloc { .. } => {
                AVal::of_itv(self.unknown_of(rhs.havoc_type().unwrap_or(ty)))
            }
        };
        let a = self.convert(a, ty);
        self.assign(o, var.0 as usize, &a);
    }

    /// `var := e`, split by wrap-around under `c`: when the top-level
    /// operation of `e` has an exact linear form whose interval spans two
    /// wrap-around windows of its type (e.g. `w + 1` for any unsigned `w`),
    /// the octagon is split on the window (`w + 1 ≤ UINT_MAX` or not) and
    /// each part gets the exact, shifted assignment — two successors
    /// instead of one that forgets every relation of `var`. Otherwise one
    /// successor, as [`Self::assign_rhs`].
    pub(super) fn assign_expr_split(&self, o: &Octagon, var: VarId, e: &Expr) -> Vec<Octagon> {
        let single = || {
            let mut o = o.clone();
            self.assign_rhs(&mut o, var, &Rhs::Expr(e.clone()));
            vec![o]
        };
        if !self.c_model() {
            return single();
        }
        let (raw, ty) = match e {
            Expr::Binary { op: op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), ty, lhs, rhs } => {
                let l = self.eval(o, lhs);
                let r = self.eval(o, rhs);
                (self.arith(*op, *ty, &l, &r).normalized(), *ty)
            }
            Expr::Unary { op: UnOp::Neg, ty, arg } => {
                let a = self.eval(o, arg);
                (AVal { lin: a.lin.and_then(|l| l.scale(-1)), itv: a.itv.neg() }.normalized(), *ty)
            }
            Expr::Cast { ty, arg } => (self.eval(o, arg), *ty),
            _ => return single(),
        };
        let var_ty = self.var_ty(var);
        if ty == IntType::Bool || var_ty != ty || ty.bits() > 32 {
            return single();
        }
        let (Some(lin), Some(lo), Some(hi)) = (raw.lin.clone(), raw.itv.lo(), raw.itv.hi()) else { return single() };
        let (min, max) = (ty.min_value(), ty.max_value());
        if raw.itv.fits_in(min, max) || lin.to_linexpr().is_none() {
            return single();
        }
        let period = 1i128 << ty.bits();
        let k_lo = (lo as i128 - min).div_euclid(period);
        let k_hi = (hi as i128 - min).div_euclid(period);
        if k_hi - k_lo != 1 {
            return single();
        }
        let mut out = Vec::new();
        for k in [k_lo, k_hi] {
            let (wlo, whi) = (min + k * period, max + k * period);
            let low = AVal { lin: Some(Lin::constant(wlo)), itv: itv_i128(Some(wlo), Some(wlo)) };
            let high = AVal { lin: Some(Lin::constant(whi)), itv: itv_i128(Some(whi), Some(whi)) };
            let mut part = self.guard_cmp(o, &raw, &low, BinOp::Ge);
            part = self.guard_cmp(&part, &raw, &high, BinOp::Le);
            if part.is_bottom() {
                continue;
            }
            // Re-evaluate on the part: the linear form is the same, the
            // interval is now inside the window.
            let value = AVal { lin: lin.add(&Lin::constant(-k * period), 1), itv: Interval::TOP };
            let itv = itv_i128(Some(lo.max(wlo as i64) as i128 - k * period), Some(hi.min(whi as i64) as i128 - k * period));
            let value = AVal { lin: value.lin, itv }.normalized();
            self.assign(&mut part, var.0 as usize, &value);
            if !part.is_bottom() {
                out.push(part);
            }
        }
        out
    }

    /// `var := anything of its type`.
    pub(super) fn havoc(&self, o: &mut Octagon, var: VarId) {
        let itv = self.unknown_of(self.var_ty(var));
        o.assign_interval(var.0 as usize, itv);
    }

    /// The variables of an activation of `f`: parameters, locals and
    /// temporaries, the return slot.
    pub(super) fn frame_vars(&self, f: FuncId) -> Vec<usize> {
        let mut vars: Vec<usize> = self.program.frame_variables(f).into_iter().map(|v| v.0 as usize).collect();
        vars.sort_unstable();
        vars.dedup();
        vars
    }

    pub(super) fn call(&self, state: &OctagonState, callee: FuncId, args: &[Expr]) -> OctagonState {
        let mut o = state.octagon.clone();
        let n = o.vars();
        let params: Vec<VarId> = self.program.functions.get(callee.0 as usize).map(|f| f.params.clone()).unwrap_or_default();
        let vals: Vec<AVal> = args.iter().map(|a| self.eval(&o, a)).collect();
        let vars = self.frame_vars(callee);
        let saved = o.select(&vars);
        // Arguments into temporaries (evaluated in the caller's context).
        o.add_vars(vals.len());
        for (i, (p, v)) in params.iter().zip(&vals).enumerate() {
            let v = self.convert(v.clone(), self.var_ty(*p));
            self.assign(&mut o, n + i, &v);
        }
        for &v in &vars {
            self.havoc(&mut o, VarId(v as u32));
        }
        for (i, p) in params.iter().enumerate().take(vals.len()) {
            o.assign(p.0 as usize, &LinExpr::var(n + i));
        }
        let temps: Vec<usize> = (n..n + vals.len()).collect();
        o.remove_vars(&temps);
        let mut frames = state.frames.clone();
        frames.push(saved);
        OctagonState { octagon: o, frames, at_loop_head: state.at_loop_head }
    }

    pub(super) fn ret(&self, state: &OctagonState, callee: FuncId, result: Option<VarId>) -> OctagonState {
        let mut o = state.octagon.clone();
        let n = o.vars();
        let slot = self.program.functions.get(callee.0 as usize).and_then(|f| f.ret);
        let temp = match (result, slot) {
            (Some(_), Some(s)) => {
                o.add_vars(1);
                o.assign(n, &LinExpr::var(s.0 as usize));
                Some(n)
            }
            _ => None,
        };
        let vars = self.frame_vars(callee);
        for &v in &vars {
            o.forget(v);
        }
        let mut frames = state.frames.clone();
        // A frame saved for another callee (only reachable without the
        // Callstack CPA) is not restored: the callee's variables stay unknown.
        if let Some(saved) = frames.pop().filter(|s| s.vars() == vars.len()) {
            o = o.meet(&embed(&saved, &vars, o.vars()));
            o.close();
        } else {
            for &v in &vars {
                self.havoc(&mut o, VarId(v as u32));
            }
        }
        if let Some(r) = result {
            let ty = self.var_ty(r);
            match temp {
                Some(t) => {
                    let a = AVal { lin: Some(Lin::var(t)), itv: o.interval(t) }.normalized();
                    let a = self.convert(a, ty);
                    self.assign(&mut o, r.0 as usize, &a);
                }
                None => self.havoc(&mut o, r),
            }
        }
        if let Some(t) = temp {
            o.remove_vars(&[t]);
        }
        OctagonState { octagon: o, frames, at_loop_head: state.at_loop_head }
    }
}

/// The octagon over `n` variables whose constraints on `vars[k]` are those of
/// `saved` on `k` (and none on other variables).
fn embed(saved: &Octagon, vars: &[usize], n: usize) -> Octagon {
    if saved.is_bottom() {
        return Octagon::bottom(n);
    }
    let s = saved.closed();
    let d = s.dbm();
    let mut out = Dbm::top(n);
    let k = vars.len().min(d.vars());
    for a in 0..2 * k {
        for b in 0..2 * k {
            let (i, j) = (2 * vars[a / 2] + a % 2, 2 * vars[b / 2] + b % 2);
            out.set(i, j, d.get(a, b));
        }
    }
    Octagon::from_dbm(out)
}

impl TransferRelation for OctagonCpa {
    type State = OctagonState;
    type Precision = TrackingPrecision;

    fn successors(&self, state: &OctagonState, edge: &Edge, _p: &TrackingPrecision) -> Result<Vec<OctagonState>, TransferError> {
        let at_loop_head = self.program.nodes.get(edge.target.0 as usize).is_some_and(|n| n.loop_head);
        let mut next = match &edge.kind {
            // A write to memory or `free` changes no variable: every variable
            // that lives in memory holds its object's address, which stays.
            EdgeKind::Blank | EdgeKind::Terminate | EdgeKind::ReachError | EdgeKind::Store { .. } | EdgeKind::Free { .. } => {
                state.clone()
            }
            EdgeKind::Declare { var, init: Some(Rhs::Expr(e)) } | EdgeKind::Assign { var, rhs: Rhs::Expr(e) } => {
                let parts = self.assign_expr_split(&state.octagon, *var, e);
                let mut out = Vec::with_capacity(parts.len());
                for octagon in parts {
                    if !octagon.is_bottom() {
                        out.push(OctagonState { octagon, frames: state.frames.clone(), at_loop_head });
                    }
                }
                return Ok(out);
            }
            EdgeKind::Declare { var, init } => {
                let mut s = state.clone();
                match init {
                    Some(rhs) => self.assign_rhs(&mut s.octagon, *var, rhs),
                    None => self.havoc(&mut s.octagon, *var),
                }
                s
            }
            EdgeKind::Assign { var, rhs } => {
                let mut s = state.clone();
                self.assign_rhs(&mut s.octagon, *var, rhs);
                s
            }
            EdgeKind::Assume { cond, positive } => {
                let mut s = state.clone();
                s.octagon = self.assume(&state.octagon, cond, *positive);
                s
            }
            EdgeKind::Call { callee, args, .. } => self.call(state, *callee, args),
            EdgeKind::Return { callee, result, .. } => self.ret(state, *callee, *result),
            EdgeKind::ReturnStatement { value } => {
                let mut s = state.clone();
                let slot = self.program.return_slot_at(edge.source);
                if let (Some(slot), Some(e)) = (slot, value) {
                    self.assign_rhs(&mut s.octagon, slot, &Rhs::Expr(e.clone()));
                }
                s
            }
        };
        if next.octagon.is_bottom() {
            return Ok(vec![]);
        }
        next.at_loop_head = at_loop_head;
        Ok(vec![next])
    }
}

/// The guard relation `⋈` of a comparison operator (`l op r` holds iff
/// `l − r ⋈ 0`); `None` for an operator that is not a comparison.
pub(crate) fn comparison_cmp(op: BinOp) -> Option<Cmp> {
    Some(match op {
        BinOp::Lt => Cmp::Lt,
        BinOp::Le => Cmp::Le,
        BinOp::Gt => Cmp::Gt,
        BinOp::Ge => Cmp::Ge,
        BinOp::Eq => Cmp::Eq,
        BinOp::Ne => Cmp::Ne,
        _ => return None,
    })
}
