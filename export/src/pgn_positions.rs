//! The PGN `positions` table: one row per position of a game's main line, the final one
//! included, replayed once per game (kifu-replay's [`Position`]): the board as twelve
//! bitboards, the Polyglot key and EPD for search, the move played from it (SAN, UCI and an
//! index in a fixed policy encoding) and the targets a network trains on.
//!
//! # The policy encoding
//!
//! [`POLICY_SIZE`] = 4,240 slots, computed from the UCI alone (no table, no side to move):
//!
//! - `from * 64 + to` (0 … 4,095, squares numbered a1 = 0 … h8 = 63) for every move that is
//!   not an under-promotion: queen promotions included (a pawn reaching the last rank without
//!   a letter is a queen), castling as its UCI writes it (`e1g1` in standard chess, the king
//!   taking its rook, `e1h1`, in Chess960);
//! - `4096 + (piece * 16 + target) * 3 + direction` for an under-promotion: `piece` 0 for a
//!   knight, 1 a bishop, 2 a rook; `target` the file of the square reached (0 = a) plus 8 when
//!   it is on the first rank (Black's promotions); `direction` 0 when the pawn captures towards
//!   the a-file, 1 when it pushes, 2 when it captures towards the h-file.
//!
//! [`policy_index`] and [`policy_uci`] go one way and back. Not lc0's 1,858 moves: those are
//! numbered on a board flipped for Black and need a table both ways; from × to decodes with
//! one division and maps onto lc0's (or any other) by a lookup a trainer builds once.

use std::fmt::Write as _;
use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::types::{Float64Type, Int8Type, Int16Type, Int32Type, Int64Type};
use arrow_array::{ArrayRef, Int64Array, ListArray};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType, Field};
use kifu::pgn::{self, Outcome};
use kifu_replay::chess::cozy::{Color, Piece};
use kifu_replay::chess::{Position, Resolved, Uci, Unplayable, Variant};

use crate::PushError;
use crate::buffers::Buffers;
use crate::cols::{Nums, clamp_i64, list_of, sides};
use crate::pgn_games::MoveData;
use crate::positions_filter::{FNV_START, PlyFilter, fnv1a};
use crate::values;

/// The number of slots of the policy encoding: 4,096 from × to, then 144 under-promotions.
pub const POLICY_SIZE: usize = 4096 + 144;

/// A square's index (a1 = 0, h8 = 63) from its two UCI bytes.
fn square(file: u8, rank: u8) -> Option<usize> {
    let (f, r) = (file.wrapping_sub(b'a'), rank.wrapping_sub(b'1'));
    (f < 8 && r < 8).then_some(usize::from(r) * 8 + usize::from(f))
}

/// The index of a move, given in UCI (`e2e4`, `e7e8n`), in the policy encoding of the PGN
/// `positions` table (`None` for a null move, `0000`, or text that is not a move):
/// `from * 64 + to` (squares a1 = 0 … h8 = 63) for every move but an under-promotion (a queen
/// promotion included), `4096 + (piece * 16 + target) * 3 + direction` for an under-promotion
/// (`piece` 0 knight, 1 bishop, 2 rook; `target` the file reached, plus 8 on the first rank;
/// `direction` 0 a capture towards the a-file, 1 a push, 2 a capture towards the h-file):
/// [`POLICY_SIZE`] slots.
///
/// ```
/// use kifu_export::{policy_index, policy_uci};
/// assert_eq!(policy_index("e2e4"), Some(12 * 64 + 28));
/// assert_eq!(policy_index("e7e8q"), policy_index("e7e8"));
/// assert_eq!(policy_index("a2b1n"), Some(4096 + (0 * 16 + 8 + 1) * 3 + 2));
/// assert_eq!(policy_uci(policy_index("a2b1n").unwrap(), false).as_deref(), Some("a2b1n"));
/// assert_eq!(policy_index("0000"), None);
/// ```
pub fn policy_index(uci: &str) -> Option<u16> {
    let b = uci.as_bytes();
    if !(4..=5).contains(&b.len()) {
        return None;
    }
    let from = square(b[0], b[1])?;
    let to = square(b[2], b[3])?;
    let piece = match b.get(4) {
        None | Some(b'q') => None,
        Some(b'n') => Some(0),
        Some(b'b') => Some(1),
        Some(b'r') => Some(2),
        Some(_) => return None,
    };
    let Some(piece) = piece else {
        return Some((from * 64 + to) as u16);
    };
    let (ff, tf, tr) = (from % 8, to % 8, to / 8);
    if (tr != 0 && tr != 7) || ff.abs_diff(tf) > 1 {
        return None;
    }
    let target = tf + if tr == 0 { 8 } else { 0 };
    let direction = tf + 1 - ff;
    Some((4096 + (piece * 16 + target) * 3 + direction) as u16)
}

/// [`policy_index`] of `mv`'s UCI as [`Position::uci`] writes it (castling `e1g1` in standard
/// chess, king-takes-rook in Chess960), from its squares: no text made.
fn policy_of(pos: &Position, mv: kifu_replay::chess::cozy::Move) -> Option<u16> {
    use kifu_replay::chess::cozy::{File, Square};
    let mut to = mv.to;
    if !pos.chess960() && pos.board().colors(pos.side_to_move()).has(mv.to) {
        let file = if mv.from.file() < mv.to.file() {
            File::G
        } else {
            File::C
        };
        to = Square::new(file, mv.to.rank());
    }
    let (from, to) = (mv.from as usize, to as usize);
    let piece = match mv.promotion {
        None | Some(Piece::Queen) => return Some((from * 64 + to) as u16),
        Some(Piece::Knight) => 0,
        Some(Piece::Bishop) => 1,
        Some(Piece::Rook) => 2,
        Some(_) => return None,
    };
    let (ff, tf, tr) = (from % 8, to % 8, to / 8);
    if (tr != 0 && tr != 7) || ff.abs_diff(tf) > 1 {
        return None;
    }
    let target = tf + if tr == 0 { 8 } else { 0 };
    let direction = tf + 1 - ff;
    Some((4096 + (piece * 16 + target) * 3 + direction) as u16)
}

