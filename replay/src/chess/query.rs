//! Position queries over a game's positions: an exact position (FEN or EPD), a piece pattern
//! (Scoutfish's sub-FEN), a material signature with ranges, and sequences of them (position A,
//! then B within N plies), on the main line or in variations too, within a ply range.
//!
//! A [`Query`] is parsed once and shared by every thread; a [`Searcher`] walks one game at a
//! time (reused from game to game), replaying its moves with the same board logic as
//! [`replay_game`](super::replay_game), and calls you back at each position where the query
//! matches. The replay of a line ends as soon as the query can no longer match on it:
//!
//! - pieces never come back onto the board and pawns never come back to their starting
//!   squares, so a position with fewer pieces of a kind than the query needs (promotions
//!   counted: a pawn may still become any piece), or without a pawn the query needs on its
//!   starting square, ends the line;
//! - castling rights are never regained: an exact position with a right the game has lost
//!   cannot come any more;
//! - past `max_ply`, nothing is looked at.
//!
//! The grammar of each form, with examples, is in docs/search.md; in short:
//!
//! - **Exact** ([`Exact`]): a FEN or an EPD (its first four fields; the move counters and the
//!   EPD operations are ignored). Two positions are the same when their pieces, side to move,
//!   castling rights and *legal* en passant square are (python-chess's transposition key: the
//!   EPD is the same), so transpositions are found.
//! - **Sub-FEN** ([`SubFen`]): a FEN board part whose pieces must stand on their squares, an
//!   empty square meaning "any" (Scoutfish's `sub-fen`) and `_` a square that must be empty
//!   (CQL's `_`), optionally followed by `w` or `b` for the side to move.
//! - **Material** ([`Material`]): `KRPkr` (exact: White a king, a rook and a pawn, Black a king
//!   and a rook, nothing else), or terms with bounds: `Q+` (White has at least one queen),
//!   `[BN]2+` (White has at least two minor pieces), `r2-` (Black at most two rooks),
//!   `P>=5`, `q=0`.
//!
//! ```
//! use kifu_replay::chess::query::{Query, Searcher, Step};
//!
//! let game = kifu::pgn::Games::new(b"1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *")
//!     .next()
//!     .unwrap();
//! // the Najdorf, exactly
//! let najdorf = Step::fen("rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq -").unwrap();
//! let q = Query::new(vec![najdorf]);
//! let mut s = Searcher::default();
//! let mut plies = Vec::new();
//! s.search(&game, &q, |hit| {
//!     plies.push(hit.ply);
//!     true
//! });
//! assert_eq!(plies, [10]);
//! // a white knight on d4 and a black pawn on a6, then a white pawn on e5 within 20 plies: no
//! let q = Query::new(vec![
//!     Step::subfen("8/8/p7/8/3N4/8/8/8").unwrap(),
//!     Step::subfen("8/8/8/4P3/8/8/8/8").unwrap(),
//! ])
//! .within(Some(20));
//! assert!(!s.matches(&game, &q));
//! ```

use core::fmt;

use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, Rank, Square};
use kifu::pgn::{Game, Node};

use super::lines::{Engine, Step as Played};
use super::setup::Setup;
use super::{FenError, Position, Resolved};

const KINDS: [Piece; 6] = [
    Piece::Pawn,
    Piece::Knight,
    Piece::Bishop,
    Piece::Rook,
    Piece::Queen,
    Piece::King,
];

/// Why a query could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError(String);

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for QueryError {}

fn err<T>(s: impl Into<String>) -> Result<T, QueryError> {
    Err(QueryError(s.into()))
}

/// The least a position must still have for a pattern to come later in the same line: pieces
/// of each kind and colour (promotions counted, bishops by the colour of their squares), each
/// pawn the pattern places somewhere it can still get to, castling rights.
///
/// Every rule holds because of how chess moves: no piece comes back onto the board; a pawn only
/// goes forward, one rank a move, changing its file by one only as it takes (en passant too),
/// and stops being a pawn when it promotes; a promotion makes one piece of any kind but a king,
/// on a square of either colour; a bishop keeps the colour of its squares; a castling right,
/// once lost, is never regained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Need {
    /// Per colour: the fewest pawns.
    pawns: [u8; 2],
    /// Per colour, the other pieces needed (the first `n_pieces`): their kind, the squares
    /// counted (a bishop's: those of its colour) and the fewest.
    pieces: [[(Piece, u64, u8); 6]; 2],
    n_pieces: [u8; 2],
    /// Pawns that must still stand where they are needed because they are needed on their
    /// starting squares (White's on rank 2, Black's on rank 7), by colour: one AND for them all.
    home: [u64; 2],
    /// Per colour, for each other pawn needed (the first 8: more than 8 fail the count): the
    /// squares from which a pawn of that colour can still get to its square. No square, for a
    /// pawn needed on the first or last rank, where no pawn stands.
    cones: [[u64; 8]; 2],
    /// How many of `cones` are used, per colour.
    n_cones: [u8; 2],
    /// Castling rights that must still be held: per colour, bit 0 short, bit 1 long.
    castle: [u8; 2],
    /// Per colour: whether anything is needed of it.
    any: [bool; 2],
}

const RANK_2: u64 = 0xff << 8;
const RANK_7: u64 = 0xff << 48;
/// The light squares (h1, a2, …; a1 is dark).
const LIGHT: u64 = 0x55aa_55aa_55aa_55aa;

/// The squares from which a pawn of `color` (0 White, 1 Black) can still get to `sq`: not
/// behind it, and no further to the side than it has ranks to go (a file a capture).
fn cone(color: usize, sq: usize) -> u64 {
    let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
    if rank == 0 || rank == 7 {
        return 0;
    }
    let mut m = 0u64;
    for r in 1..7i32 {
        let ahead = if color == 0 { rank - r } else { r - rank };
        if ahead < 0 {
            continue;
        }
        for f in 0..8i32 {
            if (f - file).abs() <= ahead {
                m |= 1 << (r * 8 + f);
            }
        }
    }
    m
}

impl Default for Need {
    /// Nothing needed.
    fn default() -> Need {
        Need {
            pawns: [0; 2],
            pieces: [[(Piece::Knight, 0, 0); 6]; 2],
            n_pieces: [0; 2],
            home: [0; 2],
            cones: [[0; 8]; 2],
            n_cones: [0; 2],
            castle: [0; 2],
            any: [false; 2],
        }
    }
}

/// `x`'s squares, counted up to `n`: `min(x.count_ones(), n)` in at most `n` steps.
#[inline]
fn capped(mut x: u64, n: u8) -> u8 {
    let mut k = 0;
    while k < n && x != 0 {
        x &= x - 1;
        k += 1;
    }
    k
}

impl Need {
    fn of_masks(masks: &[[u64; 6]; 2]) -> Need {
        let mut n = Need::default();
        for (c, m) in masks.iter().enumerate() {
            let count = |b: u64| b.count_ones().min(255) as u8;
            n.pawns[c] = count(m[0]);
            for (piece, squares, bits) in [
                (Piece::Knight, !0, m[1]),
                (Piece::Bishop, LIGHT, m[2] & LIGHT),
                (Piece::Bishop, !LIGHT, m[2] & !LIGHT),
                (Piece::Rook, !0, m[3]),
                (Piece::Queen, !0, m[4]),
            ] {
                if bits != 0 {
                    n.pieces[c][usize::from(n.n_pieces[c])] = (piece, squares, count(bits));
                    n.n_pieces[c] += 1;
                }
            }
            let home = if c == 0 { RANK_2 } else { RANK_7 };
            n.home[c] = m[0] & home;
            let mut rest = m[0] & !home;
            while rest != 0 && usize::from(n.n_cones[c]) < 8 {
                let sq = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                n.cones[c][usize::from(n.n_cones[c])] = cone(c, sq);
                n.n_cones[c] += 1;
            }
            n.any[c] = m[..5].iter().any(|&b| b != 0);
        }
        n
    }

    /// Whether a later position of the line can still hold what is needed.
    #[inline]
    fn reachable(&self, b: &Board) -> bool {
        for (c, color) in Color::ALL.into_iter().enumerate() {
            if !self.any[c] && self.castle[c] == 0 {
                continue;
            }
            let ours = b.colors(color).0;
            let pawns = b.pieces(Piece::Pawn).0 & ours;
            if pawns & self.home[c] != self.home[c] {
                return false;
            }
            for &cone in &self.cones[c][..usize::from(self.n_cones[c])] {
                if pawns & cone == 0 {
                    return false;
                }
            }
            // how many more pieces promotions must make (popcounts avoided: the build's target
            // may have no popcount instruction, and the needs are small)
            let mut deficit = 0u32;
            for &(piece, squares, need) in &self.pieces[c][..usize::from(self.n_pieces[c])] {
                deficit += u32::from(need - capped(b.pieces(piece).0 & ours & squares, need));
            }
            let pawns_needed = u32::from(self.pawns[c]) + deficit;
            if pawns_needed > 0
                && u32::from(capped(pawns, pawns_needed.min(64) as u8)) < pawns_needed
            {
                return false;
            }
            if self.castle[c] != 0 && rights(b, color) & self.castle[c] != self.castle[c] {
                return false;
            }
        }
        true
    }
}

fn rights(b: &Board, color: Color) -> u8 {
    let r = b.castle_rights(color);
    u8::from(r.short.is_some()) | u8::from(r.long.is_some()) << 1
}

fn masks_of(b: &Board) -> [[u64; 6]; 2] {
    let mut m = [[0; 6]; 2];
    for (c, color) in Color::ALL.into_iter().enumerate() {
        for (k, piece) in KINDS.into_iter().enumerate() {
            m[c][k] = b.colored_pieces(color, piece).0;
        }
    }
    m
}

/// The first four fields of a FEN or an EPD (the move counters and EPD operations dropped),
/// once what follows them is checked: a FEN's move counters (one or two numbers, the last
/// fields), or an EPD's operations (each starting with its opcode, a letter).
fn four_fields(text: &str) -> Result<String, String> {
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    let rest = fields.get(4..).unwrap_or(&[]);
    let counters = rest
        .iter()
        .take_while(|f| f.bytes().all(|b| b.is_ascii_digit()))
        .count();
    let after = if counters > 0 {
        rest.get(counters.min(2)..).and_then(|r| r.first())
    } else {
        rest.first()
            .filter(|f| !f.as_bytes()[0].is_ascii_alphabetic())
    };
    if let Some(junk) = after {
        return Err(if counters > 0 {
            format!("`{junk}` after the move counters (a FEN has six fields)")
        } else {
            format!("`{junk}` after the four fields is no move counter and no EPD operation")
        });
    }
    Ok(fields[..fields.len().min(4)].join(" "))
}

