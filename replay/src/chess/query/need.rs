//! What a position must still have for a query to come later on its line ([`Need`]): the
//! pruning that ends a line's replay.

use super::*;

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
pub(super) struct Need {
    /// Per colour: the fewest pawns.
    pub(super) pawns: [u8; 2],
    /// Per colour, the other pieces needed (the first `n_pieces`): their kind, the squares
    /// counted (a bishop's: those of its colour) and the fewest.
    pub(super) pieces: [[(Piece, u64, u8); 6]; 2],
    pub(super) n_pieces: [u8; 2],
    /// Pawns that must still stand where they are needed because they are needed on their
    /// starting squares (White's on rank 2, Black's on rank 7), by colour: one AND for them all.
    pub(super) home: [u64; 2],
    /// Per colour, for each other pawn needed (the first 8: more than 8 fail the count): the
    /// squares from which a pawn of that colour can still get to its square. No square, for a
    /// pawn needed on the first or last rank, where no pawn stands.
    pub(super) cones: [[u64; 8]; 2],
    /// How many of `cones` are used, per colour.
    pub(super) n_cones: [u8; 2],
    /// Castling rights that must still be held: per colour, bit 0 short, bit 1 long.
    pub(super) castle: [u8; 2],
    /// Per colour: whether anything is needed of it.
    pub(super) any: [bool; 2],
}

pub(super) const RANK_2: u64 = 0xff << 8;
pub(super) const RANK_7: u64 = 0xff << 48;
/// The light squares (h1, a2, …; a1 is dark).
pub(super) const LIGHT: u64 = 0x55aa_55aa_55aa_55aa;

/// The squares from which a pawn of `color` (0 White, 1 Black) can still get to `sq`: not
/// behind it, and no further to the side than it has ranks to go (a file a capture).
pub(super) fn cone(color: usize, sq: usize) -> u64 {
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
pub(super) fn capped(mut x: u64, n: u8) -> u8 {
    let mut k = 0;
    while k < n && x != 0 {
        x &= x - 1;
        k += 1;
    }
    k
}

impl Need {
    pub(super) fn of_masks(masks: &[[u64; 6]; 2]) -> Need {
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
    pub(super) fn reachable(&self, b: &Board) -> bool {
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

pub(super) fn rights(b: &Board, color: Color) -> u8 {
    let r = b.castle_rights(color);
    u8::from(r.short.is_some()) | u8::from(r.long.is_some()) << 1
}

pub(super) fn masks_of(b: &Board) -> [[u64; 6]; 2] {
    let mut m = [[0; 6]; 2];
    for (c, color) in Color::ALL.into_iter().enumerate() {
        for (k, piece) in KINDS.into_iter().enumerate() {
            m[c][k] = b.colored_pieces(color, piece).0;
        }
    }
    m
}
