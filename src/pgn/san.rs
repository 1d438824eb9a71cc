//! Standard Algebraic Notation, parsed for its syntax only.
//!
//! kifu does not play the moves: a [`San`] says what was written (piece, hints, capture,
//! target square, promotion, castling side, null move, check marker), so that a user can resolve
//! it against a board of their own, or not at all. The parser is lenient where the standard's
//! import format is (§8.2.3.7): castling with zeros (`0-0`), a pawn letter (`Pe4`), long algebraic
//! (`e2-e4`, `Ng1xf3`), promotion without `=` (`e8Q`), lower-case promotion pieces, null moves
//! (`--`, `Z0`, `0000`, `@@@@`) and drops (`N@f3`, crazyhouse).

/// A chess piece kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// Pawn (no letter in SAN).
    Pawn,
    /// Knight, `N`.
    Knight,
    /// Bishop, `B`.
    Bishop,
    /// Rook, `R`.
    Rook,
    /// Queen, `Q`.
    Queen,
    /// King, `K`.
    King,
}

impl Piece {
    /// The SAN letter (`'P'` for a pawn).
    pub fn char(self) -> char {
        match self {
            Piece::Pawn => 'P',
            Piece::Knight => 'N',
            Piece::Bishop => 'B',
            Piece::Rook => 'R',
            Piece::Queen => 'Q',
            Piece::King => 'K',
        }
    }
}

/// A square, `file` and `rank` both 0-based (`a1` is `{ file: 0, rank: 0 }`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Square {
    /// File, 0 (`a`) to 7 (`h`).
    pub file: u8,
    /// Rank, 0 (`1`) to 7 (`8`).
    pub rank: u8,
}

impl core::fmt::Display for Square {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file) as char,
            (b'1' + self.rank) as char
        )
    }
}

/// Which side the king castles to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// `O-O`.
    KingSide,
    /// `O-O-O`.
    QueenSide,
}

/// The check marker written after a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Check {
    /// No marker.
    #[default]
    None,
    /// `+`.
    Check,
    /// `#` (or `++`, an old spelling).
    Mate,
}

/// What kind of move a [`San`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SanKind {
    /// A piece or pawn move.
    Normal,
    /// Castling.
    Castle(CastlingSide),
    /// A null move (`--`, `Z0`, `0000`, `@@@@`).
    Null,
    /// A drop (`N@f3`, crazyhouse and its kin).
    Drop,
}

/// A move as written in SAN, parsed for syntax.
///
/// Packed in one `u32` (so that a move travels in a register, not through memory); read it
/// with the accessors.
///
/// ```
/// use kifu::pgn::{San, SanKind, Piece, Check};
/// let san = San::parse(b"Nbxd7+").unwrap();
/// assert_eq!(san.kind(), SanKind::Normal);
/// assert_eq!(san.piece(), Piece::Knight);
/// assert_eq!(san.from_file(), Some(1));
/// assert!(san.capture());
/// assert_eq!(san.to().unwrap().to_string(), "d7");
/// assert_eq!(san.check(), Check::Check);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct San(u32);

// Bit layout of `San`: kind 0..3, piece 3..6, from-file 6..10 (8 = none), from-rank 10..14
// (8 = none), capture 14, target 15..22 (64 = none), promotion 22..25 (0 = none, else piece + 1),
// check 25..27.
const KIND_NORMAL: u32 = 0;
const KIND_CASTLE_K: u32 = 1;
const KIND_CASTLE_Q: u32 = 2;
const KIND_NULL: u32 = 3;
const KIND_DROP: u32 = 4;
const NONE8: u32 = 8;
const NO_SQUARE: u32 = 64;

/// The fields of a [`San`] while it is being parsed (kept in registers).
#[derive(Clone, Copy)]
struct Parts {
    kind: u32,
    piece: u32,
    ff: u32,
    fr: u32,
    capture: bool,
    to: u32,
    promo: u32,
    check: u32,
}

impl Parts {
    const EMPTY: Parts = Parts {
        kind: KIND_NORMAL,
        piece: 0,
        ff: NONE8,
        fr: NONE8,
        capture: false,
        to: NO_SQUARE,
        promo: 0,
        check: 0,
    };

    #[inline(always)]
    fn pack(self) -> San {
        San(self.kind
            | self.piece << 3
            | self.ff << 6
            | self.fr << 10
            | (self.capture as u32) << 14
            | self.to << 15
            | self.promo << 22
            | self.check << 25)
    }
}

fn piece_of(n: u32) -> Piece {
    match n {
        0 => Piece::Pawn,
        1 => Piece::Knight,
        2 => Piece::Bishop,
        3 => Piece::Rook,
        4 => Piece::Queen,
        _ => Piece::King,
    }
}

