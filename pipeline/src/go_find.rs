//! The Go pattern search (issue 34): the games where a pattern ([`Pattern`]: a local shape
//! anchored anywhere, on an edge or in a corner, or a whole-board position) stands on a
//! position of the main line, with the move numbers where it does and, for each, what was
//! played next in the pattern's own coordinates; and [`GoExplorer`], those next moves counted
//! with who won. The engine under `kifu find --go-pattern` and `kifu explore --go-pattern`.
//!
//! # What is searched
//!
//! Every position of each game tree's main line: the start (after the root node's setup, `AB`
//! `AW` `AE`), then the position after each move (passes included), numbered by the moves
//! played before it ([`Appearance::ply`]: 0 is the start). A node's setup is applied
//! with its move, as the replay does ([`kifu_replay::go`]); a node of setup alone is part of
//! the position after the next move. Games replay as `kifu check --legal` replays them (an
//! occupied point is not played, a ko retaken is). Variations are not searched; games that
//! are not Go (`GM` other than 1) and PGN inputs are read and counted, not searched.
//!
//! # The next move
//!
//! For each position where the pattern stands ([`Appearance`]), the next main-line move:
//! [`Next::At`] in the pattern's coordinates when it is in or within
//! [`Match::MARGIN`](kifu_replay::go::Match::MARGIN) point of a place where the pattern
//! stands (the first such place, in the engine's order), [`Next::Tenuki`] when it is
//! elsewhere, [`Next::Pass`], or [`Next::End`] when the main line ends there. Its colour is
//! the pattern's: with colours swapped ([`Pattern::swap_colors`]) a black move at a swapped
//! place is the pattern's white (`O`), and the winner is counted the same way
//! ([`NextRow::x_wins`]).
//!
//! # Memory
//!
//! A piece's visitor keeps the games of the piece that matched (each with one
//! [`Appearance`] per position where the pattern stood) until the scan hands the piece on; a
//! piece is a bounded slice of its input, so the memory does not grow with the input. A
//! [`GoExplorer`] holds one row per distinct next move: at most
//! `2 × (width + 2) × (height + 2) + 6` rows; grouped by a key ([`GoExplorer::grouped`]), one
//! per group and next move, at most its `max_entries`.
//!
//! ```
//! use kifu_pipeline::go_find::{GoExplorer, GoQuery, Next};
//! use kifu_pipeline::{Formats, Scan, Source};
//! use kifu_replay::go::{Anchor, Pattern};
//!
//! // the 3-3 point taken under a black 4-4 stone, from either side
//! let pattern = Pattern::parse("?????\n?....\n?....\n?..X.\n?....\n").unwrap();
//! let sgf = b"(;SZ[19]RE[B+R];B[dd];W[pp];B[cc]) (;SZ[19]RE[W+2.5];B[pd];W[dp];B[];W[qc])".to_vec();
//! let scan = Scan::new(Source::Bytes { name: "two.sgf".into(), data: sgf }, Formats::ANY);
//! let query = GoQuery::new(pattern.anchor(Anchor::Corner));
//! let mut explorer = GoExplorer::default();
//! let found = scan
//!     .go_find(&query, |hit| {
//!         explorer.add(&hit);
//!         Ok::<_, std::io::Error>(())
//!     }, |_| {})
//!     .unwrap();
//! assert_eq!((found.games, found.matched), (2, 2));
//! let rows = explorer.rows();
//! // Black's 3-3 after 4-4 (1 game, won by Black), White's 3-3 under 4-4 (won by White)...
//! assert!(rows.iter().any(|r| matches!(r.next, Next::At { x: 2, y: 2, .. }) && r.x_wins == 1));
//! ```

use std::borrow::Cow;
use std::sync::Arc;

use kifu::par::{Event, Visited, Work};
use kifu::pgn::Outcome;
use kifu::sgf::{self, BoardSize, Color, Context, Point, RawValue};
use kifu::{Control, Format, pgn};
use kifu_replay::go::{
    Board, GoGame, GoOptions, GoReplayVisitor, GoReplayer, Match, Pattern, PlayOutcome, Played,
    Stones,
};

use crate::keys::{self, AnyOf};
use crate::{GameCount, Input, Note, Scan, Scanned};

/// The most bytes of a Go pattern file read (`kifu find --go-pattern FILE`, `kifu.find`'s
/// `go_pattern=` path): a pattern is at most 52×52 points (some 2,800 bytes as rows) or one SGF
/// game, far less than this; a larger file (or `/dev/zero`) is refused ([`read_pattern_file`]).
pub const MAX_GO_PATTERN_BYTES: u64 = 1 << 20;

/// The bytes of the pattern file at `path` when it holds at most [`MAX_GO_PATTERN_BYTES`];
/// `Ok(None)` when it holds more (no more than one byte past the bound is read: `/dev/zero`
/// ends too). The CLI and Python read a `--go-pattern` / `go_pattern=` file with it.
///
/// # Errors
///
/// The file cannot be opened or read.
pub fn read_pattern_file(path: &std::path::Path) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let mut text = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_GO_PATTERN_BYTES + 1)
        .read_to_end(&mut text)?;
    Ok((text.len() as u64 <= MAX_GO_PATTERN_BYTES).then_some(text))
}

/// A Go pattern search: the pattern (with its anchor and colour swap) and the game keys'
/// tests (`-w`: each [`AnyOf`] must hold).
#[derive(Clone, Debug)]
pub struct GoQuery {
    /// The pattern.
    pub pattern: Pattern,
    /// Tests on the game's keys (ranks, komi, handicap, date, …); all must hold.
    pub tests: Vec<AnyOf>,
}

