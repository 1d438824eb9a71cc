//! Replaying a game tree held as a DOM ([`kifu::sgf::GameTree`]), and the training rows of its
//! main line, with the same game logic as the adapter.

use kifu::sgf::{BoardSize, Color, GameTree, Node, NodeRef, Point, RawValue};

use super::board::Board;
use super::error::{ErrorKind, GoError};
use super::game::{Game, NodeBuf, NodeError, RootInfo};

/// One main-line move as replayed by [`replay_tree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoMove {
    /// Who played it.
    pub color: Color,
    /// Where; `None` for a pass.
    pub point: Option<Point>,
    /// Stones it removed (the opponent's, or its own group for a suicide).
    pub captured: u32,
    /// Whether it was executed (not for an occupied or off-board point).
    pub executed: bool,
    /// The problem reported for it, if any.
    pub error: Option<ErrorKind>,
    /// Prisoners held by Black and by White after it.
    pub captures: [u32; 2],
}

/// A game tree's main line as replayed by [`replay_tree`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeReplay {
    /// Whether the tree is a Go game (`GM[1]` or no `GM`); other games are not replayed.
    pub is_go: bool,
    /// The board size (`SZ`, 19×19 by default).
    pub size: BoardSize,
    /// The main line's moves, in order (passes included).
    pub moves: Vec<GoMove>,
    /// The position after the main line (setup included).
    pub end: Board,
    /// The problems, in order (without byte positions: the DOM does not keep them).
    pub errors: Vec<GoError>,
}

/// Fills `buf` with the setup and move values of `node`.
fn collect(node: &Node<'_>, buf: &mut NodeBuf) {
    buf.clear();
    for p in node.properties() {
        let name = p.name();
        if matches!(name, b"B" | b"W") {
            if let Some(v) = p.values().next() {
                buf.value(name, v.0, None);
            }
        } else if matches!(name, b"AB" | b"AW" | b"AE" | b"KO") {
            for v in p.values() {
                buf.value(name, v.0, None);
            }
        }
    }
}

fn root_info(tree: &GameTree) -> RootInfo {
    let mut info = RootInfo::default();
    if tree.is_empty() {
        return info;
    }
    for p in tree.root().properties() {
        if let Some(v) = p.values().next() {
            info.value(p.name(), v);
        }
    }
    info
}

/// Walks a tree's main line node by node: the one loop behind [`replay_tree`] and
/// [`TrainingRows`].
#[derive(Debug)]
struct Walker<'t> {
    next: Option<Node<'t>>,
    index: u32,
    /// Branch points passed (for [`NodeRef::depth`]).
    depth: u32,
    game: Game,
    buf: NodeBuf,
    is_go: bool,
}

