//! The searches of a [`Query`]: over a built game ([`Searcher`], the main line and
//! variations) and over a line's moves as they come ([`LineSearch`], the parser's events).

use super::*;

/// A position where a query matched.
#[derive(Clone, Copy, Debug)]
pub struct Hit<'a, 'g> {
    /// Plies played from the game's start to the position (0: the start).
    pub ply: u32,
    /// The line's depth: 0 on the main line, 1 in a variation of it, …
    pub depth: u32,
    /// The position (after the last step of a sequence).
    pub position: &'a Position,
    /// The move the line plays next from it, if any (its variations are the alternatives).
    pub next: Option<&'g Node>,
}

#[derive(Clone, Copy, Debug)]
struct Frame<'g> {
    line: &'g [Node],
    next: usize,
    var: usize,
    base: u32,
    dead: bool,
}

/// Walks games for a [`Query`]; reuse it from game to game (its buffers are kept).
#[derive(Default)]
pub struct Searcher {
    engine: Engine,
    setup: Setup,
    /// Per frame and step: the latest ply at which the sequence reached that step on the
    /// line (`NONE`: not yet), after the line's last move, then before it.
    chain: Vec<u32>,
    chain_prev: Vec<u32>,
    /// Positions replayed, over the searcher's life.
    pub positions: u64,
}

const NONE: u32 = u32::MAX;

impl fmt::Debug for Searcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Searcher")
            .field("positions", &self.positions)
            .finish_non_exhaustive()
    }
}

impl Searcher {
    /// Whether `query` matches somewhere in `game` (stops at the first match).
    pub fn matches(&mut self, game: &Game, query: &Query) -> bool {
        let mut found = false;
        self.search(game, query, |_| {
            found = true;
            false
        });
        found
    }

    /// Calls `hit` at each position of `game` where `query` matches, in the order of the
    /// moves (a variation's after the move it replaces), until `hit` returns `false`. Returns
    /// whether the game could be replayed (a bad `FEN` or an unsupported variant: no).
    pub fn search<'g>(
        &mut self,
        game: &'g Game,
        query: &Query,
        mut hit: impl FnMut(&Hit<'_, 'g>) -> bool,
    ) -> bool {
        self.setup.clear();
        for (name, value) in &game.tags {
            let n = name.as_bytes();
            if n == b"FEN" || n == b"Variant" {
                self.setup.tag(n, value, kifu::Position::default());
            }
        }
        let Ok(start) = self.setup.start() else {
            return false;
        };
        let k = query.steps.len();
        self.engine.keep_prev = query.variations;
        self.engine.start_game(Some(start));
        self.chain.clear();
        self.chain.resize(k, NONE);
        self.chain_prev.clear();
        self.chain_prev.resize(k, NONE);
        let mut stack = vec![Frame {
            line: &game.moves,
            next: 0,
            var: usize::MAX,
            base: 0,
            dead: false,
        }];
        // the start
        {
            let Some(pos) = self.engine.start() else {
                return false;
            };
            self.positions += 1;
            if advance(query, &mut self.chain[..k], pos, 0)
                && !hit(&Hit {
                    ply: 0,
                    depth: 0,
                    position: pos,
                    next: game.moves.first(),
                })
            {
                return true;
            }
            if !alive(query, &self.chain[..k], pos, 0) {
                return true;
            }
        }
        while !stack.is_empty() {
            let f = stack.len() - 1;
            let top = &mut stack[f];
            if top.var != usize::MAX {
                let node = &top.line[top.next - 1];
                if query.variations && top.var < node.variations.len() {
                    let v = &node.variations[top.var];
                    top.var += 1;
                    let base = top.base + top.next as u32 - 1;
                    self.engine.enter_variation();
                    // the variation starts where its parent line was before its last move
                    let need = (f + 2) * k;
                    if self.chain.len() < need {
                        self.chain.resize(need, NONE);
                        self.chain_prev.resize(need, NONE);
                    }
                    let (parent, child) = self.chain_prev.split_at_mut((f + 1) * k);
                    child[..k].copy_from_slice(&parent[f * k..]);
                    self.chain[(f + 1) * k..(f + 2) * k].copy_from_slice(&parent[f * k..]);
                    stack.push(Frame {
                        line: &v.moves,
                        next: 0,
                        var: usize::MAX,
                        base,
                        dead: false,
                    });
                    continue;
                }
                top.var = usize::MAX;
            }
            if !top.dead && top.next < top.line.len() {
                let node = &top.line[top.next];
                top.next += 1;
                top.var = 0;
                let ply = top.base + top.next as u32;
                let next = top.line.get(top.next);
                let chain = &mut self.chain[f * k..(f + 1) * k];
                if query.variations {
                    self.chain_prev[f * k..(f + 1) * k].copy_from_slice(chain);
                }
                match self.engine.play(node.san) {
                    Played::Played { after, .. } => {
                        self.positions += 1;
                        if advance(query, chain, after, ply)
                            && !hit(&Hit {
                                ply,
                                depth: f as u32,
                                position: after,
                                next,
                            })
                        {
                            return true;
                        }
                        if !alive(query, chain, after, ply) {
                            top.dead = true;
                        }
                    }
                    Played::Failed(_) | Played::Skipped(_) => top.dead = true,
                }
                if !query.variations && top.dead {
                    return true;
                }
                continue;
            }
            stack.pop();
            if !stack.is_empty() {
                self.engine.exit_variation();
            }
        }
        true
    }
}

