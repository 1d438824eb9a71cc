//! Where an event or a problem is: byte offset, line and column.

/// A place in the input stream.
///
/// - `offset` counts bytes from the first byte ever fed to the parser (0-based, `u64`, so a
///   stream of any size fits).
/// - `line` is 1-based. A line ends at `\n`, at `\r\n` (counted once) or at a lone `\r`, so files
///   from old Macs number their lines too.
/// - `column` is 1-based and counts **bytes** from the start of the line, not characters: a line
///   holding `é` (two bytes in UTF-8) before a token puts that token one column further right
///   than a character count would. Byte columns are exact whatever the encoding of the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// Byte offset from the start of the stream, 0-based.
    pub offset: u64,
    /// Line number, 1-based.
    pub line: u64,
    /// Column in bytes, 1-based.
    pub column: u32,
}

impl core::fmt::Display for Position {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Incremental line counter shared by the tokenizers.
///
/// It is fed every line break the tokenizer consumes, with its stream offset, and answers the
/// position of any later offset on the current line. `\r\n` counts as one break, a lone `\r` as
/// one: the pair is recognised by offsets, so it works when `\r` and `\n` arrive in different
/// chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lines {
    line: u64,
    line_start: u64,
    /// Offset just after the last `\r`, or `u64::MAX`.
    after_cr: u64,
}

impl Default for Lines {
    fn default() -> Self {
        Lines {
            line: 1,
            line_start: 0,
            after_cr: u64::MAX,
        }
    }
}

impl Lines {
    /// The counter of a stream whose byte at `pos.offset` is at `pos` (its line and column),
    /// for a parser that starts in the middle of a stream.
    pub(crate) fn starting_at(pos: Position) -> Lines {
        Lines {
            line: pos.line.max(1),
            line_start: pos.offset.saturating_sub(u64::from(pos.column.max(1)) - 1),
            after_cr: u64::MAX,
        }
    }

    /// Records the line-break byte `b` (`\n` or `\r`) found at stream offset `at`.
    #[inline]
    pub(crate) fn brk(&mut self, b: u8, at: u64) {
        if b == b'\n' && at == self.after_cr {
            // second half of "\r\n": the line was already counted at the "\r".
            self.line_start = at + 1;
            return;
        }
        self.line += 1;
        self.line_start = at + 1;
        if b == b'\r' {
            self.after_cr = at + 1;
        }
    }

    /// Records every line break in `bytes`, which start at stream offset `base`.
    #[inline]
    pub(crate) fn scan(&mut self, bytes: &[u8], base: u64) {
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            self.brk(bytes[i], base + i as u64);
        }
    }

    /// Records every line break in `bytes` (starting at stream offset `base`), as
    /// [`scan`](Self::scan) does, by counting instead of visiting each break: for a long block
    /// of many short lines (what a parallel scan counts for each piece) it is several times
    /// faster.
    #[cfg(test)]
    pub(crate) fn count(&mut self, bytes: &[u8], base: u64) {
        self.apply(&Breaks::count(bytes, base));
    }

    /// Records the line breaks `breaks` counted in a block of bytes: the counter after the
    /// block, as [`count`](Self::count) over the block gives it.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn apply(&mut self, breaks: &Breaks) {
        let Some(last) = breaks.last else {
            return;
        };
        // the second half of a `\r\n` whose `\r` ended the bytes before: already counted
        let paired = breaks.lf_first && breaks.base == self.after_cr;
        self.line += breaks.breaks - u64::from(paired);
        self.line_start = last + 1;
        if let Some(cr) = breaks.last_cr {
            self.after_cr = cr + 1;
        }
    }

    /// Records the line breaks of a block of up to 32 bytes starting at stream offset `base`:
    /// bit `k` of `nl` (`cr`) is set when the block's byte `k` is `\n` (`\r`). Same result as
    /// [`brk`](Self::brk) on each of them in order.
    #[inline]
    #[cfg_attr(
        not(all(target_arch = "x86_64", target_feature = "sse2")),
        allow(dead_code)
    )]
    pub(crate) fn brk_mask(&mut self, nl: u32, cr: u32, base: u64) {
        if cr == 0 {
            if nl == 0 {
                return;
            }
            // no `\r` in the block: only a `\n` right after the previous block's `\r` pairs
            if base + u64::from(nl.trailing_zeros()) != self.after_cr {
                self.line += u64::from(nl.count_ones());
                self.line_start = base + u64::from(32 - nl.leading_zeros());
                return;
            }
        }
        let mut m = nl | cr;
        while m != 0 {
            let k = m.trailing_zeros();
            let b = if cr >> k & 1 == 1 { b'\r' } else { b'\n' };
            self.brk(b, base + u64::from(k));
            m &= m - 1;
        }
    }

    /// The position of stream offset `at`, which must lie on the current line.
    #[inline]
    pub(crate) fn at(&self, at: u64) -> Position {
        Position {
            offset: at,
            line: self.line,
            column: (at.saturating_sub(self.line_start) + 1).min(u32::MAX as u64) as u32,
        }
    }

    /// Whether stream offset `at` is the first byte of its line.
    #[inline]
    pub(crate) fn at_line_start(&self, at: u64) -> bool {
        at == self.line_start
    }
}

