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
    pub fn parse_prefix(s: &[u8]) -> Option<(San, usize)> {
        let (mut san, mut i) = parse_body(s)?;
        match s.get(i) {
            Some(b'+') => {
                if s.get(i + 1) == Some(&b'+') {
                    san.check = Check::Mate;
                    i += 2;
                } else {
                    san.check = Check::Check;
                    i += 1;
                }
            }
            Some(b'#') => {
                san.check = Check::Mate;
                i += 1;
            }
            _ => {}
        }
        Some((san, i))
    }
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

fn castle(s: &[u8], o: u8) -> Option<(San, usize)> {
    // O-O or O-O-O (o is 'O' or '0')
    if s.len() >= 3 && s[0] == o && s[1] == b'-' && s[2] == o {
        let long = s.len() >= 5 && s[3] == b'-' && s[4] == o;
        let side = if long {
            CastlingSide::QueenSide
        } else {
            CastlingSide::KingSide
        };
        let n = if long { 5 } else { 3 };
        let san = San {
            kind: SanKind::Castle(side),
            piece: Piece::King,
            ..San::EMPTY
        };
        return Some((san, n));
    }
    None
}

fn parse_body(s: &[u8]) -> Option<(San, usize)> {
    let first = *s.first()?;
    match first {
        b'O' | b'0' => {
            if let Some(r) = castle(s, first) {
                return Some(r);
            }
            if s.starts_with(b"0000") {
                return Some((
                    San {
                        kind: SanKind::Null,
                        ..San::EMPTY
                    },
                    4,
                ));
            }
            return None;
        }
        b'-' => {
            return if s.starts_with(b"--") {
                Some((
                    San {
                        kind: SanKind::Null,
                        ..San::EMPTY
                    },
                    2,
                ))
            } else {
                None
            };
        }
        b'Z' => {
            return if s.starts_with(b"Z0") {
                Some((
                    San {
                        kind: SanKind::Null,
                        ..San::EMPTY
                    },
                    2,
                ))
            } else {
                None
            };
        }
        b'@' => {
            if s.starts_with(b"@@@@") {
                return Some((
                    San {
                        kind: SanKind::Null,
                        ..San::EMPTY
                    },
                    4,
                ));
            }
            // pawn drop written "@e4"
            let to = square(s, 1)?;
            return Some((
                San {
                    kind: SanKind::Drop,
                    to: Some(to),
                    ..San::EMPTY
                },
                3,
            ));
        }
        _ => {}
    }
    let mut san = San::EMPTY;
    let mut i = 0;
    if let Some(p) = Piece::from_upper(first) {
        san.piece = p;
        i = 1;
        if s.get(1) == Some(&b'@') {
            let to = square(s, 2)?;
            san.kind = SanKind::Drop;
            san.to = Some(to);
            return Some((san, 4));
        }
    }
    // Collect up to two squares' worth of file/rank characters with optional capture/dash.
    // Forms: [f][r][x|:|-]fr[=P|P]
    let mut files = [0u8; 2];
    let mut ranks = [0u8; 2];
    let mut nf = 0;
    let mut nr = 0;
    // first coordinate group
    if let Some(f) = s.get(i).and_then(|&b| file(b)) {
        files[0] = f;
        nf = 1;
        i += 1;
    }
    if let Some(r) = s.get(i).and_then(|&b| rank(b)) {
        ranks[0] = r;
        nr = 1;
        i += 1;
    }
    match s.get(i) {
        Some(b'x') | Some(b':') => {
            san.capture = true;
            i += 1;
        }
        Some(b'-') if nf == 1 && nr == 1 => {
            i += 1; // long algebraic e2-e4
        }
        _ => {}
    }
    // second square
    let second = match (
        s.get(i).and_then(|&b| file(b)),
        s.get(i + 1).and_then(|&b| rank(b)),
    ) {
        (Some(f), Some(r)) => Some(Square { file: f, rank: r }),
        _ => None,
    };
    match second {
        Some(sq) => {
            i += 2;
            san.to = Some(sq);
            if nf == 1 {
                san.from_file = Some(files[0]);
            }
            if nr == 1 {
                san.from_rank = Some(ranks[0]);
            }
        }
        None => {
            // the first group was the target square
            if nf == 1 && nr == 1 && !san.capture {
                san.to = Some(Square {
                    file: files[0],
                    rank: ranks[0],
                });
            } else {
                return None;
            }
        }
    }
    // promotion
    if san.piece == Piece::Pawn {
        let j = if s.get(i) == Some(&b'=') { i + 1 } else { i };
        if let Some(&b) = s.get(j) {
            let p = Piece::from_upper(b.to_ascii_uppercase()).filter(|p| *p != Piece::Pawn);
            if let Some(p) = p {
                if b.is_ascii_uppercase() || j > i {
                    san.promotion = Some(p);
                    i = j + 1;
                }
            }
        }
    }
    Some((san, i))
}

fn square(s: &[u8], i: usize) -> Option<Square> {
    Some(Square {
        file: file(*s.get(i)?)?,
        rank: rank(*s.get(i + 1)?)?,
    })
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