/// The castling field of a query read with standard chess's rules, as python-chess's
/// `Board(fen)` reads it: `K`, `Q`, `k`, `q` name the rook in the corner, and a right whose king
/// is off its e-file square or whose rook is off its corner is dropped (many programs write
/// `KQkq` whatever the position), so that such a FEN does not read as a Chess960 position.
/// Other castling letters (a file, Shredder-FEN's) are kept as they are.
fn standard_castling(placement: &str, castling: &str) -> String {
    if castling == "-" || !castling.bytes().all(|c| b"KQkq".contains(&c)) {
        return castling.to_string();
    }
    // the first and last ranks of the placement (8 then 1), as 8 squares each
    let ranks: Vec<&str> = placement.split('/').collect();
    let squares = |rank: &str| -> Vec<u8> {
        let mut row = Vec::with_capacity(8);
        for c in rank.bytes() {
            if c.is_ascii_digit() {
                row.extend(std::iter::repeat_n(b'.', usize::from(c - b'0')));
            } else {
                row.push(c);
            }
        }
        row
    };
    let (Some(eighth), Some(first)) = (ranks.first(), ranks.last()) else {
        return castling.to_string();
    };
    let (eighth, first) = (squares(eighth), squares(first));
    let on = |row: &[u8], file: usize, piece: u8| row.get(file) == Some(&piece);
    let kept: String = castling
        .chars()
        .filter(|&c| match c {
            'K' => on(&first, 4, b'K') && on(&first, 7, b'R'),
            'Q' => on(&first, 4, b'K') && on(&first, 0, b'R'),
            'k' => on(&eighth, 4, b'k') && on(&eighth, 7, b'r'),
            _ => on(&eighth, 4, b'k') && on(&eighth, 0, b'r'),
        })
        .collect();
    if kept.is_empty() { "-".into() } else { kept }
}

/// Why the en passant square of a query's FEN cannot be (`None` when it can): no pawn of the
/// side not to move stands just past it, as a double step would have left it, or the square or
/// the one the pawn came from is not empty.
fn impossible_en_passant(fields: &[&str], board: &Board) -> Option<String> {
    let sq = fields.get(3).filter(|f| **f != "-")?;
    let square: Square = sq.parse().ok()?;
    let mover = board.side_to_move();
    let pawn = !mover;
    let behind = Rank::Sixth.relative_to(mover);
    let why = if square.rank() != behind {
        format!(
            "it is not on the {} rank",
            if mover == Color::White {
                "sixth"
            } else {
                "third"
            }
        )
    } else {
        let front = Square::new(square.file(), Rank::Fifth.relative_to(mover));
        let from = Square::new(square.file(), Rank::Seventh.relative_to(mover));
        if board.piece_on(front) != Some(Piece::Pawn) || board.color_on(front) != Some(pawn) {
            format!(
                "no {} pawn stands on {front}",
                if pawn == Color::White {
                    "white"
                } else {
                    "black"
                }
            )
        } else if board.piece_on(square).is_some() || board.piece_on(from).is_some() {
            format!("{square} and {from} are not both empty")
        } else {
            return None;
        }
    };
    Some(format!(
        "the en passant square {sq} is impossible: {why} (a double step leaves it behind the pawn; \
         write `-` for none)"
    ))
}

/// An exact position: pieces, side to move, castling rights and legal en passant square, as
/// python-chess's transposition key compares them (the same EPD); the move counters do not
/// matter.
///
/// ```
/// use kifu_replay::chess::query::Exact;
///
/// let e4 = Exact::parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
/// // the en passant square is not legal here: the EPD without it is the same position
/// assert_eq!(e4, Exact::parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;").unwrap());
/// assert!(Exact::parse("8/8/8 w - -").is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Exact {
    key: u64,
    masks: [[u64; 6]; 2],
    need: Need,
    position: Position,
}

/// Two queries are equal when they ask for the same position (their move counters and an en
/// passant square that no capture can take may differ).
impl PartialEq for Exact {
    fn eq(&self, other: &Exact) -> bool {
        self.key == other.key && self.masks == other.masks
    }
}

impl Eq for Exact {}

impl Exact {
    /// Reads a FEN or an EPD (python-chess's FEN rules: see
    /// [`Position::from_fen`]).
    ///
    /// # Errors
    ///
    /// A FEN that cannot be read, or a position no game can reach.
    pub fn parse(text: &str) -> Result<Exact, QueryError> {
        let bad = |e: &dyn fmt::Display| QueryError(format!("`{}`: {e}", text.trim()));
        let fen = four_fields(text).map_err(|e| bad(&e))?;
        let mut fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        let castling = fields
            .get(2)
            .map(|c| standard_castling(fields[0], c))
            .unwrap_or_default();
        if fields.len() > 2 {
            fields[2] = &castling;
        }
        let pos = Position::from_fen(&fields.join(" "), false).map_err(|e: FenError| bad(&e))?;
        if let Some(why) = impossible_en_passant(&fields, pos.board()) {
            return Err(bad(&why));
        }
        Ok(Exact::of(pos))
    }

    /// The query for `pos`.
    pub fn of(pos: Position) -> Exact {
        let b = pos.board();
        let masks = masks_of(b);
        let mut need = Need::of_masks(&masks);
        need.castle = [rights(b, Color::White), rights(b, Color::Black)];
        Exact {
            key: pos.epd_key(),
            masks,
            need,
            position: pos,
        }
    }

    /// The position asked for.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Whether `pos` is this position.
    #[inline]
    pub fn matches(&self, pos: &Position) -> bool {
        pos.epd_key() == self.key && masks_of(pos.board()) == self.masks
    }
}

/// A piece pattern (Scoutfish's `sub-fen`): the pieces given must stand on their squares, the
/// squares marked `_` must be empty, the other squares may hold anything; optionally the side
/// to move.
///
/// ```
/// use kifu_replay::chess::{Position, query::SubFen};
///
/// // a white knight on f3 and Black's king on g8, White to move
/// let s = SubFen::parse("6k1/8/8/8/8/5N2/8/8 w").unwrap();
/// let pos = Position::from_fen("r4rk1/pp3ppp/8/8/8/5N2/PP3PPP/R4RK1 w - - 0 20", false).unwrap();
/// assert!(s.matches(&pos));
/// assert!(!SubFen::parse("6k1/8/8/8/8/5N2/8/8 b").unwrap().matches(&pos));
/// // and the square h7 empty (it holds a pawn here), or e7 empty (it is)
/// assert!(!SubFen::parse("6k1/7_/8/8/8/5N2/8/8").unwrap().matches(&pos));
/// assert!(SubFen::parse("6k1/4_3/8/8/8/5N2/8/8").unwrap().matches(&pos));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubFen {
    masks: [[u64; 6]; 2],
    /// The squares that must be empty (`_`).
    empty: u64,
    /// The masks that are not empty, with their kind and colour: one AND and one compare each.
    pieces: [(Piece, Color, u64); 12],
    n_pieces: u8,
    side: Option<Color>,
    need: Need,
}

impl SubFen {
    /// Reads a FEN board part (8 ranks of pieces `PNBRQKpnbrqk`, `_` for a square that must be
    /// empty and digits for squares that may hold anything), optionally followed by `w` or `b`;
    /// anything after that (a whole FEN's castling, en passant and counters) is refused, since
    /// a pattern does not compare them.
    ///
    /// # Errors
    ///
    /// A board that is not 8 ranks of 8 squares, or a side to move that is not `w` or `b`.
    pub fn parse(text: &str) -> Result<SubFen, QueryError> {
        let mut parts = text.split_ascii_whitespace();
        let board = parts
            .next()
            .ok_or_else(|| QueryError("empty sub-FEN".into()))?;
        let side = match parts.next() {
            None => None,
            Some("w") => Some(Color::White),
            Some("b") => Some(Color::Black),
            Some(s) => {
                return err(format!(
                    "`{text}`: the side to move is `w` or `b`, not `{s}`"
                ));
            }
        };
        if parts.next().is_some() {
            return err(format!(
                "`{text}`: a sub-FEN is a board and at most a side to move (use --fen for a whole position)"
            ));
        }
        let mut masks = [[0u64; 6]; 2];
        let mut empty = 0u64;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return err(format!(
                "`{board}`: 8 ranks separated by `/`, not {}",
                ranks.len()
            ));
        }
        for (i, rank) in ranks.iter().enumerate() {
            let r = 7 - i;
            let mut file = 0usize;
            for ch in rank.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 || d > 8 {
                        return err(format!("`{board}`: `{ch}` is no count of squares"));
                    }
                    file += d as usize;
                } else if ch == '_' {
                    if file < 8 {
                        empty |= 1 << (r * 8 + file);
                    }
                    file += 1;
                } else {
                    let Some((color, kind)) = piece_letter(ch) else {
                        return err(format!(
                            "`{board}`: `{ch}` is no piece (PNBRQK, pnbrqk) nor `_` (an empty square)"
                        ));
                    };
                    if file < 8 {
                        masks[color][kind] |= 1 << (r * 8 + file);
                    }
                    file += 1;
                }
                if file > 8 {
                    break;
                }
            }
            if file != 8 {
                return err(format!("`{board}`: rank {} is not 8 squares", r + 1));
            }
        }
        let mut pieces = [(Piece::Pawn, Color::White, 0); 12];
        let mut n_pieces = 0;
        for (c, color) in Color::ALL.into_iter().enumerate() {
            for (k, piece) in KINDS.into_iter().enumerate() {
                if masks[c][k] != 0 {
                    pieces[n_pieces] = (piece, color, masks[c][k]);
                    n_pieces += 1;
                }
            }
        }
        Ok(SubFen {
            need: Need::of_masks(&masks),
            masks,
            empty,
            pieces,
            n_pieces: n_pieces as u8,
            side,
        })
    }

    /// Whether `pos` has the pattern's pieces on their squares, its empty squares empty (and
    /// its side to move).
    #[inline(always)]
    pub fn matches(&self, pos: &Position) -> bool {
        let b = pos.board();
        if self.side.is_some_and(|s| s != b.side_to_move()) {
            return false;
        }
        if b.occupied().0 & self.empty != 0 {
            return false;
        }
        self.pieces[..usize::from(self.n_pieces)]
            .iter()
            .all(|&(piece, color, m)| (b.pieces(piece).0 & b.colors(color).0) & m == m)
    }
}

/// (colour index, kind index) of a FEN piece letter.
fn piece_letter(ch: char) -> Option<(usize, usize)> {
    let kind = match ch.to_ascii_lowercase() {
        'p' => 0,
        'n' => 1,
        'b' => 2,
        'r' => 3,
        'q' => 4,
        'k' => 5,
        _ => return None,
    };
    Some((usize::from(ch.is_ascii_lowercase()), kind))
}

/// One term of a material signature: the pieces of some kinds of one colour, counted together,
/// between two bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Term {
    color: usize,
    /// Bit k: kind k (pawn … king).
    kinds: u8,
    min: u8,
    max: u8,
}

