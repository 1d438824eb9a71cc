//! What was played next (`kifu explore`, `kifu.explore`): for each position where a
//! [`Query`] matches, each next move with its count, White/draw/Black results, the mean rating
//! of the players who chose it, the last date it was played and one game that played it,
//! optionally per value of a key ([`Group`]). The games whose main line ends at the position
//! have a row of their own, [`END`] (`uci` `None`), as the Go explorer's `end`.
//!
//! Each piece collects its games' plays ([`Plays`], on the scan's threads); the sink adds the
//! pieces in input order ([`Explorer::add`]), so that the rows are the same at every thread
//! count. Memory is bounded: at most [`Explorer::max_entries`] distinct (group, position, move)
//! rows are kept, the plays of any other are counted in [`Explorer::dropped`].
//!
//! ```
//! use std::sync::Arc;
//! use kifu_pipeline::explore::{Explorer, Plays};
//! use kifu_pipeline::find::Query;
//! use kifu_replay::chess::query::{Query as ChessQuery, Step};
//!
//! let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
//! let q = Arc::new(Query::Chess(ChessQuery::new(vec![Step::fen(start).unwrap()])));
//! let mut plays = Plays::new(Arc::clone(&q), None);
//! for g in kifu::pgn::Games::new(b"[Result \"1-0\"]\n\n1. e4 *\n\n[Result \"0-1\"]\n\n1. e4 *\n\n1. d4 *".as_slice()) {
//!     plays.pgn(&g);
//! }
//! let mut explorer = Explorer::new(None, 1000);
//! explorer.add("three.pgn", 0, &plays);
//! let rows = explorer.rows();
//! assert_eq!((rows[0].san.as_str(), rows[0].games, rows[0].white, rows[0].black), ("e4", 2, 1, 1));
//! assert_eq!((rows[1].san.as_str(), rows[1].games, rows[1].game), ("d4", 1, 3));
//! // the two games of 1. e4 end after it: the row `end`, their results unknown (`*`)
//! let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
//! let q = Arc::new(Query::Chess(ChessQuery::new(vec![Step::fen(after_e4).unwrap()])));
//! let mut plays = Plays::new(q, None);
//! for g in kifu::pgn::Games::new(b"1. e4 *\n\n1. e4 *\n\n1. e4 e5 *".as_slice()) {
//!     plays.pgn(&g);
//! }
//! let mut explorer = Explorer::new(None, 1000);
//! explorer.add("three.pgn", 0, &plays);
//! assert_eq!(explorer.games, 3);
//! let rows = explorer.rows();
//! assert_eq!((rows[0].san.as_str(), rows[0].uci.as_deref(), rows[0].games), ("end", None, 2));
//! assert_eq!((rows[0].white_share, rows[0].game), (None, 1));
//! ```

use std::collections::HashMap;
use std::sync::Arc;

use kifu::pgn::{self, Outcome};
use kifu::sgf;
use kifu_replay::chess::query::{Searcher, san, transposition_key};
use kifu_replay::chess::{Position, Resolved};

use kifu::par::{Event, Visited};

use crate::find::{FindWork, Query};
use crate::keys::{self, AnyOf, Key};
use crate::{DomScope, Input, PerGame, PieceWork};

/// What the rows are grouped by.
#[derive(Clone, Debug)]
pub enum Group {
    /// A key's value ([`keys`]: a tag, `year`, `speed`, …).
    Key(Key),
    /// The mover's rating (`WhiteElo` when White is to move, else `BlackElo`), in bands of this
    /// many points (`2000-2199` for 200).
    Band(u32),
}

impl Group {
    /// Reads `--by`: a key's name, or `rating:N` (bands of N points of the mover's rating).
    ///
    /// # Errors
    ///
    /// A key no game has, a band of 0 points, or `rating` without its band.
    pub fn parse(text: &str) -> Result<Group, String> {
        if text.trim() == "rating" {
            return Err(format!(
                "`{}` needs a band: `rating:200` groups by the mover's rating in bands of 200 \
                 points (`WhiteElo`, `BlackElo`: one player's rating)",
                text.trim()
            ));
        }
        if let Some(n) = text.strip_prefix("rating:") {
            return match n.trim().parse::<u32>() {
                Ok(n) if n > 0 => Ok(Group::Band(n)),
                _ => Err(format!(
                    "`{text}`: rating:N, N the width of a band in points (at least 1)"
                )),
            };
        }
        Key::parse_group(text).map(Group::Key)
    }

