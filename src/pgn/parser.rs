//! The push parser: bytes in, visitor events out.
//!
//! # How it works (read this before changing it)
//!
//! [`Parser::feed`] takes chunks of any size. The state machine in [`Parser::run`] works on one
//! slice at a time and only ever acts on *complete* tokens: when a token touches the end of the
//! slice and more input may follow, `run` stops in front of it and reports how much it consumed.
//! `feed` keeps that unfinished tail in `carry` (`crate::carry`, shared with SGF; at most one
//! token, bounded by [`Config`]), and on
//! the next call completes it with the first bytes of the new chunk, runs over that small joined
//! slice, and then goes on over the new chunk itself. So every event borrows from either the
//! caller's chunk (the common, zero-copy case) or `carry`, and the events are the same whatever
//! the chunking: every decision is taken on a complete token.
//!
//! Constructs that can be longer than any buffer (brace comments, `;` and `%` lines) are the
//! exception: they are cut into pieces of at most [`Config::max_comment_piece`] bytes, at places
//! that depend only on the text, and the parser remembers in `mode` that it is inside one.
//!
//! Game structure is a small phase machine:
//!
//! ```text
//!   Idle --[tag / comment]--> Tags --[movetext token]--> Movetext --[result at depth 0]--> AfterResult
//!    ^                         |  ^------[tag]------------------|                            |
//!    |                         '--[movetext token]--> Movetext   (a tag ends the game: new game) |
//!    '------------- game ends: next tag or movetext token, or end of input -----------------'
//! ```
//!
//! A tag pair in `Tags` that repeats a Seven Tag Roster name also starts a new game (tag-only
//! games). Variations keep one counter and one ply per open level (`plies`, bounded by
//! [`Config::max_depth`]); skipped parts keep only a nesting counter. Nothing recurses.
//!
//! # Recovery, and why it never changes the reading of valid input
//!
//! Every repair below acts only on input that breaks the standard (§ numbers are the PGN
//! standard's); on valid input the parser reads exactly what the standard says.
//!
//! - **A line opening a tag pair inside a brace comment** (`brace_body`, `comment_closes`): by
//!   §5 a brace comment ends at the next `}` and nowhere else. The line ends the comment only
//!   when no `}` comes within [`Config::comment_lookahead`] bytes of its `[` (or before the end
//!   of the input), that is when the `{` is unclosed or closes beyond the bound; a comment
//!   closed within the bound is read whole, whatever lines it holds.
//! - **A Seven Tag Roster name repeated in one tag section starts a new game** (`tag_pair`,
//!   tag-only games): §8.1 says a tag name does not repeat within a game, so a valid tag
//!   section never repeats one.
//! - **A tag pair after movetext, or a movetext token after a result, starts a new game**: §8.2.6
//!   makes the termination marker the last element of every movetext, so in valid input
//!   nothing but the next game's tag section (or a comment) follows a result, and a tag pair
//!   never comes between movetext and its result. The game before is delivered as it stands
//!   (with `unclosed_variation` if a variation was open).
//! - **`%` escape lines** (`line_body`): only a `%` in the first column of a line outside any
//!   comment or tag, which is §6's own rule; escape lines between games belong to no game.
//! - **`;` comments**: to the end of the line, §5's rule; inside a brace comment `;` is text.
//! - **Tokens written together** (`lexer::split`): a token that is no PGN token as a whole is cut
//!   where §7 ends a symbol, a suffix annotation (§8.2.3.8) or a NAG, which is how the standard
//!   tokenizes it (so valid input reads the same); the one repair, a whole move followed by a
//!   whole result inside one symbol (`Qh5#1-0`), applies only to a symbol that is no valid
//!   token, and is reported (`missing_space`).
//! - **Unexpected text** (`add_garbage`), a stray `}` or `)`, `$` without digits, an unclosed
//!   tag value or variation: each fires only on bytes that are no token of §7 where they stand.
//! - **Move numbers** (`number`): §8.2.2 allows superfluous move numbers "as long as they are
//!   correct"; a number that disagrees is reported and followed from there. The first move
//!   number of a game from a FEN sets the count: on valid input it is the FEN's own number, so
//!   the count is unchanged.
//! - **Limits** ([`Config`]): a token or tag line longer than `max_token_len` (1024, while §7
//!   caps symbols at 255 characters and §7 strings at 255), variations deeper than `max_depth`.
//!   Comments longer than a piece are delivered in pieces, never cut short.
//! - **A UTF-8 byte-order mark** at a token's start is passed over: it is no PGN character
//!   (§4), and the standard's text never holds one.
//!
//! Skipped movetext goes through the same state machine with events muted, so a skipped game
//! ends exactly where a visited one would; `skip_fast` only jumps over the bytes that cannot
//! change anything while skipping (it stops at comments, brackets, `%`, and at every token that
//! could be a result; a whole result it reads itself, as `lexer::classify` would).
//!
//! Hot-path notes: a move's [`San`] is one `u32` (a byte-wise struct cost a store-forwarding
//! stall per move); SAN is parsed on a fixed 12-byte window, inlined into the token loop, and
//! a move followed by a delimiter goes to its event before any suffix check (the parse is bound
//! by latency: where the next token starts depends on this one's end); error reports are out of
//! line; visited movetext takes `movetext_run` first, one loop over blanks, line breaks, move
//! numbers in sequence, moves that end at a delimiter and brace comments complete in the input,
//! with the state in locals, and leaves everything else to the general path; tag pairs in the
//! usual form take
//! `lexer::quick_tag`, and a run of them (one per line) is read in one loop in `bracket`;
//! when the visitor skips the movetext after them, that loop goes on through the skip to the
//! next game's tags (`skip_game_after_tags`), so a headers-only scan stays in it from game to
//! game; everything else takes the careful paths. The byte searches of `skip_fast` and
//! `quick_tag` are in `super::simd` (SSE2 on x86_64, AVX2 where the processor has it, with
//! `bracket` compiled for it too; scalar elsewhere; all tested alike).