/// The UCI of a policy index ([`policy_index`] backwards); `queen`: write a queen promotion's
/// `q` (the index does not say whether a move from the seventh rank to the eighth is a
/// pawn's: pass whether the moving piece is a pawn, or compare with the `uci` column as
/// `from × to` only). `None` past [`POLICY_SIZE`].
///
/// ```
/// use kifu_export::{policy_index, policy_uci};
/// let i = policy_index("g1f3").unwrap();
/// assert_eq!(policy_uci(i, false).as_deref(), Some("g1f3"));
/// assert_eq!(policy_uci(policy_index("b7b8q").unwrap(), true).as_deref(), Some("b7b8q"));
/// ```
pub fn policy_uci(index: u16, queen: bool) -> Option<String> {
    let i = usize::from(index);
    let name = |sq: usize| [b'a' + (sq % 8) as u8, b'1' + (sq / 8) as u8];
    let mut out = Vec::with_capacity(5);
    if i < 4096 {
        let (from, to) = (i / 64, i % 64);
        out.extend(name(from));
        out.extend(name(to));
        if queen {
            out.push(b'q');
        }
    } else if i < POLICY_SIZE {
        let k = i - 4096;
        let (direction, target, piece) = (k % 3, (k / 3) % 16, k / 48);
        let (tf, black) = (target % 8, target >= 8);
        let ff = (tf + 1).checked_sub(direction).filter(|&f| f < 8)?;
        let (from, to) = if black {
            (8 + ff, tf)
        } else {
            (48 + ff, 56 + tf)
        };
        out.extend(name(from));
        out.extend(name(to));
        out.push([b'n', b'b', b'r'][piece]);
    } else {
        return None;
    }
    String::from_utf8(out).ok()
}

pub(crate) fn fields() -> Vec<Field> {
    vec![
        Field::new("file", DataType::Utf8, false),
        Field::new("game_index", DataType::Int64, false),
        Field::new("ply", DataType::Int32, false),
        Field::new("key", DataType::Int64, false),
        Field::new("epd", DataType::Utf8, false),
        Field::new("side_to_move", DataType::Utf8, false),
        Field::new("material", DataType::Utf8, false),
        Field::new("san", DataType::Utf8, true),
        Field::new("uci", DataType::Utf8, true),
        Field::new("policy", DataType::Int16, true),
        Field::new("bitboards", list_of(DataType::Int64, false), false),
        Field::new("castling", DataType::Int8, false),
        Field::new("ep_square", DataType::Int8, true),
        Field::new("halfmove_clock", DataType::Int32, false),
        Field::new("score", DataType::Int8, true),
        Field::new("clock", DataType::Float64, true),
        Field::new("eval_cp", DataType::Int32, true),
        Field::new("eval_mate", DataType::Int32, true),
        Field::new("WhiteElo", DataType::Int16, true),
        Field::new("BlackElo", DataType::Int16, true),
        Field::new("speed", DataType::Utf8, true),
        Field::new("error", DataType::Utf8, true),
    ]
}

/// The twelve bitboards of `pos`: White's pawns, knights, bishops, rooks, queens, king, then
/// Black's in the same order (bit i is square i, a1 = 0).
fn bitboards(pos: &Position) -> [u64; 12] {
    let board = pos.board();
    let mut boards = [0u64; 12];
    for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let ours = board.colors(color);
        for piece in Piece::ALL {
            boards[c * 6 + piece as usize] = (board.pieces(piece) & ours).0;
        }
    }
    boards
}

/// The material signature of a position of bitboards `boards` ([`bitboards`]): White's pieces
/// then Black's, each side in the order K Q R B N P, a letter per piece
/// (`KQRRBBNNPPPPPPPPkqrrbbnnpppppppp` at the start, `KRPkr` for king, rook and pawn against
/// king and rook), written into `out`.
fn material(boards: &[u64; 12], out: &mut String) {
    // a letter per piece, eight written at a time (at most 64 pieces, a square each: 8 bytes
    // of room past them)
    let mut buf = [0u8; 72];
    let mut n = 0;
    // (K Q R B N P: the bitboards' order backwards)
    for (side, letters) in [(0, b"PNBRQK"), (6, b"pnbrqk")] {
        for piece in (0..6).rev() {
            let mut count = (boards[side + piece].count_ones() as usize).min(64 - n);
            while count > 0 {
                buf[n..n + 8].copy_from_slice(&[letters[piece]; 8]);
                let k = count.min(8);
                n += k;
                count -= k;
            }
        }
    }
    out.push_str(core::str::from_utf8(&buf[..n]).expect("ASCII"));
}

/// The FEN of `pos` without its two counters, written into `out`: as [`Position::fen`] writes
/// it (python-chess's `board.epd()`), without the formatting machinery in standard chess.
fn epd(pos: &Position, boards: &[u64; 12], out: &mut String) {
    if pos.chess960() {
        // X-FEN's castling letters in Chess960: the library's own writer
        fen_epd(pos, out);
        return;
    }
    let board = pos.board();
    // the board as 64 letters (0: empty), from the bitboards: a step per piece
    let mut letters = [0u8; 64];
    for (k, &bb) in boards.iter().enumerate() {
        let letter = b"PNBRQKpnbrqk"[k];
        let mut bits = bb;
        while bits != 0 {
            letters[bits.trailing_zeros() as usize] = letter;
            bits &= bits - 1;
        }
    }
    let occupied = boards.iter().fold(0, |all, &bb| all | bb);
    let mut buf = [0u8; 96];
    let mut n = 0;
    let mut put = |b: u8| {
        buf[n] = b;
        n += 1;
    };
    for rank in (0..8).rev() {
        // the rank's pieces, a step each (the empty squares between them counted at once)
        let mut pieces = (occupied >> (rank * 8)) & 0xff;
        let mut file = 0;
        while pieces != 0 {
            let f = pieces.trailing_zeros() as usize;
            if f > file {
                put(b'0' + (f - file) as u8);
            }
            put(letters[rank * 8 + f]);
            file = f + 1;
            pieces &= pieces - 1;
        }
        if file < 8 {
            put(b'0' + (8 - file) as u8);
        }
        put(if rank > 0 { b'/' } else { b' ' });
    }
    put(if pos.side_to_move() == Color::White {
        b'w'
    } else {
        b'b'
    });
    put(b' ');
    let mut any = false;
    for (color, [short, long]) in [(Color::White, *b"KQ"), (Color::Black, *b"kq")] {
        let rights = board.castle_rights(color);
        for (has, letter) in [
            (rights.short.is_some(), short),
            (rights.long.is_some(), long),
        ] {
            if has {
                put(letter);
                any = true;
            }
        }
    }
    if !any {
        put(b'-');
    }
    put(b' ');
    match pos.legal_en_passant() {
        Some(sq) => {
            put(b'a' + sq.file() as u8);
            put(b'1' + sq.rank() as u8);
        }
        None => put(b'-'),
    }
    out.push_str(core::str::from_utf8(&buf[..n]).expect("ASCII"));
    debug_assert_eq!(out.as_str(), {
        let mut fen = String::new();
        fen_epd(pos, &mut fen);
        fen
    });
}

