//! The games that reach a position or show a pattern (`kifu find`, `kifu.find`), and the
//! plies where they do: one [`Query`] per format, tested on each game as it is built, on the
//! scan's threads.
//!
//! The chess queries are kifu-replay's ([`chess::query`](kifu_replay::chess::query)): an exact
//! position, a sub-FEN pattern, a material signature, sequences of them. A Go query is the
//! other arm of [`Query`] when the Go pattern engine lands; until then an SGF game matches no
//! query.
//!
//! ```
//! use kifu_pipeline::find::{Finder, Query};
//! use kifu_replay::chess::query::{Query as ChessQuery, Step};
//!
//! let q = Query::Chess(ChessQuery::new(vec![Step::subfen("8/8/8/8/4P3/8/8/8").unwrap()]));
//! let mut finder = Finder::new(std::sync::Arc::new(q), true);
//! let game = kifu::pgn::Games::new(b"1. e4 e5 2. Nf3 *").next().unwrap();
//! assert_eq!(finder.pgn(&game).unwrap().plies, [1, 2, 3]);
//! ```

use std::sync::Arc;

use kifu::{pgn, sgf};
use kifu_replay::chess::query::{self, Searcher};

/// What to look for: a query of one game format.
#[non_exhaustive]
#[derive(Clone, Debug)]
pub enum Query {
    /// A chess query, tested on PGN games (SGF games never match it).
    Chess(query::Query),
    /// A Go pattern ([`go_find`](crate::go_find)), tested on every position of the main line
    /// of SGF games (PGN games never match it); the plies are the move numbers of the positions
    /// where it stands (0: the start).
    Go(kifu_replay::go::Pattern),
}

impl Query {
    /// Whether the query is one exact position (one row per move in `kifu explore`, no
    /// position column needed).
    pub fn is_exact(&self) -> bool {
        match self {
            Query::Chess(q) => q.exact().is_some(),
            Query::Go(_) => false,
        }
    }
}

/// A chess query as its frontends take it, in words: `kifu find`'s flags, `kifu.find`'s
/// keyword arguments (docs/search.md).
///
/// ```
/// use kifu_pipeline::find::ChessSpec;
/// let spec = ChessSpec {
///     subfen: Some("8/8/2n5/1B6/8/8/8/8".into()),
///     then: vec!["material:Q=0 q=0".into()],
///     within: Some(20),
///     ..ChessSpec::default()
/// };
/// assert!(spec.query().is_ok());
/// assert!(ChessSpec::default().query().is_err(), "no query");
/// ```
#[derive(Clone, Debug, Default)]
pub struct ChessSpec {
    /// An exact position, FEN or EPD (`--fen`).
    pub fen: Option<String>,
    /// A piece pattern (`--subfen`).
    pub subfen: Option<String>,
    /// A material signature (`--material`).
    pub material: Option<String>,
    /// The later steps of a sequence (`--then`: `fen:…`, `subfen:…`, `material:…`).
    pub then: Vec<String>,
    /// Each step within this many plies of the one before (`--within`).
    pub within: Option<u32>,
    /// The fewest plies before a position matched (`--min-ply`).
    pub min_ply: Option<u32>,
    /// The most plies before a position matched (`--max-ply`).
    pub max_ply: Option<u32>,
    /// Search the variations too (`--variations`).
    pub variations: bool,
}

impl ChessSpec {
    /// The query, or what is wrong with it (named by its flag: `--fen …: …`).
    ///
    /// # Errors
    ///
    /// No query at all, a part that cannot be read, more than
    /// [`MAX_STEPS`](query::MAX_STEPS) steps.
    pub fn query(&self) -> Result<Query, String> {
        use kifu_replay::chess::query::{Exact, Material, Step, SubFen};
        let mut first = Step::default();
        if let Some(f) = &self.fen {
            first.exact = Some(Exact::parse(f).map_err(|e| format!("--fen {e}"))?);
        }
        if let Some(s) = &self.subfen {
            first.sub = Some(SubFen::parse(s).map_err(|e| format!("--subfen {e}"))?);
        }
        if let Some(m) = &self.material {
            first.material = Some(Material::parse(m).map_err(|e| format!("--material {e}"))?);
        }
        if first.is_empty() {
            return Err(
                "no query: give --fen FEN, --subfen BOARD or --material SIG (docs/search.md)"
                    .into(),
            );
        }
        if self.then.len() >= query::MAX_STEPS {
            return Err(format!(
                "at most {} steps (--then {} times)",
                query::MAX_STEPS,
                query::MAX_STEPS - 1
            ));
        }
        let mut steps = vec![first];
        for t in &self.then {
            steps.push(Step::parse(t).map_err(|e| format!("--then {e}"))?);
        }
        let mut q = query::Query::new(steps).within(self.within);
        q.min_ply = self.min_ply.unwrap_or(0);
        q.max_ply = self.max_ply.unwrap_or(u32::MAX);
        q.variations = self.variations;
        Ok(Query::Chess(q))
    }
}

