//! A chess position: cozy-chess's board plus what a game record needs beside it (clocks that
//! do not saturate, the Chess960 flag, the Polyglot key kept up to date move by move), FEN in and
//! out as python-chess reads and writes it.

use core::fmt;

use cozy_chess::{
    BitBoard, Board, BoardBuilder, CastleRights, Color, File, Move, Piece, Rank, Square,
    get_pawn_attacks,
};

use super::polyglot_table::{PSQ, RANDOM};

/// A position of a game being replayed.
///
/// It holds a [`cozy_chess::Board`] (pieces, side to move, castling rights, en passant file),
/// the halfmove clock and the fullmove number as the record has them (python-chess counts them
/// past cozy-chess's caps of 100 and 65,535), whether castling follows Chess960's rules, and the
/// Polyglot key, updated with each move (a few XORs) rather than recomputed.
///
/// ```
/// use kifu_replay::chess::Position;
///
/// let mut pos = Position::startpos();
/// assert_eq!(pos.key(), 0x463b96181691fc9c); // the Polyglot key of the start position
/// let e4 = pos.parse_uci("e2e4").unwrap();
/// pos.play(e4);
/// assert_eq!(pos.fen().to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// assert_eq!(pos.key(), 0x823c9b50fd114196);
/// ```
#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    halfmove: u32,
    fullmove: u32,
    chess960: bool,
    /// The Polyglot key without its en passant part (which depends on the pawns beside the
    /// en passant square, and is added by [`Position::key`]); kept up to date by each move
    /// only while `keyed` ([`set_keyed`](Position::set_keyed)).
    key: u64,
    keyed: bool,
}

/// Two positions are equal when their boards, clocks and castling mode are: the key is a
/// function of the board.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && (self.halfmove, self.fullmove, self.chess960)
                == (other.halfmove, other.fullmove, other.chess960)
    }
}

impl Eq for Position {}

/// Why a FEN was refused: python-chess's syntax rules, and the positions cozy-chess cannot hold.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum FenError {
    /// The FEN is empty.
    #[error("empty FEN")]
    Empty,
    /// The piece placement is not 8 ranks of 8 squares of `pnbrqkPNBRQK` and digits.
    #[error("bad piece placement")]
    Board,
    /// The side to move is not `w` or `b`.
    #[error("side to move not `w` or `b`")]
    Turn,
    /// The castling field is not `-` or X-FEN / Shredder-FEN letters.
    #[error("bad castling field")]
    Castling,
    /// The en passant field is not `-` or a square.
    #[error("bad en passant field")]
    EnPassant,
    /// The halfmove clock or the fullmove number is not a number of 0 or more.
    #[error("bad move counter")]
    Counter,
    /// More than six fields.
    #[error("more than six fields")]
    TooManyFields,
    /// A position that no game can reach and the move generator does not take: not one king
    /// per side, more than 16 pieces or 8 pawns of a side, a pawn on its first or last rank, the
    /// side not to move in check.
    #[error("not a legal position")]
    Illegal,
}

const WHITE_PIECES: [u8; 6] = *b"PNBRQK";
const BLACK_PIECES: [u8; 6] = *b"pnbrqk";

#[inline(always)]
fn psq(piece: Piece, color: Color, sq: Square) -> u64 {
    PSQ[piece as usize][color as usize][sq as usize]
}

#[inline]
fn castle_key(board: &Board) -> u64 {
    castle_key_of(
        *board.castle_rights(Color::White),
        *board.castle_rights(Color::Black),
    )
}

#[inline]
fn castle_key_of(w: CastleRights, b: CastleRights) -> u64 {
    let mut k = 0;
    if w.short.is_some() {
        k ^= RANDOM[768];
    }
    if w.long.is_some() {
        k ^= RANDOM[769];
    }
    if b.short.is_some() {
        k ^= RANDOM[770];
    }
    if b.long.is_some() {
        k ^= RANDOM[771];
    }
    k
}

