//! Values of any length kept in a bounded form, and names close to a misspelt one.
//!
//! A key's value (a tag, an SGF property: megabytes, for a hostile input) is kept whole up to
//! [`KEPT_BYTES`] bytes; a longer one as its first bytes, its length and two 64-bit hashes of
//! the whole ([`Bounded`]), so that two long values that begin alike are never merged, and
//! memory never grows with a value. Every place that groups, names or partitions by a value
//! uses this one form: `kifu stats --by` (its rows), `kifu split --by` (its files), `kifu
//! export --partition-by` (its folders). kifu-pipeline's `keys` module, the home of the keys a
//! user names, re-exports it.
//!
//! [`close_matches`] gives the names a misspelt one may have meant (`Whiteelo` → `WhiteElo`),
//! for the usage errors of every frontend.

use std::hash::Hasher;

/// The most bytes of a value kept whole; of a longer one, this many first bytes (cut at a
/// character boundary) are kept, with its length and hashes of the whole.
pub const KEPT_BYTES: usize = 100;

/// A value as it is kept: whole up to [`KEPT_BYTES`] bytes, else its first bytes with its
/// length and two hashes of the whole (FNV-1a, which names show, the same in every build;
/// and SipHash), which keep apart long values that begin alike.
///
/// ```
/// use kifu_output::bounded::Bounded;
/// let a = format!("{}a", "x".repeat(5000));
/// let b = format!("{}b", "x".repeat(5000));
/// assert_ne!(Bounded::of(&a), Bounded::of(&b));
/// assert_eq!(Bounded::of(&a), Bounded::of(&a));
/// assert_eq!(Bounded::of("Carlsen").shown(), "Carlsen");
/// assert!(Bounded::of(&a).shown().starts_with("xxxx"));
/// assert!(Bounded::of(&a).shown().len() < 200);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bounded {
    /// The value, or its first bytes.
    pub prefix: String,
    /// For a longer value: its length in bytes, its FNV-1a hash and its SipHash.
    pub whole: Option<(u64, u64, u64)>,
}

impl Bounded {
    /// `value`, bounded.
    pub fn of(value: &str) -> Bounded {
        let mut b = BoundedBuilder::default();
        b.push(value);
        b.finish()
    }

    /// The FNV-1a hash of a long value (`None` for a value kept whole).
    pub fn hash(&self) -> Option<u64> {
        self.whole.map(|(_, fnv, _)| fnv)
    }

    /// The value for a person: whole, or its first bytes, `…` and its length and hash
    /// (`xxx… (5001 bytes, #0123456789abcdef)`). Two values have the same text only if they
    /// are the same (or their 64-bit hashes and lengths collide).
    pub fn shown(&self) -> String {
        let mut out = String::new();
        self.write_shown(&mut out);
        out
    }

    /// [`shown`](Self::shown), appended to `out` (no allocation when `out` has room).
    pub fn write_shown(&self, out: &mut String) {
        out.push_str(&self.prefix);
        if let Some((len, fnv, _)) = self.whole {
            use std::fmt::Write;
            let _ = write!(out, "… ({len} bytes, #{fnv:016x})");
        }
    }

    /// The value as part of a file or folder name, at most `max` bytes (at least 20): the
    /// value as `safe` makes it, whole; for a long value its first bytes made safe, cut so that
    /// `-` and the 16 hex digits of its FNV-1a hash follow within `max`.
    ///
    /// ```
    /// use kifu_output::bounded::Bounded;
    /// let long = "y".repeat(300);
    /// let name = Bounded::of(&long).name(100, |s| s.replace('y', "z"));
    /// assert_eq!(name.len(), 100);
    /// assert!(name.starts_with("zzz") && name.contains("-"));
    /// assert_eq!(Bounded::of("a/b").name(100, |s| s.replace('/', "_")), "a_b");
    /// ```
    pub fn name(&self, max: usize, safe: impl Fn(&str) -> String) -> String {
        let made = safe(&self.prefix);
        match self.whole {
            None => cut(&made, max).to_string(),
            Some((_, fnv, _)) => {
                let hash = format!("-{fnv:016x}");
                format!("{}{hash}", cut(&made, max.saturating_sub(hash.len())))
            }
        }
    }
}

/// A [`Bounded`] built from the pieces of a value as they come (an SGF value read in several
/// pieces), holding at most [`KEPT_BYTES`] bytes of it: reused from value to value, it
/// allocates nothing once it has grown.
///
/// ```
/// use kifu_output::bounded::{Bounded, BoundedBuilder};
/// let long = "ab".repeat(1000);
/// let mut b = BoundedBuilder::default();
/// for piece in long.as_bytes().chunks(7) {
///     b.push(std::str::from_utf8(piece).unwrap());
/// }
/// assert_eq!(b.finish(), Bounded::of(&long));
/// ```
#[derive(Clone, Debug, Default)]
pub struct BoundedBuilder {
    kept: String,
    len: u64,
    fnv: u64,
    sip: std::hash::DefaultHasher,
}

impl BoundedBuilder {
    /// Starts again, for another value.
    pub fn clear(&mut self) {
        self.kept.clear();
        self.len = 0;
    }

    /// Whether nothing was pushed since the last [`clear`](Self::clear).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends a piece of the value.
    pub fn push(&mut self, piece: &str) {
        let was = self.len;
        self.len += piece.len() as u64;
        if self.len <= KEPT_BYTES as u64 {
            self.kept.push_str(piece);
            return;
        }
        if was <= KEPT_BYTES as u64 {
            // the value just grew long: its hashes start with what was kept
            self.fnv = FNV_START;
            self.sip = std::hash::DefaultHasher::new();
            let kept = std::mem::take(&mut self.kept);
            self.hash(kept.as_bytes());
            self.kept = kept;
            let room = KEPT_BYTES - self.kept.len();
            self.kept.push_str(cut(piece, room));
        }
        self.hash(piece.as_bytes());
    }