impl GoQuery {
    /// A search for `pattern` in every game.
    pub fn new(pattern: Pattern) -> GoQuery {
        GoQuery {
            pattern,
            tests: Vec::new(),
        }
    }

    /// The same search, in the games whose keys pass `tests` only.
    pub fn with_tests(mut self, tests: Vec<AnyOf>) -> GoQuery {
        self.tests = tests;
        self
    }
}

/// What was played after a position where the pattern stood, in the pattern's coordinates
/// and colours (see the [module](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Next {
    /// A move in the pattern or near it: the pattern point `(x, y)` (from `-1` to the width,
    /// the height), by `color` (the pattern's: `Black` is `X`).
    At {
        /// Column, from the pattern's left.
        x: i8,
        /// Row, from the pattern's top.
        y: i8,
        /// Who played it, in the pattern's colours.
        color: Color,
    },
    /// A move farther from the pattern.
    Tenuki {
        /// Who played it, in the pattern's colours.
        color: Color,
    },
    /// A pass.
    Pass {
        /// Who passed, in the pattern's colours.
        color: Color,
    },
    /// The main line ended at the position.
    End,
}

impl Next {
    /// The order of [`GoExplorer::rows`]' ties: points (by row, then column, black first),
    /// then tenuki, pass, end.
    fn order(&self) -> (u8, i8, i8, bool) {
        match *self {
            Next::At { x, y, color } => (0, y, x, color == Color::White),
            Next::Tenuki { color } => (1, 0, 0, color == Color::White),
            Next::Pass { color } => (2, 0, 0, color == Color::White),
            Next::End => (3, 0, 0, false),
        }
    }
}

impl core::fmt::Display for Next {
    /// `X 2,3` (a move at the pattern's point (2, 3), by the pattern's black), `O tenuki`,
    /// `X pass`, `end`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let c = |c: &Color| match c {
            Color::Black => 'X',
            Color::White => 'O',
        };
        match self {
            Next::At { x, y, color } => write!(f, "{} {x},{y}", c(color)),
            Next::Tenuki { color } => write!(f, "{} tenuki", c(color)),
            Next::Pass { color } => write!(f, "{} pass", c(color)),
            Next::End => f.write_str("end"),
        }
    }
}

/// A position of a game's main line where the pattern stood.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Appearance {
    /// Moves played before the position (0: the start, passes counted).
    pub ply: u32,
    /// The place the next move is read at (the first that holds it, else the first).
    pub matched: Match,
    /// How many places the pattern stood at in the position.
    pub places: u32,
    /// What was played next.
    pub next: Next,
}

/// The root properties of a game tree, each one's first value as written (bounded), read as
/// the keys module reads a tree's: the keys of `-w`, `--by`, … ([`keys::Game`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RootProps {
    bytes: Vec<u8>,
    /// Each property: its name's start and length and its value's in `bytes`, and its
    /// [`name_key`].
    props: Vec<Prop>,
    moves: u64,
}

/// A root property kept by [`RootProps`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Prop {
    name: (u32, u32),
    value: (u32, u32),
    key: u64,
}

/// A property name up to 7 bytes as one number (its bytes and its length), to compare names
/// without a call; `u64::MAX` for a longer one (compared byte by byte).
fn name_key(name: &[u8]) -> u64 {
    if name.len() > 7 {
        return u64::MAX;
    }
    let mut b = [0u8; 8];
    b[..name.len()].copy_from_slice(name);
    b[7] = name.len() as u8;
    u64::from_le_bytes(b)
}

/// The most bytes of a root property's value kept.
const MAX_ROOT_VALUE: usize = 1024;

impl RootProps {
    fn clear(&mut self) {
        self.bytes.clear();
        self.props.clear();
        self.moves = 0;
    }

    fn value(&mut self, v: &sgf::Value<'_>) {
        if v.index != 0 {
            return;
        }
        if v.first {
            let key = name_key(v.name);
            if self
                .props
                .iter()
                .any(|p| p.key == key && (key != u64::MAX || self.name(p) == v.name))
            {
                return;
            }
            let n = self.bytes.len() as u32;
            self.bytes.extend_from_slice(v.name);
            let s = self.bytes.len() as u32;
            self.props.push(Prop {
                name: (n, v.name.len() as u32),
                value: (s, 0),
                key,
            });
        } else if self.props.last().is_none_or(|p| self.name(p) != v.name) {
            return;
        }
        let Some(last) = self.props.last_mut() else {
            return;
        };
        let room = MAX_ROOT_VALUE.saturating_sub(last.value.1 as usize);
        let take = &v.raw.as_bytes()[..v.raw.as_bytes().len().min(room)];
        self.bytes.extend_from_slice(take);
        last.value.1 += take.len() as u32;
    }

    fn name(&self, p: &Prop) -> &[u8] {
        &self.bytes[p.name.0 as usize..][..p.name.1 as usize]
    }

    /// A root property's first value as written (escapes unresolved), if the root has it.
    pub fn raw(&self, name: &str) -> Option<RawValue<'_>> {
        self.props
            .iter()
            .find(|p| self.name(p) == name.as_bytes())
            .map(|p| RawValue(&self.bytes[p.value.0 as usize..][..p.value.1 as usize]))
    }

    /// Main-line moves (passes included).
    pub fn moves(&self) -> u64 {
        self.moves
    }
}

impl keys::Game for RootProps {
    fn format(&self) -> Format {
        Format::Sgf
    }
    fn tag(&self, name: &str) -> Option<Cow<'_, str>> {
        let text = self.raw(name)?.decoded(name.as_bytes());
        Some(match String::from_utf8(text.into_owned()) {
            Ok(s) => Cow::Owned(s),
            Err(e) => Cow::Owned(e.as_bytes().iter().map(|&b| b as char).collect()),
        })
    }
    fn plies(&self) -> u64 {
        self.moves
    }
    fn outcome(&self) -> Outcome {
        keys::sgf_outcome(self.raw("RE").map_or(&b""[..], |r| r.0))
    }
    fn opening(&self) -> Option<kifu_replay::chess::openings::Opening> {
        None
    }
}

