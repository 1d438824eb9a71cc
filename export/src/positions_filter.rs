//! The filters of the `positions` tables ([`PositionOptions`]): the ply bounds and the sample,
//! applied row by row as a game is replayed ([`PlyFilter`]), and the set of keys seen that
//! keeps one row per distinct position, applied where the rows come in input order
//! ([`DistinctKeys`]).

use crate::PositionOptions;

/// SplitMix64's output function: a bijection of `u64` whose every output bit depends on every
/// input bit.
const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a (64 bits) of `bytes`, continued from `h`.
pub(crate) fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// FNV-1a's offset basis.
pub(crate) const FNV_START: u64 = 0xCBF2_9CE4_8422_2325;

/// A sample of the positions: each kept with probability `rate`, decided by a hash of the
/// seed, the game and the position, so that the same input and seed keep the same rows at
/// every thread count, in any order of the inputs.
///
/// The decision, for the record (it is stable: a seed keeps the same rows in every release):
/// a game's state starts as `mix(seed ^ mix(salt))`, `salt` the game's own (PGN: FNV-1a 64 of
/// its tags, each name and value followed by a zero byte, in order; SGF: the `game_key`
/// column, a hash of the board size and the main line's moves); at each position of the main
/// line, the start included, `state = mix(state ^ key)` (`key` the row's `key` column as
/// unsigned bits), and the row is kept when `state < rate × 2⁶⁴`; `mix` is SplitMix64's
/// output function. So a position's fate depends on the game's tags and on every position
/// before it: two games alike up to a position share their fate up to there, no more.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    rate: f64,
    seed: u64,
    /// Kept when the state is below; `u64::MAX` keeps every row.
    threshold: u64,
}

impl Sample {
    /// A sample of `rate` (0 < rate ≤ 1: `None` for any other value) with `seed`.
    pub fn new(rate: f64, seed: u64) -> Option<Sample> {
        if !(rate > 0.0 && rate <= 1.0) {
            return None;
        }
        let threshold = if rate == 1.0 {
            u64::MAX
        } else {
            // saturating: a rate a hair under 1 keeps all but 1 in 2⁶⁴
            (rate * 18_446_744_073_709_551_616.0) as u64
        };
        Some(Sample {
            rate,
            seed,
            threshold,
        })
    }

    /// The share of the positions kept.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The state at the start of a game whose salt is `salt`.
    fn start(&self, salt: u64) -> u64 {
        mix(self.seed ^ mix(salt))
    }

    /// The next position, `key`: the state stepped; whether its row is kept.
    fn step(&self, state: &mut u64, key: u64) -> bool {
        *state = mix(*state ^ key);
        self.threshold == u64::MAX || *state < self.threshold
    }
}

/// One row per distinct position ([`PositionOptions::distinct`]): the memory the set of keys
/// seen may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distinct {
    /// The bytes the set of keys may hold: it doubles as it fills, up to the largest power of
    /// two of 8-byte slots that fits, filled to 7/8 ([`DistinctKeys::capacity`]: 512 MiB hold
    /// 58.7 million keys). While it doubles, the old half is held too (1.5 times for a
    /// moment). Past its capacity see [`DistinctKeys`].
    pub memory: usize,
}

impl Distinct {
    /// The default memory: 512 MiB.
    pub const DEFAULT_MEMORY: usize = 512 << 20;
}

impl Default for Distinct {
    fn default() -> Self {
        Distinct {
            memory: Distinct::DEFAULT_MEMORY,
        }
    }
}

/// The keys seen, to keep the first row of each position: an open-addressing set of 64-bit
/// keys (linear probing, 8 bytes a slot, at most 7/8 full), bounded by [`Distinct::memory`].
///
/// **Past its capacity** the set stops growing: a key it holds is still a repeat (its row
/// dropped), but a key it does not hold can no longer be remembered, so its row is kept
/// unchecked ([`unchecked`](Self::unchecked) counts them): such positions may repeat in the
/// output. The rows kept are then still a function of the input order alone.
///
/// ```
/// use kifu_export::{Distinct, DistinctKeys};
///
/// let mut seen = DistinctKeys::new(Distinct::default());
/// assert!(seen.first(42));
/// assert!(!seen.first(42));
/// assert!(seen.first(0));
/// assert_eq!((seen.len(), seen.dropped(), seen.unchecked()), (2, 1, 0));
///
/// let mut small = DistinctKeys::new(Distinct { memory: 8 * 1024 });
/// assert_eq!(small.capacity(), 896);
/// for key in 1..=1000 {
///     assert!(small.first(key));
/// }
/// assert!(small.is_full());
/// assert!(!small.first(5)); // remembered: a repeat
/// assert!(small.first(1000)); // not remembered: kept again, unchecked
/// assert_eq!((small.len(), small.dropped(), small.unchecked()), (896, 1, 105));
/// ```
#[derive(Clone, Debug)]
pub struct DistinctKeys {
    /// 0 is an empty slot (the key 0 is [`zero`](Self::zero)).
    slots: Vec<u64>,
    len: usize,
    max_slots: usize,
    zero: bool,
    full: bool,
    dropped: u64,
    unchecked: u64,
}

impl DistinctKeys {
    /// The fewest slots, whatever the memory given.
    const MIN_SLOTS: usize = 1024;
    /// The slots a set starts with (it doubles from there).
    const START_SLOTS: usize = 1 << 16;