/// [`epd`] through [`Position::fen`].
fn fen_epd(pos: &Position, out: &mut String) {
    let start = out.len();
    let _ = write!(out, "{}", pos.fen());
    let cut = out[start..]
        .match_indices(' ')
        .nth(3)
        .map_or(out.len(), |(i, _)| start + i);
    out.truncate(cut);
}

/// The position a game starts from, as kifu-replay's [`replay_game`] takes it from the `FEN`
/// and `Variant` tags (the last of each; `None`: a variant that is not chess, or a FEN that
/// cannot be played from).
///
/// [`replay_game`]: kifu_replay::chess::replay_game
/// The position `game` starts from, or why it has none: a `Variant` that is not chess, or a
/// `FEN` tag that does not read.
fn start(game: &pgn::Game, startpos: &Position) -> Result<Position, String> {
    let mut fen = None;
    let mut variant = (Variant::Standard, "");
    for (name, value) in &game.tags {
        match name.as_str() {
            "FEN" => fen = Some(value.as_str()),
            "Variant" => variant = (Variant::from_tag(value.as_bytes()), value.as_str()),
            _ => {}
        }
    }
    let chess960 = match variant {
        (Variant::Unsupported, name) => {
            return Err(format!(
                "the variant {name:?} is not chess: no position to write"
            ));
        }
        (v, _) => v == Variant::Chess960,
    };
    match fen {
        Some(fen) => Position::from_fen(fen, chess960)
            .map_err(|e| format!("the FEN tag does not read ({e}): no position to write")),
        None if chess960 => Position::from_fen(STARTFEN, true).map_err(|e| e.to_string()),
        None => Ok(startpos.clone()),
    }
}

const STARTFEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Which columns a projection keeps, by their index in [`fields`]: the others are not filled
/// at all (their arrays, left empty, are dropped by the projection before the batch is made).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Wanted(u32);

/// The columns' indexes in [`fields`].
mod col {
    pub(super) const FILE: u32 = 0;
    pub(super) const GAME_INDEX: u32 = 1;
    pub(super) const PLY: u32 = 2;
    pub(super) const KEY: u32 = 3;
    pub(super) const EPD: u32 = 4;
    pub(super) const SIDE_TO_MOVE: u32 = 5;
    pub(super) const MATERIAL: u32 = 6;
    pub(super) const SAN: u32 = 7;
    pub(super) const UCI: u32 = 8;
    pub(super) const POLICY: u32 = 9;
    pub(super) const BITBOARDS: u32 = 10;
    pub(super) const CASTLING: u32 = 11;
    pub(super) const EP_SQUARE: u32 = 12;
    pub(super) const HALFMOVE_CLOCK: u32 = 13;
    pub(super) const SCORE: u32 = 14;
    pub(super) const CLOCK: u32 = 15;
    pub(super) const EVAL_CP: u32 = 16;
    pub(super) const EVAL_MATE: u32 = 17;
    pub(super) const WHITE_ELO: u32 = 18;
    pub(super) const BLACK_ELO: u32 = 19;
    pub(super) const SPEED: u32 = 20;
    pub(super) const ERROR: u32 = 21;

    const fn bits(columns: &[u32]) -> u32 {
        let mut bits = 0;
        let mut k = 0;
        while k < columns.len() {
            bits |= 1 << columns[k];
            k += 1;
        }
        bits
    }

    /// The columns made from the twelve bitboards.
    pub(super) const BOARDS: u32 = bits(&[BITBOARDS, EPD, MATERIAL]);
    /// The text columns.
    pub(super) const TEXT: u32 = bits(&[FILE, EPD, MATERIAL, SAN, UCI, SPEED, ERROR]);
    /// The columns of numbers a row of the usual training columns leaves out.
    pub(super) const OTHERS: u32 = bits(&[
        HALFMOVE_CLOCK,
        CLOCK,
        EVAL_CP,
        EVAL_MATE,
        WHITE_ELO,
        BLACK_ELO,
    ]);
}

impl Wanted {
    pub(crate) const ALL: Wanted = Wanted(u32::MAX);

    /// The columns of [`fields`] that `wanted` names.
    pub(crate) fn of(wanted: impl Fn(&str) -> bool) -> Wanted {
        let mut bits = 0;
        for (k, f) in fields().iter().enumerate() {
            if wanted(f.name()) {
                bits |= 1 << k;
            }
        }
        Wanted(bits)
    }

    fn has(self, column: u32) -> bool {
        self.0 >> column & 1 != 0
    }

    /// Whether any of the columns `bits` ([`col`]'s groups) is kept.
    fn any(self, bits: u32) -> bool {
        self.0 & bits != 0
    }

    /// Whether the move's comments are read (`clock`, `eval_cp`, `eval_mate`).
    fn comments(self) -> bool {
        self.has(col::CLOCK) || self.has(col::EVAL_CP) || self.has(col::EVAL_MATE)
    }
}

/// The per-game columns, read from the tags once.
#[derive(Clone, Copy, Debug, Default)]
struct GameInfo {
    white_elo: Option<i16>,
    black_elo: Option<i16>,
    speed: Option<&'static str>,
    /// White's score: 1, 0 or −1.
    white_score: Option<i8>,
    index: i64,
    /// Rows made from the parser's events ([`Stream`]): the comment columns of a row are
    /// filled once the comments after its move are read ([`PositionsBuilder::flush_comments`]).
    comments_later: bool,
    /// Rows made from the parser's events whose game's score waits for the movetext's result
    /// marker (no `Result` tag that reads): the `score` column is filled at the game's end.
    score_later: bool,
}

