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
    fn from_upper(b: u8) -> Option<Piece> {
        Some(match b {
            b'P' => Piece::Pawn,
            b'N' => Piece::Knight,
            b'B' => Piece::Bishop,
            b'R' => Piece::Rook,
            b'Q' => Piece::Queen,
            b'K' => Piece::King,
            _ => return None,
        })
    }

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
/// ```
/// use kifu::pgn::{San, SanKind, Piece, Check};
/// let san = San::parse(b"Nbxd7+").unwrap();
/// assert_eq!(san.kind, SanKind::Normal);
/// assert_eq!(san.piece, Piece::Knight);
/// assert_eq!(san.from_file, Some(1));
/// assert!(san.capture);
/// assert_eq!(san.to.unwrap().to_string(), "d7");
/// assert_eq!(san.check, Check::Check);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct San {
    /// Normal move, castling, null move or drop.
    pub kind: SanKind,
    /// The moving (or dropped) piece; [`Piece::King`] for castling, [`Piece::Pawn`] for null moves.
    pub piece: Piece,
    /// The from-file hint (0-based), if written.
    pub from_file: Option<u8>,
    /// The from-rank hint (0-based), if written.
    pub from_rank: Option<u8>,
    /// Whether a capture mark (`x` or `:`) was written.
    pub capture: bool,
    /// The target square (none for castling and null moves).
    pub to: Option<Square>,
    /// The promotion piece, if any.
    pub promotion: Option<Piece>,
    /// The check marker.
    pub check: Check,
}

impl San {
    const EMPTY: San = San {
        kind: SanKind::Normal,
        piece: Piece::Pawn,
        from_file: None,
        from_rank: None,
        capture: false,
        to: None,
        promotion: None,
        check: Check::None,
    };

    /// Parses a whole token as SAN (with an optional `+`/`#` marker, without `!`/`?` suffixes).
    pub fn parse(s: &[u8]) -> Option<San> {
        match San::parse_prefix(s) {
            Some((san, n)) if n == s.len() => Some(san),
            _ => None,
        }
    }