impl<'t> Walker<'t> {
    fn new(tree: &'t GameTree) -> Walker<'t> {
        let info = root_info(tree);
        let is_go = info.is_go();
        Walker {
            next: (!tree.is_empty() && is_go).then(|| tree.root()),
            index: 0,
            depth: 0,
            game: Game::new(info.size, info.rules),
            buf: NodeBuf::default(),
            is_go,
        }
    }

    /// Reads the next main-line node into `buf`; its place, or `None` at the end.
    fn next_node(&mut self) -> Option<NodeRef> {
        let node = self.next?;
        let at = NodeRef {
            depth: self.depth,
            node: self.index,
        };
        self.index += 1;
        let mut children = node.children();
        self.next = children.next();
        if children.next().is_some() {
            self.depth += 1;
        }
        collect(&node, &mut self.buf);
        Some(at)
    }
}

/// An owned error for the value `item` of `buf`.
fn owned(buf: &NodeBuf, e: NodeError, at: NodeRef, move_index: Option<u32>) -> GoError {
    let it = buf.items[e.item];
    GoError {
        kind: e.kind,
        text: String::from_utf8_lossy(&buf.bytes[it.start as usize..][..it.len as usize])
            .into_owned(),
        pos: None,
        at: Some(at),
        move_index,
    }
}

/// Replays the main line of a game tree held as a DOM: the root's `SZ` and `RU`, every
/// node's setup (`AB`, `AW`, `AE`) and move, with the same rules and the same code as the
/// [`GoReplayer`](super::GoReplayer) adapter.
///
/// ```
/// use kifu::sgf;
/// use kifu_replay::go::{replay_tree, ErrorKind};
///
/// let tree = sgf::game_trees(b"(;SZ[5]AB[aa:bb];W[ca];B[da];W[ee];B[ca])").next().unwrap();
/// let r = replay_tree(&tree);
/// assert_eq!(r.moves.len(), 4);
/// assert_eq!(r.moves[3].error, Some(ErrorKind::OccupiedPoint));
/// assert_eq!(r.end.to_string(), "XXOX.\nXX...\n.....\n.....\n....O\n");
/// ```
pub fn replay_tree(tree: &GameTree) -> TreeReplay {
    let mut w = Walker::new(tree);
    let mut moves = Vec::new();
    let mut errors = Vec::new();
    while let Some(at) = w.next_node() {
        let buf = &w.buf;
        w.game
            .apply_setup(buf, |e| errors.push(owned(buf, e, at, None)));
        let index = moves.len() as u32;
        let mut error = None;
        let applied = w.game.apply_move(buf, |e| {
            error = Some(e.kind);
            errors.push(owned(buf, e, at, Some(index)));
        });
        if let Some(a) = applied {
            moves.push(GoMove {
                color: a.color,
                point: a.point,
                captured: a.captured,
                executed: a.executed,
                error,
                captures: [
                    w.game.board.captures(Color::Black),
                    w.game.board.captures(Color::White),
                ],
            });
        }
    }
    TreeReplay {
        is_go: w.is_go,
        size: w.game.board.size(),
        moves,
        end: w.game.board,
        errors,
    }
}

/// The game information a training row carries, borrowed from the tree's root (values as
/// written: decode with [`RawValue::simple_text`] and friends).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameInfo<'t> {
    /// The tree's index in its collection.
    pub index: u64,
    /// Byte offset of the tree's `(`.
    pub offset: u64,
    /// A 64-bit key of the game: its board size and main-line moves (two records of one game
    /// in different files, or with different comments, get the same key); 0 in the rows of
    /// [`TrainingRows::unkeyed`].
    pub key: u64,
    /// `KM`, when it is a Real.
    pub komi: Option<f64>,
    /// `HA`, when it is a Number.
    pub handicap: Option<i64>,
    /// `BR`, as written.
    pub black_rank: Option<RawValue<'t>>,
    /// `WR`, as written.
    pub white_rank: Option<RawValue<'t>>,
    /// `RE`, as written (`B+R`, `W+3.5`, `0`, …).
    pub result: Option<RawValue<'t>>,
}