/// The line breaks of a block of bytes, counted without knowing what came before it: applied
/// to the counter at the block's start ([`Lines::apply`]) they give the counter at its end. A
/// parallel scan counts each piece's on the thread that reads the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "std"), allow(dead_code))]
pub(crate) struct Breaks {
    /// Stream offset of the block's first byte.
    base: u64,
    /// Line breaks, a `\r\n` counted once, and a `\n` first in the block counted too.
    breaks: u64,
    /// The block starts with `\n` (the second half of a `\r\n` if a `\r` ended the bytes
    /// before).
    lf_first: bool,
    /// Stream offset of the block's last line-break byte.
    last: Option<u64>,
    /// Stream offset of its last `\r`.
    last_cr: Option<u64>,
}

#[cfg_attr(not(feature = "std"), allow(dead_code))]
impl Breaks {
    /// Counts the line breaks of `bytes`, which start at stream offset `base`.
    pub(crate) fn count(bytes: &[u8], base: u64) -> Breaks {
        let Some(last) = memchr::memrchr2(b'\n', b'\r', bytes) else {
            return Breaks {
                base,
                breaks: 0,
                lf_first: false,
                last: None,
                last_cr: None,
            };
        };
        // one pass for the `\n`s that also tells whether any `\r` is there (most files have
        // none: the passes for them are skipped)
        let (mut breaks, any_cr) = count_lf(bytes);
        let last_cr = if any_cr {
            memchr::memrchr(b'\r', bytes)
        } else {
            None
        };
        if last_cr.is_some() {
            let cr = count_where(bytes, bytes, |a, _| a == b'\r');
            let (a, b) = (&bytes[..bytes.len() - 1], &bytes[1..]);
            let pairs = count_where(a, b, |a, b| a == b'\r' && b == b'\n');
            breaks += cr - pairs;
        }
        Breaks {
            base,
            breaks,
            lf_first: bytes[0] == b'\n',
            last: Some(base + last as u64),
            last_cr: last_cr.map(|c| base + c as u64),
        }
    }
}

/// How many `\n`s `bytes` holds, and whether it holds a `\r`, in one pass: 32 bytes at a
/// time, each counted into its lane's byte for up to 255 rounds.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
fn count_lf(bytes: &[u8]) -> (u64, bool) {
    /// The lanes: 32 byte counters side by side, which the compiler keeps in vector registers
    /// (3 times the speed of one counter over the same bytes: measured, 25 GB/s against 8).
    const LANES: usize = 32;
    /// Each lane counts at most 255 before its byte overflows.
    const BLOCK: usize = LANES * 255;
    #[inline(always)]
    fn block(bytes: &[u8], crs: &mut [u8; LANES]) -> u64 {
        let mut acc = [0u8; LANES];
        for c in bytes.chunks_exact(LANES) {
            for i in 0..LANES {
                acc[i] = acc[i].wrapping_add(u8::from(c[i] == b'\n'));
                crs[i] |= u8::from(c[i] == b'\r');
            }
        }
        acc.iter().map(|&a| u64::from(a)).sum()
    }
    let mut lf = 0u64;
    let mut crs = [0u8; LANES];
    let mut blocks = bytes.chunks_exact(BLOCK);
    for b in &mut blocks {
        lf += block(b, &mut crs);
    }
    let rest = blocks.remainder();
    let whole = rest.len() / LANES * LANES;
    lf += block(&rest[..whole], &mut crs);
    let mut cr = crs.iter().any(|&c| c != 0);
    for &b in &rest[whole..] {
        lf += u64::from(b == b'\n');
        cr |= b == b'\r';
    }
    (lf, cr)
}