impl San {
    /// Builds a `San` from its parts (for programs that write PGN).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        kind: SanKind,
        piece: Piece,
        from_file: Option<u8>,
        from_rank: Option<u8>,
        capture: bool,
        to: Option<Square>,
        promotion: Option<Piece>,
        check: Check,
    ) -> San {
        Parts {
            kind: match kind {
                SanKind::Normal => KIND_NORMAL,
                SanKind::Castle(CastlingSide::KingSide) => KIND_CASTLE_K,
                SanKind::Castle(CastlingSide::QueenSide) => KIND_CASTLE_Q,
                SanKind::Null => KIND_NULL,
                SanKind::Drop => KIND_DROP,
            },
            piece: piece as u32,
            ff: from_file.map_or(NONE8, |f| u32::from(f & 7)),
            fr: from_rank.map_or(NONE8, |r| u32::from(r & 7)),
            capture,
            to: to.map_or(NO_SQUARE, |s| {
                u32::from(s.rank & 7) * 8 + u32::from(s.file & 7)
            }),
            promo: promotion.map_or(0, |p| p as u32 + 1),
            check: check as u32,
        }
        .pack()
    }

    /// Normal move, castling, null move or drop.
    #[inline]
    pub fn kind(self) -> SanKind {
        match self.0 & 7 {
            KIND_CASTLE_K => SanKind::Castle(CastlingSide::KingSide),
            KIND_CASTLE_Q => SanKind::Castle(CastlingSide::QueenSide),
            KIND_NULL => SanKind::Null,
            KIND_DROP => SanKind::Drop,
            _ => SanKind::Normal,
        }
    }

    /// The moving (or dropped) piece; [`Piece::King`] for castling, [`Piece::Pawn`] for null
    /// moves.
    #[inline]
    pub fn piece(self) -> Piece {
        piece_of(self.0 >> 3 & 7)
    }

    /// The from-file hint (0-based), if written.
    #[inline]
    pub fn from_file(self) -> Option<u8> {
        let f = self.0 >> 6 & 15;
        if f < 8 { Some(f as u8) } else { None }
    }

    /// The from-rank hint (0-based), if written.
    #[inline]
    pub fn from_rank(self) -> Option<u8> {
        let r = self.0 >> 10 & 15;
        if r < 8 { Some(r as u8) } else { None }
    }

    /// Whether a capture mark (`x` or `:`) was written.
    #[inline]
    pub fn capture(self) -> bool {
        self.0 >> 14 & 1 == 1
    }

    /// The target square (none for castling and null moves).
    #[inline]
    pub fn to(self) -> Option<Square> {
        let t = self.0 >> 15 & 127;
        if t < 64 {
            Some(Square {
                file: (t & 7) as u8,
                rank: (t >> 3) as u8,
            })
        } else {
            None
        }
    }

    /// The promotion piece, if any.
    #[inline]
    pub fn promotion(self) -> Option<Piece> {
        let p = self.0 >> 22 & 7;
        if p == 0 { None } else { Some(piece_of(p - 1)) }
    }

    /// The check marker.
    #[inline]
    pub fn check(self) -> Check {
        match self.0 >> 25 & 3 {
            1 => Check::Check,
            2 => Check::Mate,
            _ => Check::None,
        }
    }

    /// Parses a whole token as SAN (with an optional `+`/`#` marker, without `!`/`?` suffixes).
    pub fn parse(s: &[u8]) -> Option<San> {
        match San::parse_prefix(s) {
            Some((san, n)) if n == s.len() => Some(san),
            _ => None,
        }
    }

    /// Parses SAN at the start of `s`: the move and its check marker. Returns the move and the
    /// number of bytes it took; the rest (annotation glyphs like `!?`) is the caller's.
    #[inline(always)]
    pub fn parse_prefix(s: &[u8]) -> Option<(San, usize)> {
        match s.first_chunk::<12>() {
            Some(window) => parse_window(window, 12),
            None => parse_short(s),
        }
    }
}

impl core::fmt::Debug for San {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("San")
            .field("kind", &self.kind())
            .field("piece", &self.piece())
            .field("from_file", &self.from_file())
            .field("from_rank", &self.from_rank())
            .field("capture", &self.capture())
            .field("to", &self.to())
            .field("promotion", &self.promotion())
            .field("check", &self.check())
            .finish()
    }
}

/// [`San::parse_prefix`] on fewer than 12 bytes: pad with zeros, which match nothing.
#[cold]
#[inline(never)]
fn parse_short(s: &[u8]) -> Option<(San, usize)> {
    let mut b = [0u8; 12];
    b[..s.len()].copy_from_slice(s);
    parse_window(&b, s.len())
}

