//! Opening names: a game named after the last position of its main line that has a name in the
//! lichess opening table, as lichess names its games.
//!
//! ```
//! use kifu::pgn::Games;
//! use kifu_replay::chess::openings;
//!
//! let game = Games::new(b"1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 *")
//!     .next()
//!     .unwrap();
//! let o = openings::classify(&game).unwrap();
//! // 6. Be3 (ply 11) is the last named position: 6... e5 and 7. Nb3 have no name of their own
//! assert_eq!((o.eco, o.name, o.ply), ("B90", "Sicilian Defense: Najdorf Variation, English Attack", 11));
//! ```
//!
//! # The data
//!
//! The lichess opening names (lichess-org/chess-openings, CC0: `data/chess-openings/` in this
//! crate, with its `SOURCE.md` and `COPYING.txt`): 3,807 lines of ECO code, name and the moves to
//! the named position, embedded compressed (53 KB; 388 KB of text) and turned into a table by
//! position at first use ([`table`]: decompressed, each line replayed from the start position,
//! a few milliseconds, once per process).
//!
//! # The rule
//!
//! lichess's (scalachess's `OpeningDb.search`): replay the game's main line and name it after the
//! **last position on the way that has a name**. Positions, not move orders: transpositions
//! classify alike. A position is its EPD (pieces, side to move, castling rights, the en passant
//! square only when the capture is legal), clocks left out. As lichess does:
//!
//! - only the positions after plies 1 to [`MAX_PLY`] (40) are looked at, and only while at least
//!   [`MIN_PIECES`] (20) pieces are on the board; the start position itself has no name. So a game
//!   is replayed 40 plies at most, not to its end. (The table's longest line is 36 plies, but a
//!   named position can be reached later than its line reaches it, by a move order that loses a
//!   tempo: lichess looks as far as 40.) The replay also stops as soon as no named position can
//!   be reached any more, which changes no name: pawns that have left their starting squares
//!   never come back, and pieces never come back onto the board, so a position whose pawns at
//!   home, or whose pieces, are fewer than every named position's that it could still become
//!   has no named future. That halves the plies replayed (lichess's games: 20 instead of 37).
//! - the replay stops at the first move that cannot be replayed (illegal, ambiguous) or that is
//!   a null move (lichess cannot read one): the game is named after the last named position
//!   before it, if any.
//! - only games of standard chess from the standard start position are named: no `FEN` tag, or
//!   one that writes the standard start position (lichess's importer reads such a game as
//!   standard chess too); a `Variant` tag of chess (see [`Variant`]). A game from
//!   another position, Chess960 (even from the standard position: lichess names no Chess960
//!   game), or any other variant gets no name. (lichess also names its crazyhouse,
//!   three-check and king-of-the-hill games; this crate does not replay them.)
//! - when several lines of the table reach one position, the later one (in the order `a.tsv` …
//!   `e.tsv`, line by line) names it, as scalachess's map keeps the last. The data set's lint
//!   refuses such duplicates, and the embedded table has none.
//!
//! # Use
//!
//! - [`classify`] names a game held as a DOM ([`kifu::pgn::Game`]).
//! - [`Classifier`] names a game as its events come, from a [`kifu::pgn::Visitor`] (it replays the
//!   first plies itself: [`Classifier::play`]) or from a [`Replayer`](super::Replayer)'s
//!   [`ReplayVisitor`](super::ReplayVisitor) ([`Classifier::push_replayed`]). Nothing is allocated
//!   per game.
//! - [`table`] is the table itself: the name of any position ([`Openings::get`]), its lines.

use std::sync::OnceLock;

use kifu::pgn::{Game, San};

use super::cozy::{Color, Piece};
use super::{Position, Replayed, Resolved, Variant};

/// The lichess data set's five files, `a.tsv` … `e.tsv`, concatenated and zlib-compressed
/// (`scripts/data/openings.sh`).
static DATA: &[u8] = include_bytes!("../../data/chess-openings/openings.tsv.zz");

/// The last ply whose position can name a game: lichess's `SEARCH_MAX_PLIES`.
pub const MAX_PLY: u32 = 40;