    /// Appends bytes as text: UTF-8 where they are, else Latin-1 (a byte a character).
    pub fn push_bytes(&mut self, bytes: &[u8]) {
        match std::str::from_utf8(bytes) {
            Ok(s) => self.push(s),
            Err(_) => {
                let mut buf = [0u8; 4];
                for &b in bytes {
                    self.push((b as char).encode_utf8(&mut buf));
                }
            }
        }
    }

    fn hash(&mut self, bytes: &[u8]) {
        self.fnv = fnv1a_more(self.fnv, bytes);
        self.sip.write(bytes);
    }

    /// The value whole, when it is short (`None` once longer than [`KEPT_BYTES`]).
    pub fn whole(&self) -> Option<&str> {
        (self.len <= KEPT_BYTES as u64).then_some(self.kept.as_str())
    }

    /// [`Bounded::write_shown`] of what was pushed, without making the [`Bounded`].
    pub fn write_shown(&self, out: &mut String) {
        match self.whole() {
            Some(s) => out.push_str(s),
            None => {
                use std::fmt::Write;
                out.push_str(cut(&self.kept, KEPT_BYTES));
                let _ = write!(out, "… ({} bytes, #{:016x})", self.len, self.fnv);
            }
        }
    }

    /// The value, bounded.
    pub fn finish(&self) -> Bounded {
        match self.whole() {
            Some(s) => Bounded {
                prefix: s.to_string(),
                whole: None,
            },
            None => Bounded {
                prefix: cut(&self.kept, KEPT_BYTES).to_string(),
                whole: Some((self.len, self.fnv, self.sip.finish())),
            },
        }
    }
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv1a_more(h: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(h, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The 64-bit FNV-1a hash of `bytes`: a fixed function, so that a name made from it is the
/// same in every build.
///
/// ```
/// assert_eq!(kifu_output::bounded::fnv1a(b""), 0xcbf2_9ce4_8422_2325);
/// assert_eq!(kifu_output::bounded::fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
/// ```
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_more(FNV_START, bytes)
}

/// `s` cut to at most `max` bytes, at a character boundary.
///
/// ```
/// assert_eq!(kifu_output::bounded::cut("棋棋", 4), "棋");
/// ```
pub fn cut(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The names of `known` that `name` may have meant, closest first: those equal to it but for
/// case, else those within a small edit distance (1 for names of up to 4 characters, 2 for
/// longer ones; a swap of two neighbours counts 1), compared ignoring case.
///
/// ```
/// use kifu_output::bounded::close_matches;
/// let known = ["WhiteElo", "BlackElo", "White", "year", "speed"];
/// assert_eq!(close_matches("Whiteelo", known), ["WhiteElo"]);
/// assert_eq!(close_matches("yaer", known), ["year"]);
/// assert_eq!(close_matches("Tournament", known), Vec::<&str>::new());
/// ```
pub fn close_matches<'k>(name: &str, known: impl IntoIterator<Item = &'k str>) -> Vec<&'k str> {
    let lower = name.to_lowercase();
    let mut found: Vec<(usize, &'k str)> = Vec::new();
    for k in known {
        if k == name || found.iter().any(|(_, f)| *f == k) {
            continue;
        }
        let d = distance(&lower, &k.to_lowercase());
        let most = if name.chars().count() <= 4 { 1 } else { 2 };
        if d <= most {
            found.push((d, k));
        }
    }
    found.sort_by_key(|&(d, _)| d);
    if found.first().is_some_and(|&(d, _)| d == 0) {
        found.retain(|&(d, _)| d == 0);
    }
    found.into_iter().map(|(_, k)| k).collect()
}

/// The optimal string alignment distance of `a` and `b` (Levenshtein's, a swap of two
/// neighbours counting 1), by characters; two rows of a table, no recursion.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut before: Vec<usize> = (0..=b.len()).collect();
    let mut prev: Vec<usize> = before.clone();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(row[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            row[j] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("blits", "blitz"), 1);
        assert_eq!(distance("yaer", "year"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn long_values_stay_apart_and_bounded() {
        let a = format!("{}a", "x".repeat(1 << 20));
        let b = format!("{}b", "x".repeat(1 << 20));
        let (ba, bb) = (Bounded::of(&a), Bounded::of(&b));
        assert_ne!(ba, bb);
        assert_ne!(ba.shown(), bb.shown());
        assert_eq!(ba.prefix.len(), KEPT_BYTES);
        assert_eq!(ba.hash(), Some(fnv1a(a.as_bytes())));
        let exactly = "z".repeat(KEPT_BYTES);
        assert_eq!(Bounded::of(&exactly).whole, None);
        let one_more = "z".repeat(KEPT_BYTES + 1);
        assert!(Bounded::of(&one_more).whole.is_some());
        // a long value's text is never that of a short value
        assert!(ba.shown().len() > KEPT_BYTES);
        // cut at a character boundary
        let go = "棋".repeat(50);
        assert!(Bounded::of(&go).prefix.len() <= KEPT_BYTES);
        let mut builder = BoundedBuilder::default();
        builder.push(&go[..3]);
        builder.push(&go[3..]);
        assert_eq!(builder.finish(), Bounded::of(&go));
        let mut shown = String::new();
        builder.write_shown(&mut shown);
        assert_eq!(shown, Bounded::of(&go).shown());
    }
}