/// A game where the pattern stood: where it is, its keys, the positions and next moves.
#[derive(Clone, Debug, PartialEq)]
pub struct GoHit {
    /// The input it was read from.
    pub file: Arc<str>,
    /// Its index in the input, from 0 (`kifu` shows it from 1).
    pub game: u64,
    /// The result `RE` says.
    pub outcome: Outcome,
    /// The root's properties: its keys ([`keys::Game`]: `BR`, `WR`, `KM`, `HA`, `DT`, `year`,
    /// `winner`, …).
    pub root: RootProps,
    /// Main-line moves (passes included).
    pub moves: u32,
    /// The positions where the pattern stood, in order.
    pub appearances: Vec<Appearance>,
}

/// A PGN piece's visitor in a Go search: it counts the games.
#[derive(Clone, Debug, Default)]
pub struct PgnGames(u64);

impl pgn::Visitor for PgnGames {
    fn on_tree_end(&mut self, ctx: &pgn::Context) -> Control {
        self.0 += u64::from(ctx.is_main_line());
        Control::Continue
    }
}

impl GameCount for PgnGames {
    fn games(&self) -> u64 {
        self.0
    }
}

/// An SGF piece's visitor in a Go search (inside a [`GoReplayer`] of the main line).
#[derive(Debug)]
pub struct GoFinder {
    query: Arc<GoQuery>,
    file: Arc<str>,
    /// Game trees begun in the piece.
    games: u64,
    /// Positions tested.
    positions: u64,
    hits: Vec<GoHit>,
    // the game being read
    root: RootProps,
    in_root: bool,
    stones: Stones,
    /// A setup property met since the stones were last made from the board.
    dirty: bool,
    started: bool,
    /// The places where the pattern stands on the last position tested (reused).
    pending: Vec<Match>,
    pending_move: u32,
    appearances: Vec<Appearance>,
    /// The points that decide where the pattern stands on a board of `stones`' size
    /// ([`Pattern::area`]), made for the size `area_of`.
    area: [u64; kifu_replay::go::MAX_SIDE],
    area_of: Option<BoardSize>,
    /// The area of the other visitors of the scan, if they share it.
    shared_area: Option<Arc<AreaCache>>,
    /// The stones may have changed on `area` since `pending` was found (a new game, the
    /// stones made again from a board, a setup, a stone played there): the position is
    /// searched again; else `pending` holds for it too.
    stale: bool,
}

impl GoFinder {
    fn new(query: Arc<GoQuery>, input: &Input) -> GoFinder {
        GoFinder {
            query,
            file: Arc::clone(&input.name),
            games: 0,
            positions: 0,
            hits: Vec::new(),
            root: RootProps::default(),
            in_root: false,
            stones: Stones::new(Default::default()),
            dirty: false,
            started: false,
            pending: Vec::new(),
            pending_move: 0,
            appearances: Vec::new(),
            area: [0; kifu_replay::go::MAX_SIDE],
            area_of: None,
            shared_area: None,
            stale: true,
        }
    }

    /// Shares the pattern's area with the scan's other visitors (`cache`).
    fn with_area(mut self, cache: Arc<AreaCache>) -> GoFinder {
        self.shared_area = Some(cache);
        self
    }

    /// The games of the piece that matched, in order, each numbered in the piece.
    pub fn hits(&self) -> &[GoHit] {
        &self.hits
    }

    /// Positions tested in the piece.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The games of the piece that matched, each numbered in the piece.
    pub fn into_hits(self) -> Vec<GoHit> {
        self.hits
    }

    /// Tests the position `ply` (searched only when the stones changed where that matters).
    fn test(&mut self, ply: u32) {
        self.positions += 1;
        self.pending_move = ply;
        if !self.stale {
            return;
        }
        self.stale = false;
        self.pending.clear();
        self.pending
            .extend(self.query.pattern.matches(&self.stones));
    }

    /// The stones made again from `board`.
    fn set_board(&mut self, board: &Board) {
        self.stones.set_board(board);
        self.stale = true;
        let size = self.stones.size();
        if self.area_of != Some(size) {
            self.area = match &self.shared_area {
                Some(cache) => {
                    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
                    match *cache {
                        Some((s, area)) if s == size => area,
                        _ => {
                            let area = self.query.pattern.area(size);
                            *cache = Some((size, area));
                            area
                        }
                    }
                }
                None => self.query.pattern.area(size),
            };
            self.area_of = Some(size);
        }
    }

    /// `what` put on `p` (a setup, a stone played).
    fn set(&mut self, p: Point, what: u8) {
        self.stones.set(p, what);
        // (a point off the board changes nothing; `area` is of the stones' size)
        if self
            .area
            .get(usize::from(p.y))
            .is_some_and(|r| r.checked_shr(u32::from(p.x)).is_some_and(|b| b & 1 != 0))
        {
            self.stale = true;
        }
    }

    /// The last position's appearance, with what came after it.
    fn close(&mut self, next: Option<(Color, Option<Point>)>) {
        close(
            &self.query.pattern,
            &self.pending,
            self.pending_move,
            next,
            &mut self.appearances,
        );
    }

    fn start_game(&mut self) {
        self.root.clear();
        self.in_root = true;
        self.dirty = false;
        self.started = false;
        self.pending.clear();
        self.appearances.clear();
        self.stale = true;
    }
}

