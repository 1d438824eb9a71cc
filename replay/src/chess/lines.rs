//! The board logic both the visitor adapter and the DOM helper drive: one position per open
//! line (the main line and each variation being read), variations from their branch point,
//! what happens after a move that cannot be played.
//!
//! A PGN variation replaces the last move played on its parent line, so it starts from the
//! position *before* that move: each line keeps the position before its last move and the one
//! after. Lines are a stack as deep as the variations nest (the parser bounds that depth with
//! `Config::max_depth`); no recursion, and the stack's positions are reused from game to game.

use kifu::pgn::San;

use super::position::UciParts;
use super::{Position, Resolved, Unplayable};

/// Why a move was not replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotReplayed {
    /// An earlier move of its line could not be played (an illegal or ambiguous move was
    /// reported), so the position it would be played in is not known.
    AfterError,
    /// Its line is a variation that branches from a position that is not known: from a move
    /// after an error, or from before the first move of its parent line.
    UnknownStart,
    /// The game is not replayed at all (a bad `FEN`, an unsupported `Variant`, reported once).
    GameNotReplayed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// No move played on this line yet; `cur` is its start.
    Fresh,
    /// `prev` is the position before the last move, `cur` after it.
    Ok,
    /// The last move of the line could not be played; `cur` is the position before it (a
    /// variation replacing it starts there).
    FailedHere,
    /// Nothing more on this line can be replayed.
    Lost(NotReplayed),
}

#[derive(Clone, Debug)]
struct Line {
    prev: Position,
    cur: Position,
    state: State,
}

/// What playing one move did.
pub(crate) enum Step<'a> {
    /// The move was played.
    Played {
        /// The move (castling king-takes-rook), or `None` for a null move.
        mv: Option<cozy_chess::Move>,
        /// Its UCI (built from the move and its castling-adjusted target square).
        uci: UciParts,
        /// The position before it (when the engine keeps it).
        before: Option<&'a Position>,
        /// The position after it.
        after: &'a Position,
    },
    /// The move could not be played: reported once.
    Failed(Unplayable),
    /// The move was not replayed (see [`NotReplayed`]).
    Skipped(NotReplayed),
}

/// A 128-bit key of a main line: its starting position and its moves, for telling games that
/// reach the same final position by the same moves (whatever notation wrote them). Not
/// cryptographic; two 64-bit lanes mixed independently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct LineHash {
    a: u64,
    b: u64,
}

impl LineHash {
    pub(crate) fn new(start: u64) -> LineHash {
        let mut h = LineHash {
            a: 0x243F_6A88_85A3_08D3,
            b: 0x1319_8A2E_0370_7344,
        };
        h.add(start);
        h
    }

    #[inline]
    pub(crate) fn add(&mut self, x: u64) {
        self.a = (self.a ^ x)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(27);
        self.b = (self.b ^ x.rotate_left(32))
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            .rotate_left(31);
    }

    pub(crate) fn finish(mut self, end: u64) -> u128 {
        self.add(end);
        let mix = |mut z: u64| {
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        (u128::from(mix(self.a)) << 64) | u128::from(mix(self.b ^ self.a))
    }
}

/// The code of a move for [`LineHash`]: from, to, promotion; 0 for a null move.
#[inline]
pub(crate) fn move_code(mv: Option<cozy_chess::Move>) -> u64 {
    match mv {
        None => 0,
        Some(m) => {
            (1 + m.from as u64)
                | ((m.to as u64) << 8)
                | (m.promotion.map_or(0, |p| p as u64 + 1) << 16)
        }
    }
}

/// The stack of lines of one game.
#[derive(Clone, Debug)]
pub(crate) struct Engine {
    lines: Vec<Line>,
    /// Index of the current line in `lines`.
    depth: usize,
    start: Option<Position>,
    hash: LineHash,
    /// Keep the position before each move (for variations; not needed for a main line alone).
    pub(crate) keep_prev: bool,
    pub(crate) main_plies: u32,
    pub(crate) replayed: u64,
    pub(crate) skipped: u64,
    pub(crate) errors: u32,
}

impl Default for Engine {
    fn default() -> Self {
        Engine {
            lines: Vec::new(),
            depth: 0,
            start: None,
            hash: LineHash::new(0),
            keep_prev: true,
            main_plies: 0,
            replayed: 0,
            skipped: 0,
            errors: 0,
        }
    }
}

impl Engine {
    /// A new game, from `start` (`None`: the game is not replayed).
    pub(crate) fn start_game(&mut self, start: Option<Position>) {
        self.depth = 0;
        self.main_plies = 0;
        self.replayed = 0;
        self.skipped = 0;
        self.errors = 0;
        let (pos, state) = match start {
            Some(p) => (p, State::Fresh),
            None => (
                Position::startpos(),
                State::Lost(NotReplayed::GameNotReplayed),
            ),
        };
        self.hash = LineHash::new(pos.key());
        self.start = (state == State::Fresh).then(|| pos.clone());
        let line = Line {
            prev: pos.clone(),
            cur: pos,
            state,
        };
        if self.lines.is_empty() {
            self.lines.push(line);
        } else {
            self.lines[0] = line;
        }
    }

