//! A move in SAN, as python-chess writes it ([`san`]).

use super::*;

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

// cozy-chess's letters: files `a`–`h`, ranks `1`–`8`, pieces lowercase
fn file_char(sq: Square) -> char {
    char::from(sq.file())
}

fn rank_char(sq: Square) -> char {
    char::from(sq.rank())
}

fn piece_char(p: Piece) -> char {
    char::from(p).to_ascii_uppercase()
}
