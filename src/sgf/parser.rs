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
use crate::error::{Diagnostic, Excerpt};
use crate::position::{Lines, Position};

use super::lexer::{self, CLASS, NEWLINE, OTHER, PUNCT, SPACE, Start};
use super::props::{self, Class, Info, Ty};
use super::raw::{BoardSize, Color, RawValue};
use super::visitor::{Comment, Context, Error, ErrorKind, Move, NodeRef, Property, Value, Visitor};

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

/// What is being skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Skip {
    No,
    /// The tree open at the current depth, to its `)`. `opened`: whether the visitor saw its
    /// `on_tree` (false beyond the depth limit).
    Tree {
        opened: bool,
    },
    /// The rest of the game.
    Game,
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

enum Step {
    /// Consumed up to this index.
    To(usize),
    /// Need more input; nothing consumed from the current index.
    Pending,
    /// Need more input; consumed up to this index.
    Stall(usize),
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

/// Junk being collected into one error (consecutive junk on a line).
#[derive(Debug)]
struct Garbage {
    active: bool,
    kind: ErrorKind,
    pos: Position,
    at: Option<NodeRef>,
    end: u64,
    text: Excerpt,
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
    skip: Skip,
    skip_nest: u64,
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
        Parser::blank(
            cfg,
            Carry::new(look),
            Vec::with_capacity(cfg.max_ident_len),
            Vec::with_capacity(cfg.max_ident_len),
            Vec::new(),
        )
    }

