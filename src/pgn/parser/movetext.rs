//! Visited movetext: the common run in one loop (`movetext_run`), and the general path's
//! tokens: punctuation, moves, move numbers, results, glyphs and NAGs.

use crate::control::Control;

use super::comments::closed_comment;
use super::*;
use crate::pgn::lexer::{self, CLASS, NEWLINE, PUNCT, SPACE, Tok};
use crate::pgn::nag::Nag;
use crate::pgn::raw::RawComment;
use crate::pgn::san::San;
use crate::pgn::simd;
use crate::pgn::visitor::{
    Comment, CommentKind, Context, Error, ErrorKind, Move, NagForm, Visitor,
};

impl Parser {
    /// The common run of visited movetext, in one tight loop with the state in locals: blanks,
    /// line breaks, move numbers in sequence, moves that end at a delimiter, and brace comments
    /// complete in the input within one piece and without a line that opens a tag pair. Stops in
    /// front of anything else (other punctuation, NAGs, results, other numbers, the FEN
    /// numbering case, a token that touches the end of the input), which the general path then
    /// takes, exactly as it would have; and after an event whose visitor answered other than
    /// `Continue` (returning `true`, the answer applied). Requires: phase `Movetext`, mode
    /// `Normal`, nothing skipped, no pending garbage.
    #[inline(always)]
    pub(super) fn movetext_run<V: Visitor>(
        &mut self,
        input: &[u8],
        mut i: usize,
        v: &mut V,
    ) -> (usize, bool) {
        let n = input.len();
        let base = self.base;
        let mut lines = self.lines;
        let mut ply = self.ply;
        let mut after_number = self.after_number;
        let mut text_since_number = self.text_since_number;
        // the first move number of a main line from a FEN sets the count: the general path's
        let fen_numbering = self.fen && self.depth == 0;
        let start_ply = self.start_ply;
        let (game, depth) = (self.game, self.depth);
        let mut answered = false;
        while i < n {
            let b = input[i];
            match CLASS[b as usize] {
                SPACE => i += 1,
                NEWLINE => {
                    lines.brk(b, base + i as u64);
                    i += 1;
                }
                PUNCT => {
                    if b != b'{' {
                        break;
                    }
                    // a brace comment complete in the input, within one piece: as
                    // `brace_body` reads it (a line that opens a tag pair, a comment cut in
                    // pieces or one that may go on in the next chunk go there)
                    simd::prefetch(input, i + 1 + simd::AHEAD);
                    let avail = &input[i + 1..];
                    let window = &avail[..avail.len().min(self.cfg.max_comment_piece + 1)];
                    let Some((p, in_comment)) =
                        closed_comment(simd::Baseline, avail, window, lines, base + (i + 1) as u64)
                    else {
                        break;
                    };
                    let ctx = Context {
                        pos: lines.at(base + i as u64),
                        game,
                        depth,
                        ply,
                    };
                    lines = in_comment;
                    after_number = false;
                    let comment = Comment {
                        kind: CommentKind::Brace,
                        text: RawComment(&avail[..p]),
                        first: true,
                        last: true,
                    };
                    let c = v.on_comment(&ctx, &comment);
                    i += p + 2;
                    if c != Control::Continue {
                        answered = true;
                        self.ply = ply;
                        self.control(c);
                        break;
                    }
                }
                _ => {
                    if b.is_ascii_digit() {
                        let mut j = i + 1;
                        let end = n.min(i + 10);
                        while j < end && input[j].is_ascii_digit() {
                            j += 1;
                        }
                        if j == end || CLASS[input[j] as usize] == lexer::TOKEN {
                            break;
                        }
                        let (num, k) = move_number(input, i, j);
                        if k == n
                            || (fen_numbering && ply == start_ply)
                            || (!after_number && num != ply / 2 + 1)
                        {
                            break;
                        }
                        after_number = true;
                        text_since_number = false;
                        i = k;
                    } else if lexer::SAN_START[b as usize] {
                        let Some((san, len)) = San::parse_prefix(&input[i..n.min(i + 12)]) else {
                            break;
                        };
                        let end = i + len;
                        if end >= n || CLASS[input[end] as usize] == lexer::TOKEN {
                            break;
                        }
                        after_number = false;
                        ply += 1;
                        let ctx = Context {
                            pos: lines.at(base + i as u64),
                            game,
                            depth,
                            ply,
                        };
                        let text = &input[i..end];
                        let c = v.on_move(
                            &ctx,
                            &Move {
                                san,
                                text,
                                raw: text,
                            },
                        );
                        i = end;
                        if c != Control::Continue {
                            answered = true;
                            self.ply = ply;
                            self.control(c);
                            break;
                        }
                    } else {
                        break;
                    }
                }
            }
        }
        self.lines = lines;
        self.ply = ply;
        self.after_number = after_number;
        self.text_since_number = text_since_number;
        (i, answered)
    }