    /// Parses SAN at the start of `s`: the move and its check marker. Returns the move and the
    /// number of bytes it took; the rest (annotation glyphs like `!?`) is the caller's.
    #[inline]
    pub fn parse_prefix(s: &[u8]) -> Option<(San, usize)> {
        match s.first_chunk::<12>() {
            Some(window) => parse_window(window, 12),
            None => parse_short(s),
        }
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
#[inline]
fn parse_window(b: &[u8; 12], k: usize) -> Option<(San, usize)> {
    let (mut san, mut i) = match b[0] {
        b'a'..=b'h' => pawn(b)?,
        b'N' | b'B' | b'R' | b'Q' | b'K' if b[1] == b'@' => {
            let to = sq(b, 2)?;
            let piece = Piece::from_upper(b[0])?;
            (
                San {
                    kind: SanKind::Drop,
                    piece,
                    to: Some(to),
                    ..San::EMPTY
                },
                4,
            )
        }
        b'N' | b'B' | b'R' | b'Q' | b'K' => {
            let (mut san, i) = piece_move(b, 1)?;
            san.piece = Piece::from_upper(b[0])?;
            (san, i)
        }
        _ => other(b)?,
    };
    if i > k {
        return None;
    }
    match b[i] {
        b'+' if b[i + 1] == b'+' => {
            san.check = Check::Mate;
            i += 2;
        }
        b'+' => {
            san.check = Check::Check;
            i += 1;
        }
        b'#' => {
            san.check = Check::Mate;
            i += 1;
        }
        _ => {}
    }
    if i > k { None } else { Some((san, i)) }
}

#[inline]
fn file(b: u8) -> Option<u8> {
    if (b'a'..=b'h').contains(&b) {
        Some(b - b'a')
    } else {
        None
    }
}

#[inline]
fn rank(b: u8) -> Option<u8> {
    if (b'1'..=b'8').contains(&b) {
        Some(b - b'1')
    } else {
        None
    }
}

#[inline]
fn sq(b: &[u8; 12], i: usize) -> Option<Square> {
    Some(Square {
        file: file(b[i])?,
        rank: rank(b[i + 1])?,
    })
}

/// A pawn move: `e4`, `exd5`, `e8=Q`, long algebraic `e2-e4`, `e2xd3`, `e2e4`, `e7e8q`.
#[inline]
fn pawn(b: &[u8; 12]) -> Option<(San, usize)> {
    let f = b[0] - b'a';
    let mut san = San::EMPTY;
    let i = match b[1] {
        b'1'..=b'8' => {
            let here = Square {
                file: f,
                rank: b[1] - b'1',
            };
            match b[2] {
                b'-' | b'x' | b':' if sq(b, 3).is_some() => {
                    san.capture = b[2] != b'-';
                    san.from_file = Some(f);
                    san.from_rank = Some(here.rank);
                    san.to = sq(b, 3);
                    5
                }
                b'a'..=b'h' if rank(b[3]).is_some() => {
                    san.from_file = Some(f);
                    san.from_rank = Some(here.rank);
                    san.to = sq(b, 2);
                    4
                }
                _ => {
                    san.to = Some(here);
                    2
                }
            }
        }
        b'x' | b':' => {
            san.capture = true;
            san.from_file = Some(f);
            san.to = Some(sq(b, 2)?);
            4
        }
        _ => return None,
    };
    Some(promotion(b, san, i))
}

/// A promotion after a pawn move to the last rank: `=Q`, `Q`, `=q`, `q`.
#[inline]
fn promotion(b: &[u8; 12], mut san: San, i: usize) -> (San, usize) {
    let last_rank = matches!(san.to, Some(Square { rank: 0 | 7, .. }));
    if !last_rank {
        return (san, i);
    }
    let j = if b[i] == b'=' { i + 1 } else { i };
    match Piece::from_upper(b[j].to_ascii_uppercase()) {
        Some(p) if p != Piece::Pawn => {
            san.promotion = Some(p);
            (san, j + 1)
        }
        _ => (san, i),
    }
}

/// The part of a piece move after its letter, from `i`: `f3`, `xf3`, `bd7`, `1d2`, `bxd7`,
/// `b1d2`, `b1xd2`, `g1-f3`.
#[inline]
fn piece_move(b: &[u8; 12], i: usize) -> Option<(San, usize)> {
    let mut san = San::EMPTY;
    let mut j = i;
    if let Some(f) = file(b[j]) {
        if let Some(r) = rank(b[j + 1]) {
            // a square: the target, or a full from-square
            match b[j + 2] {
                b'x' | b':' | b'-' if sq(b, j + 3).is_some() => {
                    san.capture = b[j + 2] != b'-';
                    san.from_file = Some(f);
                    san.from_rank = Some(r);
                    san.to = sq(b, j + 3);
                    return Some((san, j + 5));
                }
                b'a'..=b'h' if rank(b[j + 3]).is_some() => {
                    san.from_file = Some(f);
                    san.from_rank = Some(r);
                    san.to = sq(b, j + 2);
                    return Some((san, j + 4));
                }
                _ => {
                    san.to = Some(Square { file: f, rank: r });
                    return Some((san, j + 2));
                }
            }
        }
        san.from_file = Some(f);
        j += 1;
    } else if let Some(r) = rank(b[j]) {
        san.from_rank = Some(r);
        j += 1;
    }
    if b[j] == b'x' || b[j] == b':' {
        san.capture = true;
        j += 1;
    }
    san.to = Some(sq(b, j)?);
    Some((san, j + 2))
}

/// Castling, null moves, drops, `P`-prefixed pawn moves.
#[cold]
fn other(b: &[u8; 12]) -> Option<(San, usize)> {
    let null = San {
        kind: SanKind::Null,
        ..San::EMPTY
    };
    match b[0] {
        c @ (b'O' | b'0') => {
            if b[1] == b'-' && b[2] == c {
                let long = b[3] == b'-' && b[4] == c;
                let side = if long {
                    CastlingSide::QueenSide
                } else {
                    CastlingSide::KingSide
                };
                let san = San {
                    kind: SanKind::Castle(side),
                    piece: Piece::King,
                    ..San::EMPTY
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
            San {
                kind: SanKind::Drop,
                to: Some(sq(b, 1)?),
                ..San::EMPTY
            },
            3,
        )),
        b'P' if b[1] == b'@' => Some((
            San {
                kind: SanKind::Drop,
                to: Some(sq(b, 2)?),
                ..San::EMPTY
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
            (m.piece, m.to, m.capture),
            (Piece::Pawn, Some(Square { file: 4, rank: 3 }), false)
        );
        let m = ok("exd5");
        assert_eq!((m.from_file, m.capture), (Some(4), true));
        let m = ok("Qh4xe1#");
        assert_eq!(
            (m.piece, m.from_file, m.from_rank, m.check),
            (Piece::Queen, Some(7), Some(3), Check::Mate)
        );
        let m = ok("R1a3");
        assert_eq!((m.from_file, m.from_rank), (None, Some(0)));
        let m = ok("e8=Q+");
        assert_eq!((m.promotion, m.check), (Some(Piece::Queen), Check::Check));
        assert_eq!(ok("e8Q").promotion, Some(Piece::Queen));
        assert_eq!(ok("e8=n").promotion, Some(Piece::Knight));
        assert_eq!(ok("e2-e4").from_file, Some(4));
        assert_eq!(ok("Pe4").piece, Piece::Pawn);
    }

    #[test]
    fn castles_nulls_drops() {
        assert_eq!(ok("O-O").kind, SanKind::Castle(CastlingSide::KingSide));
        assert_eq!(ok("0-0-0+").kind, SanKind::Castle(CastlingSide::QueenSide));
        for s in ["--", "Z0", "0000", "@@@@"] {
            assert_eq!(ok(s).kind, SanKind::Null, "{s}");
        }
        let d = ok("N@f3");
        assert_eq!((d.kind, d.piece), (SanKind::Drop, Piece::Knight));
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