/// How many `i` have `f(a[i], b[i])`, for `a` and `b` of one length. Counted in blocks of at
/// most 255 bytes into a byte, the form the compiler turns into vector compares: several GB/s,
/// ten times a filtered count.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
fn count_where(a: &[u8], b: &[u8], f: impl Fn(u8, u8) -> bool) -> u64 {
    a.chunks(255)
        .zip(b.chunks(255))
        .map(|(a, b)| {
            let n = a.iter().zip(b).map(|(&x, &y)| u8::from(f(x, y)));
            u64::from(n.fold(0u8, u8::wrapping_add))
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn lines_of(input: &[u8]) -> Lines {
        let mut l = Lines::default();
        l.scan(input, 0);
        l
    }

    #[test]
    fn counts_lf_crlf_and_lone_cr() {
        assert_eq!(lines_of(b"a\nb\nc").line, 3);
        assert_eq!(lines_of(b"a\r\nb\r\nc").line, 3);
        assert_eq!(lines_of(b"a\rb\rc").line, 3);
        assert_eq!(lines_of(b"a\r\n\r\nc").line, 3);
        assert_eq!(lines_of(b"a\n\rc").line, 3);
    }

    #[test]
    fn masks_count_as_bytes_do() {
        // every arrangement of `\n`, `\r` and `x` over 6 bytes, cut in blocks of 1 to 6 bytes
        let alphabet = [b'\n', b'\r', b'x'];
        for code in 0..3u32.pow(6) {
            let mut c = code;
            let bytes: Vec<u8> = (0..6)
                .map(|_| {
                    let b = alphabet[(c % 3) as usize];
                    c /= 3;
                    b
                })
                .collect();
            for block in 1..=6 {
                for start in [0u64, 7] {
                    let mut want = Lines::default();
                    want.scan(&bytes, start);
                    let mut got = Lines::default();
                    for (n, chunk) in bytes.chunks(block).enumerate() {
                        let mask = |x: u8| {
                            chunk
                                .iter()
                                .enumerate()
                                .filter(|&(_, &b)| b == x)
                                .fold(0u32, |m, (k, _)| m | 1 << k)
                        };
                        got.brk_mask(mask(b'\n'), mask(b'\r'), start + (n * block) as u64);
                    }
                    assert_eq!(got, want, "{bytes:?} in blocks of {block}");
                }
            }
        }
    }

    #[test]
    fn counting_gives_what_visiting_gives() {
        // every arrangement of `\n`, `\r` and `x` over 7 bytes, cut in two anywhere
        let alphabet = [b'\n', b'\r', b'x'];
        for code in 0..3u32.pow(7) {
            let mut c = code;
            let bytes: Vec<u8> = (0..7)
                .map(|_| {
                    let b = alphabet[(c % 3) as usize];
                    c /= 3;
                    b
                })
                .collect();
            for cut in 0..=bytes.len() {
                let mut want = Lines::default();
                want.scan(&bytes, 3);
                let mut got = Lines::default();
                got.count(&bytes[..cut], 3);
                got.count(&bytes[cut..], 3 + cut as u64);
                assert_eq!(got, want, "{bytes:?} cut at {cut}");
            }
        }
    }

    /// The same over long blocks (the lanes, the 255-round blocks, their remainders), with
    /// and without `\r`, dense and sparse.
    #[test]
    fn counting_long_blocks_gives_what_visiting_gives() {
        let mut seed = 5u64;
        for len in [
            31usize,
            32,
            33,
            255 * 32 - 1,
            255 * 32,
            255 * 32 + 33,
            70_001,
        ] {
            for (lf_in, cr_in) in [(2u64, 0u64), (64, 0), (3, 7), (1000, 1000)] {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        let r = (seed >> 33) % 1000;
                        if r < 1000 / lf_in {
                            b'\n'
                        } else if cr_in > 0 && r % cr_in == 1 {
                            b'\r'
                        } else {
                            b'x'
                        }
                    })
                    .collect();
                let mut want = Lines::default();
                want.scan(&bytes, 0);
                let mut got = Lines::default();
                got.count(&bytes, 0);
                assert_eq!(got, want, "{len} {lf_in} {cr_in}");
            }
        }
    }

    #[test]
    fn crlf_split_across_calls() {
        let mut l = Lines::default();
        l.scan(b"ab\r", 0);
        l.scan(b"\ncd", 3);
        assert_eq!(
            l.at(5),
            Position {
                offset: 5,
                line: 2,
                column: 2
            }
        );
    }
}