/// What one more position of a [`LineSearch`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not yet: go on with the next move.
    Continue,
    /// The query matched here.
    Matched,
    /// It cannot match any more on this line (or the game cannot be replayed): skip the rest.
    Over,
}

/// The search of one game's main line fed event by event (tags, then moves), for a visitor on
/// the parser's events that builds no game: the same answers as [`Searcher`] on the main line
/// (the same rules and early exit, a pattern's moves held back until its pieces can be there:
/// [`play`](Self::play)). Reuse it from game to game.
///
/// ```
/// use kifu_replay::chess::query::{LineSearch, Query, Step, Verdict};
/// let q = Query::new(vec![Step::subfen("8/8/8/8/4P3/8/8/8").unwrap()]);
/// let mut s = LineSearch::default();
/// s.begin();
/// assert_eq!(s.start(&q), Verdict::Continue);
/// assert_eq!(s.play(&q, kifu::pgn::San::parse(b"e4").unwrap()), Verdict::Matched);
/// ```
#[derive(Default)]
pub struct LineSearch {
    /// The position after the last move played (the main line only: no position before it is
    /// kept, no line hash, no UCI: what a [`Searcher`]'s engine keeps for variations and
    /// replay).
    pos: Position,
    /// A move could not be played, or the game not replayed: nothing more is.
    over: bool,
    setup: Setup,
    chain: Vec<u32>,
    /// The moves played.
    ply: u32,
    /// The last position was tested (its ply in the query's range) and did not match.
    missed: bool,
    /// The moves not played yet, after `ply` (see [`Waiting`]).
    waiting: Waiting,
    /// Positions replayed, over the search's life.
    pub positions: u64,
}

/// The moves a [`LineSearch`] holds back while a piece its query's first step needs somewhere
/// has not been brought there by any move: a piece that stands on a square either stood there
/// at the start or came there with a move (its target square, the piece after a promotion, the
/// king's and the rook's squares of a castling), so no position before such a move can match,
/// and a game without one is never replayed. Most games of an archive lack one of a pattern's
/// pieces (a bishop that never goes to b5): their replay, most of a search's time, is saved.
/// The moves are read as written (their target and piece: no board); one whose piece is not
/// written (a long-algebraic `f1b5`, a drop) ends the wait.
#[derive(Default)]
struct Waiting {
    /// Whether moves are held back.
    on: bool,
    /// Per colour and kind, the squares still waiting for a piece.
    pending: [[u64; 6]; 2],
    /// How many squares of `pending` are left.
    left: u32,
    /// The colour (0 White) of the next move held back.
    mover: usize,
    /// The moves held back, in order.
    moves: Vec<kifu::pgn::San>,
}

/// The most moves a [`LineSearch`] holds back (16 KB): past them, it plays them all and goes
/// on move by move (the same answers; a bound on its memory for a game of any length).
pub(super) const MAX_WAITING: usize = 4096;

impl Waiting {
    /// Starts waiting for the pieces of `arrivals` that `start` lacks (none: no wait).
    fn start(&mut self, arrivals: &[[u64; 6]; 2], start: &Board) {
        let have = masks_of(start);
        self.left = 0;
        for c in 0..2 {
            for k in 0..6 {
                self.pending[c][k] = arrivals[c][k] & !have[c][k];
                self.left += self.pending[c][k].count_ones();
            }
        }
        self.mover = usize::from(start.side_to_move() == Color::Black);
        self.moves.clear();
        self.on = self.left != 0;
    }