/// Where a game matched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Matched {
    /// The plies (from the game's start: 0 is its first position) of the main-line positions
    /// where the query matched, in order.
    pub plies: Vec<u32>,
    /// The same in variations (each the ply along its line), in the order of the moves, when
    /// the query searches them.
    pub variation_plies: Vec<u32>,
}

impl Matched {
    /// Writes the plies as JSON members: `"matched_plies":[…]`, and
    /// `,"matched_variation_plies":[…]` when `variations`.
    pub fn write_json(&self, out: &mut Vec<u8>, variations: bool) {
        use std::io::Write as _;
        let list = |out: &mut Vec<u8>, name: &str, plies: &[u32]| {
            let _ = write!(out, "\"{name}\":[");
            for (i, p) in plies.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let _ = write!(out, "{p}");
            }
            out.push(b']');
        };
        list(out, "matched_plies", &self.plies);
        if variations {
            out.push(b',');
            list(out, "matched_variation_plies", &self.variation_plies);
        }
    }
}

/// Tests games for a query, one game at a time; one per piece (its buffers are reused from game
/// to game).
#[derive(Debug)]
pub struct Finder {
    query: Arc<Query>,
    searcher: Searcher,
    all: bool,
    go: crate::go_find::TreeSearch,
    go_found: Vec<crate::go_find::Appearance>,
}

impl Finder {
    /// A finder for `query`: with `all`, every ply where a game matches is listed; without, the
    /// search of a game ends at its first match (its plies then hold that one).
    pub fn new(query: Arc<Query>, all: bool) -> Finder {
        Finder {
            query,
            searcher: Searcher::default(),
            all,
            go: crate::go_find::TreeSearch::default(),
            go_found: Vec::new(),
        }
    }

    /// The query.
    pub fn query(&self) -> &Query {
        &self.query
    }

    /// Positions replayed so far.
    pub fn positions(&self) -> u64 {
        self.searcher.positions + self.go.positions
    }

    /// Where a PGN game matches, or `None`.
    pub fn pgn(&mut self, game: &pgn::Game) -> Option<Matched> {
        let Query::Chess(q) = &*self.query else {
            return None;
        };
        let mut m = Matched::default();
        let all = self.all;
        self.searcher.search(game, q, |hit| {
            if hit.depth == 0 {
                m.plies.push(hit.ply);
            } else {
                m.variation_plies.push(hit.ply);
            }
            all
        });
        (!m.plies.is_empty() || !m.variation_plies.is_empty()).then_some(m)
    }

    /// Where an SGF game tree matches, or `None` (a chess query never matches Go).
    pub fn sgf(&mut self, tree: &sgf::GameTree) -> Option<Matched> {
        match &*self.query {
            Query::Chess(_) => None,
            Query::Go(pattern) => {
                self.go_found.clear();
                self.go.search(pattern, tree, &mut self.go_found);
                let take = if self.all { usize::MAX } else { 1 };
                let plies: Vec<u32> = self
                    .go_found
                    .iter()
                    .take(take)
                    .map(|a| a.move_number)
                    .collect();
                (!plies.is_empty()).then(|| Matched {
                    plies,
                    variation_plies: Vec::new(),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_replay::chess::query::Step;

    #[test]
    fn first_or_every_match() {
        let mut q = query::Query::new(vec![Step::material("Q+ q+").unwrap()]);
        q.variations = true;
        let q = Arc::new(Query::Chess(q));
        let g = pgn::Games::new(b"1. e4 (1. d4 d5) e5 *".as_slice())
            .next()
            .unwrap();
        let mut all = Finder::new(Arc::clone(&q), true);
        let m = all.pgn(&g).unwrap();
        assert_eq!((m.plies, m.variation_plies), (vec![0, 1, 2], vec![1, 2]));
        let mut first = Finder::new(q, false);
        assert_eq!(first.pgn(&g).unwrap().plies, [0]);
        let t = sgf::game_trees(b"(;B[aa])").next().unwrap();
        assert!(first.sgf(&t).is_none());
        // a Go pattern: SGF games only, the move numbers of the positions
        let go = Arc::new(Query::Go(kifu_replay::go::Pattern::parse("X").unwrap()));
        let mut all = Finder::new(Arc::clone(&go), true);
        assert!(all.pgn(&g).is_none());
        let t = sgf::game_trees(b"(;SZ[9];B[aa];W[bb];B[])").next().unwrap();
        assert_eq!(all.sgf(&t).unwrap().plies, [1, 2, 3]);
        assert_eq!(Finder::new(go, false).sgf(&t).unwrap().plies, [1]);
        let mut out = Vec::new();
        Matched {
            plies: vec![1, 2],
            variation_plies: vec![],
        }
        .write_json(&mut out, true);
        assert_eq!(
            out,
            b"\"matched_plies\":[1,2],\"matched_variation_plies\":[]"
        );
    }
}
