//! Cell-wise loops over two DBMs of the same size (⊑, ⊔, ⊓, ∇).
//!
//! They are the whole cost of the lattice operations, so each is written as a
//! plain branch-free loop and compiled twice: once for the baseline CPU and
//! again with AVX2 and with AVX-512F (selected at run time), where `i64`
//! comparisons vectorize four or eight cells at a time. The baseline x86-64 target has no 64-bit vector
//! compare, so without the second copy these loops stay scalar.

use super::dbm::INF;

/// Runs `$body` compiled with AVX-512F or AVX2 when the CPU has it, else as is.
macro_rules! multiversion {
    ($(#[$doc:meta])* fn $name:ident($first:ident: $fty:ty $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)? $body:block) => {
        $(#[$doc])*
        pub(crate) fn $name($first: $fty $(, $arg: $ty)*) $(-> $ret)? {
            #[inline(always)]
            fn generic($first: $fty $(, $arg: $ty)*) $(-> $ret)? $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f")]
                unsafe fn avx512($first: $fty $(, $arg: $ty)*) $(-> $ret)? {
                    generic($first $(, $arg)*)
                }
                #[target_feature(enable = "avx2")]
                unsafe fn avx2($first: $fty $(, $arg: $ty)*) $(-> $ret)? {
                    generic($first $(, $arg)*)
                }
                // (Measured: even for n = 4 the vector versions win.)
                if std::is_x86_feature_detected!("avx512f") {
                    // SAFETY: AVX-512F is available (checked just above).
                    return unsafe { avx512($first $(, $arg)*) };
                }
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: AVX2 is available (checked just above).
                    return unsafe { avx2($first $(, $arg)*) };
                }
            }
            generic($first $(, $arg)*)
        }
    };
}

/// Other modules' cell loops (closure's relaxation) use the same dispatch.
pub(crate) use multiversion;

multiversion! {
    /// Whether `a[k] ≤ b[k]` for every cell (early exit per chunk).
    fn all_le(a: &[i64], b: &[i64]) -> bool {
        a.chunks(64).zip(b.chunks(64)).all(|(x, y)| x.iter().zip(y).fold(true, |ok, (p, q)| ok & (p <= q)))
    }
}

multiversion! {
    /// Cell-wise `max` (the join of closed DBMs).
    fn max_cells(a: &[i64], b: &[i64]) -> Vec<i64> {
        a.iter().zip(b).map(|(x, y)| (*x).max(*y)).collect()
    }
}

multiversion! {
    /// Cell-wise `min` (the meet).
    fn min_cells(a: &[i64], b: &[i64]) -> Vec<i64> {
        a.iter().zip(b).map(|(x, y)| (*x).min(*y)).collect()
    }
}

multiversion! {
    /// Standard widening cell-wise: keep `old` if `new ≤ old`, else `+∞`.
    fn widen_cells(old: &[i64], new: &[i64]) -> Vec<i64> {
        old.iter().zip(new).map(|(&o, &n)| if n > o { INF } else { o }).collect()
    }
}

multiversion! {
    /// Whether every cell is `+∞` or within `[−lim, lim]`.
    fn all_in_range(m: &[i64], lim: i64) -> bool {
        m.iter().fold(true, |ok, &v| ok & ((v == INF) | ((v >= -lim) & (v <= lim))))
    }
}
