//! From what a record wrote (kifu's [`San`], parsed for syntax) to the one legal move it names.
//!
//! The rules are python-chess's `Board.parse_san` (the reference this crate is checked
//! against): the capture mark and the check marker are not checked; a hint that says more than
//! needed (`Ngf3` where only one knight can go) is accepted; a pawn move without a file is a push
//! (`d4` never captures); a move whose from-square is written in full without a piece letter
//! (`e2e4`, `g1f3`, `e1g1`, `e7e8q`: UCI and long algebraic as pgn-extract writes them) is the
//! move of whatever piece stands there, castling included; a pawn that reaches the last rank
//! must name its promotion. The candidates come straight from attack tables (no move list is
//! generated); each is then checked for legality.

use cozy_chess::{
    BitBoard, Color, File, Move, Piece, Rank, Square, get_between_rays, get_bishop_rays,
    get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_rays,
};
use kifu::pgn::{self, CastlingSide, San, SanKind};

use super::Position;

/// Why a move could not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unplayable {
    /// No legal move matches.
    Illegal,
    /// More than one legal move matches.
    Ambiguous,
}

/// What a resolved move is: a move of the board, or a null move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resolved {
    /// A move (castling as king-takes-rook).
    Move(Move),
    /// A null move (`--`, `Z0`, `0000`, `@@@@`).
    Null,
}

#[inline]
pub(crate) fn piece_of(p: pgn::Piece) -> Piece {
    match p {
        pgn::Piece::Pawn => Piece::Pawn,
        pgn::Piece::Knight => Piece::Knight,
        pgn::Piece::Bishop => Piece::Bishop,
        pgn::Piece::Rook => Piece::Rook,
        pgn::Piece::Queen => Piece::Queen,
        pgn::Piece::King => Piece::King,
    }
}

#[inline]
pub(crate) fn square(s: pgn::Square) -> Square {
    Square::index(usize::from(s.rank & 7) * 8 + usize::from(s.file & 7))
}

impl Position {
    /// The one legal move `san` names here (see the module's rules).
    ///
    /// ```
    /// use kifu::pgn::San;
    /// use kifu_replay::chess::{Position, Resolved, Unplayable};
    ///
    /// let pos = Position::startpos();
    /// let Ok(Resolved::Move(mv)) = pos.resolve(San::parse(b"Nf3").unwrap()) else { panic!() };
    /// assert_eq!(pos.uci(mv).as_str(), "g1f3");
    /// assert_eq!(pos.resolve(San::parse(b"Nd4").unwrap()), Err(Unplayable::Illegal));
    /// ```
    pub fn resolve(&self, san: San) -> Result<Resolved, Unplayable> {
        self.find(san).map(|(r, _)| r)
    }