/// The Polyglot key of `board` without its en passant part, from scratch.
fn key_of(board: &Board) -> u64 {
    let mut k = 0;
    for color in Color::ALL {
        for piece in Piece::ALL {
            for sq in board.colored_pieces(color, piece) {
                k ^= psq(piece, color, sq);
            }
        }
    }
    k ^= castle_key(board);
    if board.side_to_move() == Color::White {
        k ^= RANDOM[780];
    }
    k
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_board(Board::default(), 0, 1, false)
    }

    fn from_board(board: Board, halfmove: u32, fullmove: u32, chess960: bool) -> Position {
        let key = key_of(&board);
        Position {
            board,
            halfmove,
            fullmove,
            chess960,
            key,
            keyed: true,
        }
    }

    /// Whether each move keeps the Polyglot key up to date (the default), or leaves it to be
    /// computed from the board when [`key`](Self::key) asks for it: for a replay that reads
    /// the key of few of its positions or none (the `positions` table without its `key`
    /// column), about a tenth of the work of a move. Either way `key` gives the same answer.
    ///
    /// ```
    /// use kifu_replay::chess::Position;
    /// let (mut keyed, mut unkeyed) = (Position::startpos(), Position::startpos());
    /// unkeyed.set_keyed(false);
    /// for uci in ["e2e4", "c7c5", "g1f3"] {
    ///     keyed.play(keyed.parse_uci(uci).unwrap());
    ///     unkeyed.play(unkeyed.parse_uci(uci).unwrap());
    ///     assert_eq!(unkeyed.key(), keyed.key());
    /// }
    /// unkeyed.set_keyed(true);
    /// unkeyed.play(unkeyed.parse_uci("d7d6").unwrap());
    /// keyed.play(keyed.parse_uci("d7d6").unwrap());
    /// assert_eq!((unkeyed.key(), &unkeyed), (keyed.key(), &keyed));
    /// ```
    pub fn set_keyed(&mut self, keyed: bool) {
        if keyed && !self.keyed {
            self.key = key_of(&self.board);
        }
        self.keyed = keyed;
    }

    /// The key without its en passant part: kept, or computed from the board.
    #[inline]
    fn base_key(&self) -> u64 {
        if self.keyed {
            self.key
        } else {
            key_of(&self.board)
        }
    }

    /// Reads a FEN as python-chess does (`chess.Board(fen, chess960=…)`): the fields after the
    /// piece placement may be left out (white to move, no castling, no en passant, clocks 0 and
    /// 1); castling in X-FEN (`KQkq`, the outermost rook of each side, or a file letter) or
    /// Shredder-FEN (`HAha`); castling rights that no rook or king supports are dropped, and an
    /// en passant square that no double step can have left is ignored. Castling rights that only
    /// Chess960 allows (a king off the e-file, a rook off the corners) make the position a
    /// Chess960 one, as python-chess's PGN reader does.
    ///
    /// ```
    /// use kifu_replay::chess::Position;
    ///
    /// let pos = Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", false).unwrap();
    /// assert!(pos.chess960());
    /// // written back in X-FEN, as python-chess writes it
    /// assert_eq!(pos.fen().to_string(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    /// assert!(Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1", false).is_err());
    /// ```
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Position, FenError> {
        Position::read_fen(fen, chess960, true)
    }

    /// Reads a FEN of standard chess as python-chess's `chess.Board(fen)` does: as
    /// [`from_fen`](Position::from_fen), but `KQkq` rights never make the position a Chess960
    /// one: a right whose king is off its e-file square or whose rook is off its corner is
    /// dropped (many programs write `KQkq` whatever the position). Castling written with file
    /// letters (Shredder-FEN) is read as `from_fen` reads it.
    ///
    /// ```
    /// use kifu_replay::chess::Position;
    ///
    /// // both kings castled, written `KQkq`: no right
    /// let fen = "r1bq1rk1/5pb1/1p1p2p1/1N1np2p/1p2P2P/5P2/PP1QN1P1/1K1R1B1R w KQkq - 0 16";
    /// let pos = Position::from_standard_fen(fen).unwrap();
    /// assert!(!pos.chess960());
    /// assert_eq!(pos.fen().to_string(), fen.replace("KQkq", "-"));
    /// assert!(Position::from_fen(fen, false).unwrap().chess960());
    /// ```
    pub fn from_standard_fen(fen: &str) -> Result<Position, FenError> {
        let castling = fen.split_ascii_whitespace().nth(2).unwrap_or("-");
        let infer = !castling.bytes().all(|c| b"KQkq-".contains(&c));
        Position::read_fen(fen, false, infer)
    }

    /// [`from_fen`](Position::from_fen); `infer`: rights only Chess960 allows make the
    /// position a Chess960 one (else they are dropped).
    fn read_fen(fen: &str, chess960: bool, infer: bool) -> Result<Position, FenError> {
        let mut parts = fen.split_ascii_whitespace();
        let placement = parts.next().ok_or(FenError::Empty)?;
        let turn = match parts.next() {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(_) => return Err(FenError::Turn),
        };
        let castling = parts.next().unwrap_or("-");
        if !castling_syntax_ok(castling) {
            return Err(FenError::Castling);
        }
        let ep = match parts.next() {
            None | Some("-") => None,
            Some(s) => Some(parse_square(s).ok_or(FenError::EnPassant)?),
        };
        let halfmove = match parts.next() {
            None => 0,
            Some(s) => parse_counter(s).ok_or(FenError::Counter)?,
        };
        let fullmove = match parts.next() {
            None => 1,
            Some(s) => parse_counter(s).ok_or(FenError::Counter)?.max(1),
        };
        if parts.next().is_some() {
            return Err(FenError::TooManyFields);
        }
        let mut b = BoardBuilder::empty();
        parse_placement(placement, &mut b.board)?;
        b.side_to_move = turn;
        let rooks = castling_rooks(&b, castling);
        let chess960 = chess960 || (infer && needs_chess960(&b, rooks));
        for color in Color::ALL {
            b.castle_rights[color as usize] = clean_rights(&b, rooks, color, chess960);
        }
        b.halfmove_clock = halfmove.min(100) as u8;
        b.fullmove_number = fullmove.min(u32::from(u16::MAX)) as u16;
        b.en_passant = None;
        let board = b.build().map_err(|_| FenError::Illegal)?;
        let board = match ep {
            Some(sq) => with_en_passant(&b, sq).unwrap_or(board),
            None => board,
        };
        Ok(Position::from_board(board, halfmove, fullmove, chess960))
    }

    /// The board (cozy-chess): pieces, side to move, castling rights, en passant file,
    /// checkers, and its move generator.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whether castling follows Chess960's rules (then UCI writes it king-takes-rook).
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    pub(crate) fn set_chess960(&mut self) {
        self.chess960 = true;
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    /// The halfmove clock: plies since the last capture or pawn move (not capped at 100).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The fullmove number, from 1.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The ply of the last move played, counted as kifu counts it (`Context::ply`): the
    /// start position of a standard game is ply 0, and `… b - - 0 14` is ply 27.
    pub fn ply(&self) -> u32 {
        2 * (self.fullmove.max(1) - 1) + u32::from(self.side_to_move() == Color::Black)
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        !self.board.checkers().is_empty()
    }

    /// Whether the side to move is checkmated (in check, without a legal move). Generates
    /// moves only when in check.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// Whether the side to move is stalemated (not in check, without a legal move).
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    fn has_legal_move(&self) -> bool {
        self.board.generate_moves(|_| true)
    }

    /// The Polyglot key (the key of Polyglot opening books, equal to python-chess's
    /// `chess.polyglot.zobrist_hash`): pieces, castling rights (a right to castle towards the
    /// h-side counts as Polyglot's "short", also in Chess960), the en passant file when a pawn
    /// of the side to move stands beside the pawn that just made a double step, and the side
    /// to move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.base_key() ^ self.ep_key()
    }

    /// The Polyglot key with the en passant file counted only when an en passant capture is
    /// legal, as EPD and [`fen`](Self::fen) write the square (Polyglot counts it whenever a pawn
    /// stands beside, pinned or not): two positions have the same key exactly when their EPD is
    /// the same. The key of the opening table (lichess names positions by EPD).
    #[inline]
    pub(crate) fn epd_key(&self) -> u64 {
        let ep = self.ep_key();
        if ep != 0 && self.legal_en_passant().is_none() {
            self.base_key()
        } else {
            self.base_key() ^ ep
        }
    }

    #[inline]
    fn ep_key(&self) -> u64 {
        let Some(file) = self.board.en_passant() else {
            return 0;
        };
        let us = self.side_to_move();
        let target = Square::new(file, Rank::Sixth.relative_to(us));
        if (get_pawn_attacks(target, !us) & self.board.colored_pieces(us, Piece::Pawn)).is_empty() {
            0
        } else {
            RANDOM[772 + file as usize]
        }
    }

    /// The en passant square when an en passant capture is legal (python-chess's
    /// `has_legal_en_passant`), as FEN writes it.
    pub fn legal_en_passant(&self) -> Option<Square> {
        let file = self.board.en_passant()?;
        let us = self.side_to_move();
        let target = Square::new(file, Rank::Sixth.relative_to(us));
        let pawns = get_pawn_attacks(target, !us) & self.board.colored_pieces(us, Piece::Pawn);
        pawns
            .into_iter()
            .any(|from| {
                self.board.is_legal(Move {
                    from,
                    to: target,
                    promotion: None,
                })
            })
            .then_some(target)
    }

    /// The position as FEN, written as python-chess's `Board.fen()` writes it: castling in
    /// X-FEN (a file letter only where `K`/`Q` would name another rook), the en passant square
    /// only when the capture is legal. Formats only when displayed: `pos.fen().to_string()`,
    /// or `write!(out, "{}", pos.fen())` into a buffer you reuse.
    pub fn fen(&self) -> Fen<'_> {
        Fen(self)
    }

    /// Plays `mv`, which must be legal here (as [`resolve`](Self::resolve) and
    /// [`parse_uci`](Self::parse_uci) return it; castling is king-takes-rook). Updates the key
    /// and the clocks.
    pub fn play(&mut self, mv: Move) {
        let Some(moved) = self.board.piece_on(mv.from) else {
            debug_assert!(false, "no piece on {}", mv.from);
            return;
        };
        self.play_piece(mv, moved);
    }

    /// [`play`](Self::play), the moving piece known.
    #[inline]
    pub(crate) fn play_piece(&mut self, mv: Move, moved: Piece) {
        if self.keyed {
            self.play_piece_as::<true>(mv, moved);
        } else {
            self.play_piece_as::<false>(mv, moved);
        }
    }

    /// [`play_piece`](Self::play_piece), the key kept up to date only when `KEY`. Without it
    /// the board and the clocks are played, and the key is left as it was: no longer the
    /// position's, so [`key`](Self::key) and [`epd_key`](Self::epd_key) mean nothing until
    /// the position is made again (from a FEN, [`startpos`](Self::startpos)) — for a replay
    /// that never looks at the key (a piece pattern, a material signature: `LineSearch`).
    #[inline(always)]
    pub(crate) fn play_piece_as<const KEY: bool>(&mut self, mv: Move, moved: Piece) {
        if !KEY {
            let zeroing =
                moved == Piece::Pawn || self.board.colors(!self.side_to_move()).has(mv.to);
            let us = self.side_to_move();
            self.board.play_unchecked(mv);
            self.halfmove = if zeroing {
                0
            } else {
                self.halfmove.saturating_add(1)
            };
            if us == Color::Black {
                self.fullmove = self.fullmove.saturating_add(1);
            }
            return;
        }
        let b = &self.board;
        let us = b.side_to_move();
        debug_assert_eq!(b.piece_on(mv.from), Some(moved));
        let rights = (
            *b.castle_rights(Color::White),
            *b.castle_rights(Color::Black),
        );
        let mut key = self.key ^ RANDOM[780] ^ psq(moved, us, mv.from);
        let castle = b.colors(us).has(mv.to);
        let mut zeroing = moved == Piece::Pawn;
        if castle {
            let rank = Rank::First.relative_to(us);
            let (king, rook) = if mv.from.file() < mv.to.file() {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            key ^= psq(Piece::Rook, us, mv.to)
                ^ psq(Piece::King, us, Square::new(king, rank))
                ^ psq(Piece::Rook, us, Square::new(rook, rank));
        } else {
            if b.colors(!us).has(mv.to) {
                if let Some(victim) = b.piece_on(mv.to) {
                    key ^= psq(victim, !us, mv.to);
                }
                zeroing = true;
            } else if moved == Piece::Pawn && mv.from.file() != mv.to.file() {
                // en passant: the captured pawn stands beside the moving one
                key ^= psq(Piece::Pawn, !us, Square::new(mv.to.file(), mv.from.rank()));
            }
            key ^= psq(mv.promotion.unwrap_or(moved), us, mv.to);
        }
        self.board.play_unchecked(mv);
        let b = &self.board;
        if rights
            != (
                *b.castle_rights(Color::White),
                *b.castle_rights(Color::Black),
            )
        {
            key ^= castle_key_of(rights.0, rights.1) ^ castle_key(b);
        }
        self.key = key;
        self.halfmove = if zeroing {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        debug_assert_eq!(self.key, key_of(&self.board), "{}", self.fen());
    }

    /// Plays a null move (`--`): the other side is to move, no en passant, the halfmove clock
    /// goes on. `false` (and nothing changes) when the side to move is in check.
    pub fn play_null(&mut self) -> bool {
        let Some(board) = self.board.null_move() else {
            return false;
        };
        let us = self.side_to_move();
        self.board = board;
        self.key ^= RANDOM[780];
        self.halfmove = self.halfmove.saturating_add(1);
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        true
    }

    /// The move a UCI string names (`e2e4`, `e7e8q`; castling as `e1g1` in standard chess or
    /// king-takes-rook `e1h1` in both), if it is legal here.
    ///
    /// ```
    /// use kifu_replay::chess::Position;
    /// let pos = Position::startpos();
    /// assert!(pos.parse_uci("g1f3").is_some());
    /// assert!(pos.parse_uci("e2e5").is_none());
    /// ```
    pub fn parse_uci(&self, uci: &str) -> Option<Move> {
        let b = uci.as_bytes();
        if !(4..=5).contains(&b.len()) {
            return None;
        }
        let from = parse_square(&uci[..2])?;
        let to = parse_square(&uci[2..4])?;
        let promotion = match b.get(4) {
            None => None,
            Some(c) => Some(match c.to_ascii_lowercase() {
                b'n' => Piece::Knight,
                b'b' => Piece::Bishop,
                b'r' => Piece::Rook,
                b'q' => Piece::Queen,
                _ => return None,
            }),
        };
        let mv = self.castling_from_uci(Move {
            from,
            to,
            promotion,
        });
        self.board.is_legal(mv).then_some(mv)
    }

    /// `e1g1` / `e1c1` (and Black's) as king-takes-rook, in standard chess, where the king
    /// stands on e1 / e8 with the right to castle that way.
    #[inline]
    pub(crate) fn castling_from_uci(&self, mv: Move) -> Move {
        if self.chess960 || mv.promotion.is_some() {
            return mv;
        }
        let us = self.side_to_move();
        let rank = Rank::First.relative_to(us);
        let e = Square::new(File::E, rank);
        if mv.from != e || mv.to.rank() != rank || self.board.king(us) != e {
            return mv;
        }
        let rights = self.board.castle_rights(us);
        let rook = match mv.to.file() {
            File::G => rights.short,
            File::C => rights.long,
            _ => None,
        };
        match rook {
            Some(f) => Move {
                from: e,
                to: Square::new(f, rank),
                promotion: None,
            },
            None => mv,
        }
    }

    /// [`uci`](Self::uci) without formatting, the moving piece known.
    #[inline]
    pub(crate) fn uci_parts(&self, mv: Move, piece: Piece) -> UciParts {
        let mut to = mv.to;
        if piece == Piece::King
            && !self.chess960
            && self.board.colors(self.side_to_move()).has(mv.to)
        {
            let file = if mv.from.file() < mv.to.file() {
                File::G
            } else {
                File::C
            };
            to = Square::new(file, mv.to.rank());
        }
        UciParts {
            from: mv.from,
            to,
            promotion: mv.promotion,
        }
    }

    /// The UCI of a move of this position: castling as `e1g1` in standard chess, king-takes-rook
    /// (`e1h1`, `b8a8`) in Chess960, as python-chess writes them.
    #[inline]
    pub fn uci(&self, mv: Move) -> Uci {
        let mut to = mv.to;
        if !self.chess960 && self.board.colors(self.side_to_move()).has(mv.to) {
            let file = if mv.from.file() < mv.to.file() {
                File::G
            } else {
                File::C
            };
            to = Square::new(file, mv.to.rank());
        }
        Uci::new(mv.from, to, mv.promotion)
    }
}

/// What a UCI is made of, kept until it is asked for: from, to (castling already written as
/// UCI wants it), promotion; `from == to` for a null move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct UciParts {
    from: Square,
    to: Square,
    promotion: Option<Piece>,
}