#[derive(Debug)]
pub(crate) struct PositionsBuilder {
    pub(crate) wanted: Wanted,
    file: StringBuilder,
    index: Nums<i64>,
    ply: Nums<i32>,
    key: Nums<i64>,
    epd: StringBuilder,
    /// The `side_to_move` column: White to move at each row (its text made per batch).
    white_to_move: Vec<bool>,
    material: StringBuilder,
    san: StringBuilder,
    uci: StringBuilder,
    policy: Nums<i16>,
    /// The `bitboards` column's values, twelve a row (every list twelve long, none null: the
    /// offsets are made per batch).
    bitboard_values: Vec<i64>,
    castling: Nums<i8>,
    ep_square: Nums<i8>,
    halfmove_clock: Nums<i32>,
    score: Nums<i8>,
    clock: Nums<f64>,
    eval_cp: Nums<i32>,
    eval_mate: Nums<i32>,
    white_elo: Nums<i16>,
    black_elo: Nums<i16>,
    speed: StringBuilder,
    error: StringBuilder,
    rows: usize,
    bytes: usize,
    /// Text formatted per row (the FEN cut to its EPD, the material), reused.
    text: String,
    startpos: Position,
    filter: PlyFilter,
    /// The game read event by event, when rows are made from the parser's events.
    stream: Stream,
    /// The batch's room was made ([`PositionsBuilder::reserve`]).
    reserved: bool,
    /// The rows the next batch makes room for.
    room: usize,
    /// Where the columns of numbers get their buffers.
    pool: Buffers,
}

impl PositionsBuilder {
    pub(crate) fn new(table: &crate::TableOptions) -> Self {
        let opts = &table.positions;
        PositionsBuilder {
            wanted: Wanted::ALL,
            file: StringBuilder::new(),
            index: Nums::new(),
            ply: Nums::new(),
            key: Nums::new(),
            epd: StringBuilder::new(),
            white_to_move: Vec::new(),
            material: StringBuilder::new(),
            san: StringBuilder::new(),
            uci: StringBuilder::new(),
            policy: Nums::new(),
            bitboard_values: Vec::new(),
            castling: Nums::new(),
            ep_square: Nums::new(),
            halfmove_clock: Nums::new(),
            score: Nums::new(),
            clock: Nums::new(),
            eval_cp: Nums::new(),
            eval_mate: Nums::new(),
            white_elo: Nums::new(),
            black_elo: Nums::new(),
            speed: StringBuilder::new(),
            error: StringBuilder::new(),
            rows: 0,
            bytes: 0,
            text: String::with_capacity(96),
            startpos: Position::startpos(),
            filter: PlyFilter::new(opts),
            stream: Stream::default(),
            reserved: false,
            room: 8192,
            pool: table.buffers.clone(),
        }
    }
}

/// The `bitboards` column of `values`, twelve a row (as [`crate::cols::Lists`] and an
/// `Int64Builder` make it: no row null), its buffer given back to `pool` when the array goes;
/// `values` starts again empty, with no buffer.
fn bitboard_lists(values: &mut Vec<i64>, pool: &Buffers) -> ArrayRef {
    let values = std::mem::take(values);
    let offsets = OffsetBuffer::from_repeated_length(12, values.len() / 12);
    let DataType::List(item) = list_of(DataType::Int64, false) else {
        unreachable!("a list type")
    };
    let values = Int64Array::new(pool.buffer(values), None);
    Arc::new(ListArray::new(item, offsets, Arc::new(values), None))
}

/// `b`'s array; `b` starts again with room for `rows` values and as many bytes as it held.
fn strings(b: &mut StringBuilder, rows: usize) -> ArrayRef {
    let array = b.finish();
    *b = StringBuilder::with_capacity(rows, array.value_data().len());
    Arc::new(array)
}