/// The fewest pieces (both sides, kings and pawns included) on a board whose position can name a
/// game: lichess's `SEARCH_MIN_PIECES`. Fewer, and the search stops.
pub const MIN_PIECES: u32 = 20;

/// The top bits of a key that pick its bucket in the index.
const BUCKET_BITS: u32 = 12;

/// The table of named positions, built once: [`table`].
///
/// ```
/// use kifu_replay::chess::{openings, Position};
///
/// let t = openings::table();
/// assert!(t.len() > 3_000);
/// let mut pos = Position::startpos();
/// pos.play(pos.parse_uci("e2e4").unwrap());
/// let e = t.get(&pos).unwrap();
/// assert_eq!((e.eco, e.name, e.pgn, e.plies), ("B00", "King's Pawn Game", "1. e4", 1));
/// assert!(t.get(&Position::startpos()).is_none());
/// ```
pub struct Openings {
    /// The five files, decompressed.
    text: Box<str>,
    /// The lines of the table, in file order.
    lines: Vec<Line>,
    /// The keys of the named positions ([`Position::epd_key`]), sorted.
    keys: Vec<u64>,
    /// For each key, the line that names it.
    names: Vec<u32>,
    /// `buckets[b]..buckets[b + 1]`: the keys whose top bits are `b`.
    buckets: Vec<u32>,
    /// For each set of pawns still on their starting squares ([`home_pawns`]): the fewest pieces
    /// on the board of a named position whose pawns on their starting squares are among these
    /// (255: none). Such pawns never come back, and pieces never come back onto the board: a game
    /// with more pawns gone, or fewer pieces, can reach no named position any more.
    reach: Vec<u8>,
    /// The standard start position.
    start: Position,
    /// The plies of the longest line.
    deepest: u32,
    /// Lines whose position a later line names too (read by the tests).
    #[cfg_attr(not(test), allow(dead_code))]
    shadowed: u32,
    /// Lines that could not be read (bad columns, a move that cannot be played): none in the
    /// embedded data (a test checks).
    #[cfg_attr(not(test), allow(dead_code))]
    skipped: u32,
}

/// A line of the table, by byte offsets into its text.
#[derive(Clone, Copy, Debug)]
struct Line {
    start: u32,
    tab1: u32,
    tab2: u32,
    end: u32,
    plies: u32,
}

/// A line of the table: a named position, and the moves the table gives to reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry<'a> {
    /// The ECO code, `B90`.
    pub eco: &'a str,
    /// The name, `Sicilian Defense: Najdorf Variation`.
    pub name: &'a str,
    /// The moves to the position, as the table writes them (`1. e4 c5 2. Nf3 d6 …`).
    pub pgn: &'a str,
    /// How many plies [`pgn`](Self::pgn) has.
    pub plies: u32,
}

/// What a game is named: the table's name for the last named position its main line reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The ECO code, `B90`.
    pub eco: &'static str,
    /// The name, `Sicilian Defense: Najdorf Variation, English Attack`.
    pub name: &'static str,
    /// The ply of the game at which the named position stood (1: after White's first move),
    /// which may differ from the table's own line for that position (a transposition).
    pub ply: u32,
}

/// The table, built at its first use (a few milliseconds), then shared by the whole process.
pub fn table() -> &'static Openings {
    static TABLE: OnceLock<Openings> = OnceLock::new();
    TABLE.get_or_init(Openings::build)
}

