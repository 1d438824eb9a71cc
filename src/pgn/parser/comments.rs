//! Comments: brace comments (with the rule for a line that opens a tag pair inside one), `;`
//! comments and `%` escape lines.

use crate::position::{Lines, Position};

use super::*;
use crate::pgn::lexer::{self};
use crate::pgn::simd;
use crate::pgn::visitor::{CommentKind, ErrorKind, Visitor};

impl Parser {
    /// A brace comment's text from `i` (just after `{`, or where the previous piece ended).
    pub(super) fn brace_body<V: Visitor>(
        &mut self,
        input: &[u8],
        i: usize,
        start: Position,
        first: bool,
        eof: bool,
        v: &mut V,
    ) -> Step {
        // comments are most of an engine's game: ask for the next page before getting there
        simd::prefetch(input, i + simd::AHEAD);
        let avail = &input[i..];
        let lim = self.cfg.max_comment_piece;
        let window = &avail[..avail.len().min(lim + 1)];
        let at = if first { start } else { self.pos(i) };
        let base = self.base + i as u64;
        if let Some((p, lines)) = closed_comment(simd::Baseline, avail, window, self.lines, base) {
            self.lines = lines;
            self.mode = Mode::Normal;
            self.emit_comment(at, CommentKind::Brace, &avail[..p], first, true, v);
            return Step::To(i + p + 1);
        }
        // the rest: a line that may open a tag pair, a comment in pieces or cut by the end of
        // the input
        let mut lines = self.lines;
        let mut j = 0;
        while let Some(k) = memchr::memchr3(b'}', b'\n', b'\r', &window[j..]) {
            let p = j + k;
            let b = window[p];
            if b == b'}' {
                self.lines = lines;
                self.mode = Mode::Normal;
                self.emit_comment(at, CommentKind::Brace, &avail[..p], first, true, v);
                return Step::To(i + p + 1);
            }
            lines.brk(b, base + p as u64);
            // A line that opens a tag pair inside the comment: comment text if a `}` follows
            // within `comment_lookahead` bytes (the standard's reading), else the comment was
            // left unclosed and the next game starts here (see `Config::comment_lookahead`).
            if p + 1 == avail.len() && !eof {
                return Step::Pending; // the next line may open a tag pair
            }
            if avail.get(p + 1) == Some(&b'[') {
                match lexer::is_tag_start(
                    &avail[p + 1..avail.len().min(p + 1 + self.cfg.max_token_len)],
                ) {
                    Some(true) => match self.comment_closes(&avail[p + 1..], eof) {
                        Some(true) => {}
                        Some(false) => {
                            self.lines = lines;
                            self.mode = Mode::Normal;
                            self.emit_comment(at, CommentKind::Brace, &avail[..p], first, true, v);
                            self.emit_error(ErrorKind::UnterminatedComment, b"{", start, v);
                            return Step::To(i + p + 1);
                        }
                        None => return Step::Pending,
                    },
                    Some(false) => {}
                    // a window full of name is no tag start (the name is too long)
                    None if eof || avail.len() - (p + 1) >= self.cfg.max_token_len => {}
                    None => return Step::Pending,
                }
            }
            j = p + 1;
        }
        if avail.len() > lim {
            let cut = lexer::utf8_cut(avail, lim);
            self.lines.scan(&avail[..cut], base);
            self.mode = Mode::Brace { start };
            self.emit_comment(at, CommentKind::Brace, &avail[..cut], first, false, v);
            return Step::To(i + cut);
        }
        if !eof {
            return Step::Pending;
        }
        self.lines = lines;
        self.mode = Mode::Normal;
        self.emit_comment(at, CommentKind::Brace, avail, first, true, v);
        self.emit_error(ErrorKind::UnterminatedComment, b"{", start, v);
        Step::To(input.len())
    }

    /// Whether an open brace comment goes on past a line that opens a tag pair (`rest`: the
    /// input from that line's `[`): `Some(true)` when a `}` comes within
    /// [`Config::comment_lookahead`] bytes, `Some(false)` when none does (or the input ends
    /// first), `None` when the input so far cannot tell.
    #[cold]
    #[inline(never)]
    pub(super) fn comment_closes(&self, rest: &[u8], eof: bool) -> Option<bool> {
        let bound = self.cfg.comment_lookahead;
        let look = &rest[..rest.len().min(bound)];
        if memchr::memchr(b'}', look).is_some() {
            Some(true)
        } else if look.len() == bound || eof {
            Some(false)
        } else {
            None
        }
    }

    /// A `;` or `%` line's text from `i` to the end of the line (the line break is left).
    pub(super) fn line_body<V: Visitor>(
        &mut self,
        input: &[u8],
        i: usize,
        kind: CommentKind,
        first: bool,
        eof: bool,
        v: &mut V,
    ) -> Step {
        let avail = &input[i..];
        let lim = self.cfg.max_comment_piece;
        let at = if first { self.pos(i - 1) } else { self.pos(i) };
        let window = &avail[..avail.len().min(lim + 1)];
        let (text, last, to) = match memchr::memchr2(b'\n', b'\r', window) {
            Some(p) => (&avail[..p], true, i + p),
            None if avail.len() > lim => {
                let cut = lexer::utf8_cut(avail, lim);
                (&avail[..cut], false, i + cut)
            }
            None if eof => (avail, true, input.len()),
            None => return Step::Pending,
        };
        self.mode = if last {
            Mode::Normal
        } else {
            Mode::Line { kind }
        };
        if kind == CommentKind::Escape && self.phase == Phase::Idle {
            return Step::To(to); // escape lines between games belong to no game
        }
        self.emit_comment(at, kind, text, first, last, v);
        Step::To(to)
    }
}

/// A brace comment closed in `window` (the input after its `{`, as far as one piece goes; `avail`
/// is all the input after the `{`, whose first byte is at stream offset `base`) with no line
/// before the `}` that may open a tag pair or ends the input: the index of the `}` and the line
/// count after the comment. `None` for the others, which `Parser::brace_body` sorts out.
#[inline(always)]
pub(super) fn closed_comment<I: simd::Isa>(
    isa: I,
    avail: &[u8],
    window: &[u8],
    mut lines: Lines,
    base: u64,
) -> Option<(usize, Lines)> {
    // most comments are short and on one line: their end is in the first 32 bytes, found
    // without a call. A longer one has those bytes searched again below: cheaper than telling
    // where to go on (with AVX2, leaving this out for the loop's same first step measured
    // no faster on long comments, and costs a call on short ones)
    if let Some(p) = simd::brace_end_32(window) {
        return Some((p, lines));
    }
    let mut j = 0;
    loop {
        let p = simd::comment_stop(isa, window, j)?;
        let c = window[p];
        if c == b'}' {
            return Some((p, lines));
        }
        if p + 1 == avail.len() || avail[p + 1] == b'[' {
            return None;
        }
        lines.brk(c, base + p as u64);
        j = p + 1;
    }
}