/// The move played from a row's position.
enum Next<'a> {
    /// The final position.
    None,
    /// A move played: its UCI (`0000` for a null move; left so without a `uci` column) and
    /// its policy index (without a `policy` column: `None`).
    Played(MoveOf<'a>, Uci, Option<u16>),
    /// A move that could not be played here: the row is the game's last.
    Failed(MoveOf<'a>, Unplayable),
}

/// A row's move: its node in a game built, or its text as the parser read it (its comments
/// come later, [`GameInfo::comments_later`]).
#[derive(Clone, Copy)]
enum MoveOf<'a> {
    Node(&'a pgn::Node),
    Text(&'a str),
}

impl MoveOf<'_> {
    fn text(&self) -> &str {
        match self {
            MoveOf::Node(n) => n.text.as_str(),
            MoveOf::Text(t) => t,
        }
    }
}

impl PositionsBuilder {
    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    pub(crate) fn estimated_bytes(&self) -> usize {
        self.bytes
    }

    /// Adds a row per position of `game`'s main line, the start and the final one included,
    /// and none past a move that cannot be played (its row, the last, says why in `error`).
    /// The filters of [`crate::PositionOptions`] leave rows out.
    ///
    /// # Errors
    ///
    /// A game that is not replayed (a variant that is not chess, a bad `FEN`) has no row: its
    /// [`PushError::NotReplayed`] says why, for the caller to name the game and go on.
    pub(crate) fn push(&mut self, file: &str, game: &pgn::Game) -> Result<(), PushError> {
        let mut pos = start(game, &self.startpos).map_err(|reason| PushError::NotReplayed {
            index: game.index,
            reason,
        })?;
        pos.set_keyed(self.keyed());
        let salt = if self.filter.samples() {
            game.tags.iter().fold(FNV_START, |h, (name, value)| {
                let h = fnv1a(fnv1a(h, name.as_bytes()), &[0]);
                fnv1a(fnv1a(h, value.as_bytes()), &[0])
            })
        } else {
            0
        };
        let mut state = self.filter.start(salt);
        let elo = |tag: &str| game.tag(tag).and_then(values::int::<i16>);
        // the Result tag, else the marker: the game keys' `result` (-w, --partition-by)
        let white_score = match game.outcome() {
            Outcome::WhiteWins => Some(1),
            Outcome::BlackWins => Some(-1),
            Outcome::Draw => Some(0),
            Outcome::Unknown => None,
        };
        let info = GameInfo {
            white_elo: elo("WhiteElo"),
            black_elo: elo("BlackElo"),
            speed: speed_of(game.tag("TimeControl")),
            white_score,
            index: clamp_i64(game.index),
            comments_later: false,
            score_later: false,
        };
        let max_ply = self.filter.max_ply;
        for (ply, node) in game.moves.iter().enumerate() {
            if ply > max_ply {
                return Ok(());
            }
            let keep = self.filter.keep(&mut state, ply, || pos.key());
            let resolved = match pos.resolve(node.san) {
                Ok(Resolved::Null) if pos.is_check() => Err(Unplayable::Illegal),
                r => r,
            };
            match resolved {
                Ok(Resolved::Move(mv)) => {
                    if keep {
                        let (uci, policy) = self.move_columns(&pos, mv);
                        let next = Next::Played(MoveOf::Node(node), uci, policy);
                        self.row(&info, file, ply, &pos, next);
                    }
                    pos.play(mv);
                }
                Ok(Resolved::Null) => {
                    if keep {
                        let null = Next::Played(MoveOf::Node(node), Uci::NULL, None);
                        self.row(&info, file, ply, &pos, null);
                    }
                    pos.play_null();
                }
                Err(why) => {
                    if keep && !self.filter.legal_only {
                        self.row(
                            &info,
                            file,
                            ply,
                            &pos,
                            Next::Failed(MoveOf::Node(node), why),
                        );
                    }
                    return Ok(());
                }
            }
        }
        let ply = game.moves.len();
        if ply <= max_ply && self.filter.keep(&mut state, ply, || pos.key()) {
            self.row(&info, file, ply, &pos, Next::None);
        }
        Ok(())
    }

    /// One row: the position `pos`, `ply` half-moves after the start, and the move from it;
    /// only the columns wanted are filled (the text columns, and the rarer ones, tested as a
    /// group first: a row of numbers only tests its own).
    fn row(&mut self, g: &GameInfo, file: &str, ply: usize, pos: &Position, next: Next<'_>) {
        use col::*;
        if !self.reserved {
            self.reserve();
        }
        let w = self.wanted;
        let board = pos.board();
        let white = pos.side_to_move() == Color::White;
        let boards = if w.any(BOARDS) {
            bitboards(pos)
        } else {
            [0; 12]
        };
        self.rows += 1;
        self.bytes += file.len() + 200;

        let (node, uci, error) = match next {
            Next::None => (None, None, None),
            Next::Played(node, uci, policy) => (Some(node), Some((uci, policy)), None),
            Next::Failed(node, why) => (
                Some(node),
                None,
                Some(match why {
                    Unplayable::Illegal => "illegal_move",
                    Unplayable::Ambiguous => "ambiguous_move",
                }),
            ),
        };
        let (uci, policy) = match &uci {
            Some((u, p)) => (w.has(UCI).then(|| u.as_str()), *p),
            None => (None, None),
        };
        if w.has(GAME_INDEX) {
            self.index.push(g.index);
        }
        if w.has(PLY) {
            self.ply.push(i32::try_from(ply).unwrap_or(i32::MAX));
        }
        if w.has(KEY) {
            self.key.push(pos.key() as i64);
        }
        if w.has(SIDE_TO_MOVE) {
            self.white_to_move.push(white);
        }
        if w.has(POLICY) {
            self.policy.push_option(policy.map(|i| i as i16));
        }
        if w.has(BITBOARDS) {
            self.bitboard_values
                .extend_from_slice(&boards.map(|b| b as i64));
        }
        if w.has(CASTLING) {
            let mut castling = 0i8;
            for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
                let rights = board.castle_rights(color);
                castling |= (i8::from(rights.short.is_some())
                    | (i8::from(rights.long.is_some()) << 1))
                    << (2 * c);
            }
            self.castling.push(castling);
        }
        if w.has(EP_SQUARE) {
            self.ep_square.push_option(board.en_passant().map(|f| {
                let rank = if white { 5 } else { 2 };
                (rank * 8 + f as usize) as i8
            }));
        }
        if w.has(SCORE) {
            if g.score_later {
                self.stream.late_scores.push(white);
            } else {
                self.score
                    .push_option(g.white_score.map(|s| if white { s } else { -s }));
            }
        }
        if w.any(TEXT) {
            if w.has(FILE) {
                self.file.append_value(file);
            }
            if w.has(EPD) {
                self.text.clear();
                epd(pos, &boards, &mut self.text);
                self.epd.append_value(&self.text);
                self.bytes += self.text.len();
            }
            if w.has(MATERIAL) {
                self.text.clear();
                material(&boards, &mut self.text);
                self.material.append_value(&self.text);
            }
            if w.has(SAN) {
                self.san.append_option(node.as_ref().map(MoveOf::text));
            }
            if w.has(UCI) {
                self.uci.append_option(uci);
            }
            if w.has(SPEED) {
                self.speed.append_option(g.speed);
            }
            if w.has(ERROR) {
                self.error.append_option(error);
            }
        }
        if w.any(OTHERS) {
            if w.has(HALFMOVE_CLOCK) {
                self.halfmove_clock
                    .push(i32::try_from(pos.halfmove_clock()).unwrap_or(i32::MAX));
            }
            if w.comments() {
                if g.comments_later {
                    // the comments after the move come next: filled by `flush_comments`
                    self.stream.data = Some(MoveData::default());
                } else {
                    let d = match node {
                        Some(MoveOf::Node(n)) if !n.comments.is_empty() => MoveData::of(n),
                        _ => MoveData::default(),
                    };
                    self.comment_columns(&d);
                }
            }
            if w.has(WHITE_ELO) {
                self.white_elo.push_option(g.white_elo);
            }
            if w.has(BLACK_ELO) {
                self.black_elo.push_option(g.black_elo);
            }
        }
    }

    /// Whether the replay keeps each position's Polyglot key up to date: for the `key` column
    /// and the sample's hash; without either, the key is never read and each move is played
    /// without it ([`Position::set_keyed`]).
    fn keyed(&self) -> bool {
        self.wanted.has(col::KEY) || self.filter.samples()
    }

    /// The UCI (when its column is kept; else [`Uci::NULL`]) and the policy index (when its
    /// column is kept) of `mv`, played from `pos`.
    fn move_columns(
        &self,
        pos: &Position,
        mv: kifu_replay::chess::cozy::Move,
    ) -> (Uci, Option<u16>) {
        let uci = if self.wanted.has(col::UCI) {
            pos.uci(mv)
        } else {
            Uci::NULL
        };
        let policy = if self.wanted.has(col::POLICY) {
            let p = policy_of(pos, mv);
            debug_assert_eq!(p, policy_index(pos.uci(mv).as_str()), "{mv}");
            p
        } else {
            None
        };
        (uci, policy)
    }

    /// Room for the batch's rows in the columns of numbers kept, made at its first row, in
    /// buffers of the pool ([`Buffers`]): 8,192 rows for a builder's first batch (a builder
    /// lives for a piece of input, some 7,000 positions of lichess games in a positions
    /// table's piece of 256 KiB; grown by doubling from Arrow's 1,024 it copied each column
    /// three times over), then the last batch's rows and a quarter more.
    fn reserve(&mut self) {
        use col::*;
        self.reserved = true;
        let w = self.wanted;
        let n = self.room;
        let pool = &self.pool;
        let room = |has: bool| if has { n } else { 0 };
        self.index.reserve(room(w.has(GAME_INDEX)), pool);
        self.ply.reserve(room(w.has(PLY)), pool);
        self.key.reserve(room(w.has(KEY)), pool);
        self.white_to_move.reserve(room(w.has(SIDE_TO_MOVE)));
        self.policy.reserve(room(w.has(POLICY)), pool);
        if w.has(BITBOARDS) && self.bitboard_values.capacity() == 0 {
            self.bitboard_values = pool.vec(12 * n);
        }
        self.castling.reserve(room(w.has(CASTLING)), pool);
        self.ep_square.reserve(room(w.has(EP_SQUARE)), pool);
        self.halfmove_clock
            .reserve(room(w.has(HALFMOVE_CLOCK)), pool);
        self.score.reserve(room(w.has(SCORE)), pool);
        self.clock.reserve(room(w.has(CLOCK)), pool);
        self.eval_cp.reserve(room(w.has(EVAL_CP)), pool);
        self.eval_mate.reserve(room(w.has(EVAL_MATE)), pool);
        self.white_elo.reserve(room(w.has(WHITE_ELO)), pool);
        self.black_elo.reserve(room(w.has(BLACK_ELO)), pool);
    }

    /// The `clock`, `eval_cp` and `eval_mate` of a row, from its move's comments.
    fn comment_columns(&mut self, d: &MoveData) {
        use col::*;
        let w = self.wanted;
        let (cp, mate) = d.score();
        if w.has(CLOCK) {
            self.clock.push_option(d.clock);
        }
        if w.has(EVAL_CP) {
            self.eval_cp.push_option(cp);
        }
        if w.has(EVAL_MATE) {
            self.eval_mate.push_option(mate);
        }
    }

    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        // the next batch's builders sized as this one and a quarter more (they would grow by
        // doubling from nothing, each step a copy; a batch is cut after the game that fills
        // it, so that one sized exactly would still grow once): at most 65,536 rows
        let n = (self.rows + self.rows / 4).min(1 << 16);
        if self.rows > 0 {
            self.room = n;
        }
        self.reserved = false;
        let pool = &self.pool;
        let out: Vec<ArrayRef> = vec![
            strings(&mut self.file, n),
            self.index.finish::<Int64Type>(pool),
            self.ply.finish::<Int32Type>(pool),
            self.key.finish::<Int64Type>(pool),
            strings(&mut self.epd, n),
            sides(&mut self.white_to_move, n),
            strings(&mut self.material, n),
            strings(&mut self.san, n),
            strings(&mut self.uci, n),
            self.policy.finish::<Int16Type>(pool),
            bitboard_lists(&mut self.bitboard_values, pool),
            self.castling.finish::<Int8Type>(pool),
            self.ep_square.finish::<Int8Type>(pool),
            self.halfmove_clock.finish::<Int32Type>(pool),
            self.score.finish::<Int8Type>(pool),
            self.clock.finish::<Float64Type>(pool),
            self.eval_cp.finish::<Int32Type>(pool),
            self.eval_mate.finish::<Int32Type>(pool),
            self.white_elo.finish::<Int16Type>(pool),
            self.black_elo.finish::<Int16Type>(pool),
            strings(&mut self.speed, n),
            strings(&mut self.error, n),
        ];
        self.rows = 0;
        self.bytes = 0;
        out
    }
}