use alloc::vec::Vec;

use crate::carry::Carry;
use crate::control::{Control, Status};
use crate::error::{Diagnostic, Excerpt, Severity};
use crate::position::{Lines, Position};

use super::lexer::{self, CLASS, NEWLINE, PUNCT, SPACE, Tok};
use super::nag::{Nag, Outcome};
use super::raw::{RawComment, RawTag};
use super::san::San;
use super::simd;
use super::visitor::{
    Comment, CommentKind, Context, Error, ErrorKind, Move, MoveRef, NagForm, Tag, Visitor,
};

/// Limits of a [`Parser`]. Input beyond a limit becomes an error event and parsing goes on.
///
/// ```
/// let config = kifu::pgn::Config { max_depth: 16, ..Default::default() };
/// let parser = kifu::pgn::Parser::with_config(config);
/// # let _ = parser;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Longest movetext token and longest tag line (`[` to `]`), in bytes. Default 1024 (the
    /// standard allows 255 characters of tag data; real files stay below 300 bytes). A longer
    /// token is reported as [`ErrorKind::TokenTooLong`] and skipped. At least 32.
    pub max_token_len: usize,
    /// Longest comment piece, in bytes: longer comments arrive in pieces of at most this size.
    /// Default 4096. At least 8.
    pub max_comment_piece: usize,
    /// Deepest variation nesting visited. Default 256. Deeper variations are reported as
    /// [`ErrorKind::TooDeep`] and skipped with a counter, however deep they go.
    pub max_depth: u32,
    /// How far a brace comment is read past a line inside it that opens a tag pair
    /// (`[Event "…"]` at the start of a line) before the parser decides that the comment was
    /// left unclosed, in bytes from that line's `[`. Default 8192.
    ///
    /// By the standard a brace comment ends at the next `}` and nowhere else, so such a line is
    /// comment text whenever a `}` follows: kifu reads it so when the `}` comes within this
    /// bound. When none does (or the input ends first), the `{` was never closed: the comment
    /// ends before that line, [`ErrorKind::UnterminatedComment`] is reported, and the line
    /// starts the next game, so that an unclosed `{` does not swallow the rest of an archive.
    /// The decision depends on the text alone, never on the chunking; while it is pending the
    /// parser holds at most this many bytes (plus one comment piece) of the input.
    pub comment_lookahead: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_token_len: 1024,
            max_comment_piece: 4096,
            max_depth: 256,
            comment_lookahead: 8192,
        }
    }
}

/// Where the parser is inside a construct that spans calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Between tokens.
    Normal,
    /// Inside a brace comment whose first piece(s) went out; `start` is its `{`.
    Brace { start: Position },
    /// Inside a `;` or `%` line whose first piece(s) went out.
    Line { kind: CommentKind },
    /// Skipping the rest of a token that was too long.
    SkipToken,
    /// Skipping the rest of a tag line that was too long.
    SkipLine,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Between games.
    Idle,
    /// In a game's tag section (comments before the tags count too).
    Tags,
    /// In the movetext.
    Movetext,
    /// After the game's result: comments still belong to the game.
    AfterResult,
}

/// What is being skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Skip {
    /// Nothing.
    No,
    /// The variation open at the current depth, up to its `)`. `opened`: whether the visitor saw
    /// its `on_tree` (false for a variation beyond the depth limit), so it gets `on_tree_end`.
    Variation { opened: bool },
    /// The rest of the game.
    Game,
}

/// The outcome of one step of the state machine.
enum Step {
    /// Consumed up to this index.
    To(usize),
    /// Need more input to decide; nothing consumed from the current index.
    Pending,
    /// Need more input to decide; consumed up to this index.
    Stall(usize),
}

/// Unexpected text being collected into one error (consecutive words on a line).
struct Garbage {
    active: bool,
    kind: ErrorKind,
    pos: Position,
    game: u64,
    at: Option<MoveRef>,
    /// Stream offset just after the last word collected.
    end: u64,
    text: Excerpt,
}