    pub(super) fn punct<V: Visitor>(
        &mut self,
        input: &[u8],
        i: usize,
        eof: bool,
        v: &mut V,
    ) -> Step {
        let b = input[i];
        if b != b'.' {
            self.after_number = false;
        }
        match b {
            b'{' => {
                let start = self.pos(i);
                self.brace_body(input, i + 1, start, true, eof, v)
            }
            b';' => self.line_body(input, i + 1, CommentKind::Line, true, eof, v),
            b'[' => self.bracket(input, i, eof, v),
            b'(' => {
                self.open_variation(i, v);
                Step::To(i + 1)
            }
            b')' => {
                self.close_variation(i, v);
                Step::To(i + 1)
            }
            b'$' => self.nag(input, i, eof, v),
            b'.' => {
                if !self.after_number {
                    self.add_garbage(i, &input[i..i + 1], ErrorKind::UnexpectedText, v);
                }
                Step::To(i + 1)
            }
            b'}' => {
                self.add_garbage(i, b"}", ErrorKind::StrayBrace, v);
                Step::To(i + 1)
            }
            _ => {
                // `]` or `"` outside a tag
                self.add_garbage(i, &input[i..i + 1], ErrorKind::UnexpectedText, v);
                Step::To(i + 1)
            }
        }
    }

    /// A token: move, move number, result, glyph, or text that is not PGN.
    pub(super) fn token<V: Visitor>(
        &mut self,
        input: &[u8],
        i: usize,
        eof: bool,
        v: &mut V,
    ) -> Step {
        let n = input.len();
        let lim = self.cfg.max_token_len;
        if input[i] == 0xEF {
            const BOM: &[u8] = b"\xEF\xBB\xBF";
            let avail = &input[i..n.min(i + 3)];
            if avail == BOM {
                return Step::To(i + 3);
            }
            if avail.len() < 3 && !eof && BOM.starts_with(avail) {
                return Step::Pending;
            }
        }
        let b = input[i];
        if b.is_ascii_digit() {
            // a move number, unless more token bytes follow (a result, `0-0`, text)
            let mut j = i + 1;
            let end = n.min(i + lim + 1);
            while j < end && input[j].is_ascii_digit() {
                j += 1;
            }
            if j == n && !eof && j - i <= lim {
                return Step::Pending;
            }
            if (j == n || CLASS[input[j] as usize] != lexer::TOKEN) && j - i <= 9 {
                let (num, k) = move_number(input, i, j);
                if k == n && !eof && k - j < 2 {
                    return Step::Pending; // a second period may follow (`N...` is Black's move)
                }
                self.number(i, j, num, k - j, input, v);
                return Step::To(k);
            }
        } else if lexer::SAN_START[b as usize] && !self.skipping() {
            if let Some((san, len)) = San::parse_prefix(&input[i..n.min(i + 12)]) {
                let mut end = i + len;
                // the usual case first: the move ends at a space, line break or punctuation
                // (most moves take `movetext_run`; this still pays, 3-5%, for the first move
                // of each game, which starts the movetext and so is not the run's)
                if end < n && CLASS[input[end] as usize] != lexer::TOKEN {
                    self.after_number = false;
                    self.do_move(i, san, &input[i..end], &input[i..end], None, v);
                    return Step::To(end);
                }
                let mut k = 0;
                while k < 2 && end < n && (input[end] == b'!' || input[end] == b'?') {
                    end += 1;
                    k += 1;
                }
                if end == n && !eof {
                    return Step::Pending;
                }
                if end == n || CLASS[input[end] as usize] != lexer::TOKEN {
                    let suffix = if k > 0 {
                        Nag::from_glyph(&input[i + len..end])
                    } else {
                        None
                    };
                    self.after_number = false;
                    self.do_move(i, san, &input[i..i + len], &input[i..end], suffix, v);
                    return Step::To(end);
                }
            }
        }
        let end = lexer::token_end(input, i, n.min(i + lim + 1));
        if end - i > lim {
            // (skipped text leaves the state alone: see `add_garbage`)
            self.add_garbage(
                i,
                &input[i..end.min(i + Error::TEXT_MAX)],
                ErrorKind::TokenTooLong,
                v,
            );
            self.flush_garbage(v);
            self.mode = Mode::SkipToken;
            return Step::To(end);
        }
        if end == n && !eof {
            return Step::Pending;
        }
        let tok = &input[i..end];
        match lexer::classify(tok) {
            // tokens written without a space between them: read apart, out of the hot path
            Tok::Garbage => self.split_token(input, i, tok, v),
            class => {
                self.classified(input, i, tok, class, v);
                Step::To(end)
            }
        }
    }

