//! Tag pairs: the tag loop (`bracket`, also compiled for AVX2), the headers-only path through
//! a skipped game to the next game's tags, and the reading of one tag line.

use super::*;
use crate::pgn::lexer::{self};
use crate::pgn::raw::RawTag;
use crate::pgn::simd;
use crate::pgn::visitor::{ErrorKind, Tag, Visitor};

impl Parser {
    /// `[`: a tag pair, or (in movetext) the start of the next game, or stray text.
    #[allow(unsafe_code)]
    pub(super) fn bracket<V: Visitor>(
        &mut self,
        input: &[u8],
        i: usize,
        eof: bool,
        v: &mut V,
    ) -> Step {
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        if let Some(isa) = simd::Avx2::detect() {
            // SAFETY: `bracket_avx2` needs AVX2, which the processor has: `isa` proves it.
            return unsafe { self.bracket_avx2(isa, input, i, eof, v) };
        }
        self.bracket_with(simd::Baseline, input, i, eof, v)
    }

    /// [`bracket`](Self::bracket) compiled for AVX2: its tag loop reads tag lines with
    /// `simd::tag::avx2::tag_line` inlined.
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[target_feature(enable = "avx2")]
    pub(super) fn bracket_avx2<V: Visitor>(
        &mut self,
        isa: simd::Avx2,
        input: &[u8],
        i: usize,
        eof: bool,
        v: &mut V,
    ) -> Step {
        self.bracket_with(isa, input, i, eof, v)
    }

    /// [`bracket`](Self::bracket), in the copy for the instruction set of `isa`.
    #[inline(always)]
    pub(super) fn bracket_with<V: Visitor, I: simd::Isa>(
        &mut self,
        isa: I,
        input: &[u8],
        i: usize,
        eof: bool,
        v: &mut V,
    ) -> Step {
        let avail = &input[i..];
        let lim = self.cfg.max_token_len;
        let quick = lexer::quick_tag(isa, &avail[..avail.len().min(lim)]);
        if quick.is_none() && matches!(self.phase, Phase::Movetext | Phase::AfterResult) {
            match lexer::is_tag_start(&avail[..avail.len().min(lim)]) {
                Some(true) => {}
                Some(false) => {
                    self.add_garbage(i, b"[", ErrorKind::UnexpectedText, v);
                    return Step::To(i + 1);
                }
                None if !eof && avail.len() < lim => return Step::Pending,
                None => {
                    self.add_garbage(i, b"[", ErrorKind::UnexpectedText, v);
                    return Step::To(i + 1);
                }
            }
        }
        // the common case first: `[Name "value"]` complete on its line, without escapes
        if let Some(mut t) = quick {
            let n = input.len();
            let mut i = i;
            loop {
                let parsed = TagParse::Ok {
                    name: t.name,
                    value: t.value,
                    end: t.end,
                    problem: None,
                    ascii: t.ascii,
                };
                let Step::To(e) = self.tag_pair(i, parsed, &input[i..], v) else {
                    unreachable!("a tag pair in the usual form is always consumed")
                };
                if self.flow.stop || self.mode != Mode::Normal {
                    return Step::To(e);
                }
                // A tag section is a run of such lines: read the next one here rather than
                // through the token loop, which would do the same (a line break, then `[` and a
                // quick tag pair; anything else goes back to it).
                let k = if t.next != 0 {
                    // (found from the line breaks, not from `e`: see `simd::tag_line`)
                    Some(i + t.next)
                } else {
                    match input.get(e..e + 2) {
                        Some(b"\n[") => Some(e + 1),
                        Some(b"\r\n") => Some(e + 2),
                        // no line break right after the pair: the end of the tag section, or
                        // more on its line (another pair, a comment, text), as the token loop
                        // takes it
                        _ => None,
                    }
                };
                let Some(k) = k.filter(|&k| input.get(k) == Some(&b'[')) else {
                    // the end of the tag section: when the game is skipped, on to the next
                    // one's tags from here too
                    match self.skip_game_after_tags(isa, input, e, eof, v) {
                        Ok((k, next)) => {
                            t = next;
                            i = k;
                            continue;
                        }
                        Err(j) => return Step::To(j),
                    }
                };
                match lexer::quick_tag(isa, &input[k..n.min(k + lim)]) {
                    Some(next) => {
                        if k == e + 2 {
                            self.lines.brk(b'\r', self.base + e as u64);
                        }
                        self.lines.brk(b'\n', self.base + (k - 1) as u64);
                        t = next;
                        i = k;
                    }
                    None => return Step::To(e),
                }
            }
        }
        // the tag's line, or as much as the limit allows
        let window = &avail[..avail.len().min(lim + 1)];
        // (the limit first: a line longer than it is too long at the input's end too, so that
        // a parser that waited for the end, a comment's look-ahead say, reads it as one that
        // did not)
        let (region, complete) = match memchr::memchr2(b'\n', b'\r', window) {
            Some(p) => (&avail[..p], true),
            None if avail.len() > lim => (&avail[..lim], false),
            None if eof => (avail, true),
            None => return Step::Pending,
        };
        self.tag_pair(i, parse_tag(region, complete), region, v)
    }