/// A push parser for PGN: feed it chunks, it drives a [`Visitor`].
///
/// ```
/// use kifu::{Control, Status, pgn::{Context, Move, Parser, Visitor}};
///
/// #[derive(Default)]
/// struct Count { moves: usize }
/// impl Visitor for Count {
///     fn on_move(&mut self, _: &Context, _: &Move<'_>) -> Control {
///         self.moves += 1;
///         Control::Continue
///     }
/// }
///
/// let mut parser = Parser::new();
/// let mut count = Count::default();
/// // chunks may split tokens anywhere
/// for chunk in [&b"1. e4 e"[..], b"5 2. N", b"f3 *"] {
///     assert_eq!(parser.feed(chunk, &mut count), Status::NeedInput);
/// }
/// parser.finish(&mut count);
/// assert_eq!(count.moves, 3);
/// ```
pub struct Parser {
    cfg: Config,
    /// The unfinished token carried over from the previous chunk.
    carry: Carry,
    /// Stream offset of the first byte of the slice being run.
    base: u64,
    lines: Lines,
    mode: Mode,
    phase: Phase,
    /// Index of the current game (or of the next one, between games).
    game: u64,
    depth: u32,
    /// Ply of the current line.
    ply: u32,
    /// Plies of the enclosing lines, one per open variation.
    plies: Vec<u32>,
    /// Ply before the first move (from a FEN tag).
    start_ply: u32,
    /// A FEN tag was read in this game.
    fen: bool,
    /// The Seven Tag Roster names met in this game's tag section (see [`roster_bit`]).
    roster: u8,
    skip: Skip,
    /// `(` met inside the skipped part, not yet closed.
    skip_nest: u64,
    /// The previous token was a move number (so `.` tokens are its periods).
    after_number: bool,
    /// Unexpected text came since the last move number: it may have been a move, so the next
    /// move number is taken as written instead of being reported as out of sequence.
    text_since_number: bool,
    garbage: Garbage,
    stop: bool,
}

impl Default for Parser {
    fn default() -> Self {
        Parser::new()
    }
}

impl core::fmt::Debug for Parser {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Parser")
            .field("config", &self.cfg)
            .field("offset", &self.base)
            .field("game", &self.game)
            .field("depth", &self.depth)
            .finish_non_exhaustive()
    }
}

#[inline]
fn ctl_stop(c: Control) -> bool {
    c == Control::Stop
}

impl Parser {
    /// A parser with the default [`Config`].
    pub fn new() -> Parser {
        Parser::with_config(Config::default())
    }

    /// A parser with the given limits (raised to their minimums if below).
    pub fn with_config(mut cfg: Config) -> Parser {
        cfg.max_token_len = cfg.max_token_len.max(32);
        cfg.max_comment_piece = cfg.max_comment_piece.max(8);
        let look = cfg.max_token_len + cfg.max_comment_piece + 16;
        Parser {
            cfg,
            carry: Carry::new(look),
            base: 0,
            lines: Lines::default(),
            mode: Mode::Normal,
            phase: Phase::Idle,
            game: 0,
            depth: 0,
            ply: 0,
            plies: Vec::new(),
            start_ply: 0,
            fen: false,
            roster: 0,
            skip: Skip::No,
            skip_nest: 0,
            after_number: false,
            text_since_number: false,
            garbage: Garbage {
                active: false,
                kind: ErrorKind::UnexpectedText,
                pos: Position::default(),
                game: 0,
                at: None,
                end: 0,
                text: Excerpt::EMPTY,
            },
            stop: false,
        }
    }

    /// The limits in force.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// Stream offset of the next byte the parser will read (bytes kept in the carry-over buffer
    /// are not yet read).
    pub fn offset(&self) -> u64 {
        self.base + self.carry.len() as u64
    }

    /// Number of games started so far.
    pub fn games(&self) -> u64 {
        self.game + u64::from(self.phase != Phase::Idle)
    }

    /// Feeds the next chunk of input.
    ///
    /// Returns [`Status::NeedInput`] when the whole chunk was taken, or [`Status::Stopped`] when
    /// the visitor returned [`Control::Stop`]; then feed `&chunk[consumed..]` to resume.
    /// Chunks may be of any size, down to one byte, and may split tokens, line breaks and
    /// UTF-8 sequences anywhere: the events do not depend on the chunking.
    #[must_use = "a stopped parser has not taken the whole chunk"]
    pub fn feed<V: Visitor>(&mut self, chunk: &[u8], v: &mut V) -> Status {
        self.stop = false;
        let mut carry = core::mem::take(&mut self.carry);
        let status = carry.feed(chunk, |input| (self.run(input, false, v), self.stop));
        self.carry = carry;
        status
    }

    /// Ends the input: reads what is left in the carry-over buffer, closes the open game
    /// (reporting what was left unfinished), and resets the parser for a new stream.
    ///
    /// A [`Control::Stop`] returned during `finish` is ignored: the last game is always
    /// delivered whole.
    pub fn finish<V: Visitor>(&mut self, v: &mut V) {
        let mut carry = core::mem::take(&mut self.carry);
        carry.finish(|input| {
            self.stop = false;
            self.run(input, true, v)
        });
        let end = self.base;
        match self.mode {
            Mode::Brace { start } => {
                self.emit_error(ErrorKind::UnterminatedComment, b"", start, v);
            }
            Mode::Line { .. } | Mode::SkipLine | Mode::SkipToken | Mode::Normal => {}
        }
        self.mode = Mode::Normal;
        if self.phase != Phase::Idle {
            self.end_game(end, v);
        } else {
            self.flush_garbage(v);
        }
        *self = Parser {
            carry,
            ..Parser::with_config(self.cfg)
        };
    }