impl UciParts {
    pub(crate) const NULL: UciParts = UciParts {
        from: Square::A1,
        to: Square::A1,
        promotion: None,
    };

    /// The UCI.
    pub(crate) fn uci(self) -> Uci {
        if self.from == self.to {
            Uci::NULL
        } else {
            Uci::new(self.from, self.to, self.promotion)
        }
    }
}

/// A move in UCI notation (`e2e4`, `e7e8q`, `0000` for a null move), held inline (no
/// allocation): [`as_str`](Uci::as_str) or `Display`.
///
/// ```
/// use kifu_replay::chess::Uci;
/// assert_eq!(Uci::NULL.as_str(), "0000");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Uci {
    buf: [u8; 5],
    len: u8,
}

impl Uci {
    /// The null move, `0000`.
    pub const NULL: Uci = Uci {
        buf: *b"0000 ",
        len: 4,
    };

    /// The UCI of a move from `from` to `to`, promoting to `promotion`.
    pub fn new(from: Square, to: Square, promotion: Option<Piece>) -> Uci {
        let f = |sq: Square| [b'a' + sq.file() as u8, b'1' + sq.rank() as u8];
        let (a, b) = (f(from), f(to));
        let mut buf = [a[0], a[1], b[0], b[1], b' '];
        let len = match promotion {
            Some(p) => {
                buf[4] = BLACK_PIECES[p as usize];
                5
            }
            None => 4,
        };
        Uci { buf, len }
    }

