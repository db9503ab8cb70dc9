//! The octagon state as the UI shows it: constraints, bounds, the DBM.

use super::*;

impl OctagonCpa {
    /// The readable view of an octagon state.
    pub fn octagon_view(&self, state: &OctagonState) -> OctagonView {
        let o = state.octagon.closed();
        // Under C every variable lies in its type's range: a bound that says
        // only that is left out of the text (it is what C guarantees anyway),
        // so `-2147483648 <= x <= 2147483647` does not crowd every state.
        let type_range = |v: usize| -> Option<(i64, i64)> {
            let ty = self.program.variables.get(v)?.ty;
            (self.options.int_model == IntModel::C)
                .then(|| Some((i64::try_from(ty.min_value()).ok()?, i64::try_from(ty.max_value()).ok()?)))
                .flatten()
        };
        let under_c = self.options.int_model == IntModel::C;
        let listed: Vec<(String, Vec<usize>)> = o
            .constraints(&self.names)
            .into_iter()
            .filter_map(|c| match c.vars[..] {
                [v] if type_range(v).is_some() => {
                    let (min, max) = type_range(v)?;
                    let i = o.interval(v);
                    let x = &self.names[v];
                    let text = match (i.lo().filter(|&l| l != min), i.hi().filter(|&h| h != max)) {
                        (None, None) => return None,
                        (Some(l), None) => format!("{x} >= {l}"),
                        (None, Some(h)) => format!("{x} <= {h}"),
                        _ => c.text,
                    };
                    Some((text, c.vars))
                }
                _ => Some((c.text, c.vars)),
            })
            .collect();
        // Only the variables with some finite bound or relation are shown
        // (under C: one the text above still lists).
        let n = self.n().min(o.vars());
        let dbm = o.dbm();
        let shown: Vec<usize> = if o.is_bottom() {
            Vec::new()
        } else if under_c {
            (0..n).filter(|v| listed.iter().any(|(_, vars)| vars.contains(v))).collect()
        } else {
            (0..n)
                .filter(|&v| {
                    (0..2 * n).any(|j| j / 2 != v && (!dbm.get(2 * v, j).is_inf() || !dbm.get(2 * v + 1, j).is_inf()))
                        || !dbm.get(2 * v, 2 * v + 1).is_inf()
                        || !dbm.get(2 * v + 1, 2 * v).is_inf()
                })
                .collect()
        };
        let constraints: Vec<String> = listed.into_iter().map(|(text, _)| text).collect();
        let names: Vec<String> = shown.iter().map(|&v| self.names[v].clone()).collect();
        let bounds = shown
            .iter()
            .map(|&v| {
                let i = o.interval(v);
                VarBounds { name: self.names[v].clone(), lo: i.lo(), hi: i.hi() }
            })
            .collect();
        let m = o.select(&shown).matrix(&names);
        OctagonView { constraints, bounds, labels: m.labels, cells: m.cells, bottom: o.is_bottom() }
    }
}
