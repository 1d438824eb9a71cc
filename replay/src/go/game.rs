//! The game logic both the SGF adapter and the DOM helper drive: a node's setup and move,
//! collected property by property and applied when the node ends.

use kifu::sgf::{BoardSize, Color, Point, RawValue};

use super::board::{BLACK, Board, EMPTY, PlayOutcome, WHITE};
use super::error::ErrorKind;

/// The rules that matter to a replay: whether suicide is allowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Suicide is a legal move (New Zealand, Ing / GOE, Tromp–Taylor rules); otherwise it is
    /// reported as `suicide` (Japanese, Chinese, AGA, Korean rules, and when `RU` is absent).
    pub suicide_allowed: bool,
}

impl Rules {
    /// Reads an `RU` value: `NZ`, `New Zealand`, `Ing`, `GOE`, `Tromp-Taylor` (any case)
    /// allow suicide.
    ///
    /// ```
    /// use kifu_replay::go::Rules;
    /// assert!(Rules::from_ru(b"NZ").suicide_allowed);
    /// assert!(Rules::from_ru(b"Ing").suicide_allowed);
    /// assert!(!Rules::from_ru(b"Japanese").suicide_allowed);
    /// ```
    pub fn from_ru(ru: &[u8]) -> Rules {
        let v = ru.trim_ascii();
        let starts =
            |p: &str| v.len() >= p.len() && v[..p.len()].eq_ignore_ascii_case(p.as_bytes());
        Rules {
            suicide_allowed: starts("nz")
                || starts("new zealand")
                || starts("ing")
                || starts("goe")
                || starts("tromp"),
        }
    }
}

/// One setup or move property value of a node, as collected.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Item {
    /// `MOVE_B` / `MOVE_W` for a move, `SETUP` + `BLACK` / `WHITE` / `EMPTY` for `AB` / `AW` /
    /// `AE`.
    pub(crate) what: u8,
    /// The value's bytes in the node's arena.
    pub(crate) start: u32,
    pub(crate) len: u32,
    /// Where the value is (its `[`), when known.
    pub(crate) pos: Option<kifu::Position>,
}

const SETUP: u8 = 16;
const MOVE_B: u8 = 1;
const MOVE_W: u8 = 2;

/// The setup and move values of one node, and the root's game information.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeBuf {
    pub(crate) items: Vec<Item>,
    pub(crate) bytes: Vec<u8>,
    /// A `KO` property: execute the move even if illegal, without a report.
    pub(crate) ko_flag: bool,
}

impl NodeBuf {
    pub(crate) fn clear(&mut self) {
        self.items.clear();
        self.bytes.clear();
        self.ko_flag = false;
    }

    /// Takes a value of property `name` if it is one the replay needs.
    #[inline]
    pub(crate) fn value(&mut self, name: &[u8], raw: &[u8], pos: Option<kifu::Position>) {
        let what = match name {
            b"B" => MOVE_B,
            b"W" => MOVE_W,
            b"AB" => SETUP + BLACK,
            b"AW" => SETUP + WHITE,
            b"AE" => SETUP + EMPTY,
            b"KO" => {
                self.ko_flag = true;
                return;
            }
            _ => return,
        };
        let start = self.bytes.len() as u32;
        self.bytes.extend_from_slice(raw);
        self.items.push(Item {
            what,
            start,
            len: raw.len() as u32,
            pos,
        });
    }

    /// The colour of the node's move (its first `B` or `W`), if it has one.
    pub(crate) fn mover(&self) -> Option<Color> {
        let it = self.items.iter().find(|it| it.what < SETUP)?;
        Some(if it.what == MOVE_B {
            Color::Black
        } else {
            Color::White
        })
    }

    /// Whether the node has a move (`B` or `W`).
    pub(crate) fn has_move(&self) -> bool {
        self.items.iter().any(|it| it.what < SETUP)
    }

    fn raw(&self, it: &Item) -> &[u8] {
        &self.bytes[it.start as usize..][..it.len as usize]
    }
}

/// A problem met while applying a node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeError {
    pub(crate) kind: ErrorKind,
    pub(crate) item: usize,
}

/// The move of a node as applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Applied {
    pub(crate) color: Color,
    /// `None`: a pass.
    pub(crate) point: Option<Point>,
    /// Opponent stones captured (own stones lost, for a suicide).
    pub(crate) captured: u32,
    /// Whether the move was executed (not for an occupied or off-board point).
    pub(crate) executed: bool,
    /// Index of its item in the node.
    pub(crate) item: usize,
}