/// lichess's speed of a `TimeControl` tag's value.
fn speed_of(time_control: Option<&str>) -> Option<&'static str> {
    time_control
        .and_then(|t| pgn::TimeControl::parse(t.as_bytes()))
        .and_then(|t| t.speed())
        .map(pgn::Speed::as_str)
}

/// A game's outcome as [`pgn::Game::outcome`] reads it: the first `Result` tag when it holds
/// one of the four results, else the movetext's marker, else the tag read as it is.
fn outcome_of(result_tag: Option<&str>, marker: Option<Outcome>) -> Outcome {
    result_tag
        .and_then(|r| Outcome::parse(r.trim().as_bytes()))
        .or(marker)
        .or_else(|| result_tag.and_then(|r| Outcome::parse(r.as_bytes())))
        .unwrap_or(Outcome::Unknown)
}

/// White's score of an outcome: 1, 0, −1.
fn white_score(outcome: Outcome) -> Option<i8> {
    match outcome {
        Outcome::WhiteWins => Some(1),
        Outcome::BlackWins => Some(-1),
        Outcome::Draw => Some(0),
        Outcome::Unknown => None,
    }
}

/// Where the game read event by event stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Phase {
    /// No game open.
    #[default]
    Idle,
    /// Its tags are being read.
    Tags,
    /// Its main line is being replayed.
    Moves,
    /// No more rows: a move that could not be played, the last ply wanted, or a game that is
    /// not replayed ([`Stream::refused`]).
    Over,
}

/// The game read from the parser's events ([`PgnPositionEvents`]): what [`PositionsBuilder::push`]
/// reads from a game built, gathered as it comes, its buffers reused from game to game.
#[derive(Debug, Default)]
struct Stream {
    phase: Phase,
    index: u64,
    /// FNV-1a of the tags, for the sample.
    salt: u64,
    /// The last `FEN` tag.
    fen: Option<String>,
    fen_text: String,
    /// The last `Variant` tag.
    variant: Option<String>,
    variant_text: String,
    /// The first `WhiteElo`, `BlackElo`, `TimeControl`, `Result` tags.
    white_elo: Option<Option<i16>>,
    black_elo: Option<Option<i16>>,
    speed: Option<Option<&'static str>>,
    result_tag: Option<String>,
    result_text: String,
    /// The movetext's result marker.
    marker: Option<Outcome>,
    info: GameInfo,
    /// The position reached (boxed: taken out and put back at every move, a pointer moved
    /// rather than the board), kept from game to game.
    pos: Option<Box<Position>>,
    state: u64,
    ply: usize,
    /// Why the game has no position (a `Variant` that is not chess, a bad `FEN`).
    refused: Option<String>,
    /// The comment columns of the last row, being read from its move's comments.
    data: Option<MoveData>,
    /// The side to move of each row of the game whose score waits for its end (true: White).
    late_scores: Vec<bool>,
}

/// Keeps `value` in `slot`, reusing the room of `spare`.
fn keep_text(slot: &mut Option<String>, spare: &mut String, value: &str) {
    let mut s = slot.take().unwrap_or_else(|| std::mem::take(spare));
    s.clear();
    s.push_str(value);
    *slot = Some(s);
}