/// Names a game held as a DOM: its main line, from the standard start (see the
/// [module](self) for the rule). Its `ECO` and `Opening` tags, if any, are not read.
///
/// ```
/// use kifu::pgn::Games;
/// use kifu_replay::chess::openings::classify;
///
/// // the Queen's Gambit Declined, by two move orders
/// let a = Games::new(b"1. d4 d5 2. c4 e6 3. Nc3 Nf6 *").next().unwrap();
/// let b = Games::new(b"1. c4 e6 2. Nc3 Nf6 3. d4 d5 *").next().unwrap();
/// let (a, b) = (classify(&a).unwrap(), classify(&b).unwrap());
/// assert_eq!((a.eco, a.name), ("D35", "Queen's Gambit Declined: Normal Defense"));
/// assert_eq!((a.eco, a.name, a.ply), (b.eco, b.name, b.ply));
///
/// // a game from another position has no opening
/// let g = Games::new(b"[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *").next().unwrap();
/// assert_eq!(classify(&g), None);
/// ```
pub fn classify(game: &Game) -> Option<Opening> {
    let mut c = Classifier::new();
    for (name, value) in &game.tags {
        c.tag(name.as_bytes(), value.as_bytes());
    }
    for node in &game.moves {
        if !c.play(node.san) {
            break;
        }
    }
    c.opening()
}

impl Openings {
    /// Builds a new table from the embedded data: what the first call of [`table`] does (use
    /// that one; this is for timing the build). Lines that cannot be read are left out (none
    /// are, in the data this crate ships).
    pub fn build() -> Openings {
        let text = miniz_oxide::inflate::decompress_to_vec_zlib(DATA)
            .ok()
            .and_then(|t| String::from_utf8(t).ok())
            .unwrap_or_default();
        Openings::from_text(text.into_boxed_str())
    }

    /// Builds the table of `text`: TSV lines `eco`, `name`, `pgn`, header lines skipped.
    fn from_text(text: Box<str>) -> Openings {
        let start = Position::startpos();
        let mut lines = Vec::new();
        let mut by_key: Vec<(u64, u32)> = Vec::new();
        let mut skipped = 0;
        let mut deepest = 0;
        let mut reach = vec![u8::MAX; 1 << 16];
        // the previous line's moves and the positions after each: lines that follow each other
        // share their first moves, which are not replayed again
        let mut moves: Vec<&str> = Vec::new();
        let mut positions: Vec<Position> = vec![start.clone()];
        let mut offset = 0usize;
        for raw in text.split_inclusive('\n') {
            let line_start = offset;
            offset += raw.len();
            let line = raw.trim_end_matches(['\n', '\r']);
            let mut cols = line.splitn(3, '\t');
            let (Some(eco), Some(name), Some(pgn)) = (cols.next(), cols.next(), cols.next()) else {
                skipped += u32::from(!line.is_empty());
                continue;
            };
            if eco == "eco" && name == "name" && pgn == "pgn" {
                continue;
            }
            let tokens = pgn.split_ascii_whitespace().filter(|t| !t.ends_with('.'));
            let mut same = 0;
            let mut plies = 0;
            let mut ok = true;
            for (i, token) in tokens.enumerate() {
                plies = i + 1;
                if same == i && moves.get(i) == Some(&token) {
                    same += 1;
                    continue;
                }
                if same == i {
                    // the first move that differs from the previous line's
                    moves.truncate(i);
                    positions.truncate(i + 1);
                }
                let pos = &positions[i];
                let played = San::parse(token.as_bytes())
                    .and_then(|san| pos.resolve(san).ok())
                    .and_then(|r| match r {
                        Resolved::Move(mv) => {
                            let mut next = pos.clone();
                            next.play(mv);
                            Some(next)
                        }
                        Resolved::Null => None,
                    });
                let Some(next) = played else {
                    ok = false;
                    break;
                };
                positions.push(next);
                moves.push(token);
            }
            if same == plies {
                // a line that repeats the start of the previous one
                moves.truncate(plies);
                positions.truncate(plies + 1);
            }
            if !ok || plies == 0 {
                skipped += 1;
                moves.clear();
                positions.truncate(1);
                continue;
            }
            let plies = plies as u32;
            let base = line_start as u32;
            let tab1 = base + eco.len() as u32;
            let tab2 = tab1 + 1 + name.len() as u32;
            let pos = &positions[plies as usize];
            by_key.push((pos.epd_key(), lines.len() as u32));
            let r = &mut reach[home_pawns(pos)];
            *r = (*r).min(pos.board().occupied().len().min(254) as u8);
            lines.push(Line {
                start: base,
                tab1,
                tab2,
                end: tab2 + 1 + pgn.len() as u32,
                plies,
            });
            deepest = deepest.max(plies);
        }
        // by key, then by line: of the lines that name one position, the last one is kept
        by_key.sort_unstable();
        let before = by_key.len();
        by_key.reverse();
        by_key.dedup_by_key(|(k, _)| *k);
        by_key.reverse();
        let shadowed = (before - by_key.len()) as u32;
        let keys: Vec<u64> = by_key.iter().map(|&(k, _)| k).collect();
        let names = by_key.iter().map(|&(_, l)| l).collect();
        let mut buckets = Vec::with_capacity((1 << BUCKET_BITS) + 1);
        let mut i = 0;
        for b in 0..=(1u64 << BUCKET_BITS) {
            while i < keys.len() && keys[i] >> (64 - BUCKET_BITS) < b {
                i += 1;
            }
            buckets.push(i as u32);
        }
        // each set of pawns takes the fewest pieces of its subsets: bit by bit, the sets with the
        // bit take the minimum of theirs and of the same sets without it
        for bit in 0..16 {
            let half = 1 << bit;
            for block in reach.chunks_exact_mut(2 * half) {
                let (without, with) = block.split_at_mut(half);
                for (w, o) in with.iter_mut().zip(without.iter()) {
                    *w = (*w).min(*o);
                }
            }
        }
        Openings {
            text,
            lines,
            keys,
            names,
            buckets,
            reach,
            start,
            deepest,
            shadowed,
            skipped,
        }
    }