/// Why no position can have the material of `terms` (`None` when one can): the bounds of one
/// kind of a side contradict each other (`Q+ Q=0`), a side without its one king (`K2`), more
/// than 8 pawns.
fn impossible_material(terms: &[Term]) -> Option<String> {
    let mut bounds = [[(0u8, MAX_COUNT as u8); 6]; 2];
    for t in terms.iter().filter(|t| t.kinds.count_ones() == 1) {
        let b = &mut bounds[t.color][t.kinds.trailing_zeros() as usize % 6];
        *b = (b.0.max(t.min), b.1.min(t.max));
    }
    for (color, kinds) in bounds.iter().enumerate() {
        for (k, &(min, max)) in kinds.iter().enumerate() {
            let letter = if color == 0 { "PNBRQK" } else { "pnbrqk" }.as_bytes()[k] as char;
            if min > max {
                return Some(format!(
                    "`{letter}` asks for at least {min} and at most {max}"
                ));
            }
            if k == 5 && !(min..=max).contains(&1) {
                return Some(format!(
                    "each side has one king (`{letter}` asks for {min} to {max})"
                ));
            }
            if k == 0 && min > 8 {
                return Some(format!(
                    "a side has at most 8 pawns (`{letter}` asks for {min})"
                ));
            }
        }
    }
    None
}

/// A material signature: how many pieces of each kind each side has, exactly or within bounds.
///
/// The grammar (docs/search.md): terms, spaces between them optional. A term is a unit — a
/// piece letter (`PNBRQK` White's, `pnbrqk` Black's) or a set of one side's letters in brackets
/// (`[BN]`, `[B,N]`: counted together) — then a count (default 1), then a bound: none (exactly),
/// `+` (at least), `-` (at most); or an operator and a count (`Q>=1`, `r<=1`, `P=4`, `[BN]>1`).
/// Repeated plain letters add up (`RR` is `R2`). A signature of plain terms only is exact: the
/// pieces it does not name are absent (kings are always there); once a term has a bound or an
/// operator, only what the signature names is tested.
///
/// ```
/// use kifu_replay::chess::{Position, query::Material};
///
/// let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/3RK3 w - - 0 1", false).unwrap();
/// assert!(Material::parse("KRPk").unwrap().matches(&pos));
/// assert!(Material::parse("RP k").unwrap().matches(&pos)); // kings may be left out
/// assert!(!Material::parse("KRk").unwrap().matches(&pos)); // exact: the pawn is not named
/// assert!(Material::parse("R+ q=0").unwrap().matches(&pos));
/// assert!(!Material::parse("[BN]2+").unwrap().matches(&pos));
/// assert!(Material::parse("KR[B,N]2+").is_ok());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Material {
    terms: Vec<Term>,
}

/// The most pieces a term may count (more is no position).
const MAX_COUNT: u32 = 64;

impl Material {
    /// Reads a signature (see the type's grammar).
    ///
    /// # Errors
    ///
    /// A letter that is no piece, a set mixing the sides, a count too large, a bound below 0.
    pub fn parse(text: &str) -> Result<Material, QueryError> {
        let bytes = text.as_bytes();
        let mut i = 0;
        let mut terms: Vec<Term> = Vec::new();
        let mut plain: Vec<(usize, u8, u32)> = Vec::new();
        let mut open = false;
        let bad = |at: usize, what: &str| {
            QueryError(format!(
                "`{text}`: {what} at column {}\n  {text}\n  {}^",
                at + 1,
                " ".repeat(at)
            ))
        };
        while i < bytes.len() {
            let c = bytes[i];
            if c == b' ' || c == b',' || c == b'\t' {
                i += 1;
                continue;
            }
            // the unit
            let (color, kinds) = if c == b'[' {
                let start = i;
                i += 1;
                let mut color = None;
                let mut kinds = 0u8;
                loop {
                    let Some(&ch) = bytes.get(i) else {
                        return Err(bad(start, "a `[` without its `]`"));
                    };
                    i += 1;
                    match ch {
                        b']' => break,
                        b',' | b' ' => {}
                        _ => {
                            let Some((cl, k)) = piece_letter(ch as char) else {
                                return Err(bad(i - 1, "no piece letter (PNBRQK, pnbrqk)"));
                            };
                            if color.is_some_and(|x| x != cl) {
                                return Err(bad(i - 1, "a set of one side's pieces only"));
                            }
                            color = Some(cl);
                            kinds |= 1 << k;
                        }
                    }
                }
                let Some(color) = color else {
                    return Err(bad(start, "an empty set"));
                };
                (color, kinds)
            } else {
                let Some((cl, k)) = piece_letter(c as char) else {
                    return Err(bad(i, "no piece letter (PNBRQK, pnbrqk) or `[`"));
                };
                i += 1;
                (cl, 1u8 << k)
            };
            // an operator and a count, or a count and a bound
            let op_at = i;
            let op: Option<&str> = ["<=", ">=", "=", "<", ">"]
                .into_iter()
                .find(|o| bytes[i..].starts_with(o.as_bytes()));
            if let Some(o) = op {
                i += o.len();
            }
            let digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            let count: Option<u32> = if digits == 0 {
                None
            } else {
                let n = text[i..i + digits]
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n <= MAX_COUNT)
                    .ok_or_else(|| bad(i, "a count of at most 64"))?;
                i += digits;
                Some(n)
            };
            let (min, max) = match op {
                Some(o) => {
                    let Some(n) = count else {
                        return Err(bad(i, "a count after the operator"));
                    };
                    open = true;
                    match o {
                        "=" => (n, n),
                        ">=" => (n, MAX_COUNT),
                        "<=" => (0, n),
                        ">" => (n + 1, MAX_COUNT),
                        _ => {
                            if n == 0 {
                                return Err(bad(op_at, "no count is below 0"));
                            }
                            (0, n - 1)
                        }
                    }
                }
                None => {
                    let n = count.unwrap_or(1);
                    match bytes.get(i) {
                        Some(b'+') => {
                            i += 1;
                            open = true;
                            (n, MAX_COUNT)
                        }
                        Some(b'-') => {
                            i += 1;
                            open = true;
                            (0, n)
                        }
                        _ => {
                            match plain.iter_mut().find(|p| p.0 == color && p.1 == kinds) {
                                Some(p) => p.2 += n,
                                None => plain.push((color, kinds, n)),
                            }
                            continue;
                        }
                    }
                }
            };
            terms.push(Term {
                color,
                kinds,
                min: min as u8,
                max: max as u8,
            });
        }
        if terms.is_empty() && plain.is_empty() {
            return err("an empty material signature");
        }
        let mut named = [0u8; 2];
        for &(color, kinds, n) in &plain {
            if n > MAX_COUNT {
                return err(format!("`{text}`: more than 64 pieces of a kind"));
            }
            named[color] |= kinds;
            terms.push(Term {
                color,
                kinds,
                min: n as u8,
                max: n as u8,
            });
        }
        if !open {
            // exact: what is not named is absent (kings stay)
            for (color, &n) in named.iter().enumerate() {
                for k in 0..5 {
                    if n & (1 << k) == 0 {
                        terms.push(Term {
                            color,
                            kinds: 1 << k,
                            min: 0,
                            max: 0,
                        });
                    }
                }
            }
        }
        impossible_material(&terms).map_or(Ok(Material { terms }), |why| {
            err(format!("`{text}`: no position has this material: {why}"))
        })
    }

    /// The pieces of `kinds` of `color`.
    #[inline]
    fn bits(b: &Board, color: usize, kinds: u8) -> u64 {
        // the kinds named (usually one), not all six looked at
        let mut bits = 0u64;
        let mut rest = kinds;
        while rest != 0 {
            bits |= b.pieces(KINDS[rest.trailing_zeros() as usize % 6]).0;
            rest &= rest - 1;
        }
        bits & b.colors(Color::ALL[color]).0
    }

    /// Whether `pos` has this material.
    #[inline]
    pub fn matches(&self, pos: &Position) -> bool {
        let b = pos.board();
        self.terms.iter().all(|t| {
            // counted as far as the bounds need (popcounts avoided, as in `Need::reachable`)
            let cap = if u32::from(t.max) >= MAX_COUNT {
                t.min
            } else {
                t.max + 1
            };
            let n = capped(Material::bits(b, t.color, t.kinds), cap);
            n >= t.min && n <= t.max
        })
    }

    /// Whether a later position can still have this material: a count of pieces never grows,
    /// except by a promotion (of one of the side's pawns, into one of a set's kinds).
    #[inline]
    fn reachable(&self, b: &Board) -> bool {
        self.terms.iter().all(|t| {
            if t.min == 0 {
                return true;
            }
            let mut n = capped(Material::bits(b, t.color, t.kinds), t.min);
            if t.kinds & 1 == 0 && t.kinds & 0b11110 != 0 {
                let pawns = b.pieces(Piece::Pawn).0 & b.colors(Color::ALL[t.color]).0;
                n += capped(pawns, t.min);
            }
            n >= t.min
        })
    }
}

/// One position a query asks for: every part given must hold in the same position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// The exact position (`--fen`).
    pub exact: Option<Exact>,
    /// The piece pattern (`--subfen`).
    pub sub: Option<SubFen>,
    /// The material (`--material`).
    pub material: Option<Material>,
}

impl Step {
    /// An exact position (see [`Exact::parse`]).
    ///
    /// # Errors
    ///
    /// As [`Exact::parse`].
    pub fn fen(text: &str) -> Result<Step, QueryError> {
        Ok(Step {
            exact: Some(Exact::parse(text)?),
            ..Step::default()
        })
    }

    /// A piece pattern (see [`SubFen::parse`]).
    ///
    /// # Errors
    ///
    /// As [`SubFen::parse`].
    pub fn subfen(text: &str) -> Result<Step, QueryError> {
        Ok(Step {
            sub: Some(SubFen::parse(text)?),
            ..Step::default()
        })
    }

    /// A material signature (see [`Material::parse`]).
    ///
    /// # Errors
    ///
    /// As [`Material::parse`].
    pub fn material(text: &str) -> Result<Step, QueryError> {
        Ok(Step {
            material: Some(Material::parse(text)?),
            ..Step::default()
        })
    }

    /// A step written `fen:FEN`, `subfen:BOARD` or `material:SIG` (the sequence form's
    /// `--then`); several joined by `&`, with spaces around it or not, must all hold (an `&`
    /// inside an EPD operation's quoted string, `c0 "a & b";`, joins nothing).
    ///
    /// ```
    /// use kifu_replay::chess::query::Step;
    /// assert!(Step::parse("subfen:8/8/8/8/3N4/8/8/8 & material:Q=0 q=0").is_ok());
    /// assert_eq!(
    ///     Step::parse("subfen:8/8/8/8/3N4/8/8/8&material:Q=0 q=0").unwrap(),
    ///     Step::parse("subfen:8/8/8/8/3N4/8/8/8 & material:Q=0 q=0").unwrap()
    /// );
    /// assert!(Step::parse("8/8/8/8/3N4/8/8/8").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// A form not named, a part that cannot be read, an `&` with no part on one side.
    pub fn parse(text: &str) -> Result<Step, QueryError> {
        let mut step = Step::default();
        let mut quoted = false;
        let parts = text.split(|c: char| {
            if c == '"' {
                quoted = !quoted;
            }
            c == '&' && !quoted
        });
        for part in parts {
            let part = part.trim();
            if part.is_empty() && text.contains('&') {
                return err(format!(
                    "`{text}`: an `&` with no part on one side (fen:FEN, subfen:BOARD or \
                     material:SIG on each)"
                ));
            }
            let (form, rest) = part.split_once(':').unwrap_or(("", part));
            match form.trim() {
                "fen" | "epd" => step.exact = Some(Exact::parse(rest)?),
                "subfen" | "sub-fen" => step.sub = Some(SubFen::parse(rest)?),
                "material" => step.material = Some(Material::parse(rest)?),
                _ => {
                    return err(format!(
                        "`{part}`: a step is fen:FEN, subfen:BOARD or material:SIG"
                    ));
                }
            }
        }
        Ok(step)
    }