/// A game being replayed: its board and rules.
#[derive(Clone, Debug)]
pub(crate) struct Game {
    pub(crate) board: Board,
    pub(crate) rules: Rules,
    /// Moves applied (passes included, the node's move whether executed or not).
    pub(crate) moves: u32,
}

impl Game {
    pub(crate) fn new(size: BoardSize, rules: Rules) -> Game {
        Game {
            board: Board::new(size),
            rules,
            moves: 0,
        }
    }

    pub(crate) fn reset(&mut self, size: BoardSize, rules: Rules) {
        self.board.reset(size);
        self.rules = rules;
        self.moves = 0;
    }

    /// Applies a node: its setup (`AB`, `AW`, `AE` in order), then its move (the first `B` or
    /// `W` value). Reports problems through `err`; returns the move.
    pub(crate) fn apply(
        &mut self,
        node: &NodeBuf,
        mut err: impl FnMut(NodeError),
    ) -> Option<Applied> {
        self.apply_setup(node, &mut err);
        self.apply_move(node, err)
    }

    /// Applies a node's setup values, in order.
    pub(crate) fn apply_setup(&mut self, node: &NodeBuf, mut err: impl FnMut(NodeError)) {
        let size = self.board.size();
        for (k, it) in node.items.iter().enumerate() {
            if it.what < SETUP {
                continue;
            }
            match RawValue(node.raw(it)).points(size) {
                Some(points) => {
                    for p in points {
                        self.board.set(p, it.what - SETUP);
                    }
                }
                None => err(NodeError {
                    kind: ErrorKind::OutOfBoard,
                    item: k,
                }),
            }
        }
    }

    /// Applies a node's move (its first `B` or `W` value; a second one is the parser's E37).
    pub(crate) fn apply_move(
        &mut self,
        node: &NodeBuf,
        mut err: impl FnMut(NodeError),
    ) -> Option<Applied> {
        let size = self.board.size();
        let (k, it) = node
            .items
            .iter()
            .enumerate()
            .find(|(_, it)| it.what < SETUP)?;
        let color = if it.what == MOVE_B {
            Color::Black
        } else {
            Color::White
        };
        self.moves += 1;
        let mut a = Applied {
            color,
            point: None,
            captured: 0,
            executed: true,
            item: k,
        };
        let mut report = |kind| err(NodeError { kind, item: k });
        match RawValue(node.raw(it)).go_move(size) {
            Some(None) => self.board.pass(),
            Some(Some(p)) => {
                a.point = Some(p);
                match self.board.play(color, p) {
                    PlayOutcome::Played { captured } => a.captured = captured,
                    PlayOutcome::Occupied => {
                        a.executed = false;
                        report(ErrorKind::OccupiedPoint);
                    }
                    PlayOutcome::KoViolation { captured } => {
                        a.captured = captured;
                        if !node.ko_flag {
                            report(ErrorKind::KoViolation);
                        }
                    }
                    PlayOutcome::Suicide { lost } => {
                        a.captured = lost;
                        if !self.rules.suicide_allowed && !node.ko_flag {
                            report(ErrorKind::Suicide);
                        }
                    }
                }
            }
            None => {
                a.executed = false;
                report(ErrorKind::OutOfBoard);
            }
        }
        Some(a)
    }
}

/// The game information of a root node that the replay and the training rows read.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct RootInfo {
    pub(crate) gm: Option<i64>,
    pub(crate) size: BoardSize,
    pub(crate) rules: Rules,
}

/// The board size an `SZ` value gives (`19`, `19:13`), `None` when it is not one (a side of 1
/// to 52 points).
pub(crate) fn board_size(raw: RawValue<'_>) -> Option<BoardSize> {
    let dim = |r: RawValue<'_>| r.number().filter(|n| (1..=52).contains(n));
    let (c, r) = match raw.compose() {
        None => dim(raw).map(|n| (n, n)),
        Some((a, b)) => dim(a).zip(dim(b)),
    }?;
    Some(BoardSize {
        cols: c as u8,
        rows: r as u8,
    })
}

impl RootInfo {
    /// Reads one root property value.
    pub(crate) fn value(&mut self, name: &[u8], raw: RawValue<'_>) {
        match name {
            b"GM" => self.gm = raw.number(),
            b"SZ" => {
                if let Some(size) = board_size(raw) {
                    self.size = size;
                }
            }
            b"RU" => self.rules = Rules::from_ru(raw.0),
            _ => {}
        }
    }

    /// Whether the game is Go (`GM[1]`, or no `GM`).
    pub(crate) fn is_go(&self) -> bool {
        self.gm.is_none_or(|g| g == 1)
    }
}