    /// The text, `e2e4`.
    pub fn as_str(&self) -> &str {
        // only ASCII bytes are ever written
        core::str::from_utf8(&self.buf[..usize::from(self.len)]).unwrap_or("0000")
    }
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Uci({})", self.as_str())
    }
}

/// A position's FEN, formatted when displayed (see [`Position::fen`]).
#[derive(Clone, Copy, Debug)]
pub struct Fen<'a>(&'a Position);

impl fmt::Display for Fen<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = self.0;
        let b = &pos.board;
        let mut line = [0u8; 8];
        for rank in (0..8).rev() {
            let mut n = 0;
            let mut empty = 0u8;
            for file in 0..8 {
                let sq = Square::new(File::index(file), Rank::index(rank));
                match (b.piece_on(sq), b.color_on(sq)) {
                    (Some(p), Some(c)) => {
                        if empty > 0 {
                            line[n] = b'0' + empty;
                            n += 1;
                            empty = 0;
                        }
                        line[n] = if c == Color::White {
                            WHITE_PIECES[p as usize]
                        } else {
                            BLACK_PIECES[p as usize]
                        };
                        n += 1;
                    }
                    _ => empty += 1,
                }
            }
            if empty > 0 {
                line[n] = b'0' + empty;
                n += 1;
            }
            f.write_str(core::str::from_utf8(&line[..n]).map_err(|_| fmt::Error)?)?;
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        f.write_str(if b.side_to_move() == Color::White {
            " w "
        } else {
            " b "
        })?;
        write_castling(f, b)?;
        match pos.legal_en_passant() {
            Some(sq) => write!(f, " {sq} ")?,
            None => f.write_str(" - ")?,
        }
        write!(f, "{} {}", pos.halfmove, pos.fullmove)
    }
}