    /// Whether the step asks for nothing.
    pub fn is_empty(&self) -> bool {
        self.exact.is_none() && self.sub.is_none() && self.material.is_none()
    }

    /// Whether `pos` holds every part of the step.
    #[inline(always)]
    pub fn matches(&self, pos: &Position) -> bool {
        self.material.as_ref().is_none_or(|m| m.matches(pos))
            && self.sub.as_ref().is_none_or(|s| s.matches(pos))
            && self.exact.as_ref().is_none_or(|e| e.matches(pos))
    }

    /// Whether a later position of the same line can still hold the step.
    #[inline(always)]
    pub fn reachable(&self, pos: &Position) -> bool {
        let b = pos.board();
        self.exact.as_ref().is_none_or(|e| e.need.reachable(b))
            && self.sub.as_ref().is_none_or(|s| s.need.reachable(b))
            && self.material.as_ref().is_none_or(|m| m.reachable(b))
    }
}

/// A query: one step, or a sequence of steps each within its own bound of plies of the one
/// before ([`within`](Query::within), [`within_each`](Query::within_each)), in a ply range, on
/// the main line or in variations too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    steps: Vec<Step>,
    /// Per step, the most plies from the position of the step before it to its own (`None`:
    /// any); the first step's is `None`.
    within: [Option<u32>; MAX_STEPS],
    /// The fewest plies played before a position matched (0: the start may match).
    pub min_ply: u32,
    /// The most plies played before a position matched.
    pub max_ply: u32,
    /// Search the variations too (default: the main line only).
    pub variations: bool,
    /// Whether a step is an exact position, the one part that reads the position's key.
    keyed: bool,
    /// What a move must change for the query's one step to match after a position that did
    /// not ([`LineSearch`]).
    unchanged: Unchanged,
    /// Per colour and kind (a1 = bit 0), the squares the first step's pattern needs a piece of
    /// that kind on ([`LineSearch`] plays no move before a move has brought each of them
    /// there, unless it stood there at the start); none for an exact position or a pattern
    /// with a pawn on its starting square (see [`Query::new`]).
    arrivals: [[u64; 6]; 2],
}

/// When a position cannot match a one-step query because the position before it did not and
/// the move between changed nothing the step looks at ([`LineSearch::play`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unchanged {
    /// Always tested: an exact position, a pattern, a step of several parts, a sequence. (A
    /// pattern without a side to move could be skipped unless a piece lands on one of its
    /// squares or leaves one of its empty squares: measured, it did not pay, its test being a
    /// few ANDs.)
    Never,
    /// A material signature alone: only a capture or a promotion changes the counts, and a
    /// move that zeroes no halfmove clock (no capture, no pawn move) is neither.
    Material,
}

impl Unchanged {
    fn of(steps: &[Step]) -> Unchanged {
        match steps {
            [
                Step {
                    exact: None,
                    sub: None,
                    material: Some(_),
                },
            ] => Unchanged::Material,
            _ => Unchanged::Never,
        }
    }
}

/// The most steps of a sequence.
pub const MAX_STEPS: usize = 16;

impl Query {
    /// A query of `steps` (one: a position; more: a sequence), on the main line, any ply. Empty
    /// steps are dropped; no step at all matches every position. At most [`MAX_STEPS`] steps
    /// are kept.
    pub fn new(steps: Vec<Step>) -> Query {
        let mut steps: Vec<Step> = steps.into_iter().filter(|s| !s.is_empty()).collect();
        if steps.is_empty() {
            steps.push(Step::default());
        }
        steps.truncate(MAX_STEPS);
        // Waiting for the pieces pays where the replay's own early end (`Need`) comes late: a
        // pattern of pieces. An exact position, or a pattern with a pawn on its starting
        // square, usually ends a game's replay within its first moves (the first other pawn
        // move, the pawn's own), where the waiting would read the game to its end.
        let mut arrivals = [[0; 6]; 2];
        if let Step {
            exact: None,
            sub: Some(sub),
            ..
        } = &steps[0]
            && sub.need.home == [0; 2]
        {
            arrivals = sub.masks;
        }
        Query {
            keyed: steps.iter().any(|s| s.exact.is_some()),
            unchanged: Unchanged::of(&steps),
            arrivals,
            steps,
            within: [None; MAX_STEPS],
            min_ply: 0,
            max_ply: u32::MAX,
            variations: false,
        }
    }

    /// The same, each step within `n` plies of the one before (`None`: any later ply).
    pub fn within(mut self, n: Option<u32>) -> Query {
        self.within = [n; MAX_STEPS];
        self.within[0] = None;
        self
    }

    /// The same, each step after the first within its own bound of plies of the one before:
    /// `bounds[i]` for step `i + 1` (`None`, or no bound given: any later ply).
    ///
    /// ```
    /// use kifu_replay::chess::query::{Query, Step};
    /// // a knight on c6, then a bishop on b5 within 2 plies, then castled short, any time later
    /// let q = Query::new(vec![
    ///     Step::subfen("8/8/2n5/8/8/8/8/8").unwrap(),
    ///     Step::subfen("8/8/8/1B6/8/8/8/8").unwrap(),
    ///     Step::subfen("8/8/8/8/8/8/8/5RK1").unwrap(),
    /// ])
    /// .within_each(&[Some(2), None]);
    /// assert_eq!((q.within_of(1), q.within_of(2)), (Some(2), None));
    /// ```
    pub fn within_each(mut self, bounds: &[Option<u32>]) -> Query {
        self.within = [None; MAX_STEPS];
        for (w, &b) in self.within[1..].iter_mut().zip(bounds) {
            *w = b;
        }
        self
    }

    /// The most plies from the position of the step before step `i` to step `i`'s (`None`:
    /// any later ply; always `None` for the first step).
    pub fn within_of(&self, i: usize) -> Option<u32> {
        self.within.get(i).copied().flatten()
    }

    /// The steps.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The exact position when the query is one exact position and nothing else.
    pub fn exact(&self) -> Option<&Exact> {
        match &self.steps[..] {
            [s] if s.sub.is_none() && s.material.is_none() => s.exact.as_ref(),
            _ => None,
        }
    }
}

/// A position where a query matched.
#[derive(Clone, Copy, Debug)]
pub struct Hit<'a, 'g> {
    /// Plies played from the game's start to the position (0: the start).
    pub ply: u32,
    /// The line's depth: 0 on the main line, 1 in a variation of it, …
    pub depth: u32,
    /// The position (after the last step of a sequence).
    pub position: &'a Position,
    /// The move the line plays next from it, if any (its variations are the alternatives).
    pub next: Option<&'g Node>,
}

#[derive(Clone, Copy, Debug)]
struct Frame<'g> {
    line: &'g [Node],
    next: usize,
    var: usize,
    base: u32,
    dead: bool,
}

/// Walks games for a [`Query`]; reuse it from game to game (its buffers are kept).
#[derive(Default)]
pub struct Searcher {
    engine: Engine,
    setup: Setup,
    /// Per frame and step: the latest ply at which the sequence reached that step on the
    /// line (`NONE`: not yet), after the line's last move, then before it.
    chain: Vec<u32>,
    chain_prev: Vec<u32>,
    /// Positions replayed, over the searcher's life.
    pub positions: u64,
}

const NONE: u32 = u32::MAX;

impl fmt::Debug for Searcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Searcher")
            .field("positions", &self.positions)
            .finish_non_exhaustive()
    }
}

impl Searcher {
    /// Whether `query` matches somewhere in `game` (stops at the first match).
    pub fn matches(&mut self, game: &Game, query: &Query) -> bool {
        let mut found = false;
        self.search(game, query, |_| {
            found = true;
            false
        });
        found
    }

    /// Calls `hit` at each position of `game` where `query` matches, in the order of the
    /// moves (a variation's after the move it replaces), until `hit` returns `false`. Returns
    /// whether the game could be replayed (a bad `FEN` or an unsupported variant: no).
    pub fn search<'g>(
        &mut self,
        game: &'g Game,
        query: &Query,
        mut hit: impl FnMut(&Hit<'_, 'g>) -> bool,
    ) -> bool {
        self.setup.clear();
        for (name, value) in &game.tags {
            let n = name.as_bytes();
            if n == b"FEN" || n == b"Variant" {
                self.setup.tag(n, value, kifu::Position::default());
            }
        }
        let Ok(start) = self.setup.start() else {
            return false;
        };
        let k = query.steps.len();
        self.engine.keep_prev = query.variations;
        self.engine.start_game(Some(start));
        self.chain.clear();
        self.chain.resize(k, NONE);
        self.chain_prev.clear();
        self.chain_prev.resize(k, NONE);
        let mut stack = vec![Frame {
            line: &game.moves,
            next: 0,
            var: usize::MAX,
            base: 0,
            dead: false,
        }];
        // the start
        {
            let Some(pos) = self.engine.start() else {
                return false;
            };
            self.positions += 1;
            if advance(query, &mut self.chain[..k], pos, 0)
                && !hit(&Hit {
                    ply: 0,
                    depth: 0,
                    position: pos,
                    next: game.moves.first(),
                })
            {
                return true;
            }
            if !alive(query, &self.chain[..k], pos, 0) {
                return true;
            }
        }
        while !stack.is_empty() {
            let f = stack.len() - 1;
            let top = &mut stack[f];
            if top.var != usize::MAX {
                let node = &top.line[top.next - 1];
                if query.variations && top.var < node.variations.len() {
                    let v = &node.variations[top.var];
                    top.var += 1;
                    let base = top.base + top.next as u32 - 1;
                    self.engine.enter_variation();
                    // the variation starts where its parent line was before its last move
                    let need = (f + 2) * k;
                    if self.chain.len() < need {
                        self.chain.resize(need, NONE);
                        self.chain_prev.resize(need, NONE);
                    }
                    let (parent, child) = self.chain_prev.split_at_mut((f + 1) * k);
                    child[..k].copy_from_slice(&parent[f * k..]);
                    self.chain[(f + 1) * k..(f + 2) * k].copy_from_slice(&parent[f * k..]);
                    stack.push(Frame {
                        line: &v.moves,
                        next: 0,
                        var: usize::MAX,
                        base,
                        dead: false,
                    });
                    continue;
                }
                top.var = usize::MAX;
            }
            if !top.dead && top.next < top.line.len() {
                let node = &top.line[top.next];
                top.next += 1;
                top.var = 0;
                let ply = top.base + top.next as u32;
                let next = top.line.get(top.next);
                let chain = &mut self.chain[f * k..(f + 1) * k];
                if query.variations {
                    self.chain_prev[f * k..(f + 1) * k].copy_from_slice(chain);
                }
                match self.engine.play(node.san) {
                    Played::Played { after, .. } => {
                        self.positions += 1;
                        if advance(query, chain, after, ply)
                            && !hit(&Hit {
                                ply,
                                depth: f as u32,
                                position: after,
                                next,
                            })
                        {
                            return true;
                        }
                        if !alive(query, chain, after, ply) {
                            top.dead = true;
                        }
                    }
                    Played::Failed(_) | Played::Skipped(_) => top.dead = true,
                }
                if !query.variations && top.dead {
                    return true;
                }
                continue;
            }
            stack.pop();
            if !stack.is_empty() {
                self.engine.exit_variation();
            }
        }
        true
    }
}