/// Parses SAN at the start of a 12-byte window of which the first `k` bytes are input.
/// Every index below is in bounds; bytes after the move end it (the caller checks that they
/// are a delimiter).
#[inline(always)]
fn parse_window(b: &[u8; 12], k: usize) -> Option<(San, usize)> {
    let (mut san, mut i) = match b[0] {
        b'a'..=b'h' => pawn(b)?,
        b'N' | b'B' | b'R' | b'Q' | b'K' if b[1] == b'@' => {
            let to = sq(b, 2)?;
            (
                Parts {
                    kind: KIND_DROP,
                    piece: piece_letter(b[0])?,
                    to,
                    ..Parts::EMPTY
                },
                4,
            )
        }
        c @ (b'N' | b'B' | b'R' | b'Q' | b'K') => {
            let (mut san, i) = piece_move(b, 1)?;
            // the letter's piece by arithmetic rather than a second match on the letter:
            // nibble `(c >> 1) & 15` of this constant
            // (N 7, B 1, R 9, Q 8, K 5)
            san.piece = (0x34_1050_0020_u64 >> (4 * u32::from(c >> 1 & 15))) as u32 & 15;
            (san, i)
        }
        _ => other(b)?,
    };
    if i > k {
        return None;
    }
    match b[i] {
        b'+' if b[i + 1] == b'+' => {
            san.check = 2;
            i += 2;
        }
        b'+' => {
            san.check = 1;
            i += 1;
        }
        b'#' => {
            san.check = 2;
            i += 1;
        }
        _ => {}
    }
    if i > k { None } else { Some((san.pack(), i)) }
}

/// The piece of an upper-case letter (`P` included).
#[inline(always)]
fn piece_letter(b: u8) -> Option<u32> {
    Some(match b {
        b'P' => 0,
        b'N' => 1,
        b'B' => 2,
        b'R' => 3,
        b'Q' => 4,
        b'K' => 5,
        _ => return None,
    })
}

#[inline(always)]
fn file(b: u8) -> Option<u32> {
    if (b'a'..=b'h').contains(&b) {
        Some(u32::from(b - b'a'))
    } else {
        None
    }
}

#[inline(always)]
fn rank(b: u8) -> Option<u32> {
    if (b'1'..=b'8').contains(&b) {
        Some(u32::from(b - b'1'))
    } else {
        None
    }
}

/// The square at `b[i..i + 2]`, as `rank * 8 + file`.
#[inline(always)]
fn sq(b: &[u8; 12], i: usize) -> Option<u32> {
    Some(rank(b[i + 1])? * 8 + file(b[i])?)
}

/// A pawn move: `e4`, `exd5`, `e8=Q`, long algebraic `e2-e4`, `e2xd3`, `e2e4`, `e7e8q`.
#[inline(always)]
fn pawn(b: &[u8; 12]) -> Option<(Parts, usize)> {
    let f = u32::from(b[0] - b'a');
    let mut san = Parts::EMPTY;
    let i = match b[1] {
        b'1'..=b'8' => {
            let r = u32::from(b[1] - b'1');
            match b[2] {
                b'-' | b'x' | b':' if sq(b, 3).is_some() => {
                    san.capture = b[2] != b'-';
                    san.ff = f;
                    san.fr = r;
                    san.to = sq(b, 3)?;
                    5
                }
                b'a'..=b'h' if rank(b[3]).is_some() => {
                    san.ff = f;
                    san.fr = r;
                    san.to = sq(b, 2)?;
                    4
                }
                _ => {
                    san.to = r * 8 + f;
                    2
                }
            }
        }
        b'x' | b':' => {
            san.capture = true;
            san.ff = f;
            san.to = sq(b, 2)?;
            4
        }
        _ => return None,
    };
    Some(promotion(b, san, i))
}

/// A promotion after a pawn move to the last rank: `=Q`, `Q`, `=q`, `q`.
#[inline(always)]
fn promotion(b: &[u8; 12], mut san: Parts, i: usize) -> (Parts, usize) {
    let rank = san.to >> 3;
    if rank != 0 && rank != 7 {
        return (san, i);
    }
    let j = if b[i] == b'=' { i + 1 } else { i };
    match piece_letter(b[j].to_ascii_uppercase()) {
        Some(p) if p != 0 => {
            san.promo = p + 1;
            (san, j + 1)
        }
        _ => (san, i),
    }
}