/// X-FEN castling as python-chess writes it (`castling_xfen`): per side, White first, the
/// h-side right before the a-side one; `K`/`Q` unless another rook of that side stands further
/// out on the back rank, then the rook's file.
fn write_castling(f: &mut fmt::Formatter<'_>, b: &Board) -> fmt::Result {
    let mut any = false;
    for color in Color::ALL {
        let rights = b.castle_rights(color);
        let rank = Rank::First.relative_to(color);
        let rooks = b.colored_pieces(color, Piece::Rook) & rank.bitboard();
        for (file, h_side) in [(rights.short, true), (rights.long, false)] {
            let Some(file) = file else { continue };
            let outer = rooks.into_iter().any(|sq| {
                if h_side {
                    sq.file() > file
                } else {
                    sq.file() < file
                }
            });
            let c = if outer {
                b'a' + file as u8
            } else if h_side {
                b'k'
            } else {
                b'q'
            };
            let c = if color == Color::White {
                c.to_ascii_uppercase()
            } else {
                c
            };
            write!(f, "{}", c as char)?;
            any = true;
        }
    }
    if !any {
        f.write_str("-")?;
    }
    Ok(())
}

fn parse_square(s: &str) -> Option<Square> {
    match *s.as_bytes() {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::new(
            File::index(usize::from(f - b'a')),
            Rank::index(usize::from(r - b'1')),
        )),
        _ => None,
    }
}