/// What one more position of a [`LineSearch`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not yet: go on with the next move.
    Continue,
    /// The query matched here.
    Matched,
    /// It cannot match any more on this line (or the game cannot be replayed): skip the rest.
    Over,
}

/// The search of one game's main line fed event by event (tags, then moves), for a visitor on
/// the parser's events that builds no game: the same answers as [`Searcher`] on the main line
/// (the same rules and early exit, a pattern's moves held back until its pieces can be there:
/// [`play`](Self::play)). Reuse it from game to game.
///
/// ```
/// use kifu_replay::chess::query::{LineSearch, Query, Step, Verdict};
/// let q = Query::new(vec![Step::subfen("8/8/8/8/4P3/8/8/8").unwrap()]);
/// let mut s = LineSearch::default();
/// s.begin();
/// assert_eq!(s.start(&q), Verdict::Continue);
/// assert_eq!(s.play(&q, kifu::pgn::San::parse(b"e4").unwrap()), Verdict::Matched);
/// ```
#[derive(Default)]
pub struct LineSearch {
    /// The position after the last move played (the main line only: no position before it is
    /// kept, no line hash, no UCI: what a [`Searcher`]'s engine keeps for variations and
    /// replay).
    pos: Position,
    /// A move could not be played, or the game not replayed: nothing more is.
    over: bool,
    setup: Setup,
    chain: Vec<u32>,
    /// The moves played.
    ply: u32,
    /// The last position was tested (its ply in the query's range) and did not match.
    missed: bool,
    /// The moves not played yet, after `ply` (see [`Waiting`]).
    waiting: Waiting,
    /// Positions replayed, over the search's life.
    pub positions: u64,
}

/// The moves a [`LineSearch`] holds back while a piece its query's first step needs somewhere
/// has not been brought there by any move: a piece that stands on a square either stood there
/// at the start or came there with a move (its target square, the piece after a promotion, the
/// king's and the rook's squares of a castling), so no position before such a move can match,
/// and a game without one is never replayed. Most games of an archive lack one of a pattern's
/// pieces (a bishop that never goes to b5): their replay, most of a search's time, is saved.
/// The moves are read as written (their target and piece: no board); one whose piece is not
/// written (a long-algebraic `f1b5`, a drop) ends the wait.
#[derive(Default)]
struct Waiting {
    /// Whether moves are held back.
    on: bool,
    /// Per colour and kind, the squares still waiting for a piece.
    pending: [[u64; 6]; 2],
    /// How many squares of `pending` are left.
    left: u32,
    /// The colour (0 White) of the next move held back.
    mover: usize,
    /// The moves held back, in order.
    moves: Vec<kifu::pgn::San>,
}

/// The most moves a [`LineSearch`] holds back (16 KB): past them, it plays them all and goes
/// on move by move (the same answers; a bound on its memory for a game of any length).
const MAX_WAITING: usize = 4096;

impl Waiting {
    /// Starts waiting for the pieces of `arrivals` that `start` lacks (none: no wait).
    fn start(&mut self, arrivals: &[[u64; 6]; 2], start: &Board) {
        let have = masks_of(start);
        self.left = 0;
        for c in 0..2 {
            for k in 0..6 {
                self.pending[c][k] = arrivals[c][k] & !have[c][k];
                self.left += self.pending[c][k].count_ones();
            }
        }
        self.mover = usize::from(start.side_to_move() == Color::Black);
        self.moves.clear();
        self.on = self.left != 0;
    }

    /// Takes `san`, the next move, into account; whether a piece is still waited for after
    /// it (the move then held back).
    #[inline]
    fn hold(&mut self, san: kifu::pgn::San) -> bool {
        use super::resolve::{piece_of, square};
        use kifu::pgn::{CastlingSide, Piece as P, SanKind};
        let c = self.mover;
        self.mover ^= 1;
        match san.kind() {
            SanKind::Normal => {
                let Some(to) = san.to() else {
                    return false;
                };
                if san.piece() == P::Pawn && san.from_file().is_some() && san.from_rank().is_some()
                {
                    // whatever piece stands on the square written (a castling too): unknown
                    return false;
                }
                // (cozy-chess's pieces in the order of `KINDS`)
                let kind = piece_of(san.promotion().unwrap_or(san.piece())) as usize;
                self.arrive(c, kind, square(to).bitboard().0);
            }
            SanKind::Castle(side) => {
                let rank = Rank::First.relative_to(Color::ALL[c]);
                let (king, rook) = match side {
                    CastlingSide::KingSide => (File::G, File::F),
                    CastlingSide::QueenSide => (File::C, File::D),
                };
                self.arrive(c, 5, Square::new(king, rank).bitboard().0);
                self.arrive(c, 3, Square::new(rook, rank).bitboard().0);
            }
            SanKind::Null => {}
            SanKind::Drop => return false,
        }
        if self.left == 0 || self.moves.len() >= MAX_WAITING {
            return false;
        }
        self.moves.push(san);
        true
    }

    /// A piece of colour `c` and kind `kind` comes to the square `bit`.
    #[inline]
    fn arrive(&mut self, c: usize, kind: usize, bit: u64) {
        let p = &mut self.pending[c][kind];
        if *p & bit != 0 {
            *p &= !bit;
            self.left -= 1;
        }
    }
}

impl fmt::Debug for LineSearch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LineSearch")
            .field("ply", &self.ply)
            .field("waiting", &self.waiting.moves.len())
            .field("positions", &self.positions)
            .finish_non_exhaustive()
    }
}

impl LineSearch {
    /// A game begins: its tags come next.
    pub fn begin(&mut self) {
        self.setup.clear();
        self.waiting.on = false;
    }

    /// A tag of the game (`FEN` and `Variant` matter).
    pub fn tag(&mut self, name: &[u8], value: &str) {
        if name == b"FEN" || name == b"Variant" {
            self.setup.tag(name, value, kifu::Position::default());
        }
    }

    /// The tags are over: the start position, tested.
    pub fn start(&mut self, query: &Query) -> Verdict {
        self.waiting.on = false;
        let Ok(start) = self.setup.start() else {
            self.over = true;
            return Verdict::Over;
        };
        self.pos = start;
        self.over = false;
        self.chain.clear();
        self.chain.resize(query.steps.len(), NONE);
        self.ply = 0;
        self.positions += 1;
        self.missed = false;
        let v = self.verdict(query, false);
        if v == Verdict::Continue {
            self.waiting.start(&query.arrivals, self.pos.board());
        }
        v
    }

    /// The next main-line move, played and tested; for a pattern, held back while no
    /// position can match yet (until some move has brought each of its pieces to its square,
    /// read from the SAN: no move is played for a game that never does; the answers are the
    /// same).
    #[inline(always)]
    pub fn play(&mut self, query: &Query, san: kifu::pgn::San) -> Verdict {
        if !self.waiting.on {
            return self.step(query, san);
        }
        if self.waiting.hold(san) {
            // no position before the pieces are there matches: past the last ply looked at,
            // none will
            let ply = self.ply as usize + self.waiting.moves.len();
            return if ply >= query.max_ply as usize {
                // over, as a move played past the range ends the line
                self.waiting.on = false;
                self.waiting.moves.clear();
                self.over = true;
                Verdict::Over
            } else {
                Verdict::Continue
            };
        }
        // the last piece waited for came (or too many moves were held back): the moves
        // held back played, then this one
        self.waiting.on = false;
        let mut moves = core::mem::take(&mut self.waiting.moves);
        let mut v = Verdict::Continue;
        for &m in &moves {
            v = self.step(query, m);
            if v != Verdict::Continue {
                break;
            }
        }
        moves.clear();
        self.waiting.moves = moves;
        if v == Verdict::Continue {
            v = self.step(query, san);
        }
        v
    }

    /// The next main-line move, played and tested.
    fn step(&mut self, query: &Query, san: kifu::pgn::San) -> Verdict {
        self.ply += 1;
        if self.over {
            return Verdict::Over;
        }
        // as the engine plays it (lines.rs): a null move is illegal in check
        let unchanged = match self.pos.find(san) {
            // the key only for a query that looks at it (an exact position): without, `pos`'s
            // key is stale past the start (`Position::play_piece_as`), and nothing reads it
            Ok((Resolved::Move(mv), piece)) if query.keyed => {
                self.pos.play_piece(mv, piece);
                false
            }
            Ok((Resolved::Move(mv), piece)) => {
                self.pos.play_piece_as::<false>(mv, piece);
                query.unchanged == Unchanged::Material && self.pos.halfmove_clock() != 0
            }
            Ok((Resolved::Null, _)) if !self.pos.is_check() => {
                self.pos.play_null();
                query.unchanged != Unchanged::Never
            }
            _ => {
                self.over = true;
                return Verdict::Over;
            }
        };
        self.positions += 1;
        // a position the move left as the one before it, which was tested and did not match
        self.verdict(query, unchanged && self.missed)
    }

    /// `verdict` of the position after the last move; `miss`: it cannot match (the move
    /// changed nothing the query's one step looks at since a miss).
    #[inline]
    fn verdict(&mut self, query: &Query, miss: bool) -> Verdict {
        let ply = self.ply;
        let v = verdict(query, &mut self.chain, &self.pos, ply, miss);
        self.missed = v != Verdict::Matched && ply >= query.min_ply && ply <= query.max_ply;
        v
    }
}