impl sgf::Visitor for GoFinder {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0 {
            self.start_game();
        }
        Control::Continue
    }

    fn on_node_end(&mut self, _: &Context) -> Control {
        self.in_root = false;
        Control::Continue
    }

    fn on_value(&mut self, ctx: &Context, value: &sgf::Value<'_>) -> Control {
        if self.in_root && ctx.depth == 0 && ctx.node == 0 {
            self.root.value(value);
            return Control::Continue;
        }
        // (byte patterns: no call to compare a name)
        let what = match *value.name {
            [b'A', b'B'] => kifu_replay::go::BLACK,
            [b'A', b'W'] => kifu_replay::go::WHITE,
            [b'A', b'E'] => kifu_replay::go::EMPTY,
            _ => return Control::Continue,
        };
        if !ctx.main_line || !self.started {
            return Control::Continue;
        }
        // a node's setup, applied as it comes: the position before the node's move has it
        if !(value.first && value.last) {
            self.dirty = true;
        } else if let Some(points) = value.raw.points(self.stones.size()) {
            for p in points {
                self.set(p, what);
            }
        }
        Control::Continue
    }

    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0 {
            self.games += 1;
        }
        Control::Continue
    }
}

impl GoReplayVisitor for GoFinder {
    fn on_go_start(&mut self, _: &Context, board: Option<&Board>) -> Control {
        if let Some(board) = board
            && !self.started
        {
            self.started = true;
            self.set_board(board);
            self.dirty = false;
        }
        Control::Continue
    }

    fn on_go_move(&mut self, ctx: &Context, played: &Played<'_>) -> Control {
        if !ctx.main_line {
            return Control::Continue;
        }
        let mut known = !self.dirty;
        if !self.started {
            // the root node's own move: the start is the root's setup alone, the board after
            // the move without its stone (unknown when it captured)
            self.started = true;
            self.set_board(played.board);
            match played.point {
                Some(p) if played.executed && played.captured == 0 => {
                    self.set(p, kifu_replay::go::EMPTY)
                }
                Some(_) if played.executed => known = false,
                _ => {}
            }
        }
        if known {
            self.test(played.number.saturating_sub(1));
            self.close(Some((played.color, played.point)));
        }
        match played.point {
            Some(p) if played.executed && !self.dirty => {
                self.set(p, kifu_replay::go::stone(played.color));
                // what it captured (or its own group, for a suicide) taken off
                for q in played.board.removed() {
                    self.set(q, kifu_replay::go::EMPTY);
                }
            }
            None if !self.dirty => {}
            _ => {
                self.set_board(played.board);
                self.dirty = false;
            }
        }
        Control::Continue
    }

    fn on_go_game(&mut self, _: &Context, game: &GoGame<'_>) -> Control {
        let Some(end) = game.end else {
            return Control::Continue;
        };
        if self.dirty || !self.started {
            self.set_board(end);
        }
        self.test(game.main_line_moves);
        self.close(None);
        if self.appearances.is_empty() {
            return Control::Continue;
        }
        self.root.moves = u64::from(game.main_line_moves);
        if !self.query.tests.iter().all(|t| t.holds(&self.root)) {
            return Control::Continue;
        }
        self.hits.push(GoHit {
            file: Arc::clone(&self.file),
            game: self.games,
            outcome: keys::Game::outcome(&self.root),
            root: self.root.clone(),
            moves: game.main_line_moves,
            appearances: std::mem::take(&mut self.appearances),
        });
        Control::Continue
    }
}

impl GameCount for GoReplayer<GoFinder> {
    fn games(&self) -> u64 {
        self.inner().games
    }
}

/// The appearance of a position where the pattern stood (at `pending`, `ply`), with
/// what was played after it (`None`: the end of the main line; a point at its
/// [`canonical`](Pattern::canonical) place).
fn close(
    pattern: &Pattern,
    pending: &[Match],
    ply: u32,
    next: Option<(Color, Option<Point>)>,
    out: &mut Vec<Appearance>,
) {
    let Some(&first) = pending.first() else {
        return;
    };
    let (matched, next) = match next {
        None => (first, Next::End),
        Some((c, None)) => (
            first,
            Next::Pass {
                color: first.pattern_color(c),
            },
        ),
        Some((c, Some(p))) => pending
            .iter()
            .find_map(|m| {
                let (x, y) = m.to_pattern(p)?;
                let (x, y) = pattern.canonical(x, y);
                Some((
                    *m,
                    Next::At {
                        x: x as i8,
                        y: y as i8,
                        color: m.pattern_color(c),
                    },
                ))
            })
            .unwrap_or((
                first,
                Next::Tenuki {
                    color: first.pattern_color(c),
                },
            )),
    };
    out.push(Appearance {
        ply,
        matched,
        places: pending.len() as u32,
        next,
    });
}

/// The search of game trees held as DOMs, one after the other (its buffers reused): the same
/// positions, move numbers and next moves as [`Scan::go_find`]'s replay of the events, for a
/// job that builds each game anyway (`kifu find`'s and `kifu explore`'s
/// [`DomWork`](crate::DomWork)).
///
/// ```
/// use kifu_pipeline::go_find::{Next, TreeSearch};
/// use kifu_replay::go::{Anchor, Pattern};
///
/// let pattern = Pattern::parse("...\n...\n..X\n").unwrap().anchor(Anchor::Corner);
/// let tree = kifu::sgf::game_trees(b"(;SZ[9];B[gg];W[cc])").next().unwrap();
/// let mut search = TreeSearch::default();
/// let mut found = Vec::new();
/// assert!(search.search(&pattern, &tree, &mut found));
/// // after B gg (the lower right corner's 3-3 point), and after W cc, far from it
/// assert_eq!(found.len(), 2);
/// assert_eq!(found[0].ply, 1);
/// assert_eq!(found[0].next, Next::Tenuki { color: kifu::sgf::Color::White });
/// assert_eq!((found[1].ply, found[1].next), (2, Next::End));
/// ```
#[derive(Debug)]
pub struct TreeSearch {
    board: Board,
    stones: Stones,
    pending: Vec<Match>,
    /// Positions tested so far.
    pub positions: u64,
}

