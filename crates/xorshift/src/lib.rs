//! Marsaglia's xorshift64 generator, the project's one source of seeded
//! randomness: the random programs and inputs of `progen`, the concrete
//! interpreter's random inputs (`concrete::RandomInputs`), and the
//! randomized tests and benchmarks all draw from [`XorShift`], so a
//! seed printed by a failing run reproduces it on any machine and target
//! (no dependencies, no platform randomness; it compiles for wasm32).
//!
//! It is not a statistically strong generator and never meant to be
//! unpredictable: it picks programs, inputs and mutations.

/// Marsaglia's xorshift64 generator (shifts 13, 7, 17): deterministic and
/// seedable; a zero seed is replaced by a fixed non-zero one (zero is the
/// generator's only fixed point).
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// The seed used in place of 0 (2^64 / φ, φ the golden ratio).
    pub const ZERO_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

    /// A generator from a seed (0 is replaced by [`Self::ZERO_SEED`]).
    pub fn new(seed: u64) -> Self {
        XorShift(if seed == 0 { Self::ZERO_SEED } else { seed })
    }

    /// A generator from a small seed (1, 2, 3, ...) spread over all 64
    /// bits first (multiplied by 2^64 / φ, made odd), so that neighbouring
    /// seeds start far apart.
    pub fn scrambled(seed: u64) -> Self {
        XorShift::new(seed.wrapping_mul(Self::ZERO_SEED) | 1)
    }

    /// The next 64 random bits (also the generator's new state).
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (0 when `n` is 0), from the next 64 bits.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }

    /// An index into a slice of length `len` (0 when `len` is 0): [`Self::below`] as `usize`.
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xorshift_is_deterministic_and_bounded() {
        let (mut a, mut b) = (XorShift::new(7), XorShift::new(7));
        let xs: Vec<u64> = (0..100).map(|_| a.below(10)).collect();
        let ys: Vec<u64> = (0..100).map(|_| b.below(10)).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|&x| x < 10));
        assert!(xs.iter().any(|&x| x != xs[0]));
        assert_eq!(XorShift::new(0).below(0), 0);
        assert_eq!(XorShift::new(3).index(0), 0);
    }

    #[test]
    fn the_stream_is_marsaglias_xorshift64() {
        // The first outputs for seed 1 (shifts 13, 7, 17, worked out by
        // hand): a changed generator would change every seeded run.
        let mut g = XorShift::new(1);
        let first: Vec<u64> = (0..3).map(|_| g.next_u64()).collect();
        assert_eq!(first, [1_082_269_761, 1_152_992_998_833_853_505, 11_177_516_664_432_764_457]);
        assert_eq!(XorShift::new(0).next_u64(), XorShift::new(XorShift::ZERO_SEED).next_u64());
        // Seed 1 scrambled is 2^64 / φ itself (odd already); seed 2 starts elsewhere.
        assert_eq!(XorShift::scrambled(1).next_u64(), XorShift::new(0x9E37_79B9_7F4A_7C15).next_u64());
        assert_ne!(XorShift::scrambled(1).next_u64(), XorShift::scrambled(2).next_u64());
    }
}