    fn value(&self, game: &pgn::Game, elo: Option<u32>) -> Option<String> {
        match self {
            Group::Key(k) => k.shown(game),
            Group::Band(n) => elo.map(|e| {
                let low = e / n * n;
                format!("{low}-{}", low.saturating_add(n - 1))
            }),
        }
    }

    fn order(&self, a: &str, b: &str) -> std::cmp::Ordering {
        match self {
            Group::Key(k) => k.order(a, b),
            Group::Band(_) => {
                let low = |s: &str| s.split('-').next().and_then(|x| x.parse::<u32>().ok());
                low(a).cmp(&low(b)).then_with(|| a.cmp(b))
            }
        }
    }
}

/// The `san` of the row of the games that end at the position (their `uci` is `None`), as
/// the Go explorer's `end`.
pub const END: &str = "end";

/// One game's play of a move from a matching position, or its end there.
#[derive(Clone, Debug)]
struct Play {
    group: Option<String>,
    key: u64,
    /// Index of the position's EPD in [`Plays::fens`].
    fen: u32,
    /// `None`: the game ends at the position.
    uci: Option<String>,
    san: String,
    outcome: Option<Outcome>,
    elo: Option<u32>,
    date: Option<String>,
    game: u64,
}

/// A game's play (or end) at a matching position, before its game's tags are read.
struct Found {
    key: u64,
    /// `None`: the main line ends there.
    uci: Option<String>,
    san: String,
    /// White is to move.
    white: bool,
    epd: String,
}

/// A piece's plays: for each game, each (position, next move) where the query matched, once
/// per game, and the position where its main line ends if the query matched there.
#[derive(Debug)]
pub struct Plays {
    query: Arc<Query>,
    group: Option<Group>,
    searcher: Searcher,
    plays: Vec<Play>,
    fens: Vec<String>,
    fen_of: HashMap<u64, u32>,
    /// Games of the piece that matched (as `kifu find -c` counts them).
    pub games: u64,
}

/// The mover's rating tag's value, when it is a number above 0.
fn elo(game: &pgn::Game, white: bool) -> Option<u32> {
    let tag = if white { "WhiteElo" } else { "BlackElo" };
    game.tag(tag)
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|&e| e > 0)
}

/// The game's date (`UTCDate`, else `Date`) when its year is known.
fn date(game: &pgn::Game) -> Option<String> {
    let d = game
        .tag("UTCDate")
        .filter(|d| !d.starts_with('?'))
        .or_else(|| game.tag("Date"))?
        .trim();
    (d.len() >= 4 && d.as_bytes()[..4].iter().all(u8::is_ascii_digit)).then(|| d.to_string())
}

/// Orders dates written `YYYY.MM.DD` with unknown parts (`??`) as the earliest.
fn date_order(a: &str, b: &str) -> std::cmp::Ordering {
    let norm = |s: &str| s.replace('?', "0").replace('-', ".");
    norm(a).cmp(&norm(b))
}

impl Plays {
    /// The plays of the games given, for `query`, grouped by `group`.
    pub fn new(query: Arc<Query>, group: Option<Group>) -> Plays {
        Plays {
            query,
            group,
            searcher: Searcher::default(),
            plays: Vec::new(),
            fens: Vec::new(),
            fen_of: HashMap::new(),
            games: 0,
        }
    }

    /// Adds a PGN game's plays (`game.index` its index in the piece).
    pub fn pgn(&mut self, game: &pgn::Game) {
        let Query::Chess(q) = &*self.query else {
            return;
        };
        let mut found: Vec<Found> = Vec::new();
        let mut matched = false;
        self.searcher.search(game, q, |hit| {
            matched = true;
            let pos = hit.position;
            let white = pos.side_to_move() == kifu_replay::chess::cozy::Color::White;
            let Some(next) = hit.next else {
                // the end of the main line (a variation's end is not the game's)
                let key = transposition_key(pos);
                if hit.depth == 0 && !found.iter().any(|f| f.key == key && f.uci.is_none()) {
                    found.push(Found {
                        key,
                        uci: None,
                        san: END.to_string(),
                        white,
                        epd: epd(pos),
                    });
                }
                return true;
            };
            let alternatives = next
                .variations
                .iter()
                .filter(|_| q.variations)
                .filter_map(|v| v.moves.first());
            for node in std::iter::once(next).chain(alternatives) {
                if let Ok(Resolved::Move(mv)) = pos.resolve(node.san) {
                    let key = transposition_key(pos);
                    let uci = Some(pos.uci(mv).to_string());
                    if !found.iter().any(|f| f.key == key && f.uci == uci) {
                        found.push(Found {
                            key,
                            uci,
                            san: san(pos, mv),
                            white,
                            epd: epd(pos),
                        });
                    }
                }
            }
            true
        });
        if !matched {
            return;
        }
        self.games += 1;
        let outcome = keys::Game::outcome(game);
        let outcome = (outcome != Outcome::Unknown).then_some(outcome);
        let date = date(game);
        for Found {
            key,
            uci,
            san,
            white,
            epd: epd_text,
        } in found
        {
            let elo = elo(game, white);
            let group = self.group.as_ref().and_then(|g| g.value(game, elo));
            let next = self.fens.len() as u32;
            let fen = *self.fen_of.entry(key).or_insert(next);
            if fen == next {
                self.fens.push(epd_text);
            }
            self.plays.push(Play {
                group,
                key,
                fen,
                uci,
                san,
                outcome,
                elo,
                date: date.clone(),
                game: game.index,
            });
        }
    }

