//! Skipping movetext: the jump over bytes that cannot matter while skipping (`skip_fast`), in
//! a baseline copy and one compiled for AVX2.

use super::comments::closed_comment;
use super::*;
use crate::pgn::lexer::{self, CLASS, NEWLINE, SPACE};
use crate::pgn::nag::Outcome;
use crate::pgn::simd;

impl Parser {
    /// Skipping movetext: jumps over everything that cannot matter while skipping (moves,
    /// move numbers, NAGs, glyphs, spaces) to the next byte that may: a comment, a variation
    /// bracket, a tag, an escape line, or a token that may be a result. Line breaks jumped over
    /// are counted. Returns where the normal loop goes on: at that byte (for a token, at the
    /// token's start), or at the start of the unfinished token at the end of the input.
    ///
    /// A complete result token met on the way is handled here, as `token` would (while
    /// skipping a result only changes the phase): in a variation the search goes on after it;
    /// at depth 0 the game's movetext is over, and the spaces and line breaks after it are
    /// passed over too (as the normal loop would), so that the loop goes on at the next tag.
    #[inline]
    pub(super) fn skip_fast<I: simd::Isa>(
        &mut self,
        isa: I,
        input: &[u8],
        i: usize,
        eof: bool,
    ) -> usize {
        let n = input.len();
        let mut from = i;
        loop {
            // line breaks before the stop byte are counted on the way; the `-` of castling
            // (`O-O`) is passed over (no result has an `O`)
            let j = simd::find_stop(isa, input, from, &mut self.lines, self.base);
            if j == n {
                if eof {
                    return n;
                }
                // back to the start of the unfinished last token; token bytes hold no line
                // break, so the count up to `j` is the count up to `t`
                return self.token_start(input, from, j);
            }
            let b = input[j];
            if CLASS[b as usize] != lexer::TOKEN {
                // what the general path would do while skipping, for the common cases: a brace
                // comment closed in the input (no event), a variation opened or closed inside
                // the skipped part (a count)
                debug_assert!(self.skipping() && !self.garbage.active);
                match b {
                    b'{' => {
                        let avail = &input[j + 1..];
                        let window = &avail[..avail.len().min(self.cfg.max_comment_piece + 1)];
                        let at = self.base + (j + 1) as u64;
                        match closed_comment(isa, avail, window, self.lines, at) {
                            Some((p, lines)) => {
                                self.lines = lines;
                                from = j + 1 + p + 1;
                            }
                            None => return j,
                        }
                    }
                    b'(' => {
                        self.flow.open();
                        from = j + 1;
                    }
                    b')' if self.flow.nest > 0 => {
                        self.flow.nest -= 1;
                        from = j + 1;
                    }
                    _ => return j,
                }
                self.after_number = false;
                continue;
            }
            let t = self.token_start(input, from, j);
            if !(b == b'*' || b == b'-') || input[t] == b'$' {
                // not a result (or one in a NAG's token: `$*` is a bad NAG); `token` decides
                return t;
            }
            // the whole token: a result has at most 11 bytes
            let e = lexer::token_end(input, j + 1, n.min(t + 12));
            if e == n && !eof || e == t + 12 {
                return t;
            }
            if Outcome::parse(&input[t..e]).is_none() {
                return t;
            }
            // a result, as `token` takes it while skipping (`lexer::classify` says `Result`
            // exactly when `Outcome::parse` does): no event, no pending garbage (none is
            // collected while skipping), and the phase moves on at depth 0
            debug_assert!(self.skipping() && !self.garbage.active && self.phase == Phase::Movetext);
            self.after_number = false;
            if self.flow.nest == 0 && self.depth == 0 {
                self.phase = Phase::AfterResult;
                return self.pass_blanks(input, e);
            }
            from = e;
        }
    }

    /// [`skip_fast`](Self::skip_fast) for the token loop: in the copy compiled for AVX2 where
    /// the processor has it.
    #[allow(unsafe_code)]
    pub(super) fn skip(&mut self, input: &[u8], i: usize, eof: bool) -> usize {
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        if let Some(isa) = simd::Avx2::detect() {
            // SAFETY: `skip_avx2` needs AVX2, which the processor has: `isa` proves it.
            return unsafe { self.skip_avx2(isa, input, i, eof) };
        }
        self.skip_fast(simd::Baseline, input, i, eof)
    }

    /// [`skip_fast`](Self::skip_fast) compiled for AVX2.
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[target_feature(enable = "avx2")]
    pub(super) fn skip_avx2(
        &mut self,
        isa: simd::Avx2,
        input: &[u8],
        i: usize,
        eof: bool,
    ) -> usize {
        self.skip_fast(isa, input, i, eof)
    }

    /// Passes the spaces and line breaks from `i` (counting the line breaks), as the token loop
    /// does: where the next other byte is, or the end of the input.
    #[inline]
    pub(super) fn pass_blanks(&mut self, input: &[u8], mut i: usize) -> usize {
        while i < input.len() {
            let c = input[i];
            match CLASS[c as usize] {
                SPACE => {}
                NEWLINE => self.lines.brk(c, self.base + i as u64),
                _ => break,
            }
            i += 1;
        }
        i
    }

    /// The start of the token that holds `input[j]` (or ends at `j`), searching back to `from`
    /// at most; a token right after `$` is that NAG's, and starts at the `$`.
    #[inline]
    pub(super) fn token_start(&self, input: &[u8], from: usize, j: usize) -> usize {
        let mut t = j;
        while t > from && CLASS[input[t - 1] as usize] == lexer::TOKEN {
            t -= 1;
        }
        if t > from && input[t - 1] == b'$' {
            t -= 1;
        }
        t
    }
}