    /// A token that is no PGN token as a whole: the first of the tokens it is made of, read as
    /// the standard's tokenizer reads it ([`lexer::split`]; the rest is read on the next turn
    /// of the loop), or one piece of unexpected text.
    #[cold]
    #[inline(never)]
    fn split_token<V: Visitor>(&mut self, input: &[u8], i: usize, whole: &[u8], v: &mut V) -> Step {
        let Some((len, glued)) = lexer::split(whole) else {
            self.classified(input, i, whole, Tok::Garbage, v);
            return Step::To(i + whole.len());
        };
        let tok = &whole[..len];
        self.classified(input, i, tok, lexer::classify(tok), v);
        if glued {
            let pos = self.pos(i);
            self.emit_error(ErrorKind::MissingSpace, whole, pos, v);
        }
        Step::To(i + len)
    }

    /// The complete token `tok` at `i`, of class `class`.
    #[inline(always)]
    fn classified<V: Visitor>(
        &mut self,
        input: &[u8],
        i: usize,
        tok: &[u8],
        class: Tok,
        v: &mut V,
    ) {
        let end = i + tok.len();
        let after_number = core::mem::replace(&mut self.after_number, false);
        match class {
            Tok::Garbage => {
                self.add_garbage(i, tok, ErrorKind::UnexpectedText, v);
            }
            Tok::Number(num) => {
                self.after_number = after_number;
                self.number(i, end, num, 0, input, v);
            }
            Tok::Result(outcome) => {
                self.movetext_token(i, v);
                if self.skipping() {
                    if self.flow.nest == 0 && self.depth == 0 {
                        self.phase = Phase::AfterResult;
                    }
                } else {
                    let c = v.on_result(&self.ctx_at(self.pos(i)), outcome);
                    if self.depth == 0 {
                        self.phase = Phase::AfterResult;
                    }
                    self.control(c);
                }
            }
            Tok::Move(san, len, suffix) => {
                self.movetext_token(i, v);
                if !self.skipping() {
                    self.ply += 1;
                    let ctx = self.ctx_at(self.pos(i));
                    let mv = Move {
                        san,
                        text: &tok[..len],
                        raw: tok,
                    };
                    let c = v.on_move(&ctx, &mv);
                    self.control(c);
                    if let Some(nag) = suffix {
                        if !self.skipping() {
                            let c = v.on_nag(&ctx, nag, NagForm::Suffix);
                            self.control(c);
                        }
                    }
                }
            }
            Tok::Glyph(nag) => {
                self.movetext_token(i, v);
                if !self.skipping() {
                    let c = v.on_nag(&self.ctx_at(self.pos(i)), nag, NagForm::Glyph);
                    self.control(c);
                }
            }
        }
    }