    /// Takes `san`, the next move, into account; whether a piece is still waited for after
    /// it (the move then held back).
    #[inline]
    fn hold(&mut self, san: kifu::pgn::San) -> bool {
        use super::super::resolve::{piece_of, square};
        use kifu::pgn::{CastlingSide, Piece as P, SanKind};
        let c = self.mover;
        self.mover ^= 1;
        match san.kind() {
            SanKind::Normal => {
                let Some(to) = san.to() else {
                    return false;
                };
                if san.piece() == P::Pawn && san.from_file().is_some() && san.from_rank().is_some()
                {
                    // whatever piece stands on the square written (a castling too): unknown
                    return false;
                }
                // (cozy-chess's pieces in the order of `KINDS`)
                let kind = piece_of(san.promotion().unwrap_or(san.piece())) as usize;
                self.arrive(c, kind, square(to).bitboard().0);
            }
            SanKind::Castle(side) => {
                let rank = Rank::First.relative_to(Color::ALL[c]);
                let (king, rook) = match side {
                    CastlingSide::KingSide => (File::G, File::F),
                    CastlingSide::QueenSide => (File::C, File::D),
                };
                self.arrive(c, 5, Square::new(king, rank).bitboard().0);
                self.arrive(c, 3, Square::new(rook, rank).bitboard().0);
            }
            SanKind::Null => {}
            SanKind::Drop => return false,
        }
        if self.left == 0 || self.moves.len() >= MAX_WAITING {
            return false;
        }
        self.moves.push(san);
        true
    }

    /// A piece of colour `c` and kind `kind` comes to the square `bit`.
    #[inline]
    fn arrive(&mut self, c: usize, kind: usize, bit: u64) {
        let p = &mut self.pending[c][kind];
        if *p & bit != 0 {
            *p &= !bit;
            self.left -= 1;
        }
    }
}

impl fmt::Debug for LineSearch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LineSearch")
            .field("ply", &self.ply)
            .field("waiting", &self.waiting.moves.len())
            .field("positions", &self.positions)
            .finish_non_exhaustive()
    }
}

impl LineSearch {
    /// A game begins: its tags come next.
    pub fn begin(&mut self) {
        self.setup.clear();
        self.waiting.on = false;
    }

    /// A tag of the game (`FEN` and `Variant` matter).
    pub fn tag(&mut self, name: &[u8], value: &str) {
        if name == b"FEN" || name == b"Variant" {
            self.setup.tag(name, value, kifu::Position::default());
        }
    }

    /// The tags are over: the start position, tested.
    pub fn start(&mut self, query: &Query) -> Verdict {
        self.waiting.on = false;
        let Ok(start) = self.setup.start() else {
            self.over = true;
            return Verdict::Over;
        };
        self.pos = start;
        self.over = false;
        self.chain.clear();
        self.chain.resize(query.steps.len(), NONE);
        self.ply = 0;
        self.positions += 1;
        self.missed = false;
        let v = self.verdict(query, false);
        if v == Verdict::Continue {
            self.waiting.start(&query.arrivals, self.pos.board());
        }
        v
    }

    /// The next main-line move, played and tested; for a pattern, held back while no
    /// position can match yet (until some move has brought each of its pieces to its square,
    /// read from the SAN: no move is played for a game that never does; the answers are the
    /// same).
    #[inline(always)]
    pub fn play(&mut self, query: &Query, san: kifu::pgn::San) -> Verdict {
        if !self.waiting.on {
            return self.step(query, san);
        }
        if self.waiting.hold(san) {
            // no position before the pieces are there matches: past the last ply looked at,
            // none will
            let ply = self.ply as usize + self.waiting.moves.len();
            return if ply >= query.max_ply as usize {
                // over, as a move played past the range ends the line
                self.waiting.on = false;
                self.waiting.moves.clear();
                self.over = true;
                Verdict::Over
            } else {
                Verdict::Continue
            };
        }
        // the last piece waited for came (or too many moves were held back): the moves
        // held back played, then this one
        self.waiting.on = false;
        let mut moves = core::mem::take(&mut self.waiting.moves);
        let mut v = Verdict::Continue;
        for &m in &moves {
            v = self.step(query, m);
            if v != Verdict::Continue {
                break;
            }
        }
        moves.clear();
        self.waiting.moves = moves;
        if v == Verdict::Continue {
            v = self.step(query, san);
        }
        v
    }

