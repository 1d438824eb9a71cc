//! The push parser: bytes in, visitor events out.
//!
//! # How it works (read this before changing it)
//!
//! The design is the PGN parser's (see `pgn/parser.rs`): [`Parser::feed`] takes chunks of any
//! size; [`Parser::run`] acts only on *complete* tokens and stops in front of one that touches
//! the end of the chunk; `feed` keeps that tail in `carry` (bounded by [`Config`]) and completes
//! it with the first bytes of the next chunk. Every decision is taken on complete tokens, so the
//! events are the same whatever the chunking, and they borrow from the chunk or from `carry`.
//!
//! The tokens of SGF are `(`, `)`, `;`, an identifier (a run of letters), and a value `[…]`. A
//! value can be longer than any buffer: it is cut into pieces of at most
//! [`Config::max_value_piece`] bytes at places that depend only on its bytes
//! ([`lexer::piece_cut`]), and `mode` remembers that the parser is inside one. The tokenizer
//! only knows that `\` escapes the next byte; escapes are resolved in [`super::raw`].
//!
//! Structure is a small state machine per tree level, with no recursion and no per-level
//! state but one small [`Frame`] (node count, variation index) per open tree, bounded by
//! [`Config::max_depth`]; deeper trees are skipped with a counter:
//!
//! ```text
//!            `(`                 `;`                     `(`                  `)`
//!  parent ------> Pending(pos) ------> Node --`;`--> Node ------> child Pending ---> Children
//!                   | `)`: `()`, dropped   | `)`: tree ends                          | `;`: node outside
//!                   | `(`: `((`, opened    | ident / `[`: properties                 |  a variation: an
//!                   | ident: `;` missing    '----------------------------------------'  implicit `(`
//! ```
//!
//! Properties: an identifier is kept (`Prop::Ident`) until its first `[`, where `on_property`
//! goes out; each value then goes out on its own, so a property's values are never buffered.
//! The node most files are made of, `;B[pd]`, is read whole when its bytes are in the input at
//! hand (`move_node`): the same events, state and checks, without the general path's cases
//! (it falls back to them for anything else, and a chunk cut inside such a node takes them).
//!
//! # Recovery, and why it never changes the reading of valid input
//!
//! FF[4]'s grammar: `Collection = GameTree+`, `GameTree = "(" Sequence GameTree* ")"`,
//! `Sequence = Node+`, `Node = ";" Property*`, `Property = PropIdent PropValue+`,
//! `PropIdent = UcLetter+`, `PropValue = "[" CValueType "]"`, white space allowed between any
//! two tokens, `\` escaping the next character inside a value. Each repair below fires only
//! where that grammar is broken, so a valid file is read exactly as written:
//!
//! - **Text outside the game trees** (W06, `idle`): bytes between game trees that are neither
//!   white space nor a `(` opening one. A `(` opens a game tree when, after any amount of white
//!   space (`game_or_text`: only the `(`'s position is kept meanwhile, so memory stays bounded),
//!   a `;` follows, as the grammar requires; the look-ahead of `max_ident_len + 64` bytes starts
//!   after the white space and only serves the repair below. A UTF-8 BOM before a game tree is
//!   passed over (no FF[4] character).
//! - **`;` missing at the start of a tree** (E36, `Start::Property`): `(` then an identifier and
//!   `[`: the grammar puts a `;` first, so a valid tree never takes this branch.
//! - **A node after a tree's variations** (E66): `Sequence GameTree*` puts every node of a tree
//!   before its first variation; a `;` after one is outside any valid tree.
//! - **`((`** (E21) and **`()`** (E12): a valid tree starts with a node.
//! - **A stray `)`** (W101), **a property without value** (E20), **values without identifier**
//!   (E54) and **bytes that are no token inside a tree** (E08): none is in the grammar.
//! - **Lowercase letters in an identifier**: E16 in FF[4], where `PropIdent = UcLetter+`; W16 in
//!   FF[1]–FF[3], whose verbose identifiers (`White`) mean their uppercase letters (`W`).
//! - **End of input inside a tree or a value** (E09, E10): a valid file closes both.
//! - **Limits** ([`Config`]: E11 identifiers over `max_ident_len`, E100 values over
//!   `max_value_len`, E102 trees deeper than `max_depth`): FF[4] sets no such
//!   bounds, so these are the configurable price of bounded memory, with defaults far above any
//!   file seen (SGFC's identifier limit; see the field docs).
//! - Every other diagnostic (E13–E15, W17, E18, W19, W22–W44, W65) is a check only: the
//!   property and all its values are delivered as read.