impl Default for TreeSearch {
    fn default() -> TreeSearch {
        TreeSearch {
            board: Board::new(Default::default()),
            stones: Stones::new(Default::default()),
            pending: Vec::new(),
            positions: 0,
        }
    }
}

impl TreeSearch {
    fn test(&mut self, pattern: &Pattern) {
        self.positions += 1;
        self.pending.clear();
        self.pending.extend(pattern.matches(&self.stones));
    }

    /// Appends to `out` the positions of `tree`'s main line where `pattern` stands, in order;
    /// `false` (nothing appended) when the tree is not Go (`GM` other than 1) or is empty.
    pub fn search(
        &mut self,
        pattern: &Pattern,
        tree: &sgf::GameTree,
        out: &mut Vec<Appearance>,
    ) -> bool {
        if tree.is_empty()
            || tree
                .root()
                .value(b"GM")
                .and_then(|g| g.number())
                .is_some_and(|g| g != 1)
        {
            return false;
        }
        let size = tree.board_size();
        self.board.reset(size);
        self.pending.clear();
        let mut moves = 0u32;
        // the stones are not the board's (a new game, a setup, a capture)
        let mut dirty = true;
        for node in tree.main_line() {
            let mut mv = None;
            for p in node.properties() {
                let what = match p.name() {
                    b"AB" => kifu_replay::go::BLACK,
                    b"AW" => kifu_replay::go::WHITE,
                    b"AE" => kifu_replay::go::EMPTY,
                    b"B" | b"W" => {
                        if mv.is_none() {
                            let c = if p.name() == b"B" {
                                Color::Black
                            } else {
                                Color::White
                            };
                            mv = p.values().next().map(|v| (c, v));
                        }
                        continue;
                    }
                    _ => continue,
                };
                for v in p.values() {
                    if let Some(points) = v.points(size) {
                        for pt in points {
                            dirty = true;
                            self.board.set(pt, what);
                        }
                    }
                }
            }
            let Some((c, v)) = mv else {
                continue;
            };
            // the position before the move: the setups met so far applied
            if dirty {
                self.stones.set_board(&self.board);
                dirty = false;
            }
            let point = v.go_move(size);
            self.test(pattern);
            close(
                pattern,
                &self.pending,
                moves,
                Some((c, point.flatten())),
                out,
            );
            moves += 1;
            match point {
                Some(Some(pt)) => {
                    let outcome = self.board.play(c, pt);
                    if outcome == (PlayOutcome::Played { captured: 0 }) {
                        self.stones.set(pt, kifu_replay::go::stone(c));
                    } else {
                        dirty = true;
                    }
                }
                Some(None) => self.board.pass(),
                None => {}
            }
        }
        if dirty {
            self.stones.set_board(&self.board);
        }
        self.test(pattern);
        close(pattern, &self.pending, moves, None, out);
        true
    }
}

/// The work of a Go search: SGF pieces replayed (main line) and searched, PGN pieces counted.
#[derive(Clone, Debug)]
pub struct GoFindWork {
    query: Arc<GoQuery>,
    area: Arc<AreaCache>,
}

/// The pattern's area ([`Pattern::area`]) for the last board size asked, shared by a scan's
/// visitors: a visitor is made for each input, and an archive of small files would make it
/// again for each.
type AreaCache = std::sync::Mutex<Option<(BoardSize, [u64; kifu_replay::go::MAX_SIDE])>>;

impl GoFindWork {
    /// The work of `query`.
    pub fn new(query: GoQuery) -> GoFindWork {
        GoFindWork {
            query: Arc::new(query),
            area: Arc::default(),
        }
    }
}

impl Work for GoFindWork {
    type Input = Input;
    type Pgn = PgnGames;
    type Sgf = GoReplayer<GoFinder>;
    fn pgn(&self, _: &Input) -> PgnGames {
        PgnGames::default()
    }
    fn sgf(&self, input: &Input) -> GoReplayer<GoFinder> {
        GoReplayer::with_options(
            GoFinder::new(Arc::clone(&self.query), input).with_area(Arc::clone(&self.area)),
            GoOptions::main_line(),
        )
    }
}

/// What a Go search read.
#[derive(Clone, Debug, Default)]
pub struct GoFound {
    /// Games (or game trees) read, of either format.
    pub games: u64,
    /// Games where the pattern stood (and the tests held).
    pub matched: u64,
    /// Positions tested.
    pub positions: u64,
    /// Positions where the pattern stood, in the games handed on.
    pub appearances: u64,
    /// The scan's report (inputs that failed, the walk's counts).
    pub scanned: Scanned,
}

impl Scan<'_> {
    /// The games where `query`'s pattern stands on a position of the main line: `each` gets
    /// them in input order, on the calling thread, each numbered in its input (from 0). See
    /// the [module](crate::go_find) for what is searched.
    ///
    /// # Errors
    ///
    /// The first error `each` returned (it stops the scan). An input that cannot be read is
    /// not an error of the scan: it is in [`GoFound::scanned`].
    pub fn go_find<E, F, N>(self, query: &GoQuery, mut each: F, note: N) -> Result<GoFound, E>
    where
        E: Send,
        F: FnMut(GoHit) -> Result<(), E>,
        N: FnMut(Note),
    {
        let work = GoFindWork::new(query.clone());
        let mut found = GoFound::default();
        let scanned = self.run(
            &work,
            |event| {
                if let Event::Piece {
                    visited: Visited::Sgf(v),
                    info,
                    ..
                } = event
                {
                    let v = v.into_inner();
                    found.positions += v.positions;
                    for mut hit in v.hits {
                        hit.game += info.first_game;
                        found.matched += 1;
                        found.appearances += hit.appearances.len() as u64;
                        each(hit)?;
                    }
                }
                Ok(())
            },
            note,
        )?;
        found.games = scanned.games;
        found.scanned = scanned;
        Ok(found)
    }
}

