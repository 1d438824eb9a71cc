//! The query forms, read from their text: an exact position ([`Exact`]), a piece pattern
//! ([`SubFen`]), a material signature ([`Material`]), and a step of a sequence ([`Step`]).

use super::*;

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
/// Its castling rights are read in the variant of the game it is compared with, as
/// python-chess's `chess.Board(fen, chess960=…)` reads them: with standard chess's rules
/// for a standard game (`KQkq` whatever the position, as many programs write it, keeps only
/// the rights a king on e1/e8 and a rook in its corner can have) and in X-FEN for a Chess960
/// game (`KQkq`: the outermost rook of each side), so that the EPD kifu writes of a position,
/// Chess960 too, finds it again.
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
    /// The key of the position read with standard chess's rules.
    key: u64,
    /// The key of the position read as a Chess960 one (X-FEN), for the games of Chess960.
    key960: u64,
    masks: [[u64; 6]; 2],
    need: Need,
    position: Position,
}

/// Two queries are equal when they ask for the same position (their move counters and an en
/// passant square that no capture can take may differ).
impl PartialEq for Exact {
    fn eq(&self, other: &Exact) -> bool {
        self.key == other.key && self.key960 == other.key960 && self.masks == other.masks
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
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        // `KQkq` as standard chess reads it: rights the position cannot have dropped
        let pos = Position::from_standard_fen(&fen).map_err(|e: FenError| bad(&e))?;
        if let Some(why) = impossible_en_passant(&fields, pos.board()) {
            return Err(bad(&why));
        }
        if let Some(why) = impossible_placement(&masks_of(pos.board())) {
            return Err(bad(&format_args!("{why}: not a legal position")));
        }
        // the rights as a Chess960 game has them (a superset of the standard reading's: a
        // right standard chess allows is read the same in X-FEN)
        let key960 = Position::from_fen(&fen, true).map_or(pos.epd_key(), |p| p.epd_key());
        Ok(Exact {
            key960,
            ..Exact::of(pos)
        })
    }

    /// The query for `pos`.
    pub fn of(pos: Position) -> Exact {
        let b = pos.board();
        let masks = masks_of(b);
        let mut need = Need::of_masks(&masks);
        need.castle = [rights(b, Color::White), rights(b, Color::Black)];
        let key = pos.epd_key();
        Exact {
            key,
            key960: key,
            masks,
            need,
            position: pos,
        }
    }

    /// The position asked for.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Whether `pos` is this position (its castling rights read in `pos`'s variant: standard
    /// chess or Chess960).
    #[inline]
    pub fn matches(&self, pos: &Position) -> bool {
        let key = if pos.chess960() {
            self.key960
        } else {
            self.key
        };
        pos.epd_key() == key && masks_of(pos.board()) == self.masks
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
    pub(super) masks: [[u64; 6]; 2],
    /// The squares that must be empty (`_`).
    pub(super) empty: u64,
    /// The masks that are not empty, with their kind and colour: one AND and one compare each.
    pub(super) pieces: [(Piece, Color, u64); 12],
    pub(super) n_pieces: u8,
    pub(super) side: Option<Color>,
    pub(super) need: Need,
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
        if let Some(why) = impossible_placement(&masks) {
            return err(format!("`{board}`: {why}: no game has it"));
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

/// Why no position can have pieces where `masks` (per colour and kind, as [`KINDS`]) places
/// them, at least those (`None` when one can): two kings of a side, a pawn on the first or last
/// rank, more pawns or more pieces than a side has (promotions counted), kings side by side.
fn impossible_placement(masks: &[[u64; 6]; 2]) -> Option<String> {
    for (color, m) in masks.iter().enumerate() {
        let side = if color == 0 { "White" } else { "Black" };
        let count = |k: usize| m[k].count_ones();
        if count(5) > 1 {
            return Some(format!("{side} has {} kings", count(5)));
        }
        if m[0] & 0xff00_0000_0000_00ff != 0 {
            return Some(format!(
                "a {} pawn on the first or last rank",
                side.to_lowercase()
            ));
        }
        // the pieces past a side's first ones come from its pawns' promotions
        let promoted: u32 = [(1, 2), (2, 2), (3, 2), (4, 1)]
            .iter()
            .map(|&(k, first)| count(k).saturating_sub(first))
            .sum();
        if count(0) + promoted > 8 {
            return Some(format!(
                "{side} has {} pawns and {promoted} pieces past its first ones (promoted), more than its 8 pawns",
                count(0)
            ));
        }
    }
    let (white, black) = (masks[0][5], masks[1][5]);
    if white != 0 && black != 0 {
        let w = white.trailing_zeros() as i32;
        let b = black.trailing_zeros() as i32;
        if (w % 8 - b % 8).abs() <= 1 && (w / 8 - b / 8).abs() <= 1 {
            return Some("the kings stand side by side".into());
        }
    }
    None
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
            if !form.trim().is_empty() && rest.trim().is_empty() {
                return err(format!(
                    "`{part}`: nothing after `{}:` (fen:FEN, subfen:BOARD or material:SIG)",
                    form.trim()
                ));
            }
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