    /// The next main-line move, played and tested.
    fn step(&mut self, query: &Query, san: kifu::pgn::San) -> Verdict {
        self.ply += 1;
        if self.over {
            return Verdict::Over;
        }
        // as the engine plays it (lines.rs): a null move is illegal in check
        let unchanged = match self.pos.find(san) {
            // the key only for a query that looks at it (an exact position): without, `pos`'s
            // key is stale past the start (`Position::play_piece_as`), and nothing reads it
            Ok((Resolved::Move(mv), piece)) if query.keyed => {
                self.pos.play_piece(mv, piece);
                false
            }
            Ok((Resolved::Move(mv), piece)) => {
                self.pos.play_piece_as::<false>(mv, piece);
                query.unchanged == Unchanged::Material && self.pos.halfmove_clock() != 0
            }
            Ok((Resolved::Null, _)) if !self.pos.is_check() => {
                self.pos.play_null();
                query.unchanged != Unchanged::Never
            }
            _ => {
                self.over = true;
                return Verdict::Over;
            }
        };
        self.positions += 1;
        // a position the move left as the one before it, which was tested and did not match
        self.verdict(query, unchanged && self.missed)
    }

    /// `verdict` of the position after the last move; `miss`: it cannot match (the move
    /// changed nothing the query's one step looks at since a miss).
    #[inline]
    fn verdict(&mut self, query: &Query, miss: bool) -> Verdict {
        let ply = self.ply;
        let v = verdict(query, &mut self.chain, &self.pos, ply, miss);
        self.missed = v != Verdict::Matched && ply >= query.min_ply && ply <= query.max_ply;
        v
    }
}

/// `miss`: the position certainly does not match the query's one step (see [`Unchanged`]).
#[inline]
fn verdict(query: &Query, chain: &mut [u32], pos: &Position, ply: u32, miss: bool) -> Verdict {
    // one step (the usual query): `advance` and `alive` without a sequence to follow
    if let [step] = &query.steps[..] {
        if ply >= query.min_ply && ply <= query.max_ply && !miss && step.matches(pos) {
            chain[0] = ply;
            return Verdict::Matched;
        }
        return if ply >= query.max_ply {
            Verdict::Over
        } else if (ply > 0 && pos.halfmove_clock() != 0 && step.exact.is_none())
            || step.reachable(pos)
        {
            // (see `alive` for the halfmove clock)
            Verdict::Continue
        } else {
            Verdict::Over
        };
    }
    if advance(query, chain, pos, ply) {
        Verdict::Matched
    } else if alive(query, chain, pos, ply) {
        Verdict::Continue
    } else {
        Verdict::Over
    }
}

/// Takes the position at `ply` into the line's sequence state; whether the whole sequence
/// ends here.
#[inline]
fn advance(query: &Query, chain: &mut [u32], pos: &Position, ply: u32) -> bool {
    if ply < query.min_ply || ply > query.max_ply {
        return false;
    }
    let k = chain.len();
    // the last step first, so that one position is never two steps
    for i in (1..k).rev() {
        let before = chain[i - 1];
        if before != NONE
            && query.within[i].is_none_or(|w| ply - before <= w)
            && query.steps[i].matches(pos)
        {
            chain[i] = ply;
        }
    }
    if query.steps[0].matches(pos) {
        chain[0] = ply;
    }
    chain[k - 1] == ply
}

/// Whether a later position of the line can still end the sequence.
#[inline]
fn alive(query: &Query, chain: &[u32], pos: &Position, ply: u32) -> bool {
    if ply >= query.max_ply {
        return false;
    }
    // a move that took nothing and moved no pawn (the halfmove clock goes on) changes no count
    // of pieces, no pawn, no bishop's colour: one step that keeps no castling right (no exact
    // position) is as reachable as in the position before, which was (or the line would have
    // ended there)
    if ply > 0
        && pos.halfmove_clock() != 0
        && query.steps.len() == 1
        && query.steps[0].exact.is_none()
    {
        return true;
    }
    if query.steps[0].reachable(pos) {
        return true;
    }
    (1..chain.len()).any(|i| {
        let before = chain[i - 1];
        before != NONE
            && query.within[i].is_none_or(|w| ply - before < w)
            && query.steps[i].reachable(pos)
    })
}