impl<'t> GameInfo<'t> {
    /// Reads a tree's root, and walks its main line for the [`key`](Self::key).
    pub fn of(tree: &'t GameTree) -> GameInfo<'t> {
        GameInfo {
            key: GameInfo::key_of(tree),
            ..GameInfo::root(tree)
        }
    }

    /// The [`key`](Self::key) of `tree`: its board size and main-line moves.
    pub fn key_of(tree: &GameTree) -> u64 {
        let size = tree.board_size();
        let mut key = 0xcbf2_9ce4_8422_2325u64 ^ (u64::from(size.cols) << 8 | u64::from(size.rows));
        let mut mix = |x: u64| {
            key = (key ^ x)
                .wrapping_mul(0x0000_0100_0000_01b3)
                .rotate_left(17);
        };
        for node in tree.main_line() {
            if let Some((c, p)) = go_move(&node, size) {
                let code = p.map_or(0xffff, |p| u64::from(p.x) << 8 | u64::from(p.y));
                mix(code | (c as u64) << 16 | 1 << 20);
            }
        }
        key
    }

    /// What the root says, the key left 0.
    fn root(tree: &'t GameTree) -> GameInfo<'t> {
        let root = (!tree.is_empty()).then(|| tree.root());
        let v = |id: &[u8]| root.and_then(|r| r.value(id));
        GameInfo {
            index: tree.index(),
            offset: tree.offset(),
            key: 0,
            komi: v(b"KM").and_then(|r| r.real()),
            handicap: v(b"HA").and_then(|r| r.number()),
            black_rank: v(b"BR"),
            white_rank: v(b"WR"),
            result: v(b"RE"),
        }
    }
}

/// A node's move as [`Node::go_move`] reads it, the board size read once per tree (rather than
/// from the root's `SZ` at each node).
fn go_move(node: &Node<'_>, size: BoardSize) -> Option<(Color, Option<Point>)> {
    let p = node
        .properties()
        .find(|p| matches!(p.name(), b"B" | b"W"))?;
    let color = if p.name() == b"B" {
        Color::Black
    } else {
        Color::White
    };
    Some((color, p.values().next()?.go_move(size)?))
}

/// One training row: a main-line move and the position it was played in.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingRow<'t> {
    /// The game's information (the same for every row of the tree).
    pub game: GameInfo<'t>,
    /// The move's number in the main line, from 1 (passes included).
    pub number: u32,
    /// The board size.
    pub size: BoardSize,
    /// The board before the move: `cols * rows` bytes, row-major from the upper left (`aa`
    /// first, index `y * cols + x`), 0 empty, 1 black, 2 white. The one allocation per row
    /// (none, and empty, from [`TrainingRows::next_into`], which appends it to a buffer).
    pub board: Vec<u8>,
    /// The side to move: the colour of the move played.
    pub to_play: Color,
    /// The move played: a point, or `None` for a pass.
    pub point: Option<Point>,
    /// The ko point: the point simple ko forbids to the side to move (the point of the one
    /// stone the move before took in a ko shape), `None` when there is none. A move there is
    /// the replay's `ko_violation`.
    pub ko: Option<Point>,
    /// The position's 64-bit key ([`Board::key`]: the board size, the stones, the side to
    /// move; equal positions, equal keys).
    pub key: u64,
    /// Prisoners held by Black and by White before the move.
    pub captures: [u32; 2],
    /// The problem reported for the move (an occupied point, a ko retaken, a suicide, a point
    /// off the board), if any.
    pub error: Option<ErrorKind>,
}

/// The training rows of a game tree's main line: one [`TrainingRow`] per move (passes included;
/// none for a tree that is not Go), each with the board before the move. Nothing is allocated
/// per row but the row's board.
///
/// ```
/// use kifu::sgf::{self, Color, Point};
/// use kifu_replay::go::TrainingRows;
///
/// let tree = sgf::game_trees(b"(;SZ[3]KM[6.5]BR[3d];B[bb];W[];B[aa])").next().unwrap();
/// let rows: Vec<_> = TrainingRows::new(&tree).collect();
/// assert_eq!(rows.len(), 3);
/// assert_eq!(rows[1].board, [0, 0, 0, 0, 1, 0, 0, 0, 0]);
/// assert_eq!((rows[1].to_play, rows[1].point), (Color::White, None));
/// assert_eq!(rows[0].game.komi, Some(6.5));
/// assert_eq!(rows[0].game.black_rank.unwrap().0, b"3d");
/// ```
#[derive(Debug)]
pub struct TrainingRows<'t> {
    /// The last row, rewritten in place by [`next_into`](Self::next_into) (its game's
    /// information set once).
    row: TrainingRow<'t>,
    walker: Walker<'t>,
}