    /// A move number `num` at `i..end`.
    #[inline(always)]
    pub(super) fn number<V: Visitor>(
        &mut self,
        i: usize,
        end: usize,
        num: u32,
        dots: usize,
        input: &[u8],
        v: &mut V,
    ) {
        let after_number = self.after_number;
        self.movetext_token(i, v);
        self.after_number = true;
        if self.fen && self.depth == 0 && self.ply == self.start_ply && (1..1 << 20).contains(&num)
        {
            // Many programs number a game from a FEN position from 1 (or from their own count),
            // whatever the FEN says: the first move number of the main line sets the count.
            self.ply = 2 * (num - 1) + (self.ply & 1);
            self.start_ply = self.ply;
            return;
        }
        let text_since_number = core::mem::replace(&mut self.text_since_number, false);
        if !self.skipping() && !after_number && num != self.ply / 2 + 1 {
            if !text_since_number {
                let pos = self.pos(i);
                self.emit_error(ErrorKind::BadMoveNumber, &input[i..end], pos, v);
            }
            // Follow the written numbers from here (`N...` is Black's move), so that one lost
            // move does not make every later number an error.
            if (1..1 << 20).contains(&num) {
                self.ply = 2 * (num - 1) + u32::from(dots >= 2);
            }
        }
    }

    /// A move at `i`.
    #[inline]
    pub(super) fn do_move<V: Visitor>(
        &mut self,
        i: usize,
        san: San,
        text: &[u8],
        raw: &[u8],
        suffix: Option<Nag>,
        v: &mut V,
    ) {
        self.movetext_token(i, v);
        if self.skipping() {
            return;
        }
        self.ply += 1;
        let ctx = self.ctx_at(self.pos(i));
        let c = v.on_move(&ctx, &Move { san, text, raw });
        self.control(c);
        if let Some(nag) = suffix {
            if !self.skipping() {
                let c = v.on_nag(&ctx, nag, NagForm::Suffix);
                self.control(c);
            }
        }
    }

    /// `$n`.
    pub(super) fn nag<V: Visitor>(&mut self, input: &[u8], i: usize, eof: bool, v: &mut V) -> Step {
        let n = input.len();
        let lim = self.cfg.max_token_len;
        // a NAG ends at its last digit (`$14Nf6` is `$14` then `Nf6`); `$` without a digit
        // takes the rest of the token with it, as one bad NAG
        let limit = n.min(i + lim + 1);
        let mut end = i + 1;
        while end < limit && input[end].is_ascii_digit() {
            end += 1;
        }
        if end == i + 1 {
            end = lexer::token_end(input, i + 1, limit);
        }
        if end == n && !eof && end - i <= lim {
            return Step::Pending;
        }
        let tok = &input[i..end];
        let digits = &tok[1..];
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            self.add_garbage(i, tok, ErrorKind::BadNag, v);
            if end - i > lim {
                self.mode = Mode::SkipToken;
            }
            return Step::To(end);
        }
        self.movetext_token(i, v);
        if self.skipping() {
            return Step::To(end);
        }
        let value = digits.iter().try_fold(0u32, |acc, &d| {
            let acc = acc * 10 + (d - b'0') as u32;
            if acc > 255 { None } else { Some(acc) }
        });
        let pos = self.pos(i);
        match value {
            Some(value) => {
                let c = v.on_nag(&self.ctx_at(pos), Nag(value as u8), NagForm::Numeric);
                self.control(c);
            }
            None => self.emit_error(ErrorKind::NagOutOfRange, tok, pos, v),
        }
        if end - i > lim {
            self.mode = Mode::SkipToken;
        }
        Step::To(end)
    }
}

/// The move number written in the digits `input[i..j]` (at most 9 of them), and the end of the
/// periods after it.
#[inline(always)]
pub(super) fn move_number(input: &[u8], i: usize, j: usize) -> (u32, usize) {
    let mut num = 0u32;
    for &d in &input[i..j] {
        num = num * 10 + u32::from(d - b'0');
    }
    let mut k = j;
    while k < input.len() && input[k] == b'.' {
        k += 1;
    }
    (num, k)
}