    /// After a tag section that ends at `e`, what the token loop would do next when that is
    /// the usual start of a game that the visitor skips: the blank lines, the first move
    /// number (whose token asks the visitor, `on_tags_end`), the skipped movetext, then the next
    /// game's first tag pair in the usual form, read but not yet taken: `Ok` with its start.
    /// `Err` with where the token loop goes on (as far as this went) for anything else. Keeps a
    /// headers-only scan in `bracket`'s loop from game to game.
    #[inline(always)]
    pub(super) fn skip_game_after_tags<'a, V: Visitor, I: simd::Isa>(
        &mut self,
        isa: I,
        input: &'a [u8],
        e: usize,
        eof: bool,
        v: &mut V,
    ) -> Result<(usize, lexer::QuickTag<'a>), usize> {
        let n = input.len();
        let mut j = self.pass_blanks(input, e);
        if j == n || !input[j].is_ascii_digit() {
            return Err(j);
        }
        match self.token(input, j, eof, v) {
            Step::To(t) => j = t,
            Step::Pending | Step::Stall(_) => return Err(j),
        }
        if self.flow.stop
            || self.mode != Mode::Normal
            || !self.flow.skipping()
            || self.phase != Phase::Movetext
        {
            return Err(j);
        }
        j = self.skip_fast(isa, input, j, eof);
        if self.phase != Phase::AfterResult || input.get(j) != Some(&b'[') {
            return Err(j);
        }
        let lim = self.cfg.max_token_len;
        lexer::quick_tag(isa, &input[j..n.min(j + lim)])
            .map(|t| (j, t))
            .ok_or(j)
    }

    /// The tag pair read at `i` (`region`: its line, as far as it was read).
    #[inline(always)]
    pub(super) fn tag_pair<V: Visitor>(
        &mut self,
        i: usize,
        parsed: TagParse<'_>,
        region: &[u8],
        v: &mut V,
    ) -> Step {
        // a tag pair starts a game, continues the tag section, or (after movetext, or when it
        // repeats a Seven Tag Roster name) ends the game before it and starts the next
        self.flush_garbage(v);
        let roster = match &parsed {
            TagParse::Ok { name, .. } => roster_bit(name),
            _ => 0,
        };
        match self.phase {
            Phase::Idle => self.begin_game(self.pos(i), v),
            Phase::Tags if self.roster & roster == 0 => {}
            Phase::Tags | Phase::Movetext | Phase::AfterResult => {
                self.end_game(self.base + i as u64, v);
                self.begin_game(self.pos(i), v);
            }
        }
        self.roster |= roster;
        self.after_number = false;
        let pos = self.pos(i);
        match parsed {
            TagParse::Ok {
                name,
                value,
                end,
                problem,
                ascii,
            } => {
                if !self.skipping() {
                    if let Some(kind) = problem {
                        self.emit_error(kind, &region[..end], pos, v);
                    }
                    if !(ascii || value.is_ascii()) && core::str::from_utf8(value).is_err() {
                        self.emit_error(ErrorKind::InvalidUtf8, value, pos, v);
                    }
                    if name == b"FEN" {
                        self.set_fen(value);
                    }
                    let c = v.on_property(
                        &self.ctx_at(pos),
                        &Tag {
                            name,
                            value: RawTag(value),
                        },
                    );
                    self.control(c);
                }
                Step::To(i + end)
            }
            TagParse::Malformed { end } => {
                if !self.skipping() {
                    self.emit_error(ErrorKind::MalformedTag, &region[..end], pos, v);
                }
                Step::To(i + end)
            }
            TagParse::TooLong => {
                if !self.skipping() {
                    self.emit_error(ErrorKind::TokenTooLong, region, pos, v);
                }
                self.mode = Mode::SkipLine;
                Step::To(i + region.len())
            }
        }
    }

    /// Sets the starting ply from a FEN's side to move and move number.
    pub(super) fn set_fen(&mut self, fen: &[u8]) {
        let mut fields = fen.split(|&b| b == b' ').filter(|f| !f.is_empty());
        let side = fields.nth(1);
        let number = fields.nth(3);
        let black = side == Some(b"b");
        let number = number
            .and_then(|n| core::str::from_utf8(n).ok())
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| (1..1 << 20).contains(n))
            .unwrap_or(1);
        self.start_ply = 2 * (number - 1) + u32::from(black);
        self.fen = true;
        if self.phase == Phase::Tags && self.depth == 0 {
            self.ply = self.start_ply;
        }
    }
}