    /// Adds an SGF game tree's plays (none for a chess query; a Go pattern's next moves are
    /// [`go_find::GoExplorer`](crate::go_find::GoExplorer)'s).
    pub fn sgf(&mut self, _tree: &sgf::GameTree) {
        match &*self.query {
            Query::Chess(_) | Query::Go(_) => {}
        }
    }
}

/// The EPD of a position: its FEN's first four fields.
fn epd(pos: &Position) -> String {
    let fen = pos.fen().to_string();
    let mut fields = fen.splitn(5, ' ');
    let mut out = String::with_capacity(fen.len());
    for (i, f) in fields.by_ref().take(4).enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(f);
    }
    out
}

impl PerGame for Plays {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        Plays::pgn(self, &game);
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        Plays::sgf(self, &tree);
    }
}

/// A row of the explorer: one move from one position (in one group), or the games that end
/// there ([`END`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Row {
    /// The group's value (`None`: not grouped, or the game has no value of the key).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The position the move was played from, as EPD.
    pub fen: String,
    /// The move in SAN; [`END`] for the games that end at the position.
    pub san: String,
    /// The move in UCI; `None` for the games that end at the position.
    pub uci: Option<String>,
    /// Games that played it (that end there, for [`END`]).
    pub games: u64,
    /// Of those, games White won.
    pub white: u64,
    /// Drawn.
    pub draws: u64,
    /// Black won.
    pub black: u64,
    /// White's share of the games of known result (0 to 1; `None` when none is known).
    pub white_share: Option<f64>,
    /// The draws' share.
    pub draw_share: Option<f64>,
    /// Black's share.
    pub black_share: Option<f64>,
    /// The mean rating of the players who chose the move (the games with a rating; for
    /// [`END`], of the players to move).
    pub mean_elo: Option<f64>,
    /// The last date it was played (`YYYY.MM.DD` as the tag writes it).
    pub last_date: Option<String>,
    /// The input of one game that played it (the first, in input order).
    pub file: String,
    /// That game's number in its input, from 1.
    pub game: u64,
    #[serde(skip)]
    elo_sum: u64,
    #[serde(skip)]
    elo_games: u64,
    #[serde(skip)]
    key: u64,
}

/// What an exploration makes for each piece ([`Exploring::work`]): the plays of its games
/// that pass every test.
#[derive(Debug)]
pub struct Tested {
    /// The plays of the piece's games that passed.
    pub plays: Plays,
    tests: Arc<[AnyOf]>,
}

impl PerGame for Tested {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        if self.tests.iter().all(|t| t.holds(&game)) {
            self.plays.pgn(&game);
        }
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        if self.tests.iter().all(|t| t.holds(&tree)) {
            self.plays.sgf(&tree);
        }
    }
}

/// An exploration of a chess query: the games passing `tests` (the `-w` of `kifu explore`,
/// the `where` of `kifu.explore`), their plays grouped by `group`. Its [`work`](Self::work)
/// runs in a scan; [`Explorer::take`] adds each piece it reads.
///
/// ```
/// use std::sync::Arc;
/// use kifu_pipeline::explore::{Explorer, Exploring};
/// use kifu_pipeline::find::Query;
/// use kifu_pipeline::{DomScope, Formats, Scan, Source};
/// use kifu_replay::chess::query::{Query as ChessQuery, Step};
///
/// let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// let q = Arc::new(Query::Chess(ChessQuery::new(vec![Step::fen(start).unwrap()])));
/// let tests = vec!["WhiteElo>=2000".parse().unwrap()];
/// let work = Exploring::new(Arc::clone(&q), None, tests).work(DomScope::MAIN_LINE);
/// let data = b"[WhiteElo \"2100\"]\n\n1. e4 *\n\n[WhiteElo \"1500\"]\n\n1. d4 *\n".to_vec();
/// let mut explorer = Explorer::new(None, 1000);
/// Scan::new(Source::Bytes { name: "two.pgn".into(), data }, Formats::ANY)
///     .run(&work, |event| Ok::<(), ()>(explorer.take(event)), |_| {})
///     .unwrap();
/// let rows = explorer.rows();
/// assert_eq!((rows.len(), rows[0].san.as_str(), rows[0].game), (1, "e4", 1));
/// ```
#[derive(Debug)]
pub struct Exploring {
    query: Arc<Query>,
    group: Option<Group>,
    tests: Arc<[AnyOf]>,
}