    /// How many positions have a name.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no position has a name (never, with the data this crate ships).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The plies of the table's longest line (36).
    pub fn deepest_ply(&self) -> u32 {
        self.deepest
    }

    /// The lines of the table, in the order of its files (`a.tsv` … `e.tsv`).
    pub fn lines(&self) -> impl ExactSizeIterator<Item = Entry<'_>> + '_ {
        self.lines.iter().map(|l| self.entry(l))
    }

    /// The name of `pos` (its EPD: clocks do not count), if the table has one. Any position,
    /// whatever its number of pieces.
    #[inline]
    pub fn get(&self, pos: &Position) -> Option<Entry<'_>> {
        self.find(pos.epd_key()).map(|i| self.entry(&self.lines[i]))
    }

    /// The line that names the position of `key` ([`Position::epd_key`]).
    #[inline]
    fn find(&self, key: u64) -> Option<usize> {
        let b = (key >> (64 - BUCKET_BITS)) as usize;
        let (lo, hi) = (
            *self.buckets.get(b)? as usize,
            *self.buckets.get(b + 1)? as usize,
        );
        let i = self.keys.get(lo..hi)?.iter().position(|&k| k == key)?;
        self.names.get(lo + i).map(|&l| l as usize)
    }

    fn entry(&self, l: &Line) -> Entry<'_> {
        let s = |a: u32, b: u32| self.text.get(a as usize..b as usize).unwrap_or("");
        Entry {
            eco: s(l.start, l.tab1),
            name: s(l.tab1 + 1, l.tab2),
            pgn: s(l.tab2 + 1, l.end),
            plies: l.plies,
        }
    }
}

/// The pawns of `pos` still on their starting squares: White's on the second rank (bits 0–7, a to
/// h), Black's on the seventh (bits 8–15). A pawn that has left its square never comes back, nor
/// can another pawn take its place there: the set only loses pawns as a game goes on.
#[inline]
fn home_pawns(pos: &Position) -> usize {
    let b = pos.board();
    let white = b.colored_pieces(Color::White, Piece::Pawn).0 >> 8 & 0xff;
    let black = b.colored_pieces(Color::Black, Piece::Pawn).0 >> 48 & 0xff;
    (white | black << 8) as usize
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Positions are looked up.
    Looking,
    /// No later position can name the game (the last ply, too few pieces, a move that could
    /// not be replayed): the name found so far stays.
    Done,
    /// The game does not start from the standard position of standard chess: no name.
    Excluded,
}