    // ----- the state machine ---------------------------------------------------------------

    /// Runs over `input` (whose first byte is at stream offset `self.base`), raising events;
    /// returns how many bytes were consumed. With `eof`, everything is consumed (unless a
    /// visitor stops).
    fn run<V: Visitor>(&mut self, input: &[u8], eof: bool, v: &mut V) -> usize {
        let mut i = 0;
        let n = input.len();
        while i < n && !self.stop {
            let step = match self.mode {
                Mode::Normal => self.normal_loop(input, i, eof, v),
                Mode::Brace { start } => self.brace_body(input, i, start, false, eof, v),
                Mode::Line { kind } => self.line_body(input, i, kind, false, eof, v),
                Mode::SkipToken => {
                    let j = lexer::token_end(input, i, n);
                    if j < n {
                        self.mode = Mode::Normal;
                    }
                    Step::To(j)
                }
                Mode::SkipLine => match memchr::memchr2(b'\n', b'\r', &input[i..]) {
                    Some(p) => {
                        self.mode = Mode::Normal;
                        Step::To(i + p)
                    }
                    None => Step::To(n),
                },
            };
            match step {
                Step::To(j) => i = j,
                Step::Pending => break,
                Step::Stall(j) => {
                    i = j;
                    break;
                }
            }
        }
        self.base += i as u64;
        i
    }

    #[inline]
    fn pos(&self, i: usize) -> Position {
        self.lines.at(self.base + i as u64)
    }

    #[inline]
    fn ctx_at(&self, pos: Position) -> Context {
        Context {
            pos,
            game: self.game,
            depth: self.depth,
            ply: self.ply,
        }
    }

    #[inline]
    fn skipping(&self) -> bool {
        self.skip != Skip::No
    }

    /// Tokens, until the input ends, a construct spans the end, the mode changes or a visitor
    /// stops.
    #[inline]
    fn normal_loop<V: Visitor>(
        &mut self,
        input: &[u8],
        mut i: usize,
        eof: bool,
        v: &mut V,
    ) -> Step {
        let n = input.len();
        if self.skip != Skip::No && self.phase == Phase::Movetext {
            i = self.skip(input, i, eof);
        }
        while i < n {
            if self.phase == Phase::Movetext && self.skip == Skip::No && !self.garbage.active {
                let (j, answered) = self.movetext_run(input, i, v);
                i = j;
                if answered {
                    // a visitor answered other than `Continue`: the checks after a step
                    if self.stop {
                        break;
                    }
                    if !matches!(self.skip, Skip::No) {
                        i = self.skip(input, i, eof);
                    }
                    continue;
                }
                if i >= n {
                    break;
                }
            }
            let b = input[i];
            let step = match CLASS[b as usize] {
                SPACE => {
                    i += 1;
                    continue;
                }
                NEWLINE => {
                    self.lines.brk(b, self.base + i as u64);
                    if self.garbage.active {
                        self.flush_garbage(v);
                    }
                    i += 1;
                    continue;
                }
                PUNCT => self.punct(input, i, eof, v),
                _ => {
                    if b == b'%' && self.lines.at_line_start(self.base + i as u64) {
                        self.after_number = false;
                        self.line_body(input, i + 1, CommentKind::Escape, true, eof, v)
                    } else {
                        self.token(input, i, eof, v)
                    }
                }
            };
            match step {
                Step::To(j) => i = j,
                Step::Pending | Step::Stall(_) => return Step::Stall(i),
            }
            if !matches!(self.mode, Mode::Normal) || self.stop {
                break;
            }
            if !matches!(self.skip, Skip::No) && self.phase == Phase::Movetext {
                i = self.skip(input, i, eof);
            }
        }
        Step::To(i)
    }

    /// The common run of visited movetext, in one tight loop with the state in locals: blanks,
    /// line breaks, move numbers in sequence, moves that end at a delimiter, and brace comments
    /// complete in the input within one piece and without a line that opens a tag pair. Stops in
    /// front of anything else (other punctuation, NAGs, results, other numbers, the FEN
    /// numbering case, a token that touches the end of the input), which the general path then
    /// takes, exactly as it would have; and after an event whose visitor answered other than
    /// `Continue` (returning `true`, the answer applied). Requires: phase `Movetext`, mode
    /// `Normal`, nothing skipped, no pending garbage.
    #[inline(always)]
    fn movetext_run<V: Visitor>(&mut self, input: &[u8], mut i: usize, v: &mut V) -> (usize, bool) {
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
    fn skip_fast<I: simd::Isa>(&mut self, isa: I, input: &[u8], i: usize, eof: bool) -> usize {
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
                        self.skip_nest += 1;
                        from = j + 1;
                    }
                    b')' if self.skip_nest > 0 => {
                        self.skip_nest -= 1;
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
            if self.skip_nest == 0 && self.depth == 0 {
                self.phase = Phase::AfterResult;
                return self.pass_blanks(input, e);
            }
            from = e;
        }
    }