/// The work of an exploration ([`Exploring::work`]).
pub type ExploreWork = FindWork<Exploring>;

impl Exploring {
    /// The exploration of `query`, of the games passing every test of `tests`, grouped by
    /// `group`.
    pub fn new(query: Arc<Query>, group: Option<Group>, tests: Vec<AnyOf>) -> Exploring {
        Exploring {
            query,
            group,
            tests: tests.into(),
        }
    }

    /// Its work, games built as `scope` says: on the main line, each game is searched on the
    /// parser's events first and built only when it may match ([`FindWork`]).
    pub fn work(self, scope: DomScope) -> ExploreWork {
        let query = Arc::clone(&self.query);
        FindWork::new(&query, scope, self)
    }
}

impl PieceWork for Exploring {
    type Each = Tested;
    fn each(&self, _: &Input) -> Tested {
        Tested {
            plays: Plays::new(Arc::clone(&self.query), self.group.clone()),
            tests: Arc::clone(&self.tests),
        }
    }
}

/// The explorer's rows, built from the pieces' plays in input order.
#[derive(Debug)]
pub struct Explorer {
    group: Option<Group>,
    /// The most distinct (group, position, move) rows kept.
    pub max_entries: usize,
    rows: Vec<Row>,
    index: HashMap<(Option<String>, u64, Option<String>), usize>,
    /// Plays of rows not kept (past `max_entries`).
    pub dropped: u64,
    /// Games that matched (as `kifu find -c` counts them).
    pub games: u64,
}

impl Explorer {
    /// The default of [`max_entries`](Self::max_entries) (`--max-entries`): 100,000 rows, a
    /// few tens of MB at most.
    pub const DEFAULT_MAX_ENTRIES: usize = 100_000;

    /// An explorer grouping by `group`, keeping at most `max_entries` rows.
    pub fn new(group: Option<Group>, max_entries: usize) -> Explorer {
        Explorer {
            group,
            max_entries,
            rows: Vec::new(),
            index: HashMap::new(),
            dropped: 0,
            games: 0,
        }
    }

    /// Adds the plays of a piece an [`ExploreWork`] read (an [`Event::End`] adds nothing).
    pub fn take(&mut self, event: Event<'_, ExploreWork>) {
        if let Event::Piece {
            input,
            visited,
            info,
        } = event
        {
            let plays = match &visited {
                Visited::Pgn(sieve) => &sieve.each.plays,
                Visited::Sgf(dom) => &dom.each.plays,
            };
            self.add(&input.name, info.first_game, plays);
        }
    }

    /// Adds a piece's plays: its games of input `file`, numbered from `first_game` (0-based).
    pub fn add(&mut self, file: &str, first_game: u64, plays: &Plays) {
        self.games += plays.games;
        for p in &plays.plays {
            let id = (p.group.clone(), p.key, p.uci.clone());
            let k = match self.index.get(&id) {
                Some(&k) => k,
                None if self.rows.len() >= self.max_entries => {
                    self.dropped += 1;
                    continue;
                }
                None => {
                    self.index.insert(id, self.rows.len());
                    self.rows.push(Row {
                        group: p.group.clone(),
                        fen: plays.fens[p.fen as usize].clone(),
                        san: p.san.clone(),
                        uci: p.uci.clone(),
                        games: 0,
                        white: 0,
                        draws: 0,
                        black: 0,
                        white_share: None,
                        draw_share: None,
                        black_share: None,
                        mean_elo: None,
                        last_date: None,
                        file: file.to_string(),
                        game: first_game + p.game + 1,
                        elo_sum: 0,
                        elo_games: 0,
                        key: p.key,
                    });
                    self.rows.len() - 1
                }
            };
            let r = &mut self.rows[k];
            r.games += 1;
            match p.outcome {
                Some(Outcome::WhiteWins) => r.white += 1,
                Some(Outcome::BlackWins) => r.black += 1,
                Some(Outcome::Draw) => r.draws += 1,
                _ => {}
            }
            if let Some(e) = p.elo {
                r.elo_sum += u64::from(e);
                r.elo_games += 1;
            }
            if let Some(d) = &p.date
                && r.last_date
                    .as_deref()
                    .is_none_or(|l| date_order(d, l).is_gt())
            {
                r.last_date = Some(d.clone());
            }
        }
    }