/// A game that played a next move: where to find it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The input.
    pub file: Arc<str>,
    /// The game's index in it, from 0.
    pub game: u64,
    /// The position's move number (moves played before it).
    pub ply: u32,
}

/// One next move as [`GoExplorer`] counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextRow {
    /// The value of the grouping key in the games counted ([`GoExplorer::grouped`]: `None`
    /// without a key, and for the games that have no value of it).
    pub group: Option<String>,
    /// The move, in the pattern's coordinates and colours.
    pub next: Next,
    /// Positions it was played from.
    pub count: u64,
    /// Games it was played in: a game counts once however many of its positions played it
    /// (a pattern that stays on the board through a long game counts once a position in
    /// `count` and its shares, once here).
    pub games: u64,
    /// Of those, in games the pattern's black (`X`) won: Black without the colour swap.
    pub x_wins: u64,
    /// In games the pattern's white (`O`) won.
    pub o_wins: u64,
    /// In games drawn, or whose result is unknown.
    pub other: u64,
    /// The first game (in input order) that played it.
    pub example: Example,
}

/// The next moves of a Go search counted: per distinct [`Next`] (and per value of a key, when
/// [`grouped`](Self::grouped)), how often and who won. Bounded: without a key, one row per
/// distinct next move; with one, at most [`max_entries`](Self::max_entries) rows, the plays of
/// any other counted in [`dropped`](Self::dropped).
///
/// ```
/// use kifu_pipeline::go_find::{GoExplorer, GoQuery};
/// use kifu_pipeline::keys::Key;
/// use kifu_pipeline::{Formats, Scan, Source};
/// use kifu_replay::go::Pattern;
///
/// let sgf = b"(;SZ[9]DT[2019-05-01]RE[B+R];B[cc];W[gg]) (;SZ[9]DT[2021-01-02]RE[W+R];B[gc])";
/// let scan = Scan::new(Source::Bytes { name: "two.sgf".into(), data: sgf.to_vec() }, Formats::ANY);
/// let mut explorer = GoExplorer::grouped(Some(Key::parse("year").unwrap()), 1000);
/// scan.go_find(&GoQuery::new(Pattern::parse("X").unwrap()), |hit| {
///     explorer.add(&hit);
///     Ok::<_, std::io::Error>(())
/// }, |_| {}).unwrap();
/// let groups: Vec<_> = explorer.rows().iter().map(|r| r.group.clone().unwrap()).collect();
/// assert_eq!(groups, ["2019", "2019", "2021"]); // 2019: W's tenuki, then the end
/// ```
#[derive(Clone, Debug)]
pub struct GoExplorer {
    group: Option<keys::Key>,
    /// The most rows kept.
    pub max_entries: usize,
    /// Plays of rows not kept (past `max_entries`).
    pub dropped: u64,
    rows: Vec<NextRow>,
    /// The row of each (group, next move): the group's place in `groups`.
    index: std::collections::HashMap<(u32, Next), usize>,
    groups: std::collections::HashMap<Option<String>, u32>,
    positions: u64,
    /// Per row, the last game (its number among the games added, from 1) that played it.
    last_game: Vec<u64>,
    /// The games added.
    added: u64,
}

impl Default for GoExplorer {
    /// No grouping key: one row per distinct next move (a few hundred at most).
    fn default() -> Self {
        GoExplorer::grouped(None, usize::MAX)
    }
}

impl GoExplorer {
    /// An explorer whose rows are per value of `group` (a key of `-w`, read from each game's
    /// root: `year`, `BR`, `black_rank`, `KM`, `HA`, …; `None`: one group) and next move,
    /// keeping at most `max_entries` rows (`kifu explore --max-entries`, at least 1).
    pub fn grouped(group: Option<keys::Key>, max_entries: usize) -> GoExplorer {
        GoExplorer {
            group,
            max_entries: max_entries.max(1),
            dropped: 0,
            rows: Vec::new(),
            index: std::collections::HashMap::new(),
            groups: std::collections::HashMap::new(),
            positions: 0,
            last_game: Vec::new(),
            added: 0,
        }
    }

    /// Counts a game's appearances (in input order, for the examples).
    pub fn add(&mut self, hit: &GoHit) {
        let value = self.group.as_ref().and_then(|k| k.shown(&hit.root));
        let next_group = self.groups.len() as u32;
        let group = *self.groups.entry(value.clone()).or_insert(next_group);
        self.added += 1;
        for a in &hit.appearances {
            self.positions += 1;
            let (x, o) = match (hit.outcome, a.matched.swapped) {
                (Outcome::BlackWins, false) | (Outcome::WhiteWins, true) => (1, 0),
                (Outcome::WhiteWins, false) | (Outcome::BlackWins, true) => (0, 1),
                _ => (0, 0),
            };
            let at = match self.index.get(&(group, a.next)) {
                Some(&i) => i,
                None if self.rows.len() >= self.max_entries => {
                    self.dropped += 1;
                    continue;
                }
                None => {
                    self.rows.push(NextRow {
                        group: value.clone(),
                        next: a.next,
                        count: 0,
                        games: 0,
                        x_wins: 0,
                        o_wins: 0,
                        other: 0,
                        example: Example {
                            file: Arc::clone(&hit.file),
                            game: hit.game,
                            ply: a.ply,
                        },
                    });
                    self.index.insert((group, a.next), self.rows.len() - 1);
                    self.last_game.push(0);
                    self.rows.len() - 1
                }
            };
            let row = &mut self.rows[at];
            row.count += 1;
            if self.last_game[at] != self.added {
                self.last_game[at] = self.added;
                row.games += 1;
            }
            row.x_wins += x;
            row.o_wins += o;
            row.other += 1 - x - o;
        }
    }