    /// The starting position, when the game is replayed.
    pub(crate) fn start(&self) -> Option<&Position> {
        self.start.as_ref()
    }

    /// A variation opens: it replaces the last move of the current line.
    pub(crate) fn enter_variation(&mut self) {
        let parent = &self.lines[self.depth];
        let (from, state) = match parent.state {
            State::Ok => (&parent.prev, State::Fresh),
            State::FailedHere => (&parent.cur, State::Fresh),
            State::Fresh => (&parent.cur, State::Lost(NotReplayed::UnknownStart)),
            State::Lost(NotReplayed::GameNotReplayed) => {
                (&parent.cur, State::Lost(NotReplayed::GameNotReplayed))
            }
            State::Lost(_) => (&parent.cur, State::Lost(NotReplayed::UnknownStart)),
        };
        let from = from.clone();
        self.depth += 1;
        if self.depth == self.lines.len() {
            self.lines.push(Line {
                prev: from.clone(),
                cur: from,
                state,
            });
        } else {
            let line = &mut self.lines[self.depth];
            line.cur.clone_from(&from);
            line.state = state;
        }
    }

    /// The current variation closes.
    pub(crate) fn exit_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The current line's depth (0: the main line).
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// Plays `san` on the current line.
    #[inline]
    pub(crate) fn play(&mut self, san: San) -> Step<'_> {
        let main = self.depth == 0;
        let line = &mut self.lines[self.depth];
        match line.state {
            State::Fresh | State::Ok => {}
            State::FailedHere => {
                line.state = State::Lost(NotReplayed::AfterError);
                self.skipped += 1;
                return Step::Skipped(NotReplayed::AfterError);
            }
            State::Lost(why) => {
                self.skipped += 1;
                return Step::Skipped(why);
            }
        }
        let resolved = match line.cur.find(san) {
            Ok((Resolved::Null, _)) if line.cur.is_check() => Err(Unplayable::Illegal),
            r => r,
        };
        match resolved {
            Ok((r, piece)) => {
                if self.keep_prev {
                    line.prev.clone_from(&line.cur);
                }
                let (mv, uci) = match r {
                    Resolved::Move(mv) => {
                        let uci = line.cur.uci_parts(mv, piece);
                        line.cur.play_piece(mv, piece);
                        (Some(mv), uci)
                    }
                    Resolved::Null => {
                        line.cur.play_null();
                        (None, UciParts::NULL)
                    }
                };
                line.state = State::Ok;
                self.replayed += 1;
                if main {
                    self.main_plies += 1;
                    self.hash.add(move_code(mv));
                }
                Step::Played {
                    mv,
                    uci,
                    before: self.keep_prev.then_some(&line.prev),
                    after: &line.cur,
                }
            }
            Err(e) => {
                line.state = State::FailedHere;
                self.errors += 1;
                Step::Failed(e)
            }
        }
    }

    /// The position after the main line, when every move of it was replayed.
    pub(crate) fn end(&self) -> Option<&Position> {
        let main = self.lines.first()?;
        matches!(main.state, State::Fresh | State::Ok).then_some(&main.cur)
    }

    /// The key of the main line (start, moves, end), when every move of it was replayed.
    pub(crate) fn main_line_key(&self) -> Option<u128> {
        self.end().map(|end| self.hash.finish(end.key()))
    }
}
