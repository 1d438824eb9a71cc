//! What `kifu filter` keeps: tests on a game's keys (kifu-pipeline's [`keys`]: tags, root
//! properties and the values derived from them), ply bounds and what a game holds.

use kifu::{pgn, sgf};
use kifu_pipeline::keys::{self, AnyOf};

/// What a game may be asked to hold (`--has`, `--lacks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Feature {
    /// Comments (PGN `{…}` or `;`; SGF `C`).
    Comments,
    /// Variations.
    Variations,
    /// NAGs (SGF: move and position annotations).
    Nags,
    /// Clock data (PGN `[%clk]`; SGF `BL`/`WL`).
    Clocks,
    /// Engine evaluations (PGN `[%eval]`; SGF `V`).
    Evals,
    /// Problems met while reading.
    Errors,
}

/// Everything `kifu filter` tests, all of which must hold.
#[derive(Clone, Debug, Default)]
pub struct Predicate {
    /// `--where` tests: every one must hold, each one a test or tests joined by `or`.
    pub tests: Vec<AnyOf>,
    /// `--min-plies`.
    pub min_plies: Option<u64>,
    /// `--max-plies`.
    pub max_plies: Option<u64>,
    /// `--has`.
    pub has: Vec<Feature>,
    /// `--lacks`.
    pub lacks: Vec<Feature>,
    /// `--reaches FEN`: a position the main line must reach (its start included), replayed
    /// on a board by `kifu find`'s engine (PGN; SGF games never pass).
    pub reaches: Option<kifu_replay::chess::query::Query>,
}

impl Predicate {
    /// Whether every game passes (nothing to test).
    pub fn is_empty(&self) -> bool {
        self.reaches.is_none() && self.nothing_but_reaches()
    }

    /// Whether `--reaches` is the only test.
    pub fn is_reaches_only(&self) -> bool {
        self.reaches.is_some() && self.nothing_but_reaches()
    }

    /// Whether nothing is tested but (perhaps) `--reaches`.
    fn nothing_but_reaches(&self) -> bool {
        self.tests.is_empty()
            && self.min_plies.is_none()
            && self.max_plies.is_none()
            && self.has.is_empty()
            && self.lacks.is_empty()
    }

    /// Whether a PGN game passes.
    pub fn pgn(&self, game: &pgn::Game) -> bool {
        self.tests.iter().all(|t| t.holds(game))
            && self.plies(game.moves.len() as u64)
            && self.features(|f| pgn_has(game, f))
            && self.reaches.as_ref().is_none_or(|q| reaches(game, q))
    }

    /// Whether an SGF game tree passes (tests on root properties, decoded as UTF-8 where they
    /// are, else as Latin-1, and on the values derived from them).
    pub fn sgf(&self, tree: &sgf::GameTree) -> bool {
        let moves = keys::Game::plies(tree);
        self.tests.iter().all(|t| t.holds(tree))
            && self.plies(moves)
            && self.features(|f| sgf_has(tree, f))
            && self.reaches.is_none()
    }

    fn plies(&self, n: u64) -> bool {
        self.min_plies.is_none_or(|m| n >= m) && self.max_plies.is_none_or(|m| n <= m)
    }

    fn features(&self, has: impl Fn(Feature) -> bool) -> bool {
        self.has.iter().all(|&f| has(f)) && self.lacks.iter().all(|&f| !has(f))
    }
}

/// Whether a PGN game's main line, replayed, reaches the position `query` asks for (its
/// start included); the replay stops once the position cannot come any more.
fn reaches(game: &pgn::Game, query: &kifu_replay::chess::query::Query) -> bool {
    kifu_replay::chess::query::Searcher::default().matches(game, query)
}

/// Whether a PGN game holds `f` anywhere (main line or variations; walked without recursion).
fn pgn_has(game: &pgn::Game, f: Feature) -> bool {
    if f == Feature::Errors {
        return !game.errors.is_empty();
    }
    if f == Feature::Comments && !game.comments.is_empty() {
        return true;
    }
    let mut lines: Vec<&[pgn::Node]> = vec![&game.moves];
    while let Some(line) = lines.pop() {
        for node in line {
            let found = match f {
                Feature::Comments => !node.comments.is_empty() || !node.comments_before.is_empty(),
                Feature::Variations => !node.variations.is_empty(),
                Feature::Nags => !node.nags.is_empty(),
                Feature::Clocks => node.clock().is_some(),
                Feature::Evals => node.eval().is_some(),
                Feature::Errors => false,
            };
            if found {
                return true;
            }
            lines.extend(node.variations.iter().map(|v| v.moves.as_slice()));
        }
    }
    false
}