    /// Positions counted (those of dropped rows included).
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The rows: per group in the key's order (the games without a value last), the most
    /// played first (ties: by the move).
    pub fn rows(&self) -> Vec<&NextRow> {
        let mut rows: Vec<&NextRow> = self.rows.iter().collect();
        rows.sort_by(|a, b| {
            let g = match (&a.group, &b.group, &self.group) {
                (Some(x), Some(y), Some(k)) => k.order(x, y),
                (x, y, _) => x.is_none().cmp(&y.is_none()),
            };
            g.then(b.count.cmp(&a.count))
                .then(a.next.order().cmp(&b.next.order()))
        });
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Formats, Source};
    use kifu_replay::go::Anchor;

    fn find(sgf: &str, pattern: &str, anchor: Anchor, swap: bool) -> (GoFound, Vec<GoHit>) {
        let query = GoQuery::new(
            Pattern::parse(pattern)
                .unwrap()
                .anchor(anchor)
                .swap_colors(swap),
        );
        let mut hits = Vec::new();
        let scan = Scan::new(
            Source::Bytes {
                name: "t.sgf".into(),
                data: sgf.as_bytes().to_vec(),
            },
            Formats::ANY,
        );
        let found = scan
            .go_find(
                &query,
                |h| {
                    hits.push(h);
                    Ok::<_, ()>(())
                },
                |_| {},
            )
            .unwrap();
        (found, hits)
    }

    fn moves(h: &GoHit) -> Vec<u32> {
        h.appearances.iter().map(|a| a.ply).collect()
    }

    #[test]
    fn move_numbers_and_next_moves() {
        // a black stone on the 4-4 point with nothing else in the corner
        let pat = "?????\n?....\n?....\n?..X.\n?....\n";
        let sgf = "(;SZ[19]RE[B+R];B[pd];W[dd];B[qc];W[cc];B[];W[pp])";
        let (found, hits) = find(sgf, pat, Anchor::Corner, false);
        assert_eq!((found.games, found.matched, found.positions), (1, 1, 7));
        // after move 1 (B pd), until Black's own 3-4 (qc) at move 3
        assert_eq!(moves(&hits[0]), [1, 2]);
        let a = &hits[0].appearances;
        // move 2 was W dd: elsewhere
        assert_eq!(
            a[0].next,
            Next::Tenuki {
                color: Color::White
            }
        );
        // move 3 was B qc: the 3-3 point of the upper right corner, the pattern's (2, 2)
        assert_eq!(
            a[1].next,
            Next::At {
                x: 2,
                y: 2,
                color: Color::Black
            }
        );
        assert_eq!(hits[0].outcome, Outcome::BlackWins);
        // with colours swapped, the white 4-4 stones count too: dd (moves 2 and 3), pp (6)
        let (_, hits) = find(sgf, pat, Anchor::Corner, true);
        assert_eq!(moves(&hits[0]), [1, 2, 3, 6]);
        assert_eq!(hits[0].appearances[1].places, 2);
        assert_eq!(
            hits[0].appearances[1].next,
            Next::At {
                x: 2,
                y: 2,
                color: Color::Black
            }
        );
        assert_eq!(hits[0].appearances[3].next, Next::End);
        // move 4 (W cc) in the swapped place: the pattern's black (X), at its (2, 2)
        let a = &hits[0].appearances[2];
        assert_eq!(a.places, 1);
        assert_eq!(
            a.next,
            Next::At {
                x: 2,
                y: 2,
                color: Color::Black
            }
        );
    }

    #[test]
    fn start_end_pass_and_setup() {
        // the start matches (setup), the pattern holds to the end
        let sgf = "(;SZ[9]AB[cc];W[];B[gg]) (;GM[2];B[aa]) (;SZ[9];B[ee];W[cc]AB[cc])";
        let (found, hits) = find(sgf, "X", Anchor::Anywhere, false);
        assert_eq!(found.games, 3);
        assert_eq!(hits.len(), 2);
        assert_eq!(moves(&hits[0]), [0, 1, 2]);
        let nexts: Vec<_> = hits[0].appearances.iter().map(|a| a.next).collect();
        assert_eq!(
            nexts,
            [
                Next::Pass {
                    color: Color::White
                },
                Next::Tenuki {
                    color: Color::Black
                },
                Next::End
            ]
        );
        assert_eq!(hits[1].game, 2);
        // a node with setup and a move: the stones made again from the board
        let (_, hits) = find(sgf, "X", Anchor::Anywhere, false);
        assert_eq!(moves(&hits[1]), [1, 2]);
        let (_, hits) = find("(;SZ[9];B[ee];W[cc]AB[cc])", "O", Anchor::Anywhere, false);
        assert!(hits.is_empty());
        // handicap stones in a node of their own: the position before White's first move
        let (_, hits) = find("(;SZ[9];AB[cc][gg];W[ee])", "X", Anchor::Anywhere, false);
        assert_eq!(moves(&hits[0]), [0, 1]);
        assert_eq!(hits[0].appearances[0].places, 2);
        // a move in the root: the start is the empty board before it
        let (_, hits) = find("(;SZ[9]B[cc];W[gg])", "X", Anchor::Anywhere, false);
        assert_eq!(moves(&hits[0]), [1, 2]);
    }