    /// A parser at the start of a stream, with these (empty) buffers.
    fn blank(
        cfg: Config,
        carry: Carry,
        name: Vec<u8>,
        raw_name: Vec<u8>,
        stack: Vec<Frame>,
    ) -> Parser {
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
            skip: Skip::No,
            skip_nest: 0,
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
            garbage: Garbage {
                active: false,
                kind: ErrorKind::IllegalChars,
                pos: Position::default(),
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

    /// Number of game trees started so far.
    pub fn games(&self) -> u64 {
        self.game + u64::from(self.in_game)
    }

    /// Feeds the next chunk of input.
    ///
    /// Returns [`Status::NeedInput`] when the whole chunk was taken, or [`Status::Stopped`] when
    /// the visitor returned [`Control::Stop`]; then feed `&chunk[consumed..]` to resume.
    /// Chunks may be of any size, down to one byte, and may split tokens, values, line breaks
    /// and UTF-8 sequences anywhere: the events do not depend on the chunking.
    #[must_use = "a stopped parser has not taken the whole chunk"]
    pub fn feed<V: Visitor>(&mut self, chunk: &[u8], v: &mut V) -> Status {
        self.stop = false;
        let mut carry = core::mem::take(&mut self.carry);
        let status = carry.feed(chunk, |input| (self.run(input, false, v), self.stop));
        self.carry = carry;
        status
    }

    /// Ends the input: reads what is left in the carry-over buffer, closes the open value and
    /// game tree (reporting what was left unfinished), and resets the parser for a new stream.
    ///
    /// A [`Control::Stop`] returned during `finish` is ignored: the last game tree is always
    /// delivered whole.
    pub fn finish<V: Visitor>(&mut self, v: &mut V) {
        let mut carry = core::mem::take(&mut self.carry);
        carry.finish(|input| {
            self.stop = false;
            self.run(input, true, v)
        });
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
            if self.skip_nest > 0 {
                // trees opened while skipping: abandoned with the skip
                self.skip_nest = 0;
                self.level = Level::Children;
            }
            if matches!(self.skip, Skip::Tree { opened: false }) {
                self.skip = Skip::No;
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
        // back to a new parser's state, keeping the buffers (no allocation per stream)
        let mut name = core::mem::take(&mut self.name);
        let mut raw_name = core::mem::take(&mut self.raw_name);
        let mut stack = core::mem::take(&mut self.stack);
        name.clear();
        raw_name.clear();
        stack.clear();
        *self = Parser::blank(self.cfg, carry, name, raw_name, stack);
    }

    // ----- the state machine ---------------------------------------------------------------

    fn run<V: Visitor>(&mut self, input: &[u8], eof: bool, v: &mut V) -> usize {
        let mut i = 0;
        let n = input.len();
        while i < n && !self.stop {
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

    fn tree_ctx(&self, pos: Position) -> Context {
        Context {
            node: self.tree_base,
            ..self.ctx_at(pos)
        }
    }

    #[inline]
    fn skipping(&self) -> bool {
        self.skip != Skip::No
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
                        Step::To(i + 1)
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
            if self.mode != Mode::Normal || self.stop {
                break;
            }
        }
        Step::To(i)
    }

    /// A byte outside any game tree.
    fn idle<V: Visitor>(&mut self, input: &[u8], i: usize, eof: bool, v: &mut V) -> Step {
        let n = input.len();
        let b = input[i];
        let glued = self.garbage.active && self.garbage.end == self.base + i as u64;
        if b == 0xEF && !glued {
            // a BOM (not glued to junk before it, whose word it then continues)
            const BOM: &[u8] = b"\xEF\xBB\xBF";
            let avail = &input[i..n.min(i + 3)];
            if avail == BOM {
                return Step::To(i + 3);
            }
            if avail.len() < 3 && !eof && BOM.starts_with(avail) {
                return Step::Pending;
            }
        }
        match b {
            b'(' => {
                // decided after the white space that follows it (`game_or_text`)
                self.mode = Mode::Paren {
                    pos: self.pos(i),
                    broke: false,
                };
                Step::To(i + 1)
            }
            b')' if !self.garbage.active => {
                self.emit_error(ErrorKind::StrayParen, b")", self.pos(i), false, v);
                Step::To(i + 1)
            }
            _ => {
                let mut j = lexer::word_end(input, i, n);
                if j == i {
                    j = i + 1; // `)`, `;` or `[`
                }
                self.add_garbage(i, &input[i..j]);
                Step::To(j)
            }
        }
    }

    /// After a `(` outside any game tree: passes white space (any amount: FF[4] allows it
    /// between any two tokens, and only the `(`'s position is kept), then decides from the
    /// first `;` or property identifier, looking at most `max_ident_len + 64` bytes past the
    /// white space, whether the `(` opens a game tree or is text outside the game trees.
    fn game_or_text<V: Visitor>(
        &mut self,
        input: &[u8],
        mut i: usize,
        pos: Position,
        mut broke: bool,
        eof: bool,
        v: &mut V,
    ) -> Step {
        let n = input.len();
        while i < n {
            match CLASS[input[i] as usize] {
                SPACE => {}
                NEWLINE => {
                    self.lines.brk(input[i], self.base + i as u64);
                    broke = true;
                }
                _ => break,
            }
            i += 1;
        }
        self.mode = Mode::Paren { pos, broke };
        if i == n && !eof {
            return Step::To(n);
        }
        let lim = self.cfg.max_ident_len + 64;
        match lexer::game_start(&input[i..], lim, eof) {
            Start::More => Step::Stall(i),
            Start::No => {
                self.mode = Mode::Normal;
                self.add_garbage_at(pos.offset, pos, b"(");
                if broke {
                    // as a line break after the `(` would have
                    self.flush_garbage(v);
                }
                Step::To(i)
            }
            Start::Node | Start::Property => {
                self.mode = Mode::Normal;
                self.flush_garbage(v);
                self.begin_game(pos);
                Step::To(i)
            }
        }
    }

    /// A word of junk inside a game tree.
    fn junk(&mut self, input: &[u8], i: usize, eof: bool) -> Step {
        let n = input.len();
        let lim = self.cfg.max_ident_len;
        let j = lexer::word_end(input, i, n.min(i + lim + 1));
        if j - i > lim {
            self.add_garbage(i, &input[i..j]);
            self.mode = Mode::Junk;
            return Step::To(j);
        }
        if j == n && !eof {
            return Step::Pending;
        }
        self.add_garbage(i, &input[i..j]);
        Step::To(j)
    }

    /// Letters inside a game tree: an identifier, or junk.
    fn ident<V: Visitor>(&mut self, input: &[u8], i: usize, eof: bool, v: &mut V) -> Step {
        let n = input.len();
        let lim = self.cfg.max_ident_len;
        let e = if i + 1 < n && !lexer::is_letter(input[i + 1]) {
            i + 1 // one letter (`B`, `W`, `C`): no loop
        } else {
            lexer::letters_end(input, i, n.min(i + lim + 1))
        };
        if e - i > lim {
            if self.skipping() {
                self.skip_node_content();
            } else {
                self.flush_garbage(v);
                let pos = self.pos(i);
                self.end_property(v);
                self.ensure_node(pos, v);
                self.emit_error(ErrorKind::IdentTooLong, &input[i..e], pos, false, v);
                self.prop = Prop::Drop;
            }
            self.mode = Mode::SkipIdent;
            return Step::To(e);
        }
        if e == n && !eof {
            return Step::Pending;
        }
        if e < n && !lexer::is_delimiter(input[e]) {
            return self.junk(input, i, eof);
        }
        let word = &input[i..e];
        if !word.iter().any(u8::is_ascii_uppercase) {
            self.add_garbage(i, word);
            return Step::To(e);
        }
        if self.skipping() {
            self.skip_node_content();
            return Step::To(e);
        }
        self.flush_garbage(v);
        let pos = self.pos(i);
        self.end_property(v);
        self.ensure_node(pos, v);
        if self.skipping() {
            return Step::To(e);
        }
        self.short = props::bit(word);
        if let Some(b) = self.short {
            // one or two uppercase letters (most identifiers): nothing to copy
            self.info = props::TABLE[b];
        } else {
            self.name.clear();
            self.raw_name.clear();
            if word.iter().all(u8::is_ascii_uppercase) {
                self.name.extend_from_slice(word);
            } else {
                self.name
                    .extend(word.iter().copied().filter(u8::is_ascii_uppercase));
            }
            self.raw_name.extend_from_slice(word);
            self.info = props::lookup(&self.name);
        }
        self.ident_pos = pos;
        self.prop = Prop::Ident;
        self.nvalues = 0;
        self.had_empty = false;
        Step::To(e)
    }

    // ----- tree structure ------------------------------------------------------------------

    fn begin_game(&mut self, pos: Position) {
        self.in_game = true;
        self.depth = 0;
        self.level = Level::Pending {
            pos,
            children: false,
        };
        self.path_nodes = 0;
        self.tree_base = 0;
        self.variation = 0;
        self.children = 0;
        self.off_main = u32::MAX;
        self.stack.clear();
        self.skip = Skip::No;
        self.skip_nest = 0;
        self.prop = Prop::None;
        self.ff = 0;
        self.gm = 0;
        self.size = BoardSize::default();
        self.game_info_at = None;
    }

    /// Raises `on_tree` for a pending tree.
    fn open_pending<V: Visitor>(&mut self, v: &mut V) {
        if let Level::Pending { pos, .. } = self.level {
            self.level = Level::AfterNode;
            if self.skipping() {
                return; // a tree beyond the depth limit
            }
            let c = v.on_tree(&self.tree_ctx(pos));
            self.control(c);
        }
    }

    fn begin_node<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        self.path_nodes += 1;
        self.level = Level::Node;
        // only the words the last node set
        let mut d = self.seen_dirty;
        while d != 0 {
            self.seen[d.trailing_zeros() as usize] = 0;
            d &= d - 1;
        }
        self.seen_dirty = 0;
        self.flags = 0;
        if !self.skipping() {
            let c = v.on_node(&self.ctx_at(pos));
            self.control(c);
        }
    }

    fn end_node<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        self.end_property(v);
        if self.level != Level::Node {
            return;
        }
        self.level = Level::AfterNode;
        if self.skipping() {
            return;
        }
        if self.flags & ANNOT_MOVE != 0 && self.flags & (HAS_B | HAS_W) == 0 {
            self.emit_error(
                ErrorKind::AnnotationWithoutMove,
                b"",
                self.annot_pos,
                false,
                v,
            );
        }
        let c = v.on_node_end(&self.ctx_at(pos));
        self.control(c);
    }

    /// Makes sure a node is open for a property or value at `pos`.
    #[inline]
    fn ensure_node<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        if self.level != Level::Node {
            self.open_node(pos, v);
        }
    }

    /// [`ensure_node`](Self::ensure_node) when no node is open: the recoveries.
    #[cold]
    #[inline(never)]
    fn open_node<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        match self.level {
            Level::Node => {}
            Level::Pending { .. } | Level::AfterNode => {
                self.emit_error(ErrorKind::MissingSemicolon, b"", pos, false, v);
                self.open_pending(v);
                self.begin_node(pos, v);
            }
            Level::Children => {
                self.emit_error(ErrorKind::NodeOutsideVariation, b"", pos, false, v);
                self.push_tree(pos, v);
                self.open_pending(v);
                self.begin_node(pos, v);
            }
        }
    }