    /// The rows: per group (in the key's order), positions by their games (most first), each
    /// position's moves by their games (most first, then by UCI, [`END`] after the moves).
    pub fn rows(mut self) -> Vec<Row> {
        let mut per_position: HashMap<(Option<String>, u64), u64> = HashMap::new();
        for r in &mut self.rows {
            let known = r.white + r.draws + r.black;
            let share = |n: u64| (known > 0).then(|| n as f64 / known as f64);
            r.white_share = share(r.white);
            r.draw_share = share(r.draws);
            r.black_share = share(r.black);
            r.mean_elo = (r.elo_games > 0).then(|| r.elo_sum as f64 / r.elo_games as f64);
            *per_position.entry((r.group.clone(), r.key)).or_default() += r.games;
        }
        let group = self.group.clone();
        self.rows.sort_by(|a, b| {
            let g = match (&a.group, &b.group, &group) {
                (Some(x), Some(y), Some(grp)) => grp.order(x, y),
                (x, y, _) => x.is_none().cmp(&y.is_none()),
            };
            let pa = per_position[&(a.group.clone(), a.key)];
            let pb = per_position[&(b.group.clone(), b.key)];
            g.then_with(|| pb.cmp(&pa))
                .then_with(|| a.fen.cmp(&b.fen))
                .then_with(|| b.games.cmp(&a.games))
                .then_with(|| a.uci.is_none().cmp(&b.uci.is_none()))
                .then_with(|| a.uci.cmp(&b.uci))
        });
        self.rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_band_without_its_width_says_how_to_write_it() {
        for text in ["rating", " rating "] {
            let e = Group::parse(text).unwrap_err();
            assert!(e.starts_with("`rating` needs a band: `rating:200`"), "{e}");
            assert!(!e.contains("no such key"), "{e}");
        }
        let e = Group::parse("rating:").unwrap_err();
        assert!(e.contains("rating:N"), "{e}");
        assert!(Group::parse("rating:0").is_err());
        assert!(matches!(Group::parse("rating:200"), Ok(Group::Band(200))));
        // the other keys as before: a tag, a derived key, a misspelt one named
        assert!(matches!(Group::parse("WhiteElo"), Ok(Group::Key(_))));
        assert!(matches!(Group::parse("year"), Ok(Group::Key(_))));
        assert!(Group::parse("ratnig").unwrap_err().contains("no such key"));
    }

    fn explore(fen: &str, variations: bool, pgn: &[u8]) -> (u64, Vec<Row>) {
        use kifu_replay::chess::query::{Query as ChessQuery, Step};
        let mut q = ChessQuery::new(vec![Step::fen(fen).unwrap()]);
        q.variations = variations;
        let mut plays = Plays::new(Arc::new(Query::Chess(q)), None);
        for g in pgn::Games::new(pgn) {
            plays.pgn(&g);
        }
        let mut explorer = Explorer::new(None, 100);
        explorer.add("t.pgn", 0, &plays);
        (explorer.games, explorer.rows())
    }

    #[test]
    fn the_games_that_end_at_the_position_have_a_row() {
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
        // the end ties with e5 (one game each): the moves first
        let (games, rows) = explore(after_e4, false, b"1. e4 1-0\n\n1. e4 e5 0-1\n\n1. d4 *\n\n");
        assert_eq!(games, 2);
        let got: Vec<_> = rows
            .iter()
            .map(|r| (r.san.as_str(), r.uci.as_deref(), r.games, r.white_share))
            .collect();
        assert_eq!(
            got,
            [
                ("e5", Some("e7e5"), 1, Some(0.0)),
                (END, None, 1, Some(1.0))
            ]
        );
        // a variation's end is not the game's: counted as a game matched, in no row
        let (games, rows) = explore(after_e4, true, b"1. d4 (1. e4) d5 *\n\n");
        assert_eq!((games, rows.len()), (1, 0), "{rows:?}");
        // a game that passes the position twice, the second time at its end: once in each row
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        let (games, rows) = explore(start, false, b"1. Nf3 Nf6 2. Ng1 Ng8 *\n\n");
        assert_eq!(games, 1);
        let got: Vec<_> = rows.iter().map(|r| (r.san.as_str(), r.games)).collect();
        assert_eq!(got, [("Nf3", 1), (END, 1)]);
        assert_eq!(rows[1].white_share, None, "no known result: no share");
    }
}
