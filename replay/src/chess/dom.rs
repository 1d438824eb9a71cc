//! Replaying a game held as a DOM ([`kifu::pgn::Game`]), with the same board logic as the
//! adapter.

use kifu::pgn::{Game, MoveRef, Node};

use super::error::{ErrorKind, ReplayError};
use super::lines::{Engine, NotReplayed, Step};
use super::setup::{Setup, SetupTag};
use super::{Position, Uci, Unplayable};

/// What [`replay_game`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DomOptions {
    /// Write the FEN after each move into [`NodeReplay::fen`] (default `true`).
    pub fen: bool,
    /// Replay variations too (default `true`); else only main-line nodes get a
    /// [`NodeReplay`].
    pub variations: bool,
}

impl Default for DomOptions {
    fn default() -> Self {
        DomOptions {
            fen: true,
            variations: true,
        }
    }
}

/// One move of the game as replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeReplay {
    /// Variation depth of the move (0: the main line).
    pub depth: u32,
    /// The move's ply as kifu counts it (`14b` is ply 28).
    pub ply: u32,
    /// The move in UCI, when it was replayed.
    pub uci: Option<Uci>,
    /// The FEN after the move, when it was replayed (and [`DomOptions::fen`]).
    pub fen: Option<String>,
    /// The Polyglot key after the move, when it was replayed.
    pub key: Option<u64>,
    /// The move gives check.
    pub check: bool,
    /// The move gives mate.
    pub mate: bool,
    /// Why the move was not replayed: `None` when it was, or when it is the move that was
    /// reported (see [`GameReplay::errors`]).
    pub not_replayed: Option<NotReplayed>,
}

/// A game as replayed by [`replay_game`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReplay {
    /// The starting position, `None` when the game was not replayed (see `errors`).
    pub start: Option<Position>,
    /// One entry per move of the game, in the order the PGN text has them: each main-line move,
    /// then the moves of its variations (each variation whole, its own variations inside it),
    /// then the next main-line move. This is the order in which [`kifu::pgn::Writer`] writes
    /// the moves and `kifu json` nests them, so a writer can take one entry per move it writes.
    /// Without [`DomOptions::variations`], the main line only.
    pub nodes: Vec<NodeReplay>,
    /// The problems met, in that order (no byte positions: a DOM does not keep them).
    pub errors: Vec<ReplayError>,
    /// The position after the last main-line move, when every main-line move was replayed.
    pub end: Option<Position>,
    /// The key of the main line (see [`GameReplayed::main_line_key`](super::GameReplayed)).
    pub main_line_key: Option<u128>,
}

impl GameReplay {
    /// The entries of the main-line moves, in order (one per [`Game::moves`] node).
    pub fn main_line(&self) -> impl Iterator<Item = &NodeReplay> + '_ {
        self.nodes.iter().filter(|n| n.depth == 0)
    }

    /// The FEN after the main line (the `games` table's final FEN), when it was replayed whole.
    pub fn end_fen(&self) -> Option<String> {
        self.end.as_ref().map(|p| p.fen().to_string())
    }
}