use alloc::vec::Vec;

use crate::carry::Carry;
use crate::control::{Control, Status};
use crate::error::Diagnostic;
use crate::flow::{Flow, Skip};
use crate::junk::Junk;
use crate::position::{Lines, Position};
use crate::step::Step;

use super::lexer::{self, CLASS, NEWLINE, OTHER, PUNCT, SPACE, Start};
use super::props::{self, Class, Info, Ty};
use super::raw::{BoardSize, Color, RawValue};
use super::visitor::{Comment, Context, Error, ErrorKind, Move, NodeRef, Property, Value, Visitor};
mod checks;
mod tree;
mod values;

/// Limits of a [`Parser`]. Input beyond a limit becomes an error event and parsing goes on.
///
/// ```
/// let config = kifu::sgf::Config { max_depth: 1000, ..Default::default() };
/// let parser = kifu::sgf::Parser::with_config(config);
/// # let _ = parser;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Longest property identifier, in letters (lowercase ones included). Default 100, SGFC's
    /// limit (the longest in the wild is `MULTIGOGM`). A longer one is reported as
    /// [`ErrorKind::IdentTooLong`] and its property dropped. Also bounds the look-ahead after a
    /// `(` outside game trees and the length of words of junk kept whole. At least 8.
    pub max_ident_len: usize,
    /// Longest value piece, in bytes: longer values arrive in pieces of at most this size.
    /// Default 4096. At least 8.
    pub max_value_piece: usize,
    /// Longest value, in bytes. Default 1 MiB. The rest of a longer value is skipped and
    /// reported as [`ErrorKind::ValueTooLong`] (its last piece is then empty). At least
    /// `max_value_piece`.
    pub max_value_len: u64,
    /// Deepest tree nesting visited (the game tree is depth 0). Default 10 000 (OGS files nest
    /// one level per move; the deepest Fox file of the corpus has 685 levels). Deeper trees are
    /// reported as [`ErrorKind::TooDeep`] and skipped with a counter, however deep they go.
    pub max_depth: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_ident_len: 100,
            max_value_piece: 4096,
            max_value_len: 1 << 20,
            max_depth: 10_000,
        }
    }
}

/// Where the parser is inside a construct that spans calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Between tokens.
    Normal,
    /// Inside a value whose first piece(s) went out.
    Value,
    /// Skipping the letters of an over-long identifier.
    SkipIdent,
    /// Inside a word of junk longer than the look-ahead.
    Junk,
    /// After a `(` outside any game tree (at `pos`), passing the white space after it before
    /// deciding whether it opens a game tree; `broke`: a line break was passed.
    Paren { pos: Position, broke: bool },
}

/// The state of the current tree level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    /// After `(`: `on_tree` not yet raised (it waits for the first node). `parent` is the
    /// parent's state to restore if the tree turns out empty.
    Pending { pos: Position, children: bool },
    /// A node is open.
    Node,
    /// The tree is open, no node open and no variation closed yet.
    AfterNode,
    /// At least one variation of this tree was closed.
    Children,
}

/// The property being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prop {
    /// None.
    None,
    /// An identifier waiting for its first value.
    Ident,
    /// Values are being read.
    Values,
    /// Values being dropped (no identifier, or an unusable one).
    Drop,
}

/// What an open tree level remembers of its parent.
#[derive(Clone, Copy, Debug)]
struct Frame {
    path_nodes: u32,
    tree_base: u32,
    variation: u32,
    children: u32,
}

/// Where the current value piece ends.
#[derive(Clone, Copy, Debug)]
enum PieceEnd {
    /// At the closing `]` (index).
    Close(usize),
    /// Cut here; the value goes on.
    Cut(usize),
    /// At the end of the input, without `]`.
    Eof,
}

// node flags
const HAS_B: u16 = 1;
const HAS_W: u16 = 2;
const MOVE: u16 = 4;
const SETUP: u16 = 8;
const MIXED: u16 = 16;
const ANNOT_MOVE: u16 = 32;
const ANNOT_NODE: u16 = 64;
const GAME_INFO: u16 = 128;