/// Names one game at a time from its events: its tags, then its main-line moves, ply by ply
/// (see the [module](self) for the rule). Reuse it from game to game: nothing is allocated.
///
/// Either it replays the moves itself ([`play`](Self::play): the SAN, up to ply 40 at most,
/// for a plain [`kifu::pgn::Visitor`]), or it is handed the positions of a
/// [`Replayer`](super::Replayer) ([`start_from`](Self::start_from),
/// [`push_replayed`](Self::push_replayed), [`stop`](Self::stop)). A `false` from `play` or
/// `push_replayed` says that no later move can change the name: stop feeding it.
///
/// ```
/// use kifu::{Control, pgn::{self, Context, Move, Tag, Visitor}};
/// use kifu_replay::chess::openings::{Classifier, Opening};
///
/// #[derive(Default)]
/// struct Names {
///     c: Classifier,
///     out: Vec<Option<Opening>>,
/// }
/// impl Visitor for Names {
///     fn on_tree(&mut self, ctx: &Context) -> Control {
///         if ctx.depth == 0 {
///             self.c.start();
///         }
///         Control::Continue
///     }
///     fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
///         if ctx.depth == 0 {
///             self.c.tag(tag.name, &tag.value.decode());
///         }
///         Control::Continue
///     }
///     fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
///         if ctx.is_main_line() {
///             self.c.play(mv.san);
///         }
///         Control::Continue
///     }
///     fn on_tree_end(&mut self, ctx: &Context) -> Control {
///         if ctx.depth == 0 {
///             self.out.push(self.c.opening());
///         }
///         Control::Continue
///     }
/// }
///
/// let mut v = Names::default();
/// pgn::parse(b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 (3... Nf6) 4. Ba4 Nf6 1-0\n\n1. e4 Ke7?? *", &mut v);
/// let o = v.out[0].unwrap();
/// // 3... a6 is the last named position of the main line (4. Ba4 Nf6 has no name of its own;
/// // 3... Nf6, the Berlin, is a variation)
/// assert_eq!((o.eco, o.name, o.ply), ("C70", "Ruy Lopez: Morphy Defense", 6));
/// assert_eq!(v.out[1].unwrap().name, "King's Pawn Game"); // 1... Ke7 names nothing: 1. e4 does
/// ```
#[derive(Clone)]
pub struct Classifier {
    table: &'static Openings,
    /// The position after the last move [`play`](Self::play) replayed.
    pos: Position,
    /// Plies seen.
    ply: u32,
    state: State,
    /// The line that names the game so far, and the ply of its position.
    found: Option<(u32, u32)>,
}

impl core::fmt::Debug for Openings {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Openings")
            .field("len", &self.len())
            .field("lines", &self.lines.len())
            .field("deepest_ply", &self.deepest)
            .finish_non_exhaustive()
    }
}

impl core::fmt::Debug for Classifier {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Classifier")
            .field("ply", &self.ply)
            .field("state", &self.state)
            .field("opening", &self.opening())
            .finish_non_exhaustive()
    }
}

impl Default for Classifier {
    fn default() -> Self {
        Classifier::new()
    }
}

impl Classifier {
    /// A classifier, ready for a game from the standard start. The table is built now if it was
    /// not yet.
    pub fn new() -> Classifier {
        let table = table();
        Classifier {
            table,
            pos: table.start.clone(),
            ply: 0,
            state: State::Looking,
            found: None,
        }
    }

    /// A new game, from the standard start position until its tags say otherwise
    /// ([`tag`](Self::tag)).
    pub fn start(&mut self) {
        self.pos.clone_from(&self.table.start);
        self.ply = 0;
        self.state = State::Looking;
        self.found = None;
    }

    /// A new game from `start`, the position a [`Replayer`](super::Replayer) gives in
    /// [`on_replay_start`](super::ReplayVisitor::on_replay_start) (`None`: the game is not
    /// replayed). Named only when it is the standard start position of standard chess.
    pub fn start_from(&mut self, start: Option<&Position>) {
        self.start();
        if !start.is_some_and(|p| self.is_standard_start(p)) {
            self.state = State::Excluded;
        }
    }