/// Replays a game held as a DOM: the starting position from its `FEN` / `Variant` tags, then
/// every move, variations from their branch points, with the same rules and the same code as
/// the [`Replayer`](super::Replayer) adapter. Walks the tree with an explicit stack.
///
/// ```
/// use kifu_replay::chess::{replay_game, DomOptions};
///
/// let game = kifu::pgn::Games::new(b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *").next().unwrap();
/// let r = replay_game(&game, &DomOptions::default());
/// let uci: Vec<_> = r.main_line().map(|n| n.uci.unwrap().to_string()).collect();
/// assert_eq!(uci, ["e2e4", "e7e5", "g1f3"]);
/// assert_eq!(r.nodes[2].uci.unwrap().as_str(), "c7c5"); // the variation follows e5
/// assert_eq!(
///     r.end_fen().unwrap(),
///     "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
/// );
/// ```
pub fn replay_game(game: &Game, opts: &DomOptions) -> GameReplay {
    let mut setup = Setup::default();
    for (name, value) in &game.tags {
        setup.tag(name.as_bytes(), value, kifu::Position::default());
    }
    let mut engine = Engine::default();
    engine.keep_prev = opts.variations;
    let mut errors = Vec::new();
    match setup.start() {
        Ok(pos) => engine.start_game(Some(pos)),
        Err((kind, tag)) => {
            engine.start_game(None);
            let text = match tag {
                SetupTag::Fen => game.fen().unwrap_or(""),
                SetupTag::Variant => game.tag("Variant").unwrap_or(""),
            };
            errors.push(ReplayError {
                kind,
                text: text.to_string(),
                pos: None,
                at: None,
            });
        }
    }
    let start = engine.start().cloned();
    let mut nodes = Vec::with_capacity(game.moves.len());

    struct Frame<'g> {
        line: &'g [Node],
        next: usize,
        /// Variations of `line[next - 1]` still to walk, from this index.
        var: usize,
        /// Ply before the line's first move.
        base: u32,
    }
    let mut stack = vec![Frame {
        line: &game.moves,
        next: 0,
        var: usize::MAX,
        base: game.starting_ply(),
    }];
    while let Some(top) = stack.last_mut() {
        if top.var != usize::MAX {
            let node = &top.line[top.next - 1];
            if opts.variations && top.var < node.variations.len() {
                let v = &node.variations[top.var];
                top.var += 1;
                let base = top.base + top.next as u32 - 1;
                engine.enter_variation();
                stack.push(Frame {
                    line: &v.moves,
                    next: 0,
                    var: usize::MAX,
                    base,
                });
                continue;
            }
            top.var = usize::MAX;
        }
        if top.next < top.line.len() {
            let node = &top.line[top.next];
            top.next += 1;
            top.var = 0;
            let ply = top.base + top.next as u32;
            let depth = engine.depth() as u32;
            let mut out = NodeReplay {
                depth,
                ply,
                uci: None,
                fen: None,
                key: None,
                check: false,
                mate: false,
                not_replayed: None,
            };
            match engine.play(node.san) {
                Step::Played { uci, after, .. } => {
                    out.uci = Some(uci.uci());
                    out.key = Some(after.key());
                    out.check = after.is_check();
                    out.mate = out.check && after.is_checkmate();
                    if opts.fen {
                        out.fen = Some(after.fen().to_string());
                    }
                }
                Step::Skipped(why) => out.not_replayed = Some(why),
                Step::Failed(why) => errors.push(ReplayError {
                    kind: match why {
                        Unplayable::Illegal => ErrorKind::IllegalMove,
                        Unplayable::Ambiguous => ErrorKind::AmbiguousMove,
                    },
                    text: node.text.to_string(),
                    pos: None,
                    at: MoveRef::from_ply(ply),
                }),
            }
            nodes.push(out);
            continue;
        }
        stack.pop();
        if !stack.is_empty() {
            engine.exit_variation();
        }
    }
    GameReplay {
        start,
        nodes,
        errors,
        end: engine.end().cloned(),
        main_line_key: engine.main_line_key(),
    }
}

/// Walks `game`'s moves in the order of [`GameReplay::nodes`] (each main-line move, then its
/// variations, each whole, then the next main-line move; without `variations`, the main line
/// only), calling `f(path, node)` for each: `path` is the move's place in the game, its index
/// in [`Game::moves`], then for each variation entered the variation's index in its node's
/// [`variations`](Node::variations) and the move's index in it. The k-th call is the k-th
/// entry of a [`replay_game`] with the same `variations`, so a caller pairs each entry with its
/// node without a walk of its own. Walks with an explicit stack.
///
/// ```
/// use kifu_replay::chess::{for_each_node, replay_game, DomOptions};
///
/// let game = kifu::pgn::Games::new(b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *").next().unwrap();
/// let mut seen = Vec::new();
/// for_each_node(&game, true, |path, node| seen.push((path.to_vec(), node.text.to_string())));
/// assert_eq!(seen, [
///     (vec![0], "e4".to_string()),
///     (vec![1], "e5".to_string()),
///     (vec![1, 0, 0], "c5".to_string()),
///     (vec![1, 0, 1], "Nf3".to_string()),
///     (vec![2], "Nf3".to_string()),
/// ]);
/// let r = replay_game(&game, &DomOptions::default());
/// assert_eq!(r.nodes.len(), seen.len());
/// ```
pub fn for_each_node<'g>(game: &'g Game, variations: bool, mut f: impl FnMut(&[usize], &'g Node)) {
    struct Frame<'g> {
        line: &'g [Node],
        next: usize,
        /// Variations of `line[next - 1]` still to walk, from this index.
        var: usize,
        /// The length of the path of the line's moves before their own index.
        prefix: usize,
    }
    let mut path: Vec<usize> = Vec::new();
    let mut stack = vec![Frame {
        line: &game.moves,
        next: 0,
        var: usize::MAX,
        prefix: 0,
    }];
    while let Some(top) = stack.last_mut() {
        if top.var != usize::MAX {
            let at = top.next - 1;
            let node = &top.line[at];
            if variations && top.var < node.variations.len() {
                let v = top.var;
                top.var += 1;
                let prefix = top.prefix;
                path.truncate(prefix);
                path.extend([at, v]);
                stack.push(Frame {
                    line: &node.variations[v].moves,
                    next: 0,
                    var: usize::MAX,
                    prefix: prefix + 2,
                });
                continue;
            }
            top.var = usize::MAX;
        }
        if top.next < top.line.len() {
            let node = &top.line[top.next];
            path.truncate(top.prefix);
            path.push(top.next);
            top.next += 1;
            top.var = 0;
            f(&path, node);
            continue;
        }
        stack.pop();
    }
}