/// The part of a piece move after its letter, from `i`: `f3`, `xf3`, `bd7`, `1d2`, `bxd7`,
/// `b1d2`, `b1xd2`, `g1-f3`.
#[inline(always)]
fn piece_move(b: &[u8; 12], i: usize) -> Option<(Parts, usize)> {
    let mut san = Parts::EMPTY;
    let mut j = i;
    if let Some(f) = file(b[j]) {
        if let Some(r) = rank(b[j + 1]) {
            // a square: the target, or a full from-square
            match b[j + 2] {
                b'x' | b':' | b'-' if sq(b, j + 3).is_some() => {
                    san.capture = b[j + 2] != b'-';
                    san.ff = f;
                    san.fr = r;
                    san.to = sq(b, j + 3)?;
                    return Some((san, j + 5));
                }
                b'a'..=b'h' if rank(b[j + 3]).is_some() => {
                    san.ff = f;
                    san.fr = r;
                    san.to = sq(b, j + 2)?;
                    return Some((san, j + 4));
                }
                _ => {
                    san.to = r * 8 + f;
                    return Some((san, j + 2));
                }
            }
        }
        san.ff = f;
        j += 1;
    } else if let Some(r) = rank(b[j]) {
        san.fr = r;
        j += 1;
    }
    if b[j] == b'x' || b[j] == b':' {
        san.capture = true;
        j += 1;
    }
    san.to = sq(b, j)?;
    Some((san, j + 2))
}

/// Castling, null moves, drops, `P`-prefixed pawn moves.
#[cold]
fn other(b: &[u8; 12]) -> Option<(Parts, usize)> {
    let null = Parts {
        kind: KIND_NULL,
        ..Parts::EMPTY
    };
    match b[0] {
        c @ (b'O' | b'0') => {
            if b[1] == b'-' && b[2] == c {
                let long = b[3] == b'-' && b[4] == c;
                let kind = if long { KIND_CASTLE_Q } else { KIND_CASTLE_K };
                let san = Parts {
                    kind,
                    piece: 5,
                    ..Parts::EMPTY
                };
                return Some((san, if long { 5 } else { 3 }));
            }
            if &b[..4] == b"0000" {
                Some((null, 4))
            } else {
                None
            }
        }
        b'-' if b[1] == b'-' => Some((null, 2)),
        b'Z' if b[1] == b'0' => Some((null, 2)),
        b'@' if &b[..4] == b"@@@@" => Some((null, 4)),
        b'@' => Some((
            Parts {
                kind: KIND_DROP,
                to: sq(b, 1)?,
                ..Parts::EMPTY
            },
            3,
        )),
        b'P' if b[1] == b'@' => Some((
            Parts {
                kind: KIND_DROP,
                to: sq(b, 2)?,
                ..Parts::EMPTY
            },
            4,
        )),
        b'P' if file(b[1]).is_some() => {
            let mut c = [0u8; 12];
            c[..11].copy_from_slice(&b[1..]);
            let (san, i) = pawn(&c)?;
            Some((san, i + 1))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> San {
        San::parse(s.as_bytes()).unwrap_or_else(|| panic!("{s} should parse"))
    }

    #[test]
    fn normal_moves() {
        let m = ok("e4");
        assert_eq!(
            (m.piece(), m.to(), m.capture()),
            (Piece::Pawn, Some(Square { file: 4, rank: 3 }), false)
        );
        let m = ok("exd5");
        assert_eq!((m.from_file(), m.capture()), (Some(4), true));
        let m = ok("Qh4xe1#");
        assert_eq!(
            (m.piece(), m.from_file(), m.from_rank(), m.check()),
            (Piece::Queen, Some(7), Some(3), Check::Mate)
        );
        let m = ok("R1a3");
        assert_eq!((m.from_file(), m.from_rank()), (None, Some(0)));
        let m = ok("e8=Q+");
        assert_eq!(
            (m.promotion(), m.check()),
            (Some(Piece::Queen), Check::Check)
        );
        assert_eq!(ok("e8Q").promotion(), Some(Piece::Queen));
        assert_eq!(ok("e8=n").promotion(), Some(Piece::Knight));
        assert_eq!(ok("e2-e4").from_file(), Some(4));
        assert_eq!(ok("Pe4").piece(), Piece::Pawn);
    }

    #[test]
    fn castles_nulls_drops() {
        assert_eq!(ok("O-O").kind(), SanKind::Castle(CastlingSide::KingSide));
        assert_eq!(
            ok("0-0-0+").kind(),
            SanKind::Castle(CastlingSide::QueenSide)
        );
        for s in ["--", "Z0", "0000", "@@@@"] {
            assert_eq!(ok(s).kind(), SanKind::Null, "{s}");
        }
        let d = ok("N@f3");
        assert_eq!((d.kind(), d.piece()), (SanKind::Drop, Piece::Knight));
    }

    #[test]
    fn rejects_words() {
        for s in [
            "oh", "the", "end", "comment", "e9", "i4", "Nx", "x", "O-", "1-0", "", "Ke", "e4e",
        ] {
            assert!(San::parse(s.as_bytes()).is_none(), "{s} should not parse");
        }
    }

    #[test]
    fn prefix_leaves_annotation() {
        let (_, n) = San::parse_prefix(b"Nf3!?").unwrap();
        assert_eq!(n, 3);
    }
}