    fn semicolon<V: Visitor>(&mut self, i: usize, v: &mut V) {
        if self.skipping() {
            self.skip_node_content();
            return;
        }
        self.flush_garbage(v);
        let pos = self.pos(i);
        match self.level {
            Level::Pending { .. } => self.open_pending(v),
            Level::Node => self.end_node(pos, v),
            Level::AfterNode => {}
            Level::Children => {
                self.emit_error(ErrorKind::NodeOutsideVariation, b";", pos, false, v);
                self.push_tree(pos, v);
                self.open_pending(v);
            }
        }
        self.begin_node(pos, v);
    }

    /// While skipping: a node, property or value. Only the structure is followed (the same
    /// recoveries as when visiting, so that skipping finds the same tree ends).
    fn skip_node_content(&mut self) {
        match self.level {
            Level::Node => {}
            Level::Pending { .. } | Level::AfterNode => self.level = Level::Node,
            Level::Children => {
                // a node after a variation: the implicit `(` of `NodeOutsideVariation`
                self.skip_nest += 1;
                self.level = Level::Node;
            }
        }
    }

    /// Opens a child tree (pending) at `pos`, or skips it beyond the depth limit.
    fn push_tree<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        if self.depth >= self.cfg.max_depth {
            self.emit_error(ErrorKind::TooDeep, b"(", pos, false, v);
            self.skip = Skip::Tree { opened: false };
            self.skip_nest = 0;
            self.level = Level::Pending {
                pos,
                children: self.level == Level::Children,
            };
            return;
        }
        let children = self.level == Level::Children;
        self.stack.push(Frame {
            path_nodes: self.path_nodes,
            tree_base: self.tree_base,
            variation: self.variation,
            children: self.children,
        });
        self.depth += 1;
        self.tree_base = self.path_nodes;
        self.variation = self.children;
        self.children = 0;
        if self.variation > 0 && self.off_main == u32::MAX {
            self.off_main = self.depth;
        }
        self.level = Level::Pending { pos, children };
    }

    /// Back to the parent level.
    fn pop_tree(&mut self) {
        let f = self.stack.pop().expect("a parent level");
        self.depth -= 1;
        self.path_nodes = f.path_nodes;
        self.tree_base = f.tree_base;
        self.variation = f.variation;
        self.children = f.children;
        if self.off_main > self.depth {
            self.off_main = u32::MAX;
        }
        if self.game_info_at.is_some_and(|k| k >= self.path_nodes) {
            self.game_info_at = None;
        }
    }

    fn open_tree<V: Visitor>(&mut self, i: usize, v: &mut V) {
        let pos = self.pos(i);
        if self.skipping() {
            self.skip_open(pos);
            return;
        }
        self.flush_garbage(v);
        match self.level {
            Level::Node => self.end_node(pos, v),
            Level::Pending { .. } => {
                // `((`: the second `(` is dropped, as SGFC does
                self.emit_error(ErrorKind::VariationWithoutNode, b"(", pos, false, v);
                return;
            }
            Level::AfterNode | Level::Children => {}
        }
        if self.skipping() {
            self.skip_open(pos);
            return;
        }
        self.push_tree(pos, v);
    }

    /// While skipping: a `(`.
    fn skip_open(&mut self, pos: Position) {
        match self.level {
            Level::Pending { .. } => {} // `((`: dropped
            l => {
                self.skip_nest += 1;
                self.level = Level::Pending {
                    pos,
                    children: l == Level::Children,
                };
            }
        }
    }

    /// Ends the current tree at `pos`: its `on_tree_end` (if it was opened), then the parent
    /// level, or the end of the game.
    fn close_tree<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        let was_skipping = self.skipping();
        self.end_node(pos, v);
        if !was_skipping && matches!(self.skip, Skip::Tree { .. }) {
            // a Skip from the last node's `on_node_end`: the tree ends anyway
            self.skip = Skip::No;
        }
        match self.level {
            Level::Pending { .. } if self.depth > 0 => {
                self.pop_tree();
                self.level = Level::Children;
                return;
            }
            Level::Pending { .. } => {}
            _ => {
                let c = v.on_tree_end(&self.tree_ctx(pos));
                self.stop |= c == Control::Stop;
            }
        }
        if self.depth == 0 {
            self.end_game();
        } else {
            self.pop_tree();
            self.children += 1;
            self.level = Level::Children;
        }
    }

    fn close_paren<V: Visitor>(&mut self, i: usize, v: &mut V) {
        let pos = self.pos(i);
        if self.skipping() {
            if self.skip_nest > 0 {
                self.skip_nest -= 1;
                self.level = match self.level {
                    Level::Pending {
                        children: false, ..
                    } => Level::AfterNode, // `()`
                    _ => Level::Children,
                };
                return;
            }
            match self.skip {
                Skip::Tree { opened } => {
                    self.skip = Skip::No;
                    self.prop = Prop::None;
                    if opened {
                        self.close_tree(pos, v);
                    } else {
                        // a tree beyond the depth limit: skipped like any other, so an empty
                        // `()` leaves the node open for more, as the skip scanner does
                        self.level = match self.level {
                            Level::Pending {
                                children: false, ..
                            } => Level::AfterNode,
                            _ => Level::Children,
                        };
                    }
                }
                Skip::Game => self.close_tree(pos, v),
                Skip::No => unreachable!(),
            }
            return;
        }
        self.flush_garbage(v);
        if let Level::Pending {
            pos: open,
            children,
        } = self.level
        {
            if self.depth > 0 {
                self.emit_error(ErrorKind::EmptyTree, b"()", open, false, v);
                self.pop_tree();
                self.level = if children {
                    Level::Children
                } else {
                    Level::AfterNode
                };
                return;
            }
        }
        self.close_tree(pos, v);
    }

    fn end_game(&mut self) {
        self.in_game = false;
        self.game += 1;
        self.depth = 0;
        self.stack.clear();
        self.skip = Skip::No;
        self.skip_nest = 0;
        self.prop = Prop::None;
        self.level = Level::AfterNode;
        self.path_nodes = 0;
        self.tree_base = 0;
        self.variation = 0;
        self.children = 0;
        self.off_main = u32::MAX;
    }

    /// Applies a visitor's answer.
    #[inline]
    fn control(&mut self, c: Control) {
        match c {
            Control::Continue => {}
            Control::Stop => self.stop = true,
            Control::Skip if self.depth > 0 => {
                self.skip = Skip::Tree { opened: true };
                self.skip_nest = 0;
            }
            Control::Skip | Control::SkipGame => {
                if self.in_game {
                    self.skip = Skip::Game;
                    self.skip_nest = 0;
                }
            }
        }
    }

    // ----- properties and values -----------------------------------------------------------

    /// Ends the property being read: an identifier without value is reported.
    #[inline]
    fn end_property<V: Visitor>(&mut self, v: &mut V) {
        if self.prop == Prop::Ident {
            self.property_without_value(v);
        }
        self.prop = Prop::None;
    }

    /// Reports the identifier waiting for a value as [`ErrorKind::PropertyWithoutValue`].
    #[cold]
    #[inline(never)]
    fn property_without_value<V: Visitor>(&mut self, v: &mut V) {
        self.ident_error(ErrorKind::PropertyWithoutValue, v);
    }

    /// Raises an error on the identifier as written.
    #[cold]
    #[inline(never)]
    fn ident_error<V: Visitor>(&mut self, kind: ErrorKind, v: &mut V) {
        self.name_error(kind, self.ident_pos, true, v);
    }

    /// Reports a second value of a property that takes one.
    #[cold]
    #[inline(never)]
    fn too_many_values<V: Visitor>(&mut self, pos: Position, v: &mut V) {
        self.name_error(ErrorKind::TooManyValues, pos, false, v);
    }

    /// Raises an error whose text is the property's identifier: as written (`raw`) or its
    /// `FF[4]` name.
    fn name_error<V: Visitor>(&mut self, kind: ErrorKind, pos: Position, raw: bool, v: &mut V) {
        if let Some(b) = self.short {
            return self.emit_error(kind, props::name(b), pos, false, v);
        }
        let name = core::mem::take(if raw {
            &mut self.raw_name
        } else {
            &mut self.name
        });
        self.emit_error(kind, &name, pos, false, v);
        *(if raw {
            &mut self.raw_name
        } else {
            &mut self.name
        }) = name;
    }

    /// The `FF[4]` identifier of the property being read.
    #[inline]
    fn name(&self) -> &[u8] {
        match self.short {
            Some(b) => props::name(b),
            None => &self.name,
        }
    }

    /// The identifier of the property being read, as written.
    #[inline]
    fn raw_name(&self) -> &[u8] {
        match self.short {
            Some(b) => props::name(b),
            None => &self.raw_name,
        }
    }

    fn is_go(&self) -> bool {
        self.gm <= 1
    }

    fn at_root(&self) -> bool {
        self.depth == 0 && self.path_nodes == 1
    }

    /// Checks a property as its first value comes, then raises `on_property`.
    fn property_start<V: Visitor>(&mut self, v: &mut V) {
        self.prop = Prop::Values;
        let pos = self.ident_pos;
        let mut err = |p: &mut Parser, kind: ErrorKind| p.ident_error(kind, v);
        if self.short.is_none() && self.raw_name.len() != self.name.len() {
            if self.ff == 4 {
                err(self, ErrorKind::LowercaseIdent);
            } else {
                err(self, ErrorKind::OldStyleIdent);
            }
        }
        let mut duplicate = false;
        if let Some(b) = self.short.or_else(|| props::bit(&self.name)) {
            let (w, m) = (b / 64, 1u64 << (b % 64));
            duplicate = self.seen[w] & m != 0;
            self.seen[w] |= m;
            self.seen_dirty |= 1 << w;
        }
        if duplicate {
            err(self, ErrorKind::DuplicateProperty);
        }
        match self.info {
            None if self.name().len() > 2 => err(self, ErrorKind::LongIdent),
            None if self.is_go() => err(self, ErrorKind::UnknownProperty),
            None => {}
            Some(info) => {
                let f = self.flags;
                match info.class {
                    Class::Move => {
                        let (me, other) = if self.name() == b"B" {
                            (HAS_B, HAS_W)
                        } else {
                            (HAS_W, HAS_B)
                        };
                        if f & other != 0 && f & me == 0 {
                            err(self, ErrorKind::TwoMoves);
                        }
                        if self.at_root() && !duplicate {
                            err(self, ErrorKind::MoveInRoot);
                        }
                        self.flags |= me | MOVE;
                    }
                    Class::MoveOther => self.flags |= MOVE,
                    Class::MoveAnnotation => {
                        if f & ANNOT_MOVE != 0 && !duplicate {
                            err(self, ErrorKind::ConflictingAnnotations);
                        }
                        if f & ANNOT_MOVE == 0 {
                            self.annot_pos = pos;
                        }
                        self.flags |= ANNOT_MOVE | MOVE;
                    }
                    Class::NodeAnnotation => {
                        if f & ANNOT_NODE != 0 && !duplicate {
                            err(self, ErrorKind::ConflictingAnnotations);
                        }
                        self.flags |= ANNOT_NODE;
                    }
                    Class::Setup => self.flags |= SETUP,
                    Class::Root => {
                        if !self.at_root() {
                            err(self, ErrorKind::RootPropertyOutsideRoot);
                        }
                    }
                    Class::GameInfo => {
                        let node = self.path_nodes - 1;
                        match self.game_info_at {
                            Some(k) if k != node => {
                                if self.flags & GAME_INFO == 0 {
                                    err(self, ErrorKind::GameInfoOutsideGameInfoNode);
                                }
                                self.flags |= GAME_INFO;
                            }
                            _ => self.game_info_at = Some(node),
                        }
                    }
                    Class::Obsolete => err(self, ErrorKind::ObsoleteProperty),
                    Class::Plain => {}
                }
                let f = self.flags;
                if f & MOVE != 0 && f & SETUP != 0 && f & MIXED == 0 && self.ff == 4 {
                    self.flags |= MIXED;
                    err(self, ErrorKind::MixedSetupMove);
                }
            }
        }
        let c = v.on_property(
            &self.ctx_at(pos),
            &Property {
                name: self.name(),
                raw: self.raw_name(),
            },
        );
        self.control(c);
    }

    /// Where the value piece starting at `s` ends, or `None` when more input is needed.
    #[inline]
    fn piece_end(&self, input: &[u8], s: usize, eof: bool) -> Option<PieceEnd> {
        let lim = self.cfg.max_value_piece;
        let n = input.len();
        let w = n.min(s + lim + 1);
        if let Some(p) = lexer::value_end(&input[s..w]) {
            return Some(PieceEnd::Close(s + p));
        }
        if w - s > lim {
            return Some(PieceEnd::Cut(s + lexer::piece_cut(&input[s..w], lim)));
        }
        if eof {
            return Some(PieceEnd::Eof);
        }
        None
    }

    /// A `[` inside a game tree.
    fn value_start<V: Visitor>(&mut self, input: &[u8], i: usize, eof: bool, v: &mut V) -> Step {
        let Some(end) = self.piece_end(input, i + 1, eof) else {
            return Step::Pending;
        };
        let pos = self.pos(i);
        self.value_pos = pos;
        self.value_len = 0;
        self.value_nul = false;
        if !self.skipping() {
            self.flush_garbage(v);
            match self.prop {
                Prop::Ident => self.property_start(v),
                Prop::Values | Prop::Drop => {}
                Prop::None => {
                    self.ensure_node(pos, v);
                    self.emit_error(ErrorKind::ValueWithoutIdent, b"[", pos, false, v);
                    self.prop = Prop::Drop;
                }
            }
        } else {
            self.skip_node_content();
        }
        self.value_drop = self.prop == Prop::Drop || self.skipping();
        if !self.value_drop {
            self.value_index = self.nvalues;
            self.nvalues += 1;
            if self.value_index == 1 && self.info.is_some_and(|f| !f.list) {
                self.too_many_values(pos, v);
            }
        }
        Step::To(self.deliver(input, i + 1, end, true, v))
    }

    /// Delivers the value piece starting at `s` and ending at `end`; returns where the input
    /// goes on.
    fn deliver<V: Visitor>(
        &mut self,
        input: &[u8],
        s: usize,
        end: PieceEnd,
        first: bool,
        v: &mut V,
    ) -> usize {
        let n = input.len();
        let (text_end, next, last) = match end {
            PieceEnd::Close(p) => (p, p + 1, true),
            PieceEnd::Cut(c) => (c, c, false),
            PieceEnd::Eof => (n, n, true),
        };
        let text = &input[s..text_end];
        let pos = if first { self.value_pos } else { self.pos(s) };
        // short values (most): one pass for the bytes up to `\r` (line breaks, NUL), no
        // memchr set-up
        let short = text.len() <= 16;
        let low = !short || text.iter().fold(false, |a, &b| a | (b <= b'\r'));
        if !low {
        } else if short {
            for (k, &b) in text.iter().enumerate() {
                if b == b'\n' || b == b'\r' {
                    self.lines.brk(b, self.base + (s + k) as u64);
                }
            }
        } else {
            self.lines.scan(text, self.base + s as u64);
        }
        self.mode = if last { Mode::Normal } else { Mode::Value };
        if !self.value_drop {
            self.value_len += text.len() as u64;
            if self.value_len > self.cfg.max_value_len {
                self.emit_error(ErrorKind::ValueTooLong, b"", self.value_pos, false, v);
                self.piece(b"", pos, false, true, false, v);
                self.value_drop = true;
            } else {
                self.piece(text, pos, first, last, low, v);
            }
        }
        if matches!(end, PieceEnd::Eof) {
            self.emit_error(ErrorKind::UnterminatedValue, b"[", self.value_pos, true, v);
        }
        next
    }

    /// The events of one value piece (`low`: it may hold a NUL).
    fn piece<V: Visitor>(
        &mut self,
        text: &[u8],
        pos: Position,
        first: bool,
        last: bool,
        low: bool,
        v: &mut V,
    ) {
        let has_nul = if !low {
            false
        } else if text.len() <= 16 {
            text.contains(&0)
        } else {
            memchr::memchr(0, text).is_some()
        };
        if !self.value_nul && has_nul {
            self.value_nul = true;
            self.emit_error(ErrorKind::NulByte, text, pos, false, v);
        }
        let index = self.value_index;
        let mut mv = None;
        if first {
            mv = self.check_value(RawValue(text), last, pos, v);
        }
        let ctx = self.ctx_at(pos);
        let c = v.on_value(
            &ctx,
            &Value {
                name: self.name(),
                raw: RawValue(text),
                index,
                first,
                last,
            },
        );
        self.control(c);
        if let Some(point) = mv {
            if !self.skipping() {
                let color = if self.name() == b"B" {
                    Color::Black
                } else {
                    Color::White
                };
                let c = v.on_move(
                    &ctx,
                    &Move {
                        color,
                        point,
                        raw: text,
                    },
                );
                self.control(c);
            }
        } else if self.name() == b"C" && !self.skipping() {
            let c = v.on_comment(
                &ctx,
                &Comment {
                    text: RawValue(text),
                    first,
                    last,
                },
            );
            self.control(c);
        }
    }

    /// Checks a value against its property's type (`whole`: the value is one piece) and reads
    /// the root properties. Returns the move for `B` / `W`.
    fn check_value<V: Visitor>(
        &mut self,
        value: RawValue<'_>,
        whole: bool,
        pos: Position,
        v: &mut V,
    ) -> Option<Option<crate::sgf::Point>> {
        let info = self.info?;
        let text = value.0;
        let index = self.value_index;
        let mut err = |p: &mut Parser, kind: ErrorKind| p.emit_error(kind, text, pos, false, v);
        if index > 0 && !info.list {
            return None; // reported as TooManyValues
        }
        let point_type = matches!(info.ty, Ty::Move | Ty::Point | Ty::PointPair);
        if !whole {
            if point_type && self.is_go() {
                err(self, ErrorKind::IllegalPoint);
            } else if !matches!(info.ty, Ty::Any | Ty::Label) {
                err(self, ErrorKind::IllegalValue);
            }
            return None;
        }
        if text.is_empty() {
            let ok = match info.ty {
                Ty::Move => {
                    if (1..4).contains(&self.ff) {
                        err(self, ErrorKind::PassInOldFormat);
                    }
                    true
                }
                Ty::Any | Ty::Nothing => true,
                _ => info.elist && index == 0,
            };
            if index == 0 {
                self.had_empty = true;
            }
            if !ok {
                err(self, ErrorKind::EmptyValue);
            }
            if info.ty == Ty::Move && index == 0 && self.is_go() {
                return Some(None);
            }
            return None;
        }
        if self.had_empty && index == 1 {
            err(self, ErrorKind::EmptyValue);
        }
        let go = self.is_go();
        let size = self.size;
        let root = info.class == Class::Root;
        if root && !self.at_root() {
            return None;
        }
        match info.ty {
            Ty::Move if go => match value.go_move(size) {
                Some(p) if index == 0 => return Some(p),
                Some(_) => {}
                None => err(self, ErrorKind::IllegalPoint),
            },
            Ty::Point if go && value.points(size).is_none() => err(self, ErrorKind::IllegalPoint),
            Ty::PointPair if go => match value.compose() {
                Some((a, b)) => {
                    if a.point(size).is_none() || b.point(size).is_none() {
                        err(self, ErrorKind::IllegalPoint);
                    }
                }
                None => err(self, ErrorKind::ComposeExpected),
            },
            Ty::Label => match value.compose() {
                Some((a, _)) => {
                    if go && a.point(size).is_none() {
                        err(self, ErrorKind::IllegalPoint);
                    }
                }
                None => err(self, ErrorKind::ComposeExpected),
            },
            Ty::Number if root => {
                let n = value.number();
                if self.name() == b"FF" {
                    match n {
                        Some(f @ 1..=4) => self.ff = f as u8,
                        _ => err(self, ErrorKind::IllegalRootValue),
                    }
                } else if self.name() == b"GM" {
                    match n {
                        Some(g @ 1..=1000) => {
                            self.gm = g as u32;
                            if g != 1 {
                                err(self, ErrorKind::NotGo);
                            }
                        }
                        _ => err(self, ErrorKind::IllegalRootValue),
                    }
                } else if n.is_none() {
                    err(self, ErrorKind::IllegalValue);
                }
            }
            Ty::Size => {
                let dim = |r: RawValue<'_>| r.number().filter(|n| (1..=52).contains(n));
                let size = match value.compose() {
                    None => dim(value).map(|n| (n, n, true)),
                    Some((a, b)) => match (dim(a), dim(b)) {
                        (Some(a), Some(b)) => Some((a, b, a != b)),
                        _ => None,
                    },
                };
                match size {
                    Some((cols, rows, ok)) => {
                        self.size = BoardSize {
                            cols: cols as u8,
                            rows: rows as u8,
                        };
                        if !ok {
                            err(self, ErrorKind::IllegalRootValue);
                        }
                    }
                    None => err(self, ErrorKind::IllegalRootValue),
                }
            }
            Ty::Number if value.number().is_none() => err(self, ErrorKind::IllegalValue),
            Ty::Real if value.real().is_none() => err(self, ErrorKind::IllegalValue),
            Ty::Double if value.double().is_none() => err(self, ErrorKind::IllegalValue),
            Ty::Color if value.color().is_none() => err(self, ErrorKind::IllegalValue),
            Ty::Nothing => err(self, ErrorKind::IllegalValue),
            _ => {}
        }
        None
    }

    // ----- diagnostics ---------------------------------------------------------------------

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
        self.stop |= c == Control::Stop;
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
        let at_ref = self.node_ref();
        let g = &mut self.garbage;
        if g.active {
            if at > g.end {
                g.text.push(b" ");
            }
        } else {
            g.active = true;
            g.kind = kind;
            g.pos = pos;
            g.at = at_ref;
            g.text = Excerpt::EMPTY;
        }
        g.text.push(text);
        g.end = at + text.len() as u64;
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
        let g = &mut self.garbage;
        g.active = false;
        let text = g.text;
        let e = Diagnostic {
            kind: g.kind,
            severity: g.kind.severity(),
            text: text.as_bytes(),
            truncated: text.truncated,
            pos: g.pos,
            game: self.game,
            at: g.at,
        };
        let c = v.on_error(&e);
        self.stop |= c == Control::Stop;
    }
}
