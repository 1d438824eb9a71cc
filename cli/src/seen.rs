//! The games `kifu dedup` has seen, in about 13 bytes each: 96 bits of each game's 128-bit key,
//! in one sorted array, with the keys met since its last merge in a small hash set beside it.
//!
//! A hash set of 128-bit keys takes 17 bytes a bucket at a load of 44 to 87% (19 to 39 bytes a
//! game), and twice that while it grows: `kifu dedup` of 2,000,000 distinct games peaked at
//! 117 MB, 50 bytes a game. Here the sorted array holds 12 bytes a game and grows in place;
//! the recent keys (at most 1/32 of the array, and 4,096) are sorted and merged into it from
//! its end, in place, when they reach that share. So a game costs 12 bytes, plus about 1 in
//! the recent set and its sorting: 13.3 at the peak. A lookup is a binary search and a hash
//! probe; a merge moves the array once, so each game is moved about 32 times in all, at memory
//! speed.
//!
//! 96 bits of a good hash keep distinct games apart: among ten billion games, two distinct
//! ones share a key with a probability under 10⁻⁹.

use std::collections::HashSet;

/// 96 bits of a game's key.
type Key = [u32; 3];

/// The keys seen.
#[derive(Debug, Default)]
pub struct Seen {
    /// Every key merged so far, sorted, no two alike.
    sorted: Vec<Key>,
    /// The keys met since the last merge.
    recent: HashSet<Key>,
}

impl Seen {
    /// The recent keys are merged when they reach this share of the sorted ones (or 4,096).
    const SHARE: usize = 32;
    const MIN_RECENT: usize = 4096;

    /// An empty set.
    pub fn new() -> Seen {
        Seen::default()
    }

    /// Adds `key` (a game's 128-bit key, of which 96 bits are kept); whether it was new.
    pub fn insert(&mut self, key: u128) -> bool {
        let k = [(key >> 96) as u32, (key >> 64) as u32, key as u32];
        if self.sorted.binary_search(&k).is_ok() || !self.recent.insert(k) {
            return false;
        }
        if self.recent.len() >= (self.sorted.len() / Self::SHARE).max(Self::MIN_RECENT) {
            self.merge();
        }
        true
    }

    /// How many keys are held.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.sorted.len() + self.recent.len()
    }

    /// The recent keys into the sorted ones, in place: the array grows by their number
    /// (exactly: a large block grows where it is), and is filled from its end.
    fn merge(&mut self) {
        let mut new: Vec<Key> = self.recent.drain().collect();
        self.recent.shrink_to(Self::MIN_RECENT);
        new.sort_unstable();
        let old = self.sorted.len();
        self.sorted.reserve_exact(new.len());
        self.sorted.resize(old + new.len(), [0; 3]);
        let (mut i, mut j, mut at) = (old, new.len(), old + new.len());
        while j > 0 {
            at -= 1;
            if i > 0 && self.sorted[i - 1] > new[j - 1] {
                self.sorted[at] = self.sorted[i - 1];
                i -= 1;
            } else {
                self.sorted[at] = new[j - 1];
                j -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key that looks random (SplitMix64 twice).
    fn key(i: u64) -> u128 {
        let mix = |mut z: u64| {
            z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        u128::from(mix(i)) << 64 | u128::from(mix(i ^ 0xdead_beef))
    }

    #[test]
    fn it_answers_as_a_hash_set_does_across_merges() {
        let mut seen = Seen::new();
        let mut all = HashSet::new();
        // 300,000 keys, each met twice or three times in an order that mixes old and new
        for round in 0..3u64 {
            for i in 0..100_000u64 {
                let k = key(i * 3 % 100_000 + round * 50_000);
                assert_eq!(seen.insert(k), all.insert(k), "key {i}, round {round}");
            }
        }
        assert_eq!(seen.len(), all.len());
        assert!(seen.sorted.windows(2).all(|w| w[0] < w[1]));
        assert!(seen.sorted.len() > 150_000, "merged");
    }

    #[test]
    fn it_takes_about_13_bytes_a_key() {
        let mut seen = Seen::new();
        for i in 0..1_000_000 {
            assert!(seen.insert(key(i)));
        }
        let bytes = seen.sorted.capacity() * size_of::<Key>()
            + seen.recent.capacity() * (size_of::<Key>() + 1);
        let per = bytes as f64 / 1e6;
        assert!(per <= 14.0, "{per} bytes a key");
    }
}