/// The bit of a Seven Tag Roster name, 0 for other names. A roster name met twice in one tag
/// section starts a new game: tag-only games (broadcast dumps) are separated by nothing else.
#[inline(always)]
pub(super) fn roster_bit(name: &[u8]) -> u8 {
    match name {
        b"Event" => 1,
        b"Site" => 2,
        b"Date" => 4,
        b"Round" => 8,
        b"White" => 16,
        b"Black" => 32,
        b"Result" => 64,
        _ => 0,
    }
}

/// The result of reading one tag pair from its line.
pub(super) enum TagParse<'a> {
    Ok {
        name: &'a [u8],
        value: &'a [u8],
        end: usize,
        problem: Option<ErrorKind>,
        /// The value is known to be ASCII (`false`: not looked at).
        ascii: bool,
    },
    Malformed {
        end: usize,
    },
    TooLong,
}

/// Reads `[Name "value"]` from `r` (which starts with `[` and holds the rest of its line, or
/// `limit` bytes of it when `complete` is false).
pub(super) fn parse_tag(r: &[u8], complete: bool) -> TagParse<'_> {
    let blank = |b: u8| b == b' ' || b == b'\t';
    let skip_blank = |mut j: usize| {
        while j < r.len() && blank(r[j]) {
            j += 1;
        }
        j
    };
    // where a malformed tag ends: through the next `]` on the line, else the whole line
    let malformed = |from: usize| match memchr::memchr(b']', &r[from..]) {
        Some(p) => TagParse::Malformed { end: from + p + 1 },
        None if complete => TagParse::Malformed { end: r.len() },
        None => TagParse::TooLong,
    };
    let mut j = skip_blank(1);
    let name_start = j;
    while j < r.len() && lexer::is_name_byte(r[j]) {
        j += 1;
    }
    let name = &r[name_start..j];
    j = skip_blank(j);
    if name.is_empty() || r.get(j) != Some(&b'"') {
        if j >= r.len() && !complete {
            return TagParse::TooLong;
        }
        return malformed(j.min(r.len()));
    }
    let vstart = j + 1;
    // the first unescaped quote
    let mut k = vstart;
    let close = loop {
        match memchr::memchr2(b'"', b'\\', &r[k..]) {
            None => break None,
            Some(p) if r[k + p] == b'\\' => k += p + 2,
            Some(p) => break Some(k + p),
        }
        if k >= r.len() {
            break None;
        }
    };
    // a quote followed by blanks and `]`
    let closes_at = |q: usize| {
        let a = skip_blank(q + 1);
        if r.get(a) == Some(&b']') {
            Some(a + 1)
        } else {
            None
        }
    };
    match close {
        Some(q) => {
            if let Some(end) = closes_at(q) {
                return TagParse::Ok {
                    name,
                    value: &r[vstart..q],
                    end,
                    problem: None,
                    ascii: false,
                };
            }
            // unescaped quotes inside the value: the value ends at a later quote followed by `]`
            let mut from = q + 1;
            while let Some(p) = memchr::memchr(b'"', &r[from..]) {
                let q2 = from + p;
                if let Some(end) = closes_at(q2) {
                    return TagParse::Ok {
                        name,
                        value: &r[vstart..q2],
                        end,
                        problem: Some(ErrorKind::UnescapedQuote),
                        ascii: false,
                    };
                }
                from = q2 + 1;
            }
            if !complete {
                return TagParse::TooLong;
            }
            // no `]` after the value: not a tag pair
            let end = memchr::memchr(b']', &r[q..]).map_or(r.len(), |p| q + p + 1);
            TagParse::Malformed { end }
        }
        None => {
            if !complete {
                return TagParse::TooLong;
            }
            // A backslash before the closing quote (`"C:\"]`): the last quote before `]` closes.
            let trimmed = r.len() - r.iter().rev().take_while(|&&b| blank(b)).count();
            let t = &r[..trimmed];
            if t.len() >= vstart + 2 && t.ends_with(b"\"]") {
                return TagParse::Ok {
                    name,
                    value: &r[vstart..t.len() - 2],
                    end: r.len(),
                    problem: Some(ErrorKind::UnescapedQuote),
                    ascii: false,
                };
            }
            let value_end = if t.ends_with(b"]") {
                t.len() - 1
            } else {
                t.len()
            };
            TagParse::Ok {
                name,
                value: &r[vstart..value_end.max(vstart)],
                end: r.len(),
                problem: Some(ErrorKind::UnterminatedTag),
                ascii: false,
            }
        }
    }
}