    #[test]
    fn captures_keep_the_stones_right() {
        // white at aa captured by black ab + ba; then the corner is empty of white
        let sgf = "(;SZ[5];W[aa];B[ba];W[ee];B[ab])";
        let (_, hits) = find(sgf, "O", Anchor::Corner, false);
        assert_eq!(moves(&hits[0]), [1, 2, 3, 4]);
        let a = &hits[0].appearances;
        // (0, 1) in the corner's own coordinates: (1, 0), its mirror image, in the first row
        assert_eq!(
            a[2].next,
            Next::At {
                x: 1,
                y: 0,
                color: Color::Black
            }
        );
        assert_eq!((a[2].places, a[3].places), (2, 1));
    }

    #[test]
    fn tests_and_explorer() {
        let sgf =
            "(;SZ[9]BR[3d]RE[B+1.5];B[cc]) (;SZ[9]BR[1k]RE[W+R];B[gc]) (;SZ[9]BR[5d];B[cg];W[dg])";
        let pattern = Pattern::parse("....\n....\n..X.\n")
            .unwrap()
            .anchor(Anchor::Corner);
        let query = GoQuery::new(pattern.clone()).with_tests(vec!["BR>=1d".parse().unwrap()]);
        let source = || Source::Bytes {
            name: "t.sgf".into(),
            data: sgf.as_bytes().to_vec(),
        };
        let mut ex = GoExplorer::default();
        let found = Scan::new(source(), Formats::ANY)
            .go_find(
                &query,
                |h| {
                    ex.add(&h);
                    Ok::<_, ()>(())
                },
                |_| {},
            )
            .unwrap();
        assert_eq!(found.matched, 2);
        let rows = ex.rows();
        assert_eq!(rows.len(), 2, "{rows:?}");
        // game 2's position after W dg still holds the pattern, turned (dg is outside it)
        assert_eq!(rows[0].next, Next::End);
        assert_eq!((rows[0].count, rows[0].x_wins, rows[0].other), (2, 1, 1));
        assert_eq!(
            rows[1].next,
            Next::At {
                x: 3,
                y: 2,
                color: Color::White
            }
        );
        assert_eq!(
            (rows[1].count, rows[1].other, rows[1].example.game),
            (1, 1, 2)
        );
        // without tests, the 1k game too
        let mut ex = GoExplorer::default();
        Scan::new(source(), Formats::ANY)
            .go_find(
                &GoQuery::new(pattern),
                |h| {
                    ex.add(&h);
                    Ok::<_, ()>(())
                },
                |_| {},
            )
            .unwrap();
        let end = ex.rows().into_iter().find(|r| r.next == Next::End).unwrap();
        assert_eq!((end.count, end.x_wins, end.o_wins), (3, 1, 1));
        assert_eq!(ex.positions(), 4);
    }

    /// A row's games count each game once, its positions each position: a pattern that stays
    /// on the board through a game counts once a position there.
    #[test]
    fn explorer_rows_count_games_once() {
        let game = "(;SZ[9]RE[B+R];B[cc];W[gg];B[gh];W[hg];B[hh];W[ii])";
        let sgf = format!("{game}{game}{}", "(;SZ[9]RE[W+R];B[ee])");
        let scan = Scan::new(
            Source::Bytes {
                name: "g.sgf".into(),
                data: sgf.into_bytes(),
            },
            Formats::ANY,
        );
        let mut ex = GoExplorer::default();
        let q = GoQuery::new(Pattern::parse("X").unwrap());
        scan.go_find(
            &q,
            |h| {
                ex.add(&h);
                Ok::<_, ()>(())
            },
            |_| {},
        )
        .unwrap();
        let rows = ex.rows();
        assert!(
            rows.iter().all(|r| r.games <= 3 && r.games <= r.count),
            "{rows:?}"
        );
        // the most played: one move of the pattern's, from two positions of each long game
        assert_eq!((rows[0].count, rows[0].games), (4, 2), "{rows:#?}");
        assert!(matches!(rows[0].next, Next::At { .. }), "{rows:#?}");
        let end = rows.iter().find(|r| r.next == Next::End).unwrap();
        assert_eq!((end.games, end.count), (3, 3));
    }

    #[test]
    fn the_dom_search_agrees() {
        let games = [
            "(;SZ[5];W[aa];B[ba];W[ee];B[ab])",
            "(;SZ[9]AB[cc];W[];B[gg])",
            "(;SZ[9];B[ee];W[cc]AB[cc];AE[ee];B[aa])",
            "(;SZ[9]B[cc];W[dd](;B[ee])(;B[aa]))",
            "(;SZ[19:13]HA[2]AB[dd][pj];W[qd];B[zz];W[];B[dj])",
            "(;GM[2];B[aa])",
        ];
        for pattern in ["X", "O", "X.\n.O", "...\n.X.\n...", "?"] {
            for anchor in [Anchor::Anywhere, Anchor::Edge, Anchor::Corner] {
                for swap in [false, true] {
                    let all = games.join("");
                    let (_, hits) = find(&all, pattern, anchor, swap);
                    let p = Pattern::parse(pattern)
                        .unwrap()
                        .anchor(anchor)
                        .swap_colors(swap);
                    let mut search = TreeSearch::default();
                    let mut dom = Vec::new();
                    for (i, t) in sgf::game_trees(all.as_bytes()).enumerate() {
                        let mut found = Vec::new();
                        search.search(&p, &t, &mut found);
                        if !found.is_empty() {
                            dom.push((i as u64, found));
                        }
                    }
                    let events: Vec<_> =
                        hits.into_iter().map(|h| (h.game, h.appearances)).collect();
                    assert_eq!(events, dom, "{pattern} {anchor:?} {swap}");
                }
            }
        }
    }
}