    /// [`skip_fast`](Self::skip_fast) for the token loop: in the copy compiled for AVX2 where
    /// the processor has it.
    #[allow(unsafe_code)]
    fn skip(&mut self, input: &[u8], i: usize, eof: bool) -> usize {
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
    fn skip_avx2(&mut self, isa: simd::Avx2, input: &[u8], i: usize, eof: bool) -> usize {
        self.skip_fast(isa, input, i, eof)
    }

    /// Passes the spaces and line breaks from `i` (counting the line breaks), as the token loop
    /// does: where the next other byte is, or the end of the input.
    #[inline]
    fn pass_blanks(&mut self, input: &[u8], mut i: usize) -> usize {
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
    fn token_start(&self, input: &[u8], from: usize, j: usize) -> usize {
        let mut t = j;
        while t > from && CLASS[input[t - 1] as usize] == lexer::TOKEN {
            t -= 1;
        }
        if t > from && input[t - 1] == b'$' {
            t -= 1;
        }
        t
    }

    fn punct<V: Visitor>(&mut self, input: &[u8], i: usize, eof: bool, v: &mut V) -> Step {
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
    fn token<V: Visitor>(&mut self, input: &[u8], i: usize, eof: bool, v: &mut V) -> Step {
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
        let whole = &input[i..end];
        let mut glued = false;
        let (tok, class) = match lexer::classify(whole) {
            // tokens written without a space between them: the first is read here, the rest on
            // the next turn of the loop
            Tok::Garbage => match lexer::split(whole) {
                Some((len, g)) => {
                    glued = g;
                    (&whole[..len], lexer::classify(&whole[..len]))
                }
                None => (whole, Tok::Garbage),
            },
            class => (whole, class),
        };
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
                    if self.skip_nest == 0 && self.depth == 0 {
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
        if glued {
            let pos = self.pos(i);
            self.emit_error(ErrorKind::MissingSpace, whole, pos, v);
        }
        Step::To(end)
    }

    /// A move number `num` at `i..end`.
    #[inline(always)]
    fn number<V: Visitor>(
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
    fn do_move<V: Visitor>(
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
    fn nag<V: Visitor>(&mut self, input: &[u8], i: usize, eof: bool, v: &mut V) -> Step {
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

    /// A brace comment's text from `i` (just after `{`, or where the previous piece ended).
    fn brace_body<V: Visitor>(
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
    fn comment_closes(&self, rest: &[u8], eof: bool) -> Option<bool> {
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
    fn line_body<V: Visitor>(
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

    /// `[`: a tag pair, or (in movetext) the start of the next game, or stray text.
    #[allow(unsafe_code)]
    fn bracket<V: Visitor>(&mut self, input: &[u8], i: usize, eof: bool, v: &mut V) -> Step {
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        if let Some(isa) = simd::Avx2::detect() {
            // SAFETY: `bracket_avx2` needs AVX2, which the processor has: `isa` proves it.
            return unsafe { self.bracket_avx2(isa, input, i, eof, v) };
        }
        self.bracket_with(simd::Baseline, input, i, eof, v)
    }

    /// [`bracket`](Self::bracket) compiled for AVX2: its tag loop reads tag lines with
    /// `simd::avx2::tag_line` inlined.
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[target_feature(enable = "avx2")]
    fn bracket_avx2<V: Visitor>(
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
    fn bracket_with<V: Visitor, I: simd::Isa>(
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
                if self.stop || self.mode != Mode::Normal {
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
        let (region, complete) = match memchr::memchr2(b'\n', b'\r', window) {
            Some(p) => (&avail[..p], true),
            None if eof => (avail, true),
            None if avail.len() > lim => (&avail[..lim], false),
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
    fn skip_game_after_tags<'a, V: Visitor, I: simd::Isa>(
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
        if self.stop
            || self.mode != Mode::Normal
            || self.skip == Skip::No
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
    fn tag_pair<V: Visitor>(
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
    fn set_fen(&mut self, fen: &[u8]) {
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

    fn open_variation<V: Visitor>(&mut self, i: usize, v: &mut V) {
        self.movetext_token(i, v);
        if self.skipping() {
            self.skip_nest += 1;
            return;
        }
        let pos = self.pos(i);
        if self.depth >= self.cfg.max_depth {
            self.emit_error(ErrorKind::TooDeep, b"(", pos, v);
            self.skip = Skip::Variation { opened: false };
            self.skip_nest = 0;
            return;
        }
        if self.ply == self.start_ply_of_line() {
            self.emit_error(ErrorKind::VariationBeforeMove, b"(", pos, v);
        }
        self.plies.push(self.ply);
        self.ply = self.ply.saturating_sub(1).max(self.start_ply.min(self.ply));
        self.depth += 1;
        let c = v.on_tree(&self.ctx_at(pos));
        self.control(c);
    }

    /// The ply at which the current line started.
    fn start_ply_of_line(&self) -> u32 {
        match self.plies.last() {
            None => self.start_ply,
            Some(&parent) => parent.saturating_sub(1).max(self.start_ply.min(parent)),
        }
    }

    fn close_variation<V: Visitor>(&mut self, i: usize, v: &mut V) {
        self.flush_garbage(v);
        if self.phase == Phase::Tags {
            self.movetext_token(i, v);
        }
        let pos = self.pos(i);
        if self.skipping() {
            if self.skip_nest > 0 {
                self.skip_nest -= 1;
                return;
            }
            match self.skip {
                Skip::Variation { opened } => {
                    self.skip = Skip::No;
                    if opened {
                        self.pop_variation(pos, v);
                    }
                }
                Skip::Game => {
                    if self.depth > 0 {
                        self.pop_variation(pos, v);
                    }
                }
                Skip::No => unreachable!(),
            }
            return;
        }
        if self.depth == 0 {
            self.emit_error(ErrorKind::StrayParen, b")", pos, v);
            return;
        }
        self.pop_variation(pos, v);
    }

    fn pop_variation<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        let c = v.on_tree_end(&self.ctx_at(pos));
        self.depth -= 1;
        self.ply = self.plies.pop().unwrap_or(self.start_ply);
        self.control(c);
    }

    // ----- game structure ------------------------------------------------------------------

    /// A movetext token at `i` is about to be handled: end the previous game or the tag section
    /// as needed.
    #[inline]
    fn movetext_token<V: Visitor>(&mut self, i: usize, v: &mut V) {
        if self.garbage.active {
            self.flush_garbage(v);
        }
        if self.phase != Phase::Movetext {
            self.enter_movetext(i, v);
        }
    }

    #[cold]
    fn enter_movetext<V: Visitor>(&mut self, i: usize, v: &mut V) {
        match self.phase {
            Phase::Idle => self.begin_game(self.pos(i), v),
            Phase::AfterResult => {
                self.end_game(self.base + i as u64, v);
                self.begin_game(self.pos(i), v);
            }
            Phase::Tags | Phase::Movetext => {}
        }
        self.end_tags(i, v);
    }

    fn begin_game<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        self.phase = Phase::Tags;
        self.text_since_number = false;
        self.depth = 0;
        self.ply = 0;
        self.start_ply = 0;
        self.fen = false;
        self.roster = 0;
        self.plies.clear();
        self.skip = Skip::No;
        self.skip_nest = 0;
        let c = v.on_tree(&self.ctx_at(pos));
        self.control(c);
    }

    fn end_tags<V: Visitor>(&mut self, i: usize, v: &mut V) {
        if self.phase == Phase::Tags {
            self.phase = Phase::Movetext;
            if !self.skipping() {
                let c = v.on_tags_end(&self.ctx_at(self.pos(i)));
                self.control(c);
            }
        }
    }

    /// Ends the current game at stream offset `at`.
    fn end_game<V: Visitor>(&mut self, at: u64, v: &mut V) {
        self.flush_garbage(v);
        let pos = self.lines.at(at);
        if self.phase == Phase::Tags && !self.skipping() {
            self.phase = Phase::Movetext;
            let c = v.on_tags_end(&self.ctx_at(pos));
            self.control(c);
        }
        if self.depth > 0 && !self.skipping() {
            self.emit_error(ErrorKind::UnclosedVariation, b"", pos, v);
        }
        while self.depth > 0 {
            let c = v.on_tree_end(&self.ctx_at(pos));
            self.stop |= ctl_stop(c);
            self.depth -= 1;
            self.ply = self.plies.pop().unwrap_or(0);
        }
        let c = v.on_tree_end(&self.ctx_at(pos));
        self.stop |= ctl_stop(c);
        self.phase = Phase::Idle;
        self.skip = Skip::No;
        self.skip_nest = 0;
        self.after_number = false;
        self.game += 1;
        self.ply = 0;
        self.start_ply = 0;
    }

    /// Applies a visitor's answer.
    #[inline]
    fn control(&mut self, c: Control) {
        match c {
            Control::Continue => {}
            Control::Stop => self.stop = true,
            Control::Skip if self.depth > 0 => {
                self.skip = Skip::Variation { opened: true };
                self.skip_nest = 0;
            }
            Control::Skip | Control::SkipGame => {
                if matches!(self.phase, Phase::Tags | Phase::Movetext) {
                    self.skip = Skip::Game;
                    self.skip_nest = 0;
                }
            }
        }
    }

    // ----- events --------------------------------------------------------------------------

    fn emit_comment<V: Visitor>(
        &mut self,
        pos: Position,
        kind: CommentKind,
        text: &[u8],
        first: bool,
        last: bool,
        v: &mut V,
    ) {
        if self.garbage.active {
            self.flush_garbage(v);
        }
        if kind != CommentKind::Escape {
            self.after_number = false; // `12 {x} .` is no move number's period
        }
        if self.phase == Phase::Idle {
            if kind == CommentKind::Escape {
                return;
            }
            // a comment before the tags opens the game
            self.begin_game(pos, v);
        }
        if self.skipping() {
            return;
        }
        let comment = Comment {
            kind,
            text: RawComment(text),
            first,
            last,
        };
        let c = v.on_comment(&self.ctx_at(pos), &comment);
        self.control(c);
    }

    #[cold]
    #[inline(never)]
    fn emit_error<V: Visitor>(&mut self, kind: ErrorKind, text: &[u8], pos: Position, v: &mut V) {
        if self.skipping() && kind != ErrorKind::UnterminatedComment {
            return;
        }
        let n = text.len().min(Error::TEXT_MAX);
        let e = Diagnostic {
            kind,
            severity: kind.severity(),
            text: &text[..n],
            truncated: n < text.len(),
            pos,
            game: self.game,
            at: MoveRef::from_ply(self.ply),
        };
        let c = v.on_error(&e);
        self.stop |= ctl_stop(c);
    }

    /// Collects unexpected text; consecutive words on one line become one error.
    #[cold]
    #[inline(never)]
    fn add_garbage<V: Visitor>(&mut self, i: usize, text: &[u8], kind: ErrorKind, v: &mut V) {
        if self.skipping() {
            // skipped text changes nothing, as when `skip_fast` jumps over it (whether it does
            // depends on where a chunk ends: an over-long word cut by a chunk end comes here)
            return;
        }
        self.after_number = false;
        self.text_since_number = true;
        let at = self.base + i as u64;
        let g = &mut self.garbage;
        if g.active {
            if at > g.end {
                g.text.push(b" ");
            }
            if kind == ErrorKind::StrayBrace {
                g.kind = kind;
            }
        } else {
            g.active = true;
            g.kind = kind;
            g.pos = self.lines.at(at);
            g.game = self.game;
            g.at = MoveRef::from_ply(self.ply);
            g.text = Excerpt::EMPTY;
        }
        g.text.push(text);
        g.end = at + text.len() as u64;
        if kind == ErrorKind::TokenTooLong {
            g.text.truncated = true;
        }
        let _ = v;
    }

    #[inline]
    fn flush_garbage<V: Visitor>(&mut self, v: &mut V) {
        if self.garbage.active {
            self.report_garbage(v);
        }
    }

    /// Reports the unexpected text collected so far.
    #[cold]
    #[inline(never)]
    fn report_garbage<V: Visitor>(&mut self, v: &mut V) {
        let g = &mut self.garbage;
        g.active = false;
        let text = g.text;
        let e = Diagnostic {
            kind: g.kind,
            severity: Severity::Error,
            text: text.as_bytes(),
            truncated: text.truncated,
            pos: g.pos,
            game: g.game,
            at: g.at,
        };
        let c = v.on_error(&e);
        self.stop |= ctl_stop(c);
    }
}

/// The move number written in the digits `input[i..j]` (at most 9 of them), and the end of the
/// periods after it.
#[inline(always)]
fn move_number(input: &[u8], i: usize, j: usize) -> (u32, usize) {
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

/// A brace comment closed in `window` (the input after its `{`, as far as one piece goes; `avail`
/// is all the input after the `{`, whose first byte is at stream offset `base`) with no line
/// before the `}` that may open a tag pair or ends the input: the index of the `}` and the line
/// count after the comment. `None` for the others, which `Parser::brace_body` sorts out.
#[inline(always)]
fn closed_comment<I: simd::Isa>(
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

/// The bit of a Seven Tag Roster name, 0 for other names. A roster name met twice in one tag
/// section starts a new game: tag-only games (broadcast dumps) are separated by nothing else.
#[inline(always)]
fn roster_bit(name: &[u8]) -> u8 {
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
enum TagParse<'a> {
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
fn parse_tag(r: &[u8], complete: bool) -> TagParse<'_> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// What a headers-only reader sees: tag pairs and game ends, with their positions.
    #[derive(Default, PartialEq, Eq, Debug)]
    struct Tags {
        log: Vec<(u64, Position, Vec<u8>, Vec<u8>)>,
        skip: bool,
    }

    impl Visitor for Tags {
        fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
            self.log
                .push((ctx.game, ctx.pos, tag.name.to_vec(), tag.value.0.to_vec()));
            Control::Continue
        }
        fn on_tags_end(&mut self, _: &Context) -> Control {
            if self.skip {
                Control::Skip
            } else {
                Control::Continue
            }
        }
        fn on_tree_end(&mut self, ctx: &Context) -> Control {
            if ctx.depth == 0 {
                self.log.push((ctx.game, ctx.pos, Vec::new(), Vec::new()));
            }
            Control::Continue
        }
    }

    fn tags_of(input: &[u8], cut: usize, skip: bool) -> Vec<(u64, Position, Vec<u8>, Vec<u8>)> {
        let mut v = Tags {
            skip,
            ..Tags::default()
        };
        let mut p = Parser::new();
        assert_eq!(p.feed(&input[..cut], &mut v), Status::NeedInput);
        assert_eq!(p.feed(&input[cut..], &mut v), Status::NeedInput);
        p.finish(&mut v);
        v.log
    }

    /// Skipped movetext ends where visited movetext does, and counts its lines alike: the tags
    /// and game ends of a headers-only pass are those of a full pass, positions included.
    #[test]
    fn skipping_keeps_games_and_positions() {
        let pieces: [&[u8]; 33] = [
            b"[Event \"x\"]\n",
            b"[WhiteFideId \"4102142\"][ECO \"B38\"]\n",
            b"[Round \"3\"] [Date \"?\"] {c}\n",
            b"[Site \"y\"]\r\n",
            b"[Site \"https://tests.stockfishchess.org/tests/view/62df67e48e4fa6ae4726677\"]\n",
            b"[White \"Alvarez Abejon, Amilcar\"]\r",
            b"[Event \"Tournament \\\"]\n",
            b"[Black \"M\xC3\xBCller\"] \n",
            b"[Round \"1\"]\n\n[Date \"?\"]\n",
            b"\n",
            b"\r\n",
            b"\r",
            b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 ",
            b"6. Re1 b5 7. Bb3 d6 8. c3 O-O-O\n9. h3 Nb8 10. d4 Nbd7 ",
            b"O-O ",
            b"1-0 ",
            b"0-1\n",
            b"1/2-1/2",
            b"\xC2\xBD-\xC2\xBD ",
            b"1\xE2\x80\x930 ",
            b"*",
            b"{ a comment\n over lines }",
            b"( 1... c5 2. Nf3 )",
            b"; rest of line\n",
            b"\n% escape\n",
            b"$1 $* ",
            b"Nbxd7+!? ",
            b"e4-e5 ",
            b"[%clk 0:01] ",
            b"{",
            b"garbage ",
            b"\t\x0b\x0c",
            b"1. d4 d5 2. c4 c6 3. Nc3 Nf6 4. e3 e6 5. Nf3 Nbd7 6. Qc2 Bd6 7. Bd3 O-O\n",
        ];
        // with the code for AVX2 (where the processor has it) and without
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        for baseline in [false, true] {
            crate::pgn::simd::tests::BASELINE.set(baseline);
            skipping_keeps_games_and_positions_with(&pieces);
            crate::pgn::simd::tests::BASELINE.set(false);
        }
        #[cfg(not(all(target_arch = "x86_64", feature = "std")))]
        skipping_keeps_games_and_positions_with(&pieces);
    }

    fn skipping_keeps_games_and_positions_with(pieces: &[&[u8]]) {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..1500 {
            let mut input = Vec::new();
            for _ in 0..(round % 40) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                input.extend_from_slice(pieces[(x % pieces.len() as u64) as usize]);
            }
            let whole = tags_of(&input, input.len(), false);
            for cut in [0, input.len() / 3, input.len() / 2, input.len()] {
                assert_eq!(
                    tags_of(&input, cut, true),
                    whole,
                    "{:?} cut at {cut}",
                    alloc::string::String::from_utf8_lossy(&input)
                );
            }
        }
    }

    /// Found by the fuzzer: a token longer than the carry-over buffer in a skipped variation,
    /// fed byte by byte, marked "text since the move number" (so the next bad move number was
    /// not reported) while the whole input jumped over it.
    #[test]
    fn long_tokens_in_skipped_text_do_not_depend_on_the_chunking() {
        let config = Config {
            max_token_len: 32,
            max_comment_piece: 8,
            max_depth: 1,
            ..Config::default()
        };
        let long = "9".repeat(40) + "x";
        for text in [
            alloc::format!("(()({long} \n))2"),
            alloc::format!("(()(${long} \n))2"),
            alloc::format!("1. e4 ({long} 1-0) 5. d4"),
        ] {
            let input = text.as_bytes();
            let log = |step: usize| {
                let mut log = crate::pgn::EventLog::default();
                let mut p = Parser::with_config(config);
                for chunk in input.chunks(step) {
                    assert_eq!(p.feed(chunk, &mut log), Status::NeedInput);
                }
                p.finish(&mut log);
                log
            };
            let whole = log(input.len());
            for step in [1, 2, 3, 7, 33] {
                assert_eq!(log(step), whole, "{text} in chunks of {step}");
            }
        }
    }

    /// The same over the corpus, when `../shared` is there.
    #[cfg(feature = "std")]
    #[test]
    fn skipping_keeps_games_and_positions_on_the_corpus() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/pgn");
        let Ok(dirs) = std::fs::read_dir(root.join("small")) else {
            return;
        };
        let mut stack: Vec<_> = dirs.flatten().map(|e| e.path()).collect();
        stack.push(root.join("large/notnil-chess-history"));
        let mut files = 0;
        while let Some(path) = stack.pop() {
            if path.is_dir() {
                stack.extend(
                    std::fs::read_dir(&path)
                        .unwrap()
                        .flatten()
                        .map(|e| e.path()),
                );
                continue;
            }
            if !path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
            {
                continue;
            }
            let input = std::fs::read(&path).unwrap();
            let whole = tags_of(&input, input.len(), false);
            assert_eq!(tags_of(&input, input.len() / 2, true), whole, "{path:?}");
            // and without the code for AVX2
            #[cfg(target_arch = "x86_64")]
            {
                crate::pgn::simd::tests::BASELINE.set(true);
                assert_eq!(tags_of(&input, input.len() / 3, true), whole, "{path:?}");
                assert_eq!(tags_of(&input, input.len(), false), whole, "{path:?}");
                crate::pgn::simd::tests::BASELINE.set(false);
            }
            files += 1;
        }
        assert!(files > 100);
    }
}