impl<'t> TrainingRows<'t> {
    /// The rows of `tree`'s main line.
    pub fn new(tree: &'t GameTree) -> TrainingRows<'t> {
        let mut rows = TrainingRows::unkeyed(tree);
        rows.row.game.key = GameInfo::key_of(tree);
        rows
    }

    /// The rows of `tree`'s main line, as [`new`](Self::new) makes them but for the game's
    /// [`key`](GameInfo::key), left 0: for a reader that does not read it, which saves a walk
    /// of the main line.
    ///
    /// ```
    /// use kifu::sgf;
    /// use kifu_replay::go::TrainingRows;
    ///
    /// let tree = sgf::game_trees(b"(;SZ[9];B[cc];W[gg])").next().unwrap();
    /// let rows: Vec<_> = TrainingRows::unkeyed(&tree).collect();
    /// let keyed: Vec<_> = TrainingRows::new(&tree).collect();
    /// assert_eq!(rows[1].game.key, 0);
    /// assert_ne!(keyed[1].game.key, 0);
    /// assert_eq!(rows[1].board, keyed[1].board);
    /// ```
    pub fn unkeyed(tree: &'t GameTree) -> TrainingRows<'t> {
        let walker = Walker::new(tree);
        TrainingRows {
            row: TrainingRow {
                game: GameInfo::root(tree),
                number: 0,
                size: walker.game.board.size(),
                board: Vec::new(),
                to_play: Color::Black,
                point: None,
                ko: None,
                key: 0,
                captures: [0; 2],
                error: None,
            },
            walker,
        }
    }

    /// The next row, its board appended to `board` (a column's buffer, say) rather than
    /// copied into a vector of its own: the row's [`board`](TrainingRow::board) is left empty
    /// (no allocation), and `board` grows by `cols * rows` bytes, the board before the move.
    /// The rows are [`next`](Iterator::next)'s, in the same order; each is lent, rewritten in
    /// place by the next call (no copy of the game's information a row).
    ///
    /// ```
    /// use kifu::sgf;
    /// use kifu_replay::go::TrainingRows;
    ///
    /// let tree = sgf::game_trees(b"(;SZ[3];B[bb];W[aa])").next().unwrap();
    /// let mut rows = TrainingRows::new(&tree);
    /// let mut boards = Vec::new();
    /// while let Some(row) = rows.next_into(&mut boards) {
    ///     assert!(row.board.is_empty());
    /// }
    /// assert_eq!(boards, [0, 0, 0, 0, 0, 0, 0, 0, 0, /* */ 0, 0, 0, 0, 1, 0, 0, 0, 0]);
    /// ```
    pub fn next_into(&mut self, board: &mut Vec<u8>) -> Option<&TrainingRow<'t>> {
        loop {
            self.walker.next_node()?;
            let w = &mut self.walker;
            w.game.apply_setup(&w.buf, |_| {});
            if !w.buf.has_move() {
                continue;
            }
            let start = board.len();
            board.extend_from_slice(w.game.board.points());
            let to_play = w.buf.mover().unwrap_or(Color::Black);
            let ko = w.game.board.ko_point(to_play);
            let key = w.game.board.key(to_play);
            let captures = [
                w.game.board.captures(Color::Black),
                w.game.board.captures(Color::White),
            ];
            let mut error = None;
            let Some(a) = w.game.apply_move(&w.buf, |e| error = Some(e.kind)) else {
                board.truncate(start);
                continue;
            };
            let row = &mut self.row;
            row.number += 1;
            row.size = w.game.board.size();
            row.to_play = a.color;
            row.point = a.point;
            row.ko = ko;
            row.key = key;
            row.captures = captures;
            row.error = error;
            return Some(row);
        }
    }
}

impl<'t> Iterator for TrainingRows<'t> {
    type Item = TrainingRow<'t>;

    fn next(&mut self) -> Option<TrainingRow<'t>> {
        let mut board = Vec::new();
        let mut row = self.next_into(&mut board)?.clone();
        row.board = board;
        Some(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_s_move_is_the_dom_s_with_the_size_read_once() {
        let data =
            b"(;SZ[19];B[tt];W[aa];B[];W[ss]C[x])(;SZ[21];B[tt];W[ua])(;SZ[5:3];B[ec];W[zz];B[tt])\
                     (;B[dd];AB[ee]W[ff];C[no move])(;SZ[9]W[ab]B[ba])";
        let mut nodes = 0;
        for tree in kifu::sgf::game_trees(data) {
            let size = tree.board_size();
            for node in tree.main_line() {
                assert_eq!(go_move(&node, size), node.go_move());
                nodes += 1;
            }
        }
        assert_eq!(nodes, 5 + 3 + 4 + 3 + 1);
    }
}