    /// An empty set bounded by `limit`.
    pub fn new(limit: Distinct) -> DistinctKeys {
        let most = (limit.memory / 8).max(Self::MIN_SLOTS);
        // the largest power of two not above `most`
        let max_slots = 1usize << (usize::BITS - 1 - most.leading_zeros());
        DistinctKeys {
            slots: vec![0; max_slots.min(Self::START_SLOTS)],
            len: 0,
            max_slots,
            zero: false,
            full: false,
            dropped: 0,
            unchecked: 0,
        }
    }

    /// The most keys the set holds.
    pub fn capacity(&self) -> usize {
        self.max_slots / 8 * 7
    }

    /// Whether `key` comes for the first time (its row is kept): `false` for a repeat (its
    /// row dropped, counted in [`dropped`](Self::dropped)). Past the capacity, a key not held
    /// is `true` and counted in [`unchecked`](Self::unchecked).
    pub fn first(&mut self, key: u64) -> bool {
        if key == 0 {
            if self.zero {
                self.dropped += 1;
                return false;
            }
            if self.full {
                self.unchecked += 1;
                return true;
            }
            self.zero = true;
            self.len += 1;
            return true;
        }
        let mut at = self.find(key);
        if self.slots[at] == key {
            self.dropped += 1;
            return false;
        }
        if self.full {
            self.unchecked += 1;
            return true;
        }
        if self.len + 1 > self.slots.len() / 8 * 7 {
            if self.slots.len() >= self.max_slots {
                self.full = true;
                self.unchecked += 1;
                return true;
            }
            self.grow();
            at = self.find(key);
        }
        self.slots[at] = key;
        self.len += 1;
        true
    }

    /// The slot holding `key`, or the empty slot where it goes.
    fn find(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = mix(key) as usize & mask;
        loop {
            let s = self.slots[at];
            if s == 0 || s == key {
                return at;
            }
            at = (at + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let doubled = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        for key in old.into_iter().filter(|&k| k != 0) {
            let at = self.find(key);
            self.slots[at] = key;
        }
    }

    /// The distinct keys held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no key is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the set reached its capacity (new keys are no longer remembered).
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// The repeats seen: rows dropped.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The rows kept without a check, their key new once the set was full.
    pub fn unchecked(&self) -> u64 {
        self.unchecked
    }

    /// The bytes the set holds now.
    pub fn memory(&self) -> usize {
        self.slots.len() * 8
    }
}

/// The row filters a builder applies as it replays a game: the ply bounds and the sample.
#[derive(Clone, Debug)]
pub(crate) struct PlyFilter {
    pub(crate) min_ply: usize,
    pub(crate) max_ply: usize,
    pub(crate) legal_only: bool,
    sample: Option<Sample>,
}

impl PlyFilter {
    pub(crate) fn new(opts: &PositionOptions) -> PlyFilter {
        PlyFilter {
            min_ply: opts.min_ply as usize,
            max_ply: opts.max_ply.map_or(usize::MAX, |m| m as usize),
            legal_only: opts.legal_only,
            sample: opts.sample,
        }
    }

    /// Whether a game's rows depend on its salt (a sample is taken).
    pub(crate) fn samples(&self) -> bool {
        self.sample.is_some()
    }

    /// The sampling state at the start of a game of `salt` (0 without a sample).
    pub(crate) fn start(&self, salt: u64) -> u64 {
        self.sample.map_or(0, |s| s.start(salt))
    }

    /// Whether the row of the position at `ply` whose key is `key` is kept, the state stepped
    /// (call it for every position of a game, in order, kept or not).
    pub(crate) fn keep(&self, state: &mut u64, ply: usize, key: impl FnOnce() -> u64) -> bool {
        let sampled = match &self.sample {
            Some(s) => s.step(state, key()),
            None => true,
        };
        sampled && ply >= self.min_ply && ply <= self.max_ply
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_keeps_about_its_rate_and_is_a_function_of_its_inputs() {
        let s = Sample::new(0.25, 7).unwrap();
        let (mut kept, n) = (0, 100_000u64);
        for game in 0..1000u64 {
            let mut state = s.start(game);
            let mut again = s.start(game);
            for ply in 0..100u64 {
                let key = mix(ply * 31 + game);
                let k = s.step(&mut state, key);
                assert_eq!(k, s.step(&mut again, key));
                kept += u64::from(k);
            }
        }
        let share = kept as f64 / n as f64;
        assert!((0.24..0.26).contains(&share), "{share}");
        assert!(Sample::new(1.0, 0).unwrap().step(&mut 0, 5));
        for bad in [0.0, -0.5, 1.5, f64::NAN, f64::INFINITY] {
            assert!(Sample::new(bad, 0).is_none(), "{bad}");
        }
    }

    #[test]
    fn distinct_keys_against_a_hash_set() {
        let mut seen = DistinctKeys::new(Distinct::default());
        let mut reference = std::collections::HashSet::new();
        for i in 0..300_000u64 {
            // many repeats, and growth past the starting slots
            let key = mix(i % 100_003);
            assert_eq!(seen.first(key), reference.insert(key), "{i}");
        }
        assert_eq!(seen.len(), reference.len());
        assert_eq!(seen.dropped(), 300_000 - 100_003);
        assert!(!seen.is_full());
    }

    #[test]
    fn a_full_set_keeps_what_it_cannot_remember() {
        let mut seen = DistinctKeys::new(Distinct { memory: 1 });
        assert_eq!(seen.capacity(), 896);
        for key in 1..=2000 {
            assert!(seen.first(key));
        }
        assert!(seen.is_full());
        assert_eq!(seen.len(), 896);
        assert_eq!(seen.unchecked(), 2000 - 896);
        // the first 896 keys are remembered
        assert!(!seen.first(1) && !seen.first(896));
        assert!(seen.first(897));
        assert!(seen.memory() <= 8 * 1024);
    }
}