/// `miss`: the position certainly does not match the query's one step (see [`Unchanged`]).
#[inline]
fn verdict(query: &Query, chain: &mut [u32], pos: &Position, ply: u32, miss: bool) -> Verdict {
    // one step (the usual query): `advance` and `alive` without a sequence to follow
    if let [step] = &query.steps[..] {
        if ply >= query.min_ply && ply <= query.max_ply && !miss && step.matches(pos) {
            chain[0] = ply;
            return Verdict::Matched;
        }
        return if ply >= query.max_ply {
            Verdict::Over
        } else if (ply > 0 && pos.halfmove_clock() != 0 && step.exact.is_none())
            || step.reachable(pos)
        {
            // (see `alive` for the halfmove clock)
            Verdict::Continue
        } else {
            Verdict::Over
        };
    }
    if advance(query, chain, pos, ply) {
        Verdict::Matched
    } else if alive(query, chain, pos, ply) {
        Verdict::Continue
    } else {
        Verdict::Over
    }
}

/// Takes the position at `ply` into the line's sequence state; whether the whole sequence
/// ends here.
#[inline]
fn advance(query: &Query, chain: &mut [u32], pos: &Position, ply: u32) -> bool {
    if ply < query.min_ply || ply > query.max_ply {
        return false;
    }
    let k = chain.len();
    // the last step first, so that one position is never two steps
    for i in (1..k).rev() {
        let before = chain[i - 1];
        if before != NONE
            && query.within[i].is_none_or(|w| ply - before <= w)
            && query.steps[i].matches(pos)
        {
            chain[i] = ply;
        }
    }
    if query.steps[0].matches(pos) {
        chain[0] = ply;
    }
    chain[k - 1] == ply
}

/// Whether a later position of the line can still end the sequence.
#[inline]
fn alive(query: &Query, chain: &[u32], pos: &Position, ply: u32) -> bool {
    if ply >= query.max_ply {
        return false;
    }
    // a move that took nothing and moved no pawn (the halfmove clock goes on) changes no count
    // of pieces, no pawn, no bishop's colour: one step that keeps no castling right (no exact
    // position) is as reachable as in the position before, which was (or the line would have
    // ended there)
    if ply > 0
        && pos.halfmove_clock() != 0
        && query.steps.len() == 1
        && query.steps[0].exact.is_none()
    {
        return true;
    }
    if query.steps[0].reachable(pos) {
        return true;
    }
    (1..chain.len()).any(|i| {
        let before = chain[i - 1];
        before != NONE
            && query.within[i].is_none_or(|w| ply - before < w)
            && query.steps[i].reachable(pos)
    })
}

/// The key two positions share exactly when they are the same position for a query: the
/// Polyglot key with the en passant file counted only when an en passant capture is legal
/// (python-chess's transposition key; the same EPD).
///
/// ```
/// use kifu_replay::chess::{Position, query::transposition_key};
/// let a = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", false).unwrap();
/// let b = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 4 9", false).unwrap();
/// assert_eq!(transposition_key(&a), transposition_key(&b));
/// ```
pub fn transposition_key(pos: &Position) -> u64 {
    pos.epd_key()
}

/// The SAN of `mv` in `pos` (`Nbd7`, `exd5`, `O-O`, `e8=Q+`, `Qh7#`), as python-chess writes
/// it; `mv` must be legal (castling as king-takes-rook).
///
/// ```
/// use kifu_replay::chess::{Position, query::san};
/// let pos = Position::startpos();
/// assert_eq!(san(&pos, pos.parse_uci("g1f3").unwrap()), "Nf3");
/// ```
pub fn san(pos: &Position, mv: Move) -> String {
    let b = pos.board();
    let mut s = String::with_capacity(8);
    let Some(piece) = b.piece_on(mv.from) else {
        return pos.uci(mv).to_string();
    };
    let us = b.side_to_move();
    if piece == Piece::King && b.colors(us).has(mv.to) {
        s.push_str(if mv.to.file() > mv.from.file() {
            "O-O"
        } else {
            "O-O-O"
        });
    } else {
        let capture =
            b.colors(!us).has(mv.to) || (piece == Piece::Pawn && mv.from.file() != mv.to.file());
        if piece == Piece::Pawn {
            if capture {
                s.push(file_char(mv.from));
            }
        } else {
            s.push(piece_char(piece));
            // the other pieces of the kind that can go there
            let mut others = BitBoard::EMPTY;
            b.generate_moves_for(b.colored_pieces(us, piece), |ms| {
                if ms.from != mv.from && ms.to.has(mv.to) {
                    others |= ms.from.bitboard();
                }
                false
            });
            if !others.is_empty() {
                let same_file = others.into_iter().any(|sq| sq.file() == mv.from.file());
                let same_rank = others.into_iter().any(|sq| sq.rank() == mv.from.rank());
                if !same_file {
                    s.push(file_char(mv.from));
                } else if !same_rank {
                    s.push(rank_char(mv.from));
                } else {
                    s.push(file_char(mv.from));
                    s.push(rank_char(mv.from));
                }
            }
        }
        if capture {
            s.push('x');
        }
        s.push(file_char(mv.to));
        s.push(rank_char(mv.to));
        if let Some(p) = mv.promotion {
            s.push('=');
            s.push(piece_char(p));
        }
    }
    let mut after = pos.clone();
    after.play(mv);
    if after.is_checkmate() {
        s.push('#');
    } else if after.is_check() {
        s.push('+');
    }
    s
}

fn file_char(sq: Square) -> char {
    char::from(b'a' + sq.file() as u8)
}

fn rank_char(sq: Square) -> char {
    char::from(b'1' + sq.rank() as u8)
}

