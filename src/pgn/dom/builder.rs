//! [`GameBuilder`]: the visitor that builds [`Game`]s from events.

use super::*;

// ----- the builder ----------------------------------------------------------------------------

/// What a [`GameBuilder`] keeps of each game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Everything: tags, moves, variations, comments, NAGs, result, errors.
    #[default]
    Full,
    /// The main line only: variations are skipped by the parser ([`Control::Skip`]), so they
    /// cost almost nothing and their errors are not reported.
    MainLine,
    /// The tags only: the movetext is skipped ([`Control::SkipGame`] after the tags), the
    /// cheap way to index a collection. [`Game::result`] stays `None` (see
    /// [`Game::result_tag`]), and only the errors of the tag section are kept.
    GameInfo,
}

/// One open line of moves while a game is being built.
#[derive(Debug, Default)]
struct OpenLine {
    /// The line's moves are the first `len`; after them, the moves of a game handed back
    /// ([`GameBuilder::recycle`]), written over in place as the line grows (a node built on the
    /// stack and pushed costs more: copying it stalls on the store of its `san`).
    moves: Vec<Node>,
    len: usize,
    /// Comments before the line's first move.
    before: Vec<String>,
}

impl OpenLine {
    fn new(moves: Vec<Node>) -> OpenLine {
        OpenLine {
            moves,
            len: 0,
            before: Vec::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The last move read.
    fn last_mut(&mut self) -> Option<&mut Node> {
        let last = self.len.checked_sub(1)?;
        self.moves.get_mut(last)
    }

    /// The moves read and the comments before them; what is left of a game handed back goes
    /// to `spare`.
    fn finish(mut self, spare: &mut Spare) -> (Vec<Node>, Vec<String>) {
        if self.moves.len() > self.len {
            spare.take_apart_from(&mut self.moves, self.len);
        }
        (self.moves, self.before)
    }
}

/// A [`Visitor`] that builds [`Game`]s.
///
/// Finished games wait in a queue: take them with [`GameBuilder::pop`] or
/// [`GameBuilder::take_games`]. With [`stop_at_game_end`](GameBuilder::stop_at_game_end) the
/// builder returns [`Control::Stop`] at the end of each game, so that a driver can hand the games
/// out one at a time: that is what [`Games`] and [`ReadGames`] do.
///
/// ```
/// use kifu::pgn::{self, GameBuilder, Scope};
///
/// let pgn = b"[Event \"A\"]\n\n1. e4 (1. d4) e5 *\n\n[Event \"B\"]\n\n1. c4 *\n";
/// let mut builder = GameBuilder::new();
/// pgn::parse(pgn, &mut builder);
/// let games = builder.take_games();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].moves[0].variations.len(), 1);
///
/// let mut headers = GameBuilder::with_scope(Scope::GameInfo);
/// pgn::parse(pgn, &mut headers);
/// let games = headers.take_games();
/// assert_eq!(games[1].event(), Some("B"));
/// assert!(games[1].moves.is_empty());
/// ```
#[derive(Debug)]
pub struct GameBuilder {
    keep: Scope,
    stop: bool,
    /// The game being built, if one is open.
    game: Option<Game>,
    /// The open lines: the main line, then one per open variation.
    lines: Vec<OpenLine>,
    /// The comment being assembled from its pieces.
    comment: Vec<u8>,
    done: VecDeque<Game>,
    /// The limit of a game's [`Game::estimated_bytes`].
    max_game_bytes: usize,
    /// The most problems a game keeps in [`Game::errors`] (the rest are counted).
    max_game_errors: usize,
    /// The estimate of what the open game holds, besides the errors it started with.
    pub(super) bytes: usize,
    /// The estimate of the errors the open game started with (met before it).
    pub(super) before: usize,
    /// The open game reached the limit: the rest of it is skipped.
    full: bool,
    /// Errors met before the first game, for it.
    pending: Vec<GameError>,
    /// The estimate of `pending`.
    pending_bytes: usize,
    /// `pending` reached the limit: the rest are dropped.
    pending_full: bool,
    /// How many were dropped.
    pending_dropped: u64,
    /// The allocations of the games handed back, for the next ones.
    spare: Spare,
}

/// The allocations of games handed back ([`GameBuilder::recycle`]), emptied (their capacity
/// kept), for the games built next.
#[derive(Debug, Default)]
struct Spare {
    /// Strings (tags, comments, the texts of errors), cleared.
    strings: Vec<String>,
    /// Lists of comments, emptied.
    comment_lists: Vec<Vec<String>>,
    /// The main line of a game handed back, whole: the next game's is written over it
    /// ([`OpenLine::moves`]).
    main: Vec<Node>,
    /// Other lines of moves, emptied.
    lines: Vec<Vec<Node>>,
    /// Lists of variations, emptied.
    variation_lists: Vec<Vec<Variation>>,
    /// The tag pairs of games handed back, kept whole (their strings are cleared when used).
    pairs: Vec<(String, String)>,
    /// A list of tags, emptied.
    tags: Vec<(String, String)>,
    errors: Vec<GameError>,
    /// The lines being taken apart (empty between calls).
    work: Vec<Vec<Node>>,
}

impl Spare {
    fn string(&mut self) -> String {
        self.strings.pop().unwrap_or_default()
    }

    /// A string holding `bytes`, U+FFFD for what is not UTF-8.
    fn text(&mut self, bytes: &[u8]) -> String {
        let mut s = self.string();
        push_text(&mut s, bytes);
        s
    }

    fn comment_list(&mut self) -> Vec<String> {
        self.comment_lists.pop().unwrap_or_default()
    }

    fn keep_string(&mut self, mut s: String) {
        if s.capacity() > 0 {
            s.clear();
            self.strings.push(s);
        }
    }

    fn keep_strings(&mut self, mut list: Vec<String>) {
        if list.capacity() > 0 {
            for s in list.drain(..) {
                self.keep_string(s);
            }
            self.comment_lists.push(list);
        }
    }

    /// Empties `line`, keeping the allocations of its moves and of their variations.
    fn take_apart(&mut self, line: &mut Vec<Node>) {
        self.take_apart_from(line, 0);
    }

    /// Cuts `line` to its first `from` moves, keeping the allocations of the moves cut and of
    /// their variations (from an explicit stack, whatever the depth).
    fn take_apart_from(&mut self, line: &mut Vec<Node>, from: usize) {
        let mut work = core::mem::take(&mut self.work);
        if let Some(cut) = line.get_mut(from..) {
            self.empty_nodes(cut, &mut work);
        }
        line.truncate(from);
        self.take_apart_lines(&mut work);
        self.work = work;
    }

    /// Empties the lines of `work` (and those of their variations), keeping their allocations.
    fn take_apart_lines(&mut self, work: &mut Vec<Vec<Node>>) {
        while let Some(mut next) = work.pop() {
            self.empty_nodes(&mut next, work);
            next.clear();
            if next.capacity() > 0 {
                self.lines.push(next);
            }
        }
    }

    /// Takes the allocations out of `nodes` (their lists are left without room): the lines of
    /// their variations go to `work`, the rest is kept.
    fn empty_nodes(&mut self, nodes: &mut [Node], work: &mut Vec<Vec<Node>>) {
        for node in nodes {
            // most moves have nothing allocated
            if node.comments_before.capacity() > 0 {
                self.keep_strings(core::mem::take(&mut node.comments_before));
            }
            if node.comments.capacity() > 0 {
                self.keep_strings(core::mem::take(&mut node.comments));
            }
            if node.variations.capacity() > 0 {
                let mut variations = core::mem::take(&mut node.variations);
                for v in &mut variations {
                    work.push(core::mem::take(&mut v.moves));
                    self.keep_strings(core::mem::take(&mut v.comments));
                }
                variations.clear();
                self.variation_lists.push(variations);
            }
        }
    }

    /// Empties a move of a game handed back, to be written over: its lists keep their room,
    /// what they held is kept.
    fn clear_node(&mut self, node: &mut Node) {
        if !node.comments_before.is_empty() {
            for s in node.comments_before.drain(..) {
                self.keep_string(s);
            }
        }
        if !node.comments.is_empty() {
            for s in node.comments.drain(..) {
                self.keep_string(s);
            }
        }
        if !node.variations.is_empty() {
            let mut work = core::mem::take(&mut self.work);
            for v in &mut node.variations {
                work.push(core::mem::take(&mut v.moves));
                self.keep_strings(core::mem::take(&mut v.comments));
            }
            node.variations.clear();
            self.take_apart_lines(&mut work);
            self.work = work;
        }
        node.nags.clear();
    }

    /// Keeps the allocations of a line of moves.
    fn keep_line(&mut self, mut line: Vec<Node>) {
        self.take_apart(&mut line);
        if line.capacity() > 0 {
            self.lines.push(line);
        }
    }
}

impl Default for GameBuilder {
    fn default() -> Self {
        GameBuilder {
            keep: Scope::Full,
            stop: false,
            game: None,
            lines: Vec::new(),
            comment: Vec::new(),
            done: VecDeque::new(),
            max_game_bytes: GameBuilder::DEFAULT_MAX_GAME_BYTES,
            max_game_errors: GameBuilder::DEFAULT_MAX_GAME_ERRORS,
            bytes: 0,
            before: 0,
            full: false,
            pending: Vec::new(),
            pending_bytes: 0,
            pending_full: false,
            pending_dropped: 0,
            spare: Spare::default(),
        }
    }
}

impl GameBuilder {
    /// A builder that keeps everything.
    pub fn new() -> GameBuilder {
        GameBuilder::default()
    }

    /// A builder that keeps what `keep` says.
    pub fn with_scope(keep: Scope) -> GameBuilder {
        GameBuilder {
            keep,
            ..GameBuilder::default()
        }
    }

    /// A builder for the tags only: [`Scope::GameInfo`].
    pub fn headers_only() -> GameBuilder {
        GameBuilder::with_scope(Scope::GameInfo)
    }

    /// A builder for the main line only: [`Scope::MainLine`].
    pub fn main_line_only() -> GameBuilder {
        GameBuilder::with_scope(Scope::MainLine)
    }

    /// The default of [`with_max_game_bytes`](Self::with_max_game_bytes): 64 MiB. The largest
    /// game of the corpus (157 KB of PGN) estimates at well under a megabyte.
    pub const DEFAULT_MAX_GAME_BYTES: usize = 64 << 20;

    /// Bounds the memory of each game: the limit of its
    /// [`estimated_bytes`](Game::estimated_bytes) (`usize::MAX`: no limit).
    ///
    /// Bad input must not exhaust memory: a "game" of gigabytes of movetext without a tag or a
    /// result (a broken export, a file of another format) would otherwise grow without bound.
    /// When the next tag, move, NAG, variation, comment (piece) or error would take a game past
    /// the limit, the builder adds an [`ErrorKind::GameTooLarge`] error (`game_too_large`, at
    /// the position of what did not fit) and answers [`Control::SkipGame`]: the parser skips to
    /// the end of the game, and the game is delivered as far as it was built; the following
    /// games are read as usual. Problems before the first game (which go to it, see
    /// [`Game::errors`]) have a budget of their own, and past it are dropped with one
    /// `game_too_large` saying so. A game's estimate stays within the limit plus two errors, or
    /// twice that with problems before it.
    ///
    /// ```
    /// use kifu::pgn::{Config, ErrorKind, GameBuilder, Games};
    /// let mut pgn = b"[Event \"long\"]\n\n".to_vec();
    /// for _ in 0..1000 {
    ///     pgn.extend_from_slice(b"Nf3 Nf6 Ng1 Ng8 ");
    /// }
    /// pgn.extend_from_slice(b"1/2-1/2\n\n[Event \"next\"]\n\n1. e4 *\n");
    /// let builder = GameBuilder::new().with_max_game_bytes(10_000);
    /// let games: Vec<_> = Games::with_builder(&pgn, Config::default(), builder).collect();
    /// assert_eq!(games.len(), 2);
    /// assert!(games[0].moves.len() < 4000);
    /// assert_eq!(games[0].errors[0].kind, ErrorKind::GameTooLarge);
    /// assert_eq!(games[0].errors[0].kind.code(), "game_too_large");
    /// assert_eq!(games[0].result, None); // skipped with the rest
    /// assert_eq!(games[1].event(), Some("next"));
    /// ```
    pub fn with_max_game_bytes(mut self, max: usize) -> GameBuilder {
        self.max_game_bytes = max;
        self
    }

    /// The limit of each game's [`estimated_bytes`](Game::estimated_bytes).
    pub fn max_game_bytes(&self) -> usize {
        self.max_game_bytes
    }

    /// The default of [`with_max_game_errors`](Self::with_max_game_errors): 100.
    pub const DEFAULT_MAX_GAME_ERRORS: usize = 100;

    /// Keeps at most `max` problems in each game's [`errors`](Game::errors) (the first ones,
    /// in input order, those met before the first game included); the rest are counted in
    /// [`errors_dropped`](Game::errors_dropped), and the game is built on as usual. So a game of
    /// a few kilobytes that raises millions of problems (`1. e4` and then five million `)`)
    /// holds a hundred, not millions: what it holds is bounded by its own moves and text, not
    /// by its faults. The [`ErrorKind::GameTooLarge`] of [`with_max_game_bytes`](Self::with_max_game_bytes)
    /// is always kept. `usize::MAX`: no limit.
    ///
    /// ```
    /// use kifu::pgn::{Config, GameBuilder, Games};
    /// let pgn = format!("1. e4 {}*\n", ") ".repeat(1000));
    /// let builder = GameBuilder::new().with_max_game_errors(10);
    /// let games: Vec<_> = Games::with_builder(pgn.as_bytes(), Config::default(), builder).collect();
    /// assert_eq!(games.len(), 1);
    /// assert_eq!((games[0].errors.len(), games[0].errors_dropped), (10, 990));
    /// assert_eq!(games[0].moves.len(), 1);
    /// ```
    pub fn with_max_game_errors(mut self, max: usize) -> GameBuilder {
        self.max_game_errors = max;
        self
    }

    /// The most problems each game keeps ([`with_max_game_errors`](Self::with_max_game_errors)).
    pub fn max_game_errors(&self) -> usize {
        self.max_game_errors
    }

    /// Whether to return [`Control::Stop`] at the end of each game (default: no).
    pub fn stop_at_game_end(mut self, stop: bool) -> GameBuilder {
        self.stop = stop;
        self
    }

    /// What the builder keeps.
    pub fn keep(&self) -> Scope {
        self.keep
    }

    /// The problems met outside any game and not yet given to one: after the input ended, those
    /// of an input that held no game at all (text that is not PGN), which no [`Game`] carries.
    ///
    /// ```
    /// use kifu::pgn::{Games, Reader, GameBuilder};
    /// let mut b = GameBuilder::new();
    /// Reader::new(&b"no game here\n"[..]).read_all(&mut b).unwrap();
    /// assert!(b.pop().is_none());
    /// assert_eq!(b.unclaimed_errors().len(), 1);
    /// ```
    pub fn unclaimed_errors(&self) -> &[GameError] {
        &self.pending
    }

    /// The oldest finished game not yet taken.
    pub fn pop(&mut self) -> Option<Game> {
        self.done.pop_front()
    }

    /// Every finished game not yet taken, oldest first.
    pub fn take_games(&mut self) -> Vec<Game> {
        self.done.drain(..).collect()
    }

    /// Hands back a game the caller is done with: its vectors and strings (tags, moves,
    /// comments, variations, errors), emptied, serve the games built next, so that once the
    /// builder has been handed back a game as large as the next one, building it allocates
    /// nothing. The games built are the same either way.
    ///
    /// The builder keeps what it is handed until it builds with it, or is dropped: handed back
    /// the games it built, one at a time, it holds about the largest of them.
    ///
    /// ```
    /// use kifu::pgn::{GameBuilder, Parser};
    ///
    /// let mut builder = GameBuilder::new();
    /// let mut parser = Parser::new();
    /// let mut plies = 0;
    /// for chunk in [&b"1. e4 {best} e5 *\n\n1. d4 d5 2. c4"[..], b" *\n\n1. c4 *\n"] {
    ///     let _ = parser.feed(chunk, &mut builder);
    ///     while let Some(game) = builder.pop() {
    ///         plies += game.moves.len();
    ///         builder.recycle(game); // its room serves the next game
    ///     }
    /// }
    /// parser.finish(&mut builder);
    /// while let Some(game) = builder.pop() {
    ///     plies += game.moves.len();
    /// }
    /// assert_eq!(plies, 6);
    /// ```
    pub fn recycle(&mut self, mut game: Game) {
        let s = &mut self.spare;
        if s.pairs.is_empty() {
            core::mem::swap(&mut s.pairs, &mut game.tags);
        } else {
            s.pairs.append(&mut game.tags);
        }
        if game.tags.capacity() > s.tags.capacity() {
            s.tags = core::mem::take(&mut game.tags);
        }
        if !game.errors.is_empty() {
            for e in game.errors.drain(..) {
                s.keep_string(e.text);
            }
        }
        if game.errors.capacity() > s.errors.capacity() {
            s.errors = core::mem::take(&mut game.errors);
        }
        s.keep_strings(core::mem::take(&mut game.comments));
        let mut main = core::mem::take(&mut game.moves);
        if s.main.capacity() == 0 {
            // kept whole: the next game's main line is written over it
            s.main = main;
        } else {
            s.take_apart(&mut main);
            if main.capacity() > 0 {
                s.lines.push(main);
            }
        }
    }

    /// Whether `extra` more bytes fit the open game. If not, the game is full: the error that
    /// says so is added (once). `at`: the last move before the item.
    fn fits(&mut self, pos: Position, at: Option<MoveRef>, extra: usize) -> bool {
        if self.full {
            return false;
        }
        if self.bytes.saturating_add(extra) <= self.max_game_bytes {
            self.bytes += extra;
            return true;
        }
        self.full = true;
        self.comment.clear();
        if let Some(game) = self.game.as_mut() {
            let e = too_large(pos, at);
            self.bytes += error_bytes(&e);
            game.errors.push(e);
        }
        false
    }

    fn line(&mut self) -> &mut OpenLine {
        if self.lines.is_empty() {
            self.lines.push(OpenLine::default());
        }
        let n = self.lines.len();
        &mut self.lines[n - 1]
    }
}

/// Appends `bytes` to `s`, U+FFFD for what is not UTF-8.
fn push_text(s: &mut String, bytes: &[u8]) {
    s.push_str(&crate::utf8::lossy(bytes));
}

/// The error that says a game reached the limit.
fn too_large(pos: Position, at: Option<MoveRef>) -> GameError {
    GameError {
        kind: ErrorKind::GameTooLarge,
        severity: ErrorKind::GameTooLarge.severity(),
        text: String::new(),
        truncated: false,
        pos,
        at,
    }
}

/// The answer to the parser for an item of a game.
fn go_on(kept: bool) -> Control {
    if kept {
        Control::Continue
    } else {
        Control::SkipGame
    }
}

impl Visitor for GameBuilder {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.is_main_line() {
            // lines of a game never ended (a builder fed again after an abandoned input)
            if !self.lines.is_empty() {
                for line in self.lines.drain(..) {
                    let (moves, before) = line.finish(&mut self.spare);
                    self.spare.keep_line(moves);
                    self.spare.keep_strings(before);
                }
            }
            let mut game = Game {
                index: ctx.game,
                offset: ctx.pos.offset,
                tags: core::mem::take(&mut self.spare.tags),
                ..Game::default()
            };
            // problems before the first game go to it
            game.errors = if self.pending.is_empty() {
                core::mem::take(&mut self.spare.errors)
            } else {
                core::mem::take(&mut self.pending)
            };
            game.errors_dropped = core::mem::take(&mut self.pending_dropped);
            self.before = core::mem::take(&mut self.pending_bytes);
            self.pending_full = false;
            self.bytes = 0;
            self.full = false;
            self.game = Some(game);
        }
        let moves = if ctx.is_main_line() {
            core::mem::take(&mut self.spare.main)
        } else {
            self.spare.lines.pop().unwrap_or_default()
        };
        self.lines.push(OpenLine::new(moves));
        if ctx.in_variation() && self.full {
            return Control::SkipGame;
        }
        if ctx.in_variation() && self.keep != Scope::Full {
            return Control::Skip;
        }
        Control::Continue
    }

    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.in_variation() {
            let mut kept = true;
            if self.lines.len() > 1 {
                let line = self.lines.pop().expect("a variation is open");
                let parent = self.line().last_mut().is_some();
                let mut line = Some(line.finish(&mut self.spare));
                if self.keep == Scope::Full && parent {
                    // a full game keeps the variations open when it was cut (at most one per
                    // level): they hold what was read of them
                    if self.full {
                        self.bytes += VARIATION_BYTES;
                    } else {
                        kept = self.fits(ctx.pos, ctx.last_move(), VARIATION_BYTES);
                    }
                    let parent = self.lines.last_mut().and_then(OpenLine::last_mut);
                    if let (true, Some(parent), Some((moves, before))) = (kept, parent, line.take())
                    {
                        let mut var = Variation {
                            moves,
                            comments: Vec::new(),
                        };
                        if var.moves.is_empty() {
                            var.comments = before;
                        }
                        if parent.variations.capacity() == 0 {
                            parent.variations =
                                self.spare.variation_lists.pop().unwrap_or_default();
                        }
                        parent.variations.push(var);
                    }
                }
                if let Some((moves, before)) = line {
                    // not kept: its room is
                    self.spare.keep_line(moves);
                    self.spare.keep_strings(before);
                }
            }
            return go_on(kept);
        }
        let mut game = self.game.take().unwrap_or_default();
        let mut lines = self.lines.drain(..);
        if let Some(main) = lines.next() {
            (game.moves, game.comments) = main.finish(&mut self.spare);
        }
        for line in lines {
            let (moves, before) = line.finish(&mut self.spare);
            self.spare.keep_line(moves);
            self.spare.keep_strings(before);
        }
        self.comment.clear();
        self.done.push_back(game);
        if self.stop {
            Control::Stop
        } else {
            Control::Continue
        }
    }

    fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
        if self.game.is_none() {
            return Control::Continue;
        }
        let (mut name, mut value) = self.spare.pairs.pop().unwrap_or_default();
        name.clear();
        push_text(&mut name, tag.name);
        value.clear();
        value.push_str(&tag.value.decode_utf8_lossy());
        let kept = self.fits(ctx.pos, None, TAG_BYTES + name.len() + value.len());
        match (kept, self.game.as_mut()) {
            (true, Some(game)) => game.tags.push((name, value)),
            _ => self.spare.pairs.push((name, value)),
        }
        go_on(kept)
    }

    fn on_tags_end(&mut self, _: &Context) -> Control {
        if self.keep == Scope::GameInfo || self.full {
            Control::SkipGame
        } else {
            Control::Continue
        }
    }

    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        let text = MoveText::from_utf8_lossy(mv.text);
        let before = MoveRef::from_ply(ctx.ply.saturating_sub(1));
        if !self.fits(ctx.pos, before, NODE_BYTES + text.len()) {
            return Control::SkipGame;
        }
        self.line();
        let (lines, spare) = (&mut self.lines, &mut self.spare);
        let line = lines.last_mut().expect("a line");
        let comments_before = if ctx.in_variation() && line.is_empty() {
            core::mem::take(&mut line.before)
        } else {
            Vec::new()
        };
        match line.moves.get_mut(line.len) {
            Some(node) => {
                // a move of a game handed back: written over
                spare.clear_node(node);
                node.san = mv.san;
                node.text = text;
                if comments_before.capacity() > 0 {
                    spare.keep_strings(core::mem::replace(
                        &mut node.comments_before,
                        comments_before,
                    ));
                }
            }
            None => line.moves.push(Node {
                san: mv.san,
                text,
                nags: Nags::new(),
                comments_before,
                comments: Vec::new(),
                variations: Vec::new(),
            }),
        }
        line.len += 1;
        Control::Continue
    }

    fn on_nag(&mut self, ctx: &Context, nag: Nag, _: NagForm) -> Control {
        if self.line().is_empty() {
            return go_on(!self.full);
        }
        if !self.fits(ctx.pos, ctx.last_move(), NAG_BYTES) {
            return Control::SkipGame;
        }
        if let Some(node) = self.line().last_mut() {
            node.nags.push(nag);
        }
        Control::Continue
    }

    fn on_comment(&mut self, ctx: &Context, c: &Comment<'_>) -> Control {
        if c.kind == CommentKind::Escape {
            return Control::Continue;
        }
        if self.full {
            return Control::SkipGame;
        }
        if c.first {
            self.comment.clear();
        }
        // the pieces so far count against the limit, so that one endless comment cannot grow
        // without bound
        let piece = c.text.as_bytes();
        let so_far = STRING_BYTES + self.comment.len() + piece.len();
        if self.bytes.saturating_add(so_far) > self.max_game_bytes {
            self.fits(ctx.pos, ctx.last_move(), so_far);
            return Control::SkipGame;
        }
        let text = if c.first && c.last {
            // a comment in one piece (the usual): straight to its string
            self.spare.text(piece)
        } else {
            self.comment.extend_from_slice(piece);
            if !c.last {
                return Control::Continue;
            }
            let text = self.spare.text(&self.comment);
            self.comment.clear();
            text
        };
        if !self.fits(ctx.pos, ctx.last_move(), STRING_BYTES + text.len()) {
            self.spare.keep_string(text);
            return Control::SkipGame;
        }
        self.line();
        let (lines, spare) = (&mut self.lines, &mut self.spare);
        let line = lines.last_mut().expect("a line");
        let list = match line.last_mut() {
            Some(node) => &mut node.comments,
            None => &mut line.before,
        };
        if list.capacity() == 0 {
            *list = spare.comment_list();
        }
        list.push(text);
        Control::Continue
    }

    fn on_result(&mut self, ctx: &Context, outcome: Outcome) -> Control {
        if ctx.is_main_line() {
            if let Some(game) = self.game.as_mut() {
                game.result = Some(outcome);
            }
        }
        Control::Continue
    }

    fn on_error(&mut self, e: &Error<'_>) -> Control {
        let owned = GameError {
            kind: e.kind,
            severity: e.severity,
            text: self.spare.text(e.text),
            truncated: e.truncated,
            pos: e.pos,
            at: e.at,
        };
        let size = error_bytes(&owned);
        if self.game.is_none() {
            // before the first game (the only place outside a game the parser reports
            // problems): for it, within a budget of their own
            if self.pending.len() >= self.max_game_errors {
                self.spare.keep_string(owned.text);
                self.pending_dropped += 1;
            } else if self.pending_bytes + size <= self.max_game_bytes {
                self.pending_bytes += size;
                self.pending.push(owned);
            } else {
                self.spare.keep_string(owned.text);
                self.pending_dropped += 1;
                if !self.pending_full {
                    self.pending_full = true;
                    let marker = too_large(e.pos, None);
                    self.pending_bytes += error_bytes(&marker);
                    self.pending.push(marker);
                }
            }
            return Control::Continue;
        }
        // A full game keeps only what the parser reports while skipping (a comment open at the
        // end of input); other problems may come until the next event answers `SkipGame`, since
        // the parser takes no `SkipGame` from `on_error`.
        let many = self
            .game
            .as_ref()
            .is_some_and(|g| g.errors.len() >= self.max_game_errors);
        let kept = if self.full {
            e.kind == ErrorKind::UnterminatedComment && !many
        } else {
            !many && self.fits(e.pos, e.at, size)
        };
        if kept {
            if self.full {
                self.bytes += size;
            }
            if let Some(game) = self.game.as_mut() {
                game.errors.push(owned);
            }
        } else {
            self.spare.keep_string(owned.text);
            if let Some(game) = self.game.as_mut() {
                game.errors_dropped += 1;
            }
        }
        Control::Continue
    }
}
