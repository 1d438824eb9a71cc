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
use crate::error::{Diagnostic, Severity};
use crate::flow::{Closed, Flow, Skip};
use crate::junk::Junk;
use crate::position::{Lines, Position};
use crate::step::Step;

use super::lexer::{self, CLASS, NEWLINE, PUNCT, SPACE};
use super::raw::RawComment;
use super::visitor::{Comment, CommentKind, Context, Error, ErrorKind, MoveRef, Visitor};

mod comments;
mod movetext;
mod skip;
mod tags;
#[cfg(test)]
mod tests;

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

/// What a [`Parser`] allocates, kept from one stream to the next: see `Parser::blank`.
struct Buffers {
    carry: Carry,
    plies: Vec<u32>,
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
#[derive(Clone)]
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
    /// The skip and the stop that visitors asked for.
    flow: Flow,
    /// The previous token was a move number (so `.` tokens are its periods).
    after_number: bool,
    /// Unexpected text came since the last move number: it may have been a move, so the next
    /// move number is taken as written instead of being reported as out of sequence.
    text_since_number: bool,
    /// Unexpected text being collected into one error (consecutive words on a line).
    garbage: Junk<ErrorKind, Option<MoveRef>>,
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
        let buffers = Buffers {
            carry: Carry::new(look),
            plies: Vec::new(),
        };
        Parser::blank(cfg, buffers)
    }

    /// A parser at the start of a stream, with these (empty) buffers.
    fn blank(cfg: Config, buffers: Buffers) -> Parser {
        let Buffers { carry, plies } = buffers;
        Parser {
            cfg,
            carry,
            base: 0,
            lines: Lines::default(),
            mode: Mode::Normal,
            phase: Phase::Idle,
            game: 0,
            depth: 0,
            ply: 0,
            plies,
            start_ply: 0,
            fen: false,
            roster: 0,
            flow: Flow::new(),
            after_number: false,
            text_since_number: false,
            garbage: Junk::new(ErrorKind::UnexpectedText, None),
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

    /// Starts the stream in its middle: the next byte fed is the one at `pos` of the whole
    /// stream, and the next game read gets index `game`. For a piece of a larger input that
    /// begins at a game's first byte and is parsed on its own (as [`crate::par`] does):
    /// the events then carry the positions and indexes of the whole stream. Call it before
    /// feeding anything (or right after [`finish`](Parser::finish)).
    ///
    /// ```
    /// use kifu::{Position, pgn};
    /// let mut log = pgn::EventLog::default();
    /// let mut parser = pgn::Parser::new();
    /// parser.start_at(Position { offset: 1000, line: 40, column: 1 }, 7);
    /// parser.parse(b"1. e4 *", &mut log);
    /// let pgn::Event::Tree(ctx) = &log.events[0] else { panic!() };
    /// assert_eq!((ctx.pos, ctx.game), (Position { offset: 1000, line: 40, column: 1 }, 7));
    /// ```
    pub fn start_at(&mut self, pos: Position, game: u64) {
        self.resume(Lines::starting_at(pos), pos.offset, game);
    }

    /// [`start_at`](Parser::start_at) with the exact line counter of the stream at `offset`.
    pub(crate) fn resume(&mut self, lines: Lines, offset: u64, game: u64) {
        self.base = offset;
        self.lines = lines;
        self.game = game;
    }

    /// Feeds the next chunk of input.
    ///
    /// Returns [`Status::NeedInput`] when the whole chunk was taken, or [`Status::Stopped`] when
    /// the visitor returned [`Control::Stop`]; then feed `&chunk[consumed..]` to resume.
    /// Chunks may be of any size, down to one byte, and may split tokens, line breaks and
    /// UTF-8 sequences anywhere: the events do not depend on the chunking.
    #[must_use = "a stopped parser has not taken the whole chunk"]
    pub fn feed<V: Visitor>(&mut self, chunk: &[u8], v: &mut V) -> Status {
        self.flow.stop = false;
        let mut carry = core::mem::take(&mut self.carry);
        let status = carry.feed(chunk, |input| (self.run(input, false, v), self.flow.stop));
        self.carry = carry;
        status
    }

    /// Ends the input: reads what is left in the carry-over buffer, closes the open game
    /// (reporting what was left unfinished), raises [`Visitor::on_end`], and resets the parser
    /// for a new stream.
    ///
    /// A [`Control::Stop`] returned during `finish` is ignored: the last game is always
    /// delivered whole.
    pub fn finish<V: Visitor>(&mut self, v: &mut V) {
        let mut carry = core::mem::take(&mut self.carry);
        carry.finish(|input| {
            self.flow.stop = false;
            self.run(input, true, v)
        });
        self.carry = carry;
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
        v.on_end();
        *self = Parser::blank(self.cfg, self.take_buffers());
    }

    /// The buffers, emptied, to keep for the next stream (so that a parser reused stream after
    /// stream allocates nothing).
    fn take_buffers(&mut self) -> Buffers {
        let mut plies = core::mem::take(&mut self.plies);
        plies.clear();
        Buffers {
            carry: core::mem::take(&mut self.carry),
            plies,
        }
    }

    // ----- the state machine ---------------------------------------------------------------

    /// Runs over `input` (whose first byte is at stream offset `self.base`), raising events;
    /// returns how many bytes were consumed. With `eof`, everything is consumed (unless a
    /// visitor stops).
    fn run<V: Visitor>(&mut self, input: &[u8], eof: bool, v: &mut V) -> usize {
        let mut i = 0;
        let n = input.len();
        while i < n && !self.flow.stop {
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
            if !step.advance(&mut i) {
                break;
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
        self.flow.skipping()
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
        if self.flow.skipping() && self.phase == Phase::Movetext {
            i = self.skip(input, i, eof);
        }
        while i < n {
            if self.phase == Phase::Movetext && !self.flow.skipping() && !self.garbage.active {
                let (j, answered) = self.movetext_run(input, i, v);
                i = j;
                if answered {
                    // a visitor answered other than `Continue`: the checks after a step
                    if self.flow.stop {
                        break;
                    }
                    if self.flow.skipping() {
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
            if !matches!(self.mode, Mode::Normal) || self.flow.stop {
                break;
            }
            if self.flow.skipping() && self.phase == Phase::Movetext {
                i = self.skip(input, i, eof);
            }
        }
        Step::To(i)
    }

    fn open_variation<V: Visitor>(&mut self, i: usize, v: &mut V) {
        self.movetext_token(i, v);
        if self.skipping() {
            self.flow.open();
            return;
        }
        let pos = self.pos(i);
        if self.depth >= self.cfg.max_depth {
            self.emit_error(ErrorKind::TooDeep, b"(", pos, v);
            self.flow.start(Skip::Variation { opened: false });
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
        if let Some(closed) = self.flow.close() {
            match closed {
                Closed::Inner => {}
                Closed::Variation { opened } => {
                    if opened {
                        self.pop_variation(pos, v);
                    }
                }
                Closed::Game => {
                    if self.depth > 0 {
                        self.pop_variation(pos, v);
                    }
                }
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
        self.flow.clear();
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
            self.flow.stop_on(c);
            self.depth -= 1;
            self.ply = self.plies.pop().unwrap_or(0);
        }
        let c = v.on_tree_end(&self.ctx_at(pos));
        self.flow.stop_on(c);
        self.phase = Phase::Idle;
        self.flow.clear();
        self.after_number = false;
        self.game += 1;
        self.ply = 0;
        self.start_ply = 0;
    }

    /// Applies a visitor's answer (after the result nothing is left to skip).
    #[inline]
    fn control(&mut self, c: Control) {
        let in_game = matches!(self.phase, Phase::Tags | Phase::Movetext);
        self.flow.apply(c, self.depth, in_game);
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
        self.flow.stop_on(c);
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
        let (lines, game, ply) = (self.lines, self.game, self.ply);
        let g = &mut self.garbage;
        if g.active && kind == ErrorKind::StrayBrace {
            g.set_kind(kind);
        }
        g.add(at, text, || {
            (kind, lines.at(at), game, MoveRef::from_ply(ply))
        });
        if kind == ErrorKind::TokenTooLong {
            g.truncate();
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
        let c = v.on_error(&self.garbage.take(Severity::Error));
        self.flow.stop_on(c);
    }
}