/// Puts the text of `slot` back into `spare`.
fn drop_text(slot: &mut Option<String>, spare: &mut String) {
    if let Some(s) = slot.take() {
        *spare = s;
    }
}

impl PositionsBuilder {
    /// A game opens (its `on_tree`): `index` counted in the piece.
    fn stream_begin(&mut self, index: u64) {
        let s = &mut self.stream;
        s.phase = Phase::Tags;
        s.index = index;
        s.salt = FNV_START;
        drop_text(&mut s.fen, &mut s.fen_text);
        drop_text(&mut s.variant, &mut s.variant_text);
        drop_text(&mut s.result_tag, &mut s.result_text);
        s.white_elo = None;
        s.black_elo = None;
        s.speed = None;
        s.marker = None;
        s.ply = 0;
        s.refused = None;
        s.data = None;
        s.late_scores.clear();
    }

    /// A tag of the open game, its name and value decoded as the game builder keeps them.
    fn stream_tag(&mut self, name: &str, value: &str) {
        let samples = self.filter.samples();
        let s = &mut self.stream;
        if s.phase != Phase::Tags {
            return;
        }
        if samples {
            let h = fnv1a(fnv1a(s.salt, name.as_bytes()), &[0]);
            s.salt = fnv1a(fnv1a(h, value.as_bytes()), &[0]);
        }
        match name {
            "FEN" => keep_text(&mut s.fen, &mut s.fen_text, value),
            "Variant" => keep_text(&mut s.variant, &mut s.variant_text, value),
            "WhiteElo" if s.white_elo.is_none() => s.white_elo = Some(values::int::<i16>(value)),
            "BlackElo" if s.black_elo.is_none() => s.black_elo = Some(values::int::<i16>(value)),
            "TimeControl" if s.speed.is_none() => s.speed = Some(speed_of(Some(value))),
            "Result" if s.result_tag.is_none() => {
                keep_text(&mut s.result_tag, &mut s.result_text, value)
            }
            _ => {}
        }
    }

    /// The tags are over (or the first move came, or the game ended without either): the
    /// start position, the game's columns (once: at every move after, a test).
    #[inline]
    fn stream_start(&mut self) {
        if self.stream.phase == Phase::Tags {
            self.stream_started();
        }
    }

    /// [`stream_start`](Self::stream_start), the tags over.
    fn stream_started(&mut self) {
        let keyed = self.keyed();
        let s = &mut self.stream;
        // as `start` reads a game's tags: the last FEN, the last Variant
        let variant = match s.variant.as_deref() {
            Some(v) => (Variant::from_tag(v.as_bytes()), v),
            None => (Variant::Standard, ""),
        };
        let start = match variant {
            (Variant::Unsupported, name) => Err(format!(
                "the variant {name:?} is not chess: no position to write"
            )),
            (v, _) => {
                let chess960 = v == Variant::Chess960;
                match s.fen.as_deref() {
                    Some(fen) => Position::from_fen(fen, chess960).map_err(|e| {
                        format!("the FEN tag does not read ({e}): no position to write")
                    }),
                    None if chess960 => {
                        Position::from_fen(STARTFEN, true).map_err(|e| e.to_string())
                    }
                    None => Ok(self.startpos.clone()),
                }
            }
        };
        let mut pos = match start {
            Ok(pos) => pos,
            Err(reason) => {
                s.refused = Some(reason);
                s.phase = Phase::Over;
                return;
            }
        };
        pos.set_keyed(keyed);
        let known = s
            .result_tag
            .as_deref()
            .and_then(|r| Outcome::parse(r.trim().as_bytes()));
        s.info = GameInfo {
            white_elo: s.white_elo.flatten(),
            black_elo: s.black_elo.flatten(),
            speed: s.speed.flatten(),
            white_score: known.and_then(white_score),
            index: clamp_i64(s.index),
            comments_later: true,
            score_later: known.is_none(),
        };
        s.state = self
            .filter
            .start(if self.filter.samples() { s.salt } else { 0 });
        match &mut s.pos {
            Some(b) => **b = pos,
            None => s.pos = Some(Box::new(pos)),
        }
        s.phase = Phase::Moves;
    }

    /// The comment columns of the last row, its move's comments all read.
    #[inline]
    fn flush_comments(&mut self) {
        if let Some(d) = self.stream.data.take() {
            self.comment_columns(&d);
        }
    }

    /// A move of the open game's main line: `text` as the game builder keeps it.
    fn stream_move(&mut self, file: &str, san: pgn::San, text: &[u8]) {
        self.flush_comments();
        self.stream_start();
        if self.stream.phase != Phase::Moves {
            return;
        }
        let ply = self.stream.ply;
        if ply > self.filter.max_ply {
            self.stream.phase = Phase::Over;
            return;
        }
        let Some(mut pos) = self.stream.pos.take() else {
            return;
        };
        let info = self.stream.info;
        let keep = self.filter.keep(&mut self.stream.state, ply, || pos.key());
        let resolved = match pos.resolve(san) {
            Ok(Resolved::Null) if pos.is_check() => Err(Unplayable::Illegal),
            r => r,
        };
        // the `san` column: the text as the game builder decodes it
        let text = if self.wanted.has(col::SAN) {
            String::from_utf8_lossy(text)
        } else {
            std::borrow::Cow::Borrowed("")
        };
        let mv = MoveOf::Text(&text);
        match resolved {
            Ok(Resolved::Move(m)) => {
                if keep {
                    let (uci, policy) = self.move_columns(&pos, m);
                    self.row(&info, file, ply, &pos, Next::Played(mv, uci, policy));
                }
                pos.play(m);
            }
            Ok(Resolved::Null) => {
                if keep {
                    let null = Next::Played(mv, Uci::NULL, None);
                    self.row(&info, file, ply, &pos, null);
                }
                pos.play_null();
            }
            Err(why) => {
                if keep && !self.filter.legal_only {
                    self.row(&info, file, ply, &pos, Next::Failed(mv, why));
                }
                self.stream.phase = Phase::Over;
            }
        }
        self.stream.pos = Some(pos);
        self.stream.ply = ply + 1;
    }

    /// A comment after the last move of the open game's main line, as the game builder keeps
    /// it (its pieces joined).
    fn stream_comment(&mut self, text: &str) {
        let Some(d) = &mut self.stream.data else {
            return;
        };
        for c in pgn::Commands::new(text) {
            match c {
                pgn::Command::Clock(t) if d.clock.is_none() => d.clock = Some(t.as_secs_f64()),
                pgn::Command::Elapsed(t) if d.emt.is_none() => d.emt = Some(t.as_secs_f64()),
                pgn::Command::Eval(e) if d.eval.is_none() => d.eval = Some(e),
                _ => {}
            }
        }
    }