fn piece_char(p: Piece) -> char {
    match p {
        Piece::Pawn => 'P',
        Piece::Knight => 'N',
        Piece::Bishop => 'B',
        Piece::Rook => 'R',
        Piece::Queen => 'Q',
        Piece::King => 'K',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> Game {
        kifu::pgn::Games::new(text.as_bytes()).next().unwrap()
    }

    fn plies(g: &Game, q: &Query) -> Vec<(u32, u32)> {
        let mut s = Searcher::default();
        let mut out = Vec::new();
        s.search(g, q, |h| {
            out.push((h.ply, h.depth));
            true
        });
        out
    }

    const RUY: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *";

    #[test]
    fn exact_positions_and_transpositions() {
        let g = game(RUY);
        let after_nf3 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
        assert_eq!(
            plies(&g, &Query::new(vec![Step::fen(after_nf3).unwrap()])),
            [(3, 0)]
        );
        let t = game("1. Nf3 Nc6 2. e4 e5 *");
        let after = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        let q = Query::new(vec![Step::fen(after).unwrap()]);
        assert_eq!(plies(&t, &q), [(4, 0)]);
        assert_eq!(plies(&g, &q), [(4, 0)]);
        // the start matches at ply 0
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(
            plies(&g, &Query::new(vec![Step::fen(start).unwrap()])),
            [(0, 0)]
        );
        // castling rights differ: not the same position
        let no_castle = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b - - 1 2";
        assert!(plies(&g, &Query::new(vec![Step::fen(no_castle).unwrap()])).is_empty());
    }

    #[test]
    fn the_replay_stops_when_the_position_cannot_come() {
        // a position with White's e-pawn at home: once e4 is played, nothing more is replayed
        let g = game(RUY);
        let q = Query::new(vec![
            Step::fen("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1").unwrap(),
        ]);
        let mut s = Searcher::default();
        assert!(!s.matches(&g, &q));
        assert_eq!(s.positions, 2, "the start and 1. e4");
        // castling rights lost
        let mut s = Searcher::default();
        let q = Query::new(vec![Step::fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap()]);
        assert!(!s.matches(&g, &q));
        assert_eq!(s.positions, 10, "stopped at O-O");
        // material: White's eight pawns, until one is taken
        let g = game("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qxd2+ 4. Qxd2 *");
        let mut s = Searcher::default();
        assert!(!s.matches(&g, &Query::new(vec![Step::material("Q q").unwrap()])));
        let mut s = Searcher::default();
        let q = Query::new(vec![Step::material("P8+").unwrap()]);
        let mut seen = Vec::new();
        s.search(&g, &q, |h| {
            seen.push(h.ply);
            true
        });
        assert_eq!(seen, [0, 1, 2, 3]);
        assert_eq!(s.positions, 5, "stopped at Qxd5");
    }

    /// The positions replayed and the plies matched of `q` on `g`, every match listed.
    fn replayed(g: &Game, q: &Query) -> (u64, Vec<u32>) {
        let mut s = Searcher::default();
        let mut seen = Vec::new();
        s.search(g, q, |h| {
            seen.push(h.ply);
            true
        });
        (s.positions, seen)
    }

    #[test]
    fn a_pawn_needed_somewhere_it_can_no_longer_get_to_ends_the_line() {
        // a white pawn on d3: the pawns of c2, d2 and e2 could get there; once all three went
        // past it, the line ends (eight pawns are still there: the count alone goes on)
        let q = Query::new(vec![Step::subfen("8/8/8/8/8/3P4/8/8").unwrap()]);
        let g = game("1. e4 e5 2. d4 d5 3. c4 c5 4. Nc3 Nc6 *");
        assert_eq!(replayed(&g, &q), (6, vec![]), "stopped at 3. c4");
        // a pawn changes its file as it takes: White's d-pawn gone from the d-file, the
        // e-pawn takes on d5 (a rule of "the pawn of the file" would have stopped at 2. dxe5)
        let q = Query::new(vec![Step::subfen("8/8/8/3P4/8/8/8/8").unwrap()]);
        let g = game("1. d4 e5 2. dxe5 d5 3. e4 Nf6 4. exd5 Nxd5 *");
        assert_eq!(
            replayed(&g, &q),
            (9, vec![7]),
            "4. exd5 (the c-pawn could still come)"
        );
        // en passant: the e-pawn gets to d6 by taking a pawn that is not on d6
        let q = Query::new(vec![Step::subfen("8/8/3P4/8/8/8/8/8").unwrap()]);
        let g = game("1. e4 a6 2. e5 d5 3. exd6 Nf6 *");
        assert_eq!(replayed(&g, &q), (7, vec![5, 6]));
        // Black's pawns go down the board: a black pawn on d6 from 1... d6 to 3... dxe5;
        // then the c-pawn could still come, until 4... c5
        let q = Query::new(vec![Step::subfen("8/8/3p4/8/8/8/8/8").unwrap()]);
        let g = game("1. e4 d6 2. d4 e5 3. dxe5 dxe5 4. Nf3 c5 5. Nc3 Nc6 *");
        assert_eq!(
            replayed(&g, &q),
            (9, vec![2, 3, 4, 5]),
            "stopped at 4... c5"
        );
        // a pawn on its last rank is no position: nothing is replayed past the start
        let q = Query::new(vec![Step::subfen("P7/8/8/8/8/8/8/8").unwrap()]);
        assert_eq!(replayed(&g, &q), (1, vec![]));
    }

    #[test]
    fn a_bishop_keeps_the_colour_of_its_squares_but_a_promotion_makes_either() {
        // a white bishop on b5 (a light square); White has a dark-squared bishop and a pawn
        let q = Query::new(vec![Step::subfen("8/8/8/1B6/8/8/8/8").unwrap()]);
        let start = "[FEN \"r3k3/1P6/8/8/8/8/8/4K1B1 w - - 0 1\"]\n\n";
        // the pawn becomes a bishop on b8, a dark square: no light-squared bishop can come
        let g = game(&format!("{start}1. b8=B Kd7 2. Ba7 Kc6 *"));
        assert_eq!(replayed(&g, &q), (2, vec![]), "stopped at 1. b8=B");
        // it becomes one on a8, a light square, and gets to b5 (before, the light-squared
        // bishop White does not have was counted as the pawn's promotion)
        let g = game(&format!("{start}1. bxa8=B Kd8 2. Bc6 Kc7 3. Bb5 Kd6 *"));
        assert_eq!(replayed(&g, &q), (7, vec![5, 6]));
    }

    #[test]
    fn castling_moves_the_king_and_the_rook_at_once() {
        // a pattern of both: met by castling, which neither a king move nor a rook move makes
        let q = Query::new(vec![Step::subfen("8/8/8/8/8/8/8/5RK1 b").unwrap()]);
        assert_eq!(replayed(&game(RUY), &q), (11, vec![9]));
        // long castling, Black: a king on c8 and a rook on d8, and Black may no longer castle
        // (an exact position would need its right kept: the other side's is kept here)
        let g = game("1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. e3 O-O-O 6. Bd3 *");
        let q = Query::new(vec![Step::subfen("2kr4/8/8/8/8/8/8/8 w").unwrap()]);
        assert_eq!(replayed(&g, &q).1, [10]);
        let q = Query::new(vec![
            Step::fen("2kr1bnr/pppqpppp/2n5/3p1b2/3P1B2/2N1P3/PPPQ1PPP/R3KBNR w KQ - 1 6").unwrap(),
        ]);
        assert_eq!(replayed(&g, &q), (12, vec![10]));
        // White's rights, needed by the exact position, go with 6. O-O-O
        let g = game("1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O e6 6. e3 *");
        assert_eq!(replayed(&g, &q), (10, vec![]), "stopped at 5. O-O-O");
    }

    #[test]
    fn sub_fen_and_material() {
        let g = game(RUY);
        // a white bishop on a4 and a black pawn on a6
        let q = Query::new(vec![Step::subfen("8/8/p7/8/B7/8/8/8").unwrap()]);
        assert_eq!(plies(&g, &q), [(7, 0), (8, 0), (9, 0), (10, 0)]);
        let q = Query::new(vec![Step::subfen("8/8/p7/8/B7/8/8/8 w").unwrap()]);
        assert_eq!(plies(&g, &q), [(8, 0), (10, 0)]);
        // `_`: a square that must be empty. b5 is, once the bishop went back to a4
        let q = Query::new(vec![Step::subfen("8/8/p7/1_6/B7/8/8/8").unwrap()]);
        assert_eq!(plies(&g, &q), [(7, 0), (8, 0), (9, 0), (10, 0)]);
        // e4 holds White's pawn from ply 1 on
        let q = Query::new(vec![Step::subfen("8/8/p7/8/B3_3/8/8/8").unwrap()]);
        assert_eq!(plies(&g, &q), []);
        // f6 until 4... Nf6 (ply 8)
        let q = Query::new(vec![Step::subfen("8/8/p4_2/8/B7/8/8/8").unwrap()]);
        assert_eq!(plies(&g, &q), [(7, 0)]);
        // empty squares alone: e4 and e5, only the start
        let q = Query::new(vec![Step::subfen("8/8/8/4_3/4_3/8/8/8").unwrap()]);
        assert_eq!(plies(&g, &q), [(0, 0)]);
        assert!(SubFen::parse("8/8/8/8/8/8/8/8_").is_err());
        assert!(SubFen::parse("8/8/8/8/8/8/8/______").is_err());
        assert!(SubFen::parse("8/8/8").is_err());
        assert!(SubFen::parse("8/8/8/8/8/8/8/9").is_err());
        assert!(SubFen::parse("8/8/8/8/8/8/8/7X").is_err());
        assert!(SubFen::parse("8/8/8/8/8/8/8/8 w KQkq - 0 1").is_err());
        let m = |s: &str| Material::parse(s).unwrap();
        let start = Position::startpos();
        assert!(m("KQRRBBNNPPPPPPPPkqrrbbnnpppppppp").matches(&start));
        assert!(m("KQR2B2N2P8 kqr2b2n2p8").matches(&start));
        assert!(m("[BN]=4").matches(&start));
        assert!(!m("[BN]4").matches(&start), "exact: nothing else");
        assert!(m("[B,N]2+ P>=8 q<=1").matches(&start));
        assert!(!m("[BN]5+").matches(&start));
        assert!(!m("Q2+").matches(&start));
        assert!(m("Q2-").matches(&start));
        assert!(m("q<2 r>1 p=8").matches(&start));
        for bad in ["", "X", "[Bn]", "[B", "Q>=", "Q<0", "Q99", "[]"] {
            assert!(Material::parse(bad).is_err(), "{bad}");
        }
        let e = Material::parse("KRx").unwrap_err().to_string();
        assert!(e.ends_with("\n    ^"), "{e}");
    }

    /// A FEN's castling rights the position cannot have are dropped, as python-chess's
    /// `Board(fen)` drops them (`KQkq` after both sides castled is `-`, not a Chess960
    /// position); an en passant square no double step can have left and fields after the move
    /// counters are refused; EPD operations are not.
    #[test]
    fn fen_queries_read_as_python_chess_reads_them() {
        let castled = "r1bq1rk1/5pb1/1p1p2p1/1N1np2p/1p2P2P/5P2/PP1QN1P1/1K1R1B1R w";
        let none = Exact::parse(&format!("{castled} - -")).unwrap();
        for rights in ["KQkq", "Kq", "kq", "K"] {
            let q = Exact::parse(&format!("{castled} {rights} - 0 1")).unwrap();
            assert_eq!(q, none, "{rights}");
            assert!(!q.position().chess960(), "{rights}");
        }
        // a right the position can have stays: not the position without it
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w";
        let kq = Exact::parse(&format!("{start} KQkq -")).unwrap();
        assert_ne!(kq, Exact::parse(&format!("{start} Qkq -")).unwrap());
        assert_eq!(kq, Exact::parse(&format!("{start} KQkq - bm e4;")).unwrap());
        // en passant: after 1. e4 e3 is possible (no capture: the same position as `-`)
        let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq";
        assert_eq!(
            Exact::parse(&format!("{e4} e3 0 1")).unwrap(),
            Exact::parse(&format!("{e4} -")).unwrap()
        );
        for (ep, why) in [
            ("d3", "no white pawn stands on d4"),
            ("e6", "not on the third rank"),
            ("a3", "no white pawn stands on a4"),
        ] {
            let e = Exact::parse(&format!("{e4} {ep}")).unwrap_err().to_string();
            assert!(e.contains("impossible") && e.contains(why), "{ep}: {e}");
        }
        let blocked = "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/R1BQKBNR b KQkq e3";
        assert!(
            Exact::parse(blocked)
                .unwrap_err()
                .to_string()
                .contains("not both empty")
        );
        // after the four fields: counters, or EPD operations
        assert!(Exact::parse(&format!("{e4} - 0 1")).is_ok());
        assert!(Exact::parse(&format!("{e4} - 0")).is_ok());
        assert!(Exact::parse(&format!("{e4} - bm e5; id \"x\";")).is_ok());
        for junk in ["0 1 extra", "0 1 2", "#", "0 x"] {
            let e = Exact::parse(&format!("{e4} - {junk}"))
                .unwrap_err()
                .to_string();
            assert!(e.contains("after the"), "{junk}: {e}");
        }
    }

    #[test]
    fn odd_queries_are_refused_not_panicked_on() {
        for t in [
            "",
            "é",
            "[",
            "[]",
            "[é]",
            "Q>=99999999999",
            "Q>",
            "Q=",
            "Qé",
            "q<0",
            "\u{0}",
            "[B,N",
            "[BN]>=",
            "P65",
            "Q+ Q=0",
            "K2",
            "k=0",
            "P9",
            "R2- R3+",
        ] {
            assert!(Material::parse(t).is_err(), "{t:?}");
        }
        assert!(
            Material::parse("Q+ Q=0")
                .unwrap_err()
                .to_string()
                .contains("no position has this material: `Q` asks for at least 1 and at most 0")
        );
        for t in ["K", "K=1 k", "Q2+ Q<=3", "P8", "[BN]2+ B=0", "k q0+"] {
            assert!(Material::parse(t).is_ok(), "{t:?}");
        }
        for t in [
            "",
            "é",
            "8/8/8/8/8/8/8/8/8",
            "44444444/8/8/8/8/8/8/8",
            "8/8/8/8/8/8/8/8 x",
            "8/8/8/8/8/8/8/0",
            "ééééééé/8/8/8/8/8/8/8",
        ] {
            assert!(SubFen::parse(t).is_err(), "{t:?}");
        }
        for t in [
            "",
            "é",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "x:y",
            "fen:",
            "material:",
            "subfen:",
            "material:Q=0 &",
            "& material:Q=0",
            "material:Q=0 && material:q=0",
        ] {
            assert!(Step::parse(t).is_err(), "{t:?}");
        }
        assert!(Exact::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").is_ok());
    }

    #[test]
    fn step_parts_are_joined_by_an_ampersand_spaced_or_not() {
        let spaced = Step::parse("subfen:8/8/8/8/8/8/8/5RK1 & material:Q=0").unwrap();
        for t in [
            "subfen:8/8/8/8/8/8/8/5RK1&material:Q=0",
            "subfen:8/8/8/8/8/8/8/5RK1 &material:Q=0",
            "subfen:8/8/8/8/8/8/8/5RK1& material:Q=0",
            " subfen:8/8/8/8/8/8/8/5RK1\t&\tmaterial:Q=0 ",
        ] {
            assert_eq!(Step::parse(t).unwrap(), spaced, "{t:?}");
        }
        assert!(spaced.sub.is_some() && spaced.material.is_some());
        // an `&` in an EPD operation's string joins nothing
        let epd = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"A & B\";";
        let s = Step::parse(&format!("fen:{epd}&material:Q")).unwrap();
        assert!(s.exact.is_some() && s.material.is_some());
        let e = Step::parse("material:Q=0&").unwrap_err().to_string();
        assert!(e.contains("no part on one side"), "{e}");
    }

    #[test]
    fn sequences_within_plies() {
        let g = game(RUY);
        // a knight on c6 and a pawn on a7 (plies 4, 5), then White castled (9, 10)
        let q = Query::new(vec![
            Step::subfen("8/p7/2n5/8/8/8/8/8").unwrap(),
            Step::subfen("8/8/8/8/8/8/8/5RK1").unwrap(),
        ]);
        assert_eq!(plies(&g, &q.clone().within(Some(6))), [(9, 0), (10, 0)]);
        assert_eq!(plies(&g, &q.clone().within(Some(4))), [(9, 0)]);
        assert!(plies(&g, &q.clone().within(Some(3))).is_empty());
        assert_eq!(plies(&g, &q), [(9, 0), (10, 0)]);
        // each step its own bound: Nc6 (ply 4), Bb5 within 1 ply (5), Be7 any time later (10)
        let q = Query::new(vec![
            Step::subfen("8/8/2n5/8/8/8/8/8").unwrap(),
            Step::subfen("8/8/8/1B6/8/8/8/8").unwrap(),
            Step::subfen("8/4b3/8/8/8/8/8/8").unwrap(),
        ]);
        assert_eq!(
            plies(&g, &q.clone().within_each(&[Some(1), None])),
            [(10, 0)]
        );
        assert_eq!(plies(&g, &q.clone().within_each(&[Some(1)])), [(10, 0)]);
        assert!(plies(&g, &q.clone().within(Some(1))).is_empty());
        assert!(plies(&g, &q.clone().within_each(&[None, Some(1)])).is_empty());
        assert_eq!(
            plies(&g, &q.clone().within_each(&[None, Some(4)])),
            [(10, 0)]
        );
        // one position is never two steps
        let q = Query::new(vec![
            Step::subfen("8/8/2n5/8/8/8/8/8").unwrap(),
            Step::subfen("8/8/2n5/8/8/8/8/8").unwrap(),
        ])
        .within(Some(1));
        assert_eq!(plies(&g, &q).first(), Some(&(5, 0)));
        assert!(Step::parse("fen:x").is_err());
        assert!(Step::parse("subfen:8/8/8/8/8/8/8/8 w").is_ok());
    }

    #[test]
    fn ply_ranges_and_variations() {
        let g = game("1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) Nc6) 2. Nf3 Nc6 *");
        let q = Query::new(vec![Step::subfen("8/8/2n5/8/8/8/8/8").unwrap()]);
        assert_eq!(plies(&g, &q), [(4, 0)]);
        let mut v = q.clone();
        v.variations = true;
        assert_eq!(plies(&g, &v), [(4, 2), (4, 1), (4, 0)]);
        v.max_ply = 3;
        assert!(plies(&g, &v).is_empty());
        let mut r = Query::new(vec![Step::material("P8 p8 KQRRBBNN kqrrbbnn").unwrap()]);
        r.min_ply = 1;
        assert_eq!(plies(&g, &r), [(1, 0), (2, 0), (3, 0), (4, 0)]);
        // a game that cannot be replayed matches nothing
        let bad = game("[FEN \"x\"]\n\n1. e4 *");
        assert!(plies(&bad, &Query::new(vec![Step::default()])).is_empty());
        // an illegal move ends the line
        let ill = game("1. e4 e5 2. Ke3 Nc6 *");
        assert_eq!(plies(&ill, &Query::new(vec![Step::default()])).len(), 3);
    }

    /// The main line searched on its moves (`LineSearch`, which skips the test of a material
    /// signature after a move that took nothing and moved no pawn, and keeps no key for a
    /// pattern) gives the first ply the DOM's `Searcher` gives.
    #[test]
    fn the_line_search_finds_what_the_searcher_finds() {
        let games = [
            RUY,
            "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qxd2+ 4. Qxd2 Nf6 5. Nf3 Nc6 6. Bb5 Bd7 7. Bxc6 Bxc6 \
             8. Qd8+ Rxd8 9. O-O e5 10. Nxe5 Bd6 11. Nxc6 bxc6 12. Re1+ Kd7 *",
            "[FEN \"4k3/P7/8/8/8/8/p7/4K3 w - - 0 1\"]\n\n1. a8=Q+ Kd7 2. -- a1=R+ 3. Ke2 Ra2+ \
             4. Kf3 Rxa8 5. Kg4 Rg8+ 6. Kf5 *",
            "1. d4 d5 2. c4 dxc4 3. e4 b5 4. a4 c6 5. axb5 cxb5 6. b3 cxb3 7. Bxb5+ Bd7 *",
            // an illegal move before the pieces a pattern waits for arrive
            "1. e4 e5 2. Ke3 Nc6 3. Bb5 *",
            // long algebraic: the piece is not written
            "1. e2e4 e7e5 2. g1f3 b8c6 3. f1b5 a7a6 4. e1g1 g8f6 *",
            // null moves, then the pieces
            "1. e4 -- 2. Bb5 Nc6 3. -- Nf6 4. Nf3 *",
            // a knight and a rook made by promotion, Black to move first
            "[FEN \"4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 1\"]\n\n1... g1=R+ 2. Ke2 Kd7 3. b8=N+ Kc7 4. Nd7 *",
        ];
        let steps = [
            "subfen:8/8/2n5/1B6/8/8/8/8",
            "subfen:8/8/2n5/1B6/8/8/8/8 b",
            "subfen:1N6/8/8/8/8/8/8/6r1",
            "subfen:8/3N4/8/8/8/8/8/8",
            "subfen:8/8/8/8/8/5N2/8/8 & material:q",
            "fen:r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "material:Q q",
            "material:KQRRBBNNPPPPPPPkqrrbbnnpppppppp",
            "material:P7- p7+",
            "material:Q=0 q=0",
            "material:R r",
            "material:R Q=0",
            "material:K k",
            "subfen:8/8/8/1B6/8/8/8/8",
            "subfen:8/8/8/8/8/8/8/5RK1",
            "subfen:8/8/8/8/8/8/8/8 b",
            "fen:rnbqkb1r/p1p1pppp/5n2/1P6/8/8/1P1P1PPP/RNBQKBNR b KQkq - 0 5",
        ];
        let mut found = 0;
        for text in games {
            let g = game(text);
            for step in steps {
                for (min, max) in [(0, u32::MAX), (3, u32::MAX), (0, 6), (9, 11)] {
                    let mut q = Query::new(vec![Step::parse(step).unwrap()]);
                    (q.min_ply, q.max_ply) = (min, max);
                    let want = plies(&g, &q).first().map(|h| h.0);
                    let mut s = LineSearch::default();
                    s.begin();
                    for (name, value) in &g.tags {
                        s.tag(name.as_bytes(), value);
                    }
                    let mut v = s.start(&q);
                    let mut ply = 0;
                    for node in &g.moves {
                        if v != Verdict::Continue {
                            break;
                        }
                        ply += 1;
                        v = s.play(&q, node.san);
                    }
                    let got = (v == Verdict::Matched).then_some(ply);
                    assert_eq!(got, want, "{step} {min}..{max} in {text}");
                    found += usize::from(got.is_some());
                }
            }
        }
        assert!(found >= 40, "{found}");
    }

    /// The first ply where `q` matches `g`'s main line, by `LineSearch`, and the positions it
    /// replayed.
    fn line_search(g: &Game, q: &Query) -> (Option<u32>, u64) {
        let mut s = LineSearch::default();
        s.begin();
        for (name, value) in &g.tags {
            s.tag(name.as_bytes(), value);
        }
        let mut v = s.start(q);
        let mut ply = 0;
        for node in &g.moves {
            if v != Verdict::Continue {
                break;
            }
            ply += 1;
            v = s.play(q, node.san);
        }
        ((v == Verdict::Matched).then_some(ply), s.positions)
    }

    /// A game whose moves never bring a pattern's piece to its square is not replayed, and
    /// the moves held back meanwhile are bounded: past `MAX_WAITING` they are played and the
    /// search goes on move by move, with the same answer.
    #[test]
    fn the_line_search_replays_only_once_the_pieces_can_be_there() {
        // (the wait reads a piece's kind from cozy-chess's order, which is `KINDS`')
        assert!(KINDS.iter().enumerate().all(|(i, &p)| p as usize == i));
        let b5 = Query::new(vec![Step::subfen("8/8/2n5/1B6/8/8/8/8").unwrap()]);
        let g = game("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d4 exd4 *");
        assert_eq!(line_search(&g, &b5), (None, 1));
        assert!(plies(&g, &b5).is_empty());
        let g = game(RUY);
        assert_eq!(line_search(&g, &b5), (Some(5), 6));
        // a sequence waits for its first step's pieces only
        let q = Query::new(vec![
            Step::subfen("8/8/2n5/1B6/8/8/8/8").unwrap(),
            Step::subfen("8/8/8/8/B7/8/8/8").unwrap(),
        ])
        .within(Some(2));
        assert_eq!(line_search(&g, &q).0, Some(7));
        assert_eq!(plies(&g, &q).first().map(|h| h.0), Some(7));
        // knights shuffled for longer than the moves held back, then the bishop: found
        let mut long = String::new();
        for i in 0..(MAX_WAITING / 4 + 8) {
            long += &format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * i + 1, 2 * i + 2);
        }
        let n = 2 * (MAX_WAITING / 4 + 8) + 1;
        long += &format!("{n}. e4 Nc6 {}. Bb5 *", n + 1);
        let g = game(&long);
        let want = plies(&g, &b5).first().map(|h| h.0);
        assert_eq!(want, Some(g.moves.len() as u32));
        let (got, replayed) = line_search(&g, &b5);
        assert_eq!(got, want);
        assert!(replayed > MAX_WAITING as u64, "{replayed}");
        // a ply range that ends before the pieces came: over, nothing replayed
        let mut q = b5.clone();
        q.max_ply = 4;
        assert_eq!(line_search(&game(RUY), &q), (None, 1));
        // and stays over, whatever comes after
        let mut s = LineSearch::default();
        s.begin();
        assert_eq!(s.start(&q), Verdict::Continue);
        let g = game(RUY);
        let verdicts: Vec<Verdict> = g.moves.iter().map(|n| s.play(&q, n.san)).collect();
        assert_eq!(verdicts[3..], [Verdict::Over; 7]);
    }

    #[test]
    fn san_is_written_as_python_chess_writes_it() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let s = |u: &str| san(&pos, pos.parse_uci(u).unwrap());
        assert_eq!(s("e1g1"), "O-O");
        assert_eq!(s("e1c1"), "O-O-O");
        assert_eq!(s("d5e6"), "dxe6");
        assert_eq!(s("e5f7"), "Nxf7");
        assert_eq!(s("c3b5"), "Nb5");
        assert_eq!(s("f3f6"), "Qxf6");
        let p = Position::from_fen("7k/P7/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
        assert_eq!(san(&p, p.parse_uci("a7a8q").unwrap()), "a8=Q+");
        let p = Position::from_fen("k7/8/1K6/8/8/8/8/1R5R w - - 0 1", false).unwrap();
        assert_eq!(san(&p, p.parse_uci("h1h8").unwrap()), "Rh8#");
        assert_eq!(san(&p, p.parse_uci("b1d1").unwrap()), "Rbd1");
        let p = Position::from_fen("7k/R7/8/8/8/4K3/8/R7 w - - 0 1", false).unwrap();
        assert_eq!(san(&p, p.parse_uci("a1b1").unwrap()), "Rb1");
        assert_eq!(san(&p, p.parse_uci("a1a4").unwrap()), "R1a4");
    }
}