/// A counter as Python's `int()` reads it (an optional sign, digits), not negative.
fn parse_counter(s: &str) -> Option<u32> {
    let digits = s.strip_prefix('+').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(
        digits
            .parse::<u64>()
            .map_or(u32::MAX, |n| n.min(u64::from(u32::MAX)) as u32),
    )
}

fn castling_syntax_ok(s: &str) -> bool {
    if s == "-" {
        return true;
    }
    // python-chess: ^(?:-|[KQABCDEFGH]{0,2}[kqabcdefgh]{0,2})\Z
    let b = s.as_bytes();
    let upper = b
        .iter()
        .take_while(|c| matches!(c, b'K' | b'Q' | b'A'..=b'H'))
        .count();
    let lower = b[upper..]
        .iter()
        .take_while(|c| matches!(c, b'k' | b'q' | b'a'..=b'h'))
        .count();
    upper <= 2 && lower <= 2 && upper + lower == b.len()
}

fn parse_placement(s: &str, board: &mut [Option<(Piece, Color)>; 64]) -> Result<(), FenError> {
    let mut rank = 7i32;
    let mut file = 0usize;
    let mut last_digit = false;
    for c in s.bytes() {
        match c {
            b'/' => {
                if file != 8 || rank == 0 {
                    return Err(FenError::Board);
                }
                rank -= 1;
                file = 0;
                last_digit = false;
            }
            b'1'..=b'8' => {
                if last_digit {
                    return Err(FenError::Board);
                }
                file += usize::from(c - b'0');
                if file > 8 {
                    return Err(FenError::Board);
                }
                last_digit = true;
            }
            _ => {
                let (piece, color) = match WHITE_PIECES.iter().position(|&p| p == c) {
                    Some(i) => (Piece::index(i), Color::White),
                    None => match BLACK_PIECES.iter().position(|&p| p == c) {
                        Some(i) => (Piece::index(i), Color::Black),
                        None => return Err(FenError::Board),
                    },
                };
                if file >= 8 {
                    return Err(FenError::Board);
                }
                board[rank as usize * 8 + file] = Some((piece, color));
                file += 1;
                last_digit = false;
            }
        }
    }
    if rank != 0 || file != 8 {
        return Err(FenError::Board);
    }
    Ok(())
}