/// What a [`Parser`] allocates, kept from one stream to the next: see `Parser::blank`.
struct Buffers {
    carry: Carry,
    name: Vec<u8>,
    raw_name: Vec<u8>,
    stack: Vec<Frame>,
}

/// A push parser for SGF: feed it chunks, it drives a [`Visitor`].
///
/// ```
/// use kifu::{Control, Status, sgf::{Context, Move, Parser, Visitor}};
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
/// for chunk in [&b"(;GM[1];B[p"[..], b"d];W[d", b"d];B[])"] {
///     assert_eq!(parser.feed(chunk, &mut count), Status::NeedInput);
/// }
/// parser.finish(&mut count);
/// assert_eq!(count.moves, 3);
/// ```
#[derive(Clone)]
pub struct Parser {
    cfg: Config,
    /// The unfinished token carried over from the previous chunk (see `crate::carry`).
    carry: Carry,
    base: u64,
    lines: Lines,
    mode: Mode,
    in_game: bool,
    game: u64,
    depth: u32,
    level: Level,
    /// Nodes on the path from the root, the current one included.
    path_nodes: u32,
    /// Nodes above the current tree.
    tree_base: u32,
    variation: u32,
    children: u32,
    /// Depth of the outermost tree that is not a first variation, or `u32::MAX`.
    off_main: u32,
    stack: Vec<Frame>,
    /// The skip and the stop that visitors asked for.
    flow: Flow,
    prop: Prop,
    /// The identifier's [`props::bit`] when it is written as one or two uppercase letters
    /// (most are): its name and spelling are then [`props::name`], and `name` and `raw_name`
    /// are not filled.
    short: Option<usize>,
    name: Vec<u8>,
    raw_name: Vec<u8>,
    ident_pos: Position,
    info: Option<Info>,
    nvalues: u32,
    had_empty: bool,
    value_pos: Position,
    value_index: u32,
    value_len: u64,
    value_drop: bool,
    value_nul: bool,
    seen: [u64; props::SEEN_WORDS],
    /// Bit `w` set when word `w` of `seen` may be non-zero.
    seen_dirty: u16,
    flags: u16,
    annot_pos: Position,
    ff: u8,
    gm: u32,
    size: BoardSize,
    game_info_at: Option<u32>,
    /// Junk text being collected into one error (consecutive words on a line).
    garbage: Junk<ErrorKind, Option<NodeRef>>,
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
        cfg.max_ident_len = cfg.max_ident_len.max(8);
        cfg.max_value_piece = cfg.max_value_piece.max(8);
        cfg.max_value_len = cfg.max_value_len.max(cfg.max_value_piece as u64);
        let look = 2 * cfg.max_ident_len + cfg.max_value_piece + 96;
        let buffers = Buffers {
            carry: Carry::new(look),
            name: Vec::with_capacity(cfg.max_ident_len),
            raw_name: Vec::with_capacity(cfg.max_ident_len),
            stack: Vec::new(),
        };
        Parser::blank(cfg, buffers)
    }

    /// A parser at the start of a stream, with these (empty) buffers.
    fn blank(cfg: Config, buffers: Buffers) -> Parser {
        let Buffers {
            carry,
            name,
            raw_name,
            stack,
        } = buffers;
        Parser {
            cfg,
            carry,
            base: 0,
            lines: Lines::default(),
            mode: Mode::Normal,
            in_game: false,
            game: 0,
            depth: 0,
            level: Level::AfterNode,
            path_nodes: 0,
            tree_base: 0,
            variation: 0,
            children: 0,
            off_main: u32::MAX,
            stack,
            flow: Flow::new(),
            prop: Prop::None,
            short: None,
            name,
            raw_name,
            ident_pos: Position::default(),
            info: None,
            nvalues: 0,
            had_empty: false,
            value_pos: Position::default(),
            value_index: 0,
            value_len: 0,
            value_drop: false,
            value_nul: false,
            seen: [0; props::SEEN_WORDS],
            seen_dirty: 0,
            flags: 0,
            annot_pos: Position::default(),
            ff: 0,
            gm: 0,
            size: BoardSize::default(),
            game_info_at: None,
            garbage: Junk::new(ErrorKind::TextOutsideGame, None),
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

    /// Number of game trees started so far.
    pub fn games(&self) -> u64 {
        self.game + u64::from(self.in_game)
    }

    /// Starts the stream in its middle: the next byte fed is the one at `pos` of the whole
    /// stream, and the next game tree read gets index `game`. For a piece of a larger input that
    /// begins at a game tree's first byte and is parsed on its own (as [`crate::par`] does):
    /// the events then carry the positions and indexes of the whole stream. Call it before
    /// feeding anything (or right after [`finish`](Parser::finish)).
    ///
    /// ```
    /// use kifu::{Position, sgf};
    /// let mut log = sgf::EventLog::default();
    /// let mut parser = sgf::Parser::new();
    /// parser.start_at(Position { offset: 1000, line: 40, column: 1 }, 7);
    /// parser.parse(b"(;GM[1];B[aa])", &mut log);
    /// let sgf::Event::Tree(ctx) = &log.events[0] else { panic!() };
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
    /// Chunks may be of any size, down to one byte, and may split tokens, values, line breaks
    /// and UTF-8 sequences anywhere: the events do not depend on the chunking.
    #[must_use = "a stopped parser has not taken the whole chunk"]
    pub fn feed<V: Visitor>(&mut self, chunk: &[u8], v: &mut V) -> Status {
        self.flow.stop = false;
        let mut carry = core::mem::take(&mut self.carry);
        let status = carry.feed(chunk, |input| (self.run(input, false, v), self.flow.stop));
        self.carry = carry;
        status
    }

    /// Ends the input: reads what is left in the carry-over buffer, closes the open value and
    /// game tree (reporting what was left unfinished), raises [`Visitor::on_end`], and resets
    /// the parser for a new stream.
    ///
    /// A [`Control::Stop`] returned during `finish` is ignored: the last game tree is always
    /// delivered whole.
    pub fn finish<V: Visitor>(&mut self, v: &mut V) {
        let mut carry = core::mem::take(&mut self.carry);
        carry.finish(|input| {
            self.flow.stop = false;
            self.run(input, true, v)
        });
        self.carry = carry;
        if self.mode == Mode::Value {
            // the input ended right after a piece
            self.deliver(&[], 0, PieceEnd::Eof, false, v);
        }
        if let Mode::Paren { pos, .. } = self.mode {
            // a `(` followed by nothing but white space: text outside the game trees
            self.add_garbage_at(pos.offset, pos, b"(");
        }
        self.mode = Mode::Normal;
        self.flush_garbage(v);
        if self.in_game {
            let pos = self.lines.at(self.base);
            self.end_property(v);
            let pending_root = self.depth == 0 && matches!(self.level, Level::Pending { .. });
            if !pending_root {
                self.emit_error(ErrorKind::UnclosedTree, b"", pos, true, v);
            }
            if self.flow.nest > 0 {
                // trees opened while skipping: abandoned with the skip
                self.flow.nest = 0;
                self.level = Level::Children;
            }
            if self.flow.skip == (Skip::Variation { opened: false }) {
                self.flow.clear();
                self.level = Level::Children;
            }
            loop {
                let was = self.depth;
                self.close_tree(pos, v);
                if was == 0 {
                    break;
                }
            }
        }
        v.on_end();
        *self = Parser::blank(self.cfg, self.take_buffers());
    }

    /// The buffers, emptied, to keep for the next stream (so that a parser reused stream after
    /// stream allocates nothing).
    fn take_buffers(&mut self) -> Buffers {
        let mut name = core::mem::take(&mut self.name);
        let mut raw_name = core::mem::take(&mut self.raw_name);
        let mut stack = core::mem::take(&mut self.stack);
        name.clear();
        raw_name.clear();
        stack.clear();
        Buffers {
            carry: core::mem::take(&mut self.carry),
            name,
            raw_name,
            stack,
        }
    }

    // ----- the state machine ---------------------------------------------------------------

    fn run<V: Visitor>(&mut self, input: &[u8], eof: bool, v: &mut V) -> usize {
        let mut i = 0;
        let n = input.len();
        while i < n && !self.flow.stop {
            let step = match self.mode {
                Mode::Normal => self.normal_loop(input, i, eof, v),
                Mode::Value => match self.piece_end(input, i, eof) {
                    Some(end) => Step::To(self.deliver(input, i, end, false, v)),
                    None => Step::Pending,
                },
                Mode::SkipIdent => {
                    let j = lexer::letters_end(input, i, n);
                    if j < n {
                        self.mode = Mode::Normal;
                    }
                    Step::To(j)
                }
                Mode::Junk => {
                    let j = lexer::word_end(input, i, n);
                    self.add_garbage(i, &input[i..j]);
                    if j < n {
                        self.mode = Mode::Normal;
                    }
                    Step::To(j)
                }
                Mode::Paren { pos, broke } => self.game_or_text(input, i, pos, broke, eof, v),
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
            node: self.path_nodes.saturating_sub(1),
            variation: self.variation,
            main_line: self.off_main == u32::MAX,
        }
    }

    #[inline]
    fn tree_ctx(&self, pos: Position) -> Context {
        Context {
            node: self.tree_base,
            ..self.ctx_at(pos)
        }
    }

    #[inline]
    fn skipping(&self) -> bool {
        self.flow.skipping()
    }

    /// Tokens until the input ends, a token spans the end, the mode changes or a visitor stops.
    fn normal_loop<V: Visitor>(
        &mut self,
        input: &[u8],
        mut i: usize,
        eof: bool,
        v: &mut V,
    ) -> Step {
        let n = input.len();
        while i < n {
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
                _ if !self.in_game => self.idle(input, i, eof, v),
                PUNCT => match b {
                    b';' => {
                        self.semicolon(i, v);
                        Step::To(self.move_node(input, i + 1, v).unwrap_or(i + 1))
                    }
                    b'(' => {
                        self.open_tree(i, v);
                        Step::To(i + 1)
                    }
                    b')' => {
                        self.close_paren(i, v);
                        Step::To(i + 1)
                    }
                    _ => self.value_start(input, i, eof, v),
                },
                OTHER => self.junk(input, i, eof),
                _ => self.ident(input, i, eof, v),
            };
            match step {
                Step::To(j) => i = j,
                Step::Pending | Step::Stall(_) => return Step::Stall(i),
            }
            if self.mode != Mode::Normal || self.flow.stop {
                break;
            }
        }
        Step::To(i)
    }

    /// Applies a visitor's answer.
    #[inline]
    fn control(&mut self, c: Control) {
        self.flow.apply(c, self.depth, self.in_game);
    }

    // ----- diagnostics ---------------------------------------------------------------------

    #[inline]
    fn node_ref(&self) -> Option<NodeRef> {
        self.in_game.then(|| NodeRef {
            depth: self.depth,
            node: self.path_nodes.saturating_sub(1),
        })
    }

    /// Raises an error; while skipping only if `always`.
    #[cold]
    #[inline(never)]
    fn emit_error<V: Visitor>(
        &mut self,
        kind: ErrorKind,
        text: &[u8],
        pos: Position,
        always: bool,
        v: &mut V,
    ) {
        if self.skipping() && !always {
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
            at: self.node_ref(),
        };
        let c = v.on_error(&e);
        self.flow.stop_on(c);
    }

    /// Collects junk; consecutive junk on one line becomes one error.
    fn add_garbage(&mut self, i: usize, text: &[u8]) {
        let at = self.base + i as u64;
        self.add_garbage_at(at, self.lines.at(at), text);
    }

    /// [`add_garbage`](Self::add_garbage) for text at stream offset `at`, at `pos`.
    fn add_garbage_at(&mut self, at: u64, pos: Position, text: &[u8]) {
        if self.skipping() {
            return;
        }
        let kind = if self.in_game {
            ErrorKind::IllegalChars
        } else {
            ErrorKind::TextOutsideGame
        };
        let (at_ref, game) = (self.node_ref(), self.game);
        self.garbage.add(at, text, || (kind, pos, game, at_ref));
    }

    #[inline]
    fn flush_garbage<V: Visitor>(&mut self, v: &mut V) {
        if self.garbage.active {
            self.report_garbage(v);
        }
    }

    #[cold]
    #[inline(never)]
    fn report_garbage<V: Visitor>(&mut self, v: &mut V) {
        let severity = self.garbage.kind().severity();
        let c = v.on_error(&self.garbage.take(severity));
        self.flow.stop_on(c);
    }
}