    /// The open game ends: its final row, the scores that waited for its result.
    fn stream_end(&mut self, file: &str) -> Result<(), PushError> {
        self.flush_comments();
        self.stream_start();
        let s = &mut self.stream;
        let phase = std::mem::replace(&mut s.phase, Phase::Idle);
        if let Some(reason) = s.refused.take() {
            return Err(PushError::NotReplayed {
                index: s.index,
                reason,
            });
        }
        if phase == Phase::Moves
            && let Some(pos) = s.pos.take()
        {
            let ply = s.ply;
            let info = s.info;
            if ply <= self.filter.max_ply
                && self.filter.keep(&mut self.stream.state, ply, || pos.key())
            {
                self.row(&info, file, ply, &pos, Next::None);
                self.flush_comments();
            }
            self.stream.pos = Some(pos);
        }
        let s = &mut self.stream;
        if !s.late_scores.is_empty() {
            let score = white_score(outcome_of(s.result_tag.as_deref(), s.marker));
            for &white in &s.late_scores {
                self.score
                    .push_option(score.map(|v| if white { v } else { -v }));
            }
            s.late_scores.clear();
        }
        Ok(())
    }
}

/// The PGN `positions` table made from the parser's events, without a game built
/// ([`Builder::pgn_position_events`](crate::Builder::pgn_position_events)): the same rows
/// [`Builder::push_pgn`](crate::Builder::push_pgn) makes of the game a
/// [`pgn::GameBuilder`] of [`pgn::Scope::MainLine`] builds from the same events.
///
/// Tell it, for each game, what that builder keeps, in the parser's order: [`begin`](Self::begin)
/// at the game's `on_tree`, each tag kept ([`tag`](Self::tag)), [`tags_end`](Self::tags_end),
/// each main-line move kept ([`play`](Self::play)) and each comment kept after one
/// ([`comment`](Self::comment), its pieces joined and decoded as the builder decodes them),
/// the result marker ([`result`](Self::result)), then [`end`](Self::end). What the builder
/// does not keep (past its limit of bytes, say) must not be told: the rows would be of more
/// than the game it builds.
///
/// ```
/// use kifu::pgn::{self, Context, Move, Tag, Visitor};
/// use kifu::Control;
/// use kifu_export::{Builder, Table, TableOptions};
///
/// struct Rows(Builder);
/// impl Visitor for Rows {
///     fn on_tree(&mut self, ctx: &Context) -> Control {
///         if ctx.is_main_line() {
///             self.0.pgn_position_events().unwrap().begin(ctx.game);
///             Control::Continue
///         } else {
///             Control::Skip
///         }
///     }
///     fn on_property(&mut self, _: &Context, tag: &Tag<'_>) -> Control {
///         let name = String::from_utf8_lossy(tag.name);
///         self.0.pgn_position_events().unwrap().tag(&name, &tag.value.decode_utf8_lossy());
///         Control::Continue
///     }
///     fn on_move(&mut self, _: &Context, mv: &Move<'_>) -> Control {
///         self.0.pgn_position_events().unwrap().play("g.pgn", mv.san, mv.text);
///         Control::Continue
///     }
///     fn on_tree_end(&mut self, ctx: &Context) -> Control {
///         if ctx.is_main_line() {
///             self.0.pgn_position_events().unwrap().end("g.pgn").unwrap();
///         }
///         Control::Continue
///     }
/// }
/// let mut rows = Rows(Builder::new(Table::PgnPositions, &TableOptions::default()));
/// pgn::parse(b"1. e4 (1. d4) e5 *\n\n1. c4 *", &mut rows);
/// assert_eq!((rows.0.games(), rows.0.rows()), (2, 5));
/// ```
#[derive(Debug)]
pub struct PgnPositionEvents<'b> {
    pub(crate) b: &'b mut PositionsBuilder,
    pub(crate) games: &'b mut usize,
}

impl PgnPositionEvents<'_> {
    /// A game opens: `index`, its number in the input (the `game_index` column).
    pub fn begin(&mut self, index: u64) {
        self.b.stream_begin(index);
    }

    /// A tag of the open game (the builder's decoding: U+FFFD for what is not UTF-8).
    pub fn tag(&mut self, name: &str, value: &str) {
        self.b.stream_tag(name, value);
    }

    /// Whether the tag `name` is read (the others may be left out, [`tag`](Self::tag) told
    /// only of those this says): the tags of the start position, those of the game's columns
    /// kept (`WhiteElo`, `BlackElo`, `TimeControl` for `speed`, `Result` for `score`), and
    /// every tag with a sample (its salt is a hash of them all).
    pub fn wants_tag(&self, name: &[u8]) -> bool {
        use col::*;
        let w = self.b.wanted;
        self.b.filter.samples()
            || match name {
                b"FEN" | b"Variant" => true,
                b"WhiteElo" => w.has(WHITE_ELO),
                b"BlackElo" => w.has(BLACK_ELO),
                b"TimeControl" => w.has(SPEED),
                b"Result" => w.has(SCORE),
                _ => false,
            }
    }

    /// The open game's tags are over.
    pub fn tags_end(&mut self) {
        self.b.stream_start();
    }

    /// A move of the open game's main line: its SAN and its text as read (the `san` column,
    /// decoded as the builder decodes it).
    pub fn play(&mut self, file: &str, san: pgn::San, text: &[u8]) {
        self.b.stream_move(file, san, text);
    }

    /// Whether comments are read ([`comment`](Self::comment) may be left out when not).
    pub fn wants_comments(&self) -> bool {
        self.b.wanted.comments()
    }

    /// A comment of the open game's main line, after its last move (the builder's decoding,
    /// its pieces joined): its `[%clk]` and `[%eval]` commands.
    pub fn comment(&mut self, text: &str) {
        self.b.stream_comment(text);
    }

    /// The open game's result marker.
    pub fn result(&mut self, outcome: Outcome) {
        self.b.stream.marker = Some(outcome);
    }

    /// The open game ends: its last rows.
    ///
    /// # Errors
    ///
    /// [`PushError::NotReplayed`], as [`Builder::push_pgn`](crate::Builder::push_pgn): the
    /// game has no row.
    pub fn end(&mut self, file: &str) -> Result<(), PushError> {
        self.b.stream_end(file)?;
        *self.games += 1;
        Ok(())
    }
}