/// The squares the castling field names, as python-chess's `_set_castling_fen` reads it: `K`
/// the outermost rook on the h-side of the king (else h1), `Q` the outermost on the a-side
/// (else a1), a file letter that file's back-rank square.
fn castling_rooks(b: &BoardBuilder, field: &str) -> BitBoard {
    let mut rights = BitBoard::EMPTY;
    if field == "-" {
        return rights;
    }
    for c in field.bytes() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = Rank::First.relative_to(color);
        let rooks: BitBoard = (0..8)
            .map(|f| Square::new(File::index(f), rank))
            .filter(|&sq| b.square(sq) == Some((Piece::Rook, color)))
            .collect();
        let king = (0..8)
            .map(|f| Square::new(File::index(f), rank))
            .find(|&sq| b.square(sq) == Some((Piece::King, color)));
        let lowest = rooks.into_iter().next();
        let highest = rooks.into_iter().last();
        let sq = match c.to_ascii_lowercase() {
            b'q' => match (lowest, king) {
                (Some(r), Some(k)) if r < k => r,
                (None, Some(_)) => continue, // python-chess: lsb(0) < king, adds nothing
                _ => Square::new(File::A, rank),
            },
            b'k' => match (highest, king) {
                (Some(r), Some(k)) if k < r => r,
                _ => Square::new(File::H, rank),
            },
            f => Square::new(File::index(usize::from(f - b'a')), rank),
        };
        rights |= sq.bitboard();
    }
    rights
}

fn king_on_rank(b: &BoardBuilder, color: Color) -> Option<Square> {
    let rank = Rank::First.relative_to(color);
    (0..8)
        .map(|f| Square::new(File::index(f), rank))
        .find(|&sq| b.square(sq) == Some((Piece::King, color)))
}

/// python-chess's `clean_castling_rights` for one side, as cozy-chess's rights.
fn clean_rights(b: &BoardBuilder, rooks: BitBoard, color: Color, chess960: bool) -> CastleRights {
    let rank = Rank::First.relative_to(color);
    let mut mine: BitBoard = (rooks & rank.bitboard())
        .into_iter()
        .filter(|&sq| b.square(sq) == Some((Piece::Rook, color)))
        .collect();
    let mut rights = CastleRights::EMPTY;
    let Some(king) = king_on_rank(b, color) else {
        return rights;
    };
    if !chess960 {
        if king.file() != File::E {
            return rights;
        }
        mine &= File::A.bitboard() | File::H.bitboard();
    }
    let a_side = mine.into_iter().next();
    let h_side = mine.into_iter().last();
    if let Some(sq) = a_side.filter(|sq| sq.file() < king.file()) {
        rights.long = Some(sq.file());
    }
    if let Some(sq) = h_side.filter(|sq| sq.file() > king.file()) {
        rights.short = Some(sq.file());
    }
    rights
}

/// python-chess's `has_chess960_castling_rights`: rights that standard chess cannot have.
fn needs_chess960(b: &BoardBuilder, rooks: BitBoard) -> bool {
    for color in Color::ALL {
        let r = clean_rights(b, rooks, color, true);
        let rank = Rank::First.relative_to(color);
        if r.short.is_some_and(|f| f != File::H) || r.long.is_some_and(|f| f != File::A) {
            return true;
        }
        if (r.short.is_some() || r.long.is_some())
            && b.square(Square::new(File::E, rank)) != Some((Piece::King, color))
        {
            return true;
        }
    }
    false
}