    /// [`resolve`](Self::resolve), with the piece that moves (a king for castling, anything
    /// for a null move).
    #[inline]
    pub(crate) fn find(&self, san: San) -> Result<(Resolved, Piece), Unplayable> {
        let board = self.board();
        let us = board.side_to_move();
        match san.kind() {
            SanKind::Normal => {}
            SanKind::Castle(side) => {
                let rights = board.castle_rights(us);
                let file = match side {
                    CastlingSide::KingSide => rights.short,
                    CastlingSide::QueenSide => rights.long,
                }
                .ok_or(Unplayable::Illegal)?;
                let mv = Move {
                    from: board.king(us),
                    to: Square::new(file, Rank::First.relative_to(us)),
                    promotion: None,
                };
                return if board.is_legal(mv) {
                    Ok((Resolved::Move(mv), Piece::King))
                } else {
                    Err(Unplayable::Illegal)
                };
            }
            SanKind::Null => return Ok((Resolved::Null, Piece::King)),
            SanKind::Drop => return Err(Unplayable::Illegal),
        }
        let to = square(san.to().ok_or(Unplayable::Illegal)?);
        let promotion = san.promotion().map(piece_of);
        let piece = piece_of(san.piece());
        let (ff, fr) = (san.from_file(), san.from_rank());
        if let (Piece::Pawn, Some(f), Some(r)) = (piece, ff, fr) {
            // the from-square written in full, no piece letter: whatever piece stands there
            let from = square(pgn::Square { file: f, rank: r });
            let mv = self.castling_from_uci(Move {
                from,
                to,
                promotion,
            });
            return match board.piece_on(from) {
                Some(p) if board.is_legal(mv) => Ok((Resolved::Move(mv), p)),
                _ => Err(Unplayable::Illegal),
            };
        }
        let mine = board.colors(us);
        if mine.has(to) {
            return Err(Unplayable::Illegal);
        }
        let ours = board.colored_pieces(us, piece);
        // sliders: the pieces on a line through `to` (small tables), then those with nothing
        // in between (the big magic tables cost a cache miss per lookup)
        let mut from = match piece {
            Piece::Pawn => pawn_sources(board, us, to, ff.is_some()) & ours,
            Piece::Knight => get_knight_moves(to) & ours,
            Piece::Bishop => clear_lines(get_bishop_rays(to) & ours, to, board.occupied()),
            Piece::Rook => clear_lines(get_rook_rays(to) & ours, to, board.occupied()),
            Piece::Queen => clear_lines(
                (get_bishop_rays(to) | get_rook_rays(to)) & ours,
                to,
                board.occupied(),
            ),
            Piece::King => get_king_moves(to) & ours,
        };
        if let Some(f) = ff {
            from &= File::index(usize::from(f)).bitboard();
        } else if piece == Piece::Pawn {
            from &= to.file().bitboard();
        }
        if let Some(r) = fr {
            from &= Rank::index(usize::from(r)).bitboard();
        }
        // a king's step (the king is the one candidate, `to` is not ours): legal when no piece
        // of theirs attacks `to` with the king gone from its square, the test cozy-chess's
        // `is_legal` makes, with the sliders found through the small tables of lines and
        // squares between (a slider's magic lookup costs a cache miss)
        if piece == Piece::King {
            let Some(sq) = from.next_square() else {
                return Err(Unplayable::Illegal);
            };
            let mv = Move {
                from: sq,
                to,
                promotion,
            };
            let ok = promotion.is_none() && king_safe_on(board, us, sq, to);
            debug_assert_eq!(ok, board.is_legal(mv), "{mv} in {}", self.fen());
            return if ok {
                Ok((Resolved::Move(mv), piece))
            } else {
                Err(Unplayable::Illegal)
            };
        }
        // the common case: one piece that is not pinned, out of check. A knight, bishop, rook
        // or queen then moves legally (its candidates come from its attacks with the
        // blockers); a pawn too, when it pushes to an empty square or takes a piece (not en
        // passant, whose legality depends on the rank) and names its promotion exactly when it
        // reaches the last rank
        if from.len() == 1
            && board.checkers().is_empty()
            && (board.pinned() & from).is_empty()
            && piece != Piece::King
            && let Some(sq) = from.next_square()
        {
            let ok = if piece == Piece::Pawn {
                let last = to.rank() == Rank::Eighth.relative_to(us);
                let promo_ok = match promotion {
                    None => !last,
                    Some(p) => last && !matches!(p, Piece::Pawn | Piece::King),
                };
                let target_ok = if sq.file() == to.file() {
                    !board.occupied().has(to)
                } else {
                    board.colors(!us).has(to)
                };
                promo_ok && target_ok
            } else {
                promotion.is_none()
            };
            if ok {
                let mv = Move {
                    from: sq,
                    to,
                    promotion,
                };
                debug_assert!(board.is_legal(mv), "{mv} in {}", self.fen());
                return Ok((Resolved::Move(mv), piece));
            }
        }
        let mut found = None;
        for sq in from {
            let mv = Move {
                from: sq,
                to,
                promotion,
            };
            if board.is_legal(mv) {
                if found.is_some() {
                    return Err(Unplayable::Ambiguous);
                }
                found = Some(mv);
            }
        }
        found
            .map(|m| (Resolved::Move(m), piece))
            .ok_or(Unplayable::Illegal)
    }
}

/// Whether the king of `us` on `king` may step to `to` (next to it, not ours): no piece of
/// theirs attacks `to` once the king has left `king` (a piece on `to` is taken, and attacks
/// nothing there).
#[inline]
fn king_safe_on(board: &cozy_chess::Board, us: Color, king: Square, to: Square) -> bool {
    let theirs = board.colors(!us);
    let near = (get_knight_moves(to) & board.pieces(Piece::Knight))
        | (get_king_moves(to) & board.pieces(Piece::King))
        | (get_pawn_attacks(to, us) & board.pieces(Piece::Pawn));
    if !(near & theirs).is_empty() {
        return false;
    }
    let queens = board.pieces(Piece::Queen);
    let sliders = theirs
        & ((get_bishop_rays(to) & (board.pieces(Piece::Bishop) | queens))
            | (get_rook_rays(to) & (board.pieces(Piece::Rook) | queens)));
    let occ = board.occupied() ^ king.bitboard();
    sliders
        .into_iter()
        .all(|sq| !(get_between_rays(sq, to) & occ).is_empty())
}

/// The squares of `pieces` (each on a line through `to`) with no piece between them and `to`.
#[inline]
fn clear_lines(pieces: BitBoard, to: Square, occ: BitBoard) -> BitBoard {
    let mut out = BitBoard::EMPTY;
    for sq in pieces {
        if (get_between_rays(sq, to) & occ).is_empty() {
            out |= sq.bitboard();
        }
    }
    out
}

/// The squares from which a pawn of `us` could reach `to`: a push (one step, or two from its
/// first rank over an empty square) and, when `capture_file` (a from-file was written), the
/// two squares that attack `to`. Legality is checked afterwards.
#[inline]
fn pawn_sources(board: &cozy_chess::Board, us: Color, to: Square, capture_file: bool) -> BitBoard {
    let mut from = BitBoard::EMPTY;
    let back = |sq: Square| match us {
        Color::White => sq.try_offset(0, -1),
        Color::Black => sq.try_offset(0, 1),
    };
    if let Some(one) = back(to) {
        from |= one.bitboard();
        if to.rank() == Rank::Fourth.relative_to(us)
            && !board.occupied().has(one)
            && let Some(two) = back(one)
        {
            from |= two.bitboard();
        }
    }
    if capture_file {
        from |= get_pawn_attacks(to, !us);
    }
    from
}