    /// Whether `p` is the standard start position of standard chess (clocks aside).
    fn is_standard_start(&self, p: &Position) -> bool {
        !p.chess960() && p.board().same_position(self.table.start.board())
    }

    /// A tag of the game, before its moves (with [`play`](Self::play)): a `FEN` tag that is not
    /// the standard start position, or a `Variant` tag of anything but chess (Chess960
    /// included), means the game gets no name. Other tags are ignored. `value` as
    /// [`RawTag::decode`](kifu::pgn::RawTag::decode) gives it.
    pub fn tag(&mut self, name: &[u8], value: &[u8]) {
        let other = match name {
            b"FEN" => !core::str::from_utf8(value)
                .ok()
                .and_then(|fen| Position::from_fen(fen, false).ok())
                .is_some_and(|p| self.is_standard_start(&p)),
            b"Variant" => Variant::from_tag(value) != Variant::Standard,
            _ => false,
        };
        if other {
            self.state = State::Excluded;
        }
    }

    /// The next main-line move, replayed here. `false` when no later move can change the name
    /// (the game is excluded, the move is illegal, ambiguous or a null move, ply 40 or fewer
    /// than 20 pieces was reached, no named position can be reached any more): stop calling it
    /// for this game.
    #[inline]
    pub fn play(&mut self, san: San) -> bool {
        if self.state != State::Looking {
            return false;
        }
        match self.pos.find(san) {
            Ok((Resolved::Move(mv), piece)) => self.pos.play_piece(mv, piece),
            // illegal, ambiguous, or a null move (lichess cannot read one)
            Ok((Resolved::Null, _)) | Err(_) => {
                self.state = State::Done;
                return false;
            }
        }
        let pos = &self.pos;
        self.look(pos.epd_key(), pos.board().occupied().len(), home_pawns(pos))
    }

    /// The next main-line move as a [`Replayer`](super::Replayer) played it (after
    /// [`start_from`](Self::start_from)); a null move stops the search. `false` when no later
    /// move can change the name.
    #[inline]
    pub fn push_replayed(&mut self, replayed: &Replayed<'_>) -> bool {
        if replayed.mv.is_none() {
            self.stop();
            return false;
        }
        self.push(replayed.after)
    }

    /// The position after the next main-line move, from a board of your own (after
    /// [`start`](Self::start) or [`start_from`](Self::start_from)): each call is one more ply
    /// from the start, null moves included (call [`stop`](Self::stop) for one instead, as
    /// lichess would). `false` when no later move can change the name.
    #[inline]
    pub fn push(&mut self, after: &Position) -> bool {
        if self.state != State::Looking {
            return false;
        }
        self.look(
            after.epd_key(),
            after.board().occupied().len(),
            home_pawns(after),
        )
    }

    /// The next main-line move could not be replayed: the name found so far stays.
    pub fn stop(&mut self) {
        if self.state == State::Looking {
            self.state = State::Done;
        }
    }

    /// Looks up the position after one more ply: its key, its pieces, its pawns on their
    /// starting squares ([`home_pawns`]).
    #[inline]
    fn look(&mut self, key: u64, pieces: u32, home: usize) -> bool {
        self.ply += 1;
        if pieces < MIN_PIECES {
            self.state = State::Done;
            return false;
        }
        if let Some(line) = self.table.find(key) {
            self.found = Some((line as u32, self.ply));
        }
        let reachable = self
            .table
            .reach
            .get(home)
            .is_some_and(|&fewest| u32::from(fewest) <= pieces);
        if self.ply >= MAX_PLY || !reachable {
            self.state = State::Done;
            return false;
        }
        true
    }

    /// Whether a later main-line move could still change the name.
    pub fn wants_more(&self) -> bool {
        self.state == State::Looking
    }

    /// The game's name so far: the last named position its main line reached.
    pub fn opening(&self) -> Option<Opening> {
        if self.state == State::Excluded {
            return None;
        }
        let (line, ply) = self.found?;
        let e = self.table.entry(self.table.lines.get(line as usize)?);
        Some(Opening {
            eco: e.eco,
            name: e.name,
            ply,
        })
    }
}

#[cfg(test)]
mod tests;