/// The board with en passant square `sq`, when it is one a double step can have left.
fn with_en_passant(b: &BoardBuilder, sq: Square) -> Option<Board> {
    let mut b = b.clone();
    b.en_passant = Some(sq);
    b.build().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_key_and_fen() {
        let p = Position::startpos();
        assert_eq!(p.key(), 0x463b96181691fc9c);
        assert_eq!(
            p.fen().to_string(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    /// The test vectors of the Polyglot book format's documentation.
    #[test]
    fn polyglot_vectors() {
        let mut p = Position::startpos();
        let steps = [
            ("e2e4", 0x823c9b50fd114196u64),
            ("d7d5", 0x0756b94461c50fb0),
            ("e4e5", 0x662fafb965db29d4),
            ("f7f5", 0x22a48b5a8e47ff78),
            ("e1e2", 0x652a607ca3f242c1),
            ("e8f7", 0x00fdd303c946bdd9),
        ];
        for (uci, key) in steps {
            let mv = p.parse_uci(uci).unwrap();
            p.play(mv);
            assert_eq!(p.key(), key, "after {uci}");
        }
        let mut p = Position::startpos();
        for (uci, key) in [
            ("a2a4", 0u64),
            ("b7b5", 0),
            ("h2h4", 0),
            ("b5b4", 0),
            ("c2c4", 0x3c8123ea7b067637),
            ("b4c3", 0),
            ("a1a3", 0x5c3f9b829b279560),
        ] {
            let mv = p.parse_uci(uci).unwrap();
            p.play(mv);
            if key != 0 {
                assert_eq!(p.key(), key, "after {uci}");
            }
        }
    }

    /// A game of castling both ways, a right lost to a capture, en passant, promotions and
    /// checks, in UCI.
    const EVENTFUL: &str = "e2e4 d7d5 e4d5 c7c5 d5c6 g8f6 c6b7 e7e6 b7a8q f8e7 g1f3 e8g8 f1c4 \
                            d8c7 e1g1 c7h2 g1h2 f6g4 h2g1 e7c5 a8b8 c5f2 f1f2 g4f2 g1f2 e6e5 \
                            d2d4 e5d4";

    /// A position played without keeping its key (`set_keyed(false)`) gives the same keys,
    /// computed from its board, and is equal to the kept one; kept again, it goes on keyed.
    #[test]
    fn an_unkeyed_position_gives_the_same_keys() {
        let mut keyed = Position::startpos();
        let mut unkeyed = Position::startpos();
        unkeyed.set_keyed(false);
        for (i, uci) in EVENTFUL.split_whitespace().enumerate() {
            if i == 20 {
                unkeyed.set_keyed(true);
            }
            for p in [&mut keyed, &mut unkeyed] {
                let mv = p.parse_uci(uci).unwrap_or_else(|| panic!("{uci}"));
                p.play(mv);
            }
            assert_eq!(unkeyed, keyed, "{uci}");
            assert_eq!(unkeyed.key(), keyed.key(), "{uci}");
            assert_eq!(unkeyed.epd_key(), keyed.epd_key(), "{uci}");
        }
        assert!(unkeyed.play_null() && keyed.play_null());
        assert_eq!(unkeyed.key(), keyed.key());
    }

    /// Played without the key, a position is the same but for its key: board, clocks, FEN
    /// (castling both ways, a right lost to a capture, en passant, promotions, checks).
    #[test]
    fn keyless_play_is_the_same_position() {
        let mut keyed = Position::startpos();
        let mut keyless = Position::startpos();
        for uci in EVENTFUL.split_whitespace() {
            let mv = keyed.parse_uci(uci).unwrap_or_else(|| panic!("{uci}"));
            let piece = keyed.board().piece_on(mv.from).unwrap();
            keyed.play_piece(mv, piece);
            keyless.play_piece_as::<false>(mv, piece);
            assert_eq!(keyless.board(), keyed.board(), "{uci}");
            assert_eq!(keyless.fen().to_string(), keyed.fen().to_string(), "{uci}");
            assert_eq!(
                (keyless.halfmove_clock(), keyless.fullmove_number()),
                (keyed.halfmove_clock(), keyed.fullmove_number())
            );
        }
        assert_eq!(keyed.halfmove_clock(), 0);
        assert_ne!(keyless.key(), keyed.key(), "the key is not kept");
    }

    #[test]
    fn fen_fields_optional_and_clocks_uncapped() {
        let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3", false).unwrap();
        assert_eq!(p.fen().to_string(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 150 0", false).unwrap();
        assert_eq!(p.fen().to_string(), "4k3/8/8/8/8/8/8/4K3 b - - 150 1");
        assert_eq!(p.ply(), 1);
    }

    #[test]
    fn bad_fens() {
        for (fen, e) in [
            ("", FenError::Empty),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
                FenError::Board,
            ),
            (
                "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w",
                FenError::Board,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x",
                FenError::Turn,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX",
                FenError::Castling,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - e9",
                FenError::EnPassant,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - -1",
                FenError::Counter,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 x",
                FenError::TooManyFields,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1",
                FenError::Illegal,
            ),
        ] {
            assert_eq!(Position::from_fen(fen, false), Err(e), "{fen}");
        }
    }

    #[test]
    fn castling_rights_cleaned() {
        // rights without rooks are dropped, as python-chess does
        let p = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1", false).unwrap();
        assert_eq!(p.fen().to_string(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(!p.chess960());
    }

    #[test]
    fn en_passant_only_when_legal() {
        let mut p = Position::startpos();
        p.play(p.parse_uci("e2e4").unwrap());
        assert!(p.fen().to_string().contains(" b KQkq - "));
        let mut p = Position::from_fen(
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
            false,
        )
        .unwrap();
        p.play(p.parse_uci("c2c4").unwrap());
        assert!(
            p.fen().to_string().contains(" b KQkq c3 0 3"),
            "{}",
            p.fen()
        );
        // a FEN's en passant square that no double step left is ignored
        let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", false).unwrap();
        assert_eq!(p.fen().to_string(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    }
}