/// Whether an SGF game tree holds `f` anywhere.
fn sgf_has(tree: &sgf::GameTree, f: Feature) -> bool {
    let props: &[&[u8]] = match f {
        Feature::Errors => return tree.has_errors() || !tree.errors().is_empty(),
        Feature::Variations => return tree.nodes().any(|n| n.children().count() > 1),
        Feature::Comments => &[b"C"],
        Feature::Nags => &[
            b"BM", b"DO", b"IT", b"TE", b"DM", b"GB", b"GW", b"UC", b"HO",
        ],
        Feature::Clocks => &[b"BL", b"WL"],
        Feature::Evals => &[b"V"],
    };
    tree.nodes()
        .any(|n| props.iter().any(|p| n.get(p).is_some()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> pgn::Game {
        pgn::Games::new(text.as_bytes()).next().unwrap()
    }

    fn tests(s: &[&str]) -> Predicate {
        Predicate {
            tests: s.iter().map(|t| t.parse().unwrap()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn tests_parse_with_the_longest_leftmost_operator() {
        let t: keys::Test = "WhiteElo>=2500".parse().unwrap();
        assert_eq!((t.key().name(), t.op()), ("WhiteElo", keys::Op::Ge));
        let t: keys::Test = "Event!~blitz".parse().unwrap();
        assert_eq!(t.op(), keys::Op::HasNot);
        assert!("=x".parse::<keys::Test>().is_err());
        assert!("WhiteElo".parse::<keys::Test>().is_err());
    }

    #[test]
    fn malformed_tests_are_refused_with_a_caret_where_they_go_wrong() {
        let e = "WhiteElo>>2700".parse::<AnyOf>().unwrap_err();
        assert_eq!(
            e,
            "`WhiteElo>>2700`: a second operator:\n  WhiteElo>>2700\n           ^"
        );
        let e = "White Elo>2700".parse::<AnyOf>().unwrap_err();
        assert!(
            e.starts_with("`White Elo>2700`: a tag or property name"),
            "{e}"
        );
        assert!(e.ends_with("\n       ^"), "{e}");
        assert!("Result==1-0".parse::<AnyOf>().is_err());
        assert!("WhiteElo>=".parse::<AnyOf>().is_err());
        assert!("White~".parse::<AnyOf>().is_err());
        // an empty value is a value for = and != (an empty tag)
        assert!("Annotator=".parse::<AnyOf>().is_ok());
        assert!(" BR >= 7d ".parse::<AnyOf>().is_ok());
    }

    #[test]
    fn numbers_dates_and_text_compare_as_such() {
        let g = game(
            "[White \"Carlsen, Magnus\"]\n[WhiteElo \"2850\"]\n[Date \"2021.05.??\"]\n[Result \"1-0\"]\n\n1. e4 {[%clk 0:03:00]} e5 (1... c5) 1-0",
        );
        assert!(tests(&["WhiteElo>=2500", "Result=1-0", "White~carlsen"]).pgn(&g));
        assert!(!tests(&["WhiteElo>2900"]).pgn(&g));
        assert!(tests(&["Date>=2021", "Date<2021.06", "Date>2021.04.30"]).pgn(&g));
        assert!(!tests(&["Date>=2021.05.01"]).pgn(&g), "the day is unknown");
        assert!(tests(&["Date=2021.05", "Date=2021"]).pgn(&g));
        assert!(!tests(&["BlackElo>=0"]).pgn(&g), "no such tag");
        assert!(tests(&["BlackElo!=2000"]).pgn(&g));
        let f = |has: &[Feature], lacks: &[Feature]| Predicate {
            has: has.to_vec(),
            lacks: lacks.to_vec(),
            min_plies: Some(2),
            max_plies: Some(2),
            ..Default::default()
        };
        assert!(
            f(
                &[Feature::Clocks, Feature::Variations],
                &[Feature::Evals, Feature::Errors]
            )
            .pgn(&g)
        );
        assert!(!f(&[Feature::Nags], &[]).pgn(&g));
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let reach = |fen: &str| Predicate {
            reaches: Some(kifu_replay::chess::query::Query::new(vec![
                kifu_replay::chess::query::Step::fen(fen).unwrap(),
            ])),
            ..Default::default()
        };
        assert!(reach(after_e4).pgn(&g));
        assert!(!reach("8/8/8/8/8/8/8/K6k w - - 0 1").pgn(&g));
    }

    #[test]
    fn time_controls_compare_as_seconds_and_speeds() {
        let games: Vec<pgn::Game> = pgn::Games::new(
            b"[TimeControl \"180+2\"]\n\n*\n\n[TimeControl \"60+0\"]\n\n*\n\n\
              [TimeControl \"-\"]\n\n*\n\n[TimeControl \"40/9000:300\"]\n\n*\n\n\
              [TimeControl \"15 min\"]\n\n*\n\n[Event \"no tag\"]\n\n*\n",
        )
        .collect();
        let kept = |s: &[&str]| -> Vec<usize> {
            let p = tests(s);
            (0..games.len()).filter(|&i| p.pgn(&games[i])).collect()
        };
        assert_eq!(kept(&["speed=blitz"]), [0]);
        assert_eq!(kept(&["speed=Blitz"]), [0], "as lichess's names, any case");
        assert_eq!(kept(&["speed<=blitz"]), [0, 1]);
        assert_eq!(kept(&["speed>=classical"]), [2, 3]);
        assert_eq!(kept(&["speed=correspondence"]), [2]);
        assert_eq!(kept(&["speed!=blitz"]), [1, 2, 3, 4, 5]);
        assert_eq!(kept(&["speed~bullet"]), [1]);
        assert_eq!(kept(&["tc_base>=180"]), [0]);
        assert_eq!(kept(&["tc_base<180"]), [1]);
        assert_eq!(kept(&["tc_base=60"]), [1]);
        assert_eq!(kept(&["tc_increment>0"]), [0]);
        assert_eq!(kept(&["tc_increment=0"]), [1]);
        // the tag itself is as written
        assert_eq!(kept(&["TimeControl=40/9000:300"]), [3]);
        assert_eq!(kept(&["TimeControl~min"]), [4]);
    }

    #[test]
    fn ranks_compare_as_ranks() {
        let trees: Vec<sgf::GameTree> = sgf::game_trees(
            "(;BR[7d]WR[6d]RE[B+R])(;BR[9p]WR[1d*]RE[W+3.5])(;BR[3k]WR[5k]RE[W+T])\
             (;BR[9 dan]WR[P9段]RE[0])(;BR[NR]RE[B+])(;PB[x])(;BR[10k]WR[1k])"
                .as_bytes(),
        )
        .collect();
        let kept = |s: &[&str]| -> Vec<usize> {
            let p = tests(s);
            (0..trees.len()).filter(|&i| p.sgf(&trees[i])).collect()
        };
        assert_eq!(kept(&["BR>=7d"]), [0, 1, 3]);
        assert_eq!(kept(&["BR>=7"]), [0, 1, 3], "the rank's number");
        assert_eq!(kept(&["black_rank>=7"]), [0, 1, 3]);
        assert_eq!(kept(&["black_rank>=7d"]), [0, 1, 3]);
        assert_eq!(kept(&["BR>1p"]), [1]);
        assert_eq!(kept(&["BR<1d"]), [2, 6]);
        assert_eq!(kept(&["BR>5k", "BR<1d"]), [2]);
        assert_eq!(kept(&["BR<=-10"]), [6]);
        assert_eq!(kept(&["BR=9d"]), [3], "`9 dan` is 9d");
        assert_eq!(
            kept(&["BR=NR"]),
            [4],
            "text that is no rank equals its text"
        );
        assert_eq!(kept(&["BR~dan"]), [3]);
        assert_eq!(kept(&["WR>=9p"]), [3]);
        assert_eq!(kept(&["white_rank>=1", "white_rank<=9"]), [0, 1]);
        assert_eq!(kept(&["white_rank<0"]), [2, 6]);
        assert_eq!(kept(&["BR>=1d", "WR>=1d"]), [0, 1, 3]);
        assert_eq!(kept(&["black_rank!=7"]), [1, 2, 3, 4, 5, 6]);
        // results
        assert_eq!(kept(&["winner=B"]), [0, 4]);
        assert_eq!(kept(&["winner=W"]), [1, 2]);
        assert_eq!(kept(&["winner=white"]), [1, 2]);
        assert_eq!(kept(&["win_by=resign"]), [0]);
        assert_eq!(kept(&["win_by=draw"]), [3]);
        assert_eq!(kept(&["margin>3"]), [1]);
        assert_eq!(kept(&["margin<3"]), Vec::<usize>::new());
        assert_eq!(kept(&["RE=W+3.5"]), [1]);
    }

    #[test]
    fn derived_keys_of_the_other_format_have_no_value() {
        let t = sgf::game_trees(b"(;BR[7d])").next().unwrap();
        assert!(!tests(&["speed=blitz"]).sgf(&t));
        assert!(tests(&["speed!=blitz"]).sgf(&t));
        // `BR` on a PGN game is a tag
        let g = game("[BR \"7d\"]\n\n*");
        assert!(tests(&["BR=7d"]).pgn(&g));
    }

    #[test]
    fn sgf_root_properties() {
        let t = sgf::game_trees(
            b"(;GM[1]SZ[19]PB[Cho]BR[9d]KM[6.5]DT[1996-05-02];B[pd](;W[dd])(;W[dp]C[hm]))",
        )
        .next()
        .unwrap();
        assert!(tests(&["PB=Cho", "KM>6", "DT>=1996.05", "SZ=19", "DT=1996"]).sgf(&t));
        assert!(!tests(&["PW=Cho"]).sgf(&t));
        let has = Predicate {
            has: vec![Feature::Variations, Feature::Comments],
            max_plies: Some(2),
            ..Default::default()
        };
        assert!(has.sgf(&t));
    }
}
