//! What `kifu filter` keeps: predicates on tags (PGN) or root properties (SGF), ply bounds and
//! what a game holds.

use std::cmp::Ordering;
use std::str::FromStr;

use kifu::{pgn, sgf};

/// One `--where` test: `NAME OP VALUE`.
#[derive(Clone, Debug, PartialEq)]
pub struct Test {
    name: String,
    op: Op,
    value: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Has,
    HasNot,
    Lt,
    Le,
    Gt,
    Ge,
}

impl FromStr for Test {
    type Err = String;

    /// `WhiteElo>=2500`, `Result=1-0`, `White~carlsen`, `ECO!=B90`, `Date<2000.01.01`.
    fn from_str(s: &str) -> Result<Test, String> {
        const OPS: [(&str, Op); 8] = [
            (">=", Op::Ge),
            ("<=", Op::Le),
            ("!=", Op::Ne),
            ("!~", Op::HasNot),
            ("=", Op::Eq),
            ("~", Op::Has),
            (">", Op::Gt),
            ("<", Op::Lt),
        ];
        let (at, len, op) = OPS
            .iter()
            .filter_map(|&(t, op)| s.find(t).map(|i| (i, t.len(), op)))
            // the leftmost operator, the longer one where two start at the same place
            .min_by_key(|&(i, len, _)| (i, std::cmp::Reverse(len)))
            .ok_or_else(|| {
                format!("`{s}`: no operator (=, !=, ~, !~, <, <=, >, >=): NAME OP VALUE, as `WhiteElo>=2500`")
            })?;
        let name = s[..at].trim();
        if name.is_empty() {
            return Err(pointed(s, 0, "no tag or property name before the operator"));
        }
        if let Some(bad) = s[..at]
            .trim_end()
            .char_indices()
            .skip_while(|(_, c)| c.is_whitespace())
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
        {
            return Err(pointed(
                s,
                bad.0,
                "a tag or property name holds letters, digits and `_` only",
            ));
        }
        let rest = &s[at + len..];
        let value = rest.trim();
        let value_at = at + len + (rest.len() - rest.trim_start().len());
        if value.starts_with(['=', '<', '>', '!', '~']) {
            return Err(pointed(s, value_at, "a second operator"));
        }
        if value.is_empty() && !matches!(op, Op::Eq | Op::Ne) {
            return Err(pointed(s, at + len, "no value after the operator"));
        }
        Ok(Test {
            name: name.to_string(),
            op,
            value: value.to_string(),
        })
    }
}

/// A message on `text` with a caret under the character at byte `at`:
///
/// ```text
/// `WhiteElo>>2700`: a second operator:
///   WhiteElo>>2700
///            ^
/// ```
fn pointed(text: &str, at: usize, why: &str) -> String {
    let column = text[..at.min(text.len())].chars().count();
    format!("`{text}`: {why}:\n  {text}\n  {}^", " ".repeat(column))
}

impl Test {
    /// Whether `value` (the game's, `None` when it has no such tag) passes. A missing value
    /// passes only `!=` and `!~`.
    fn holds(&self, value: Option<&str>) -> bool {
        let Some(v) = value else {
            return matches!(self.op, Op::Ne | Op::HasNot);
        };
        let has = || v.to_lowercase().contains(&self.value.to_lowercase());
        let ord = || compare(&self.name, v, &self.value);
        match self.op {
            Op::Eq => v == self.value,
            Op::Ne => v != self.value,
            Op::Has => has(),
            Op::HasNot => !has(),
            Op::Lt => ord() == Some(Ordering::Less),
            Op::Le => matches!(ord(), Some(Ordering::Less | Ordering::Equal)),
            Op::Gt => ord() == Some(Ordering::Greater),
            Op::Ge => matches!(ord(), Some(Ordering::Greater | Ordering::Equal)),
        }
    }
}

/// Orders a game's value against a test's: as dates for date tags (`Date`, `UTCDate`,
/// `EventDate`, SGF `DT`), as numbers when both are numbers, else as text. `None` when the
/// game's date lacks a part the test's has (`2020.??.??` against `2020.06`).
fn compare(name: &str, value: &str, against: &str) -> Option<Ordering> {
    if name.ends_with("Date") || name == "DT" {
        return compare_dates(value, against);
    }
    match (value.trim().parse::<f64>(), against.parse::<f64>()) {
        (Ok(a), Ok(b)) => a.partial_cmp(&b),
        (Err(_), Err(_)) => Some(value.cmp(against)),
        // a number against text (`?` against 2500): no order
        _ => None,
    }
}

/// `YYYY[.MM[.DD]]` (also with `-` or `/`; SGF `DT` may list several dates: the first counts),
/// compared on the parts `against` gives.
fn compare_dates(value: &str, against: &str) -> Option<Ordering> {
    let parts = |s: &str| -> Vec<Option<u32>> {
        let first = s.split(',').next().unwrap_or("");
        first
            .split(['.', '-', '/'])
            .take(3)
            .map(|p| p.trim().parse().ok())
            .collect()
    };
    let (v, a) = (parts(value), parts(against));
    for (i, want) in a.iter().enumerate() {
        let want = (*want)?;
        let have = (*v.get(i)?)?;
        match have.cmp(&want) {
            Ordering::Equal => continue,
            o => return Some(o),
        }
    }
    Some(Ordering::Equal)
}

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
    /// `--where` tests.
    pub tests: Vec<Test>,
    /// `--min-plies`.
    pub min_plies: Option<u64>,
    /// `--max-plies`.
    pub max_plies: Option<u64>,
    /// `--has`.
    pub has: Vec<Feature>,
    /// `--lacks`.
    pub lacks: Vec<Feature>,
    /// `--reaches FEN`: the Polyglot key of a position the main line must reach (its start
    /// included), replayed on a board (PGN; SGF games never pass).
    pub reaches: Option<u64>,
}

impl Predicate {
    /// Whether a PGN game passes.
    pub fn pgn(&self, game: &pgn::Game) -> bool {
        self.tests.iter().all(|t| t.holds(game.tag(&t.name)))
            && self.plies(game.moves.len() as u64)
            && self.features(|f| pgn_has(game, f))
            && self.reaches.is_none_or(|key| reaches(game, key))
    }

    /// Whether an SGF game tree passes (tests on root properties, decoded as UTF-8 where they
    /// are, else as Latin-1).
    pub fn sgf(&self, tree: &sgf::GameTree) -> bool {
        let root = (!tree.is_empty()).then(|| tree.root());
        let prop = |name: &str| -> Option<String> {
            let value = root?.value(name.as_bytes())?;
            let text = value.decoded(name.as_bytes());
            Some(match std::str::from_utf8(&text) {
                Ok(s) => s.to_string(),
                Err(_) => text.iter().map(|&b| b as char).collect(),
            })
        };
        let moves = tree.main_line().filter(|n| n.go_move().is_some()).count() as u64;
        self.tests.iter().all(|t| t.holds(prop(&t.name).as_deref()))
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

/// Whether a PGN game's main line, replayed, reaches the position of Polyglot key `key` (its
/// start included).
fn reaches(game: &pgn::Game, key: u64) -> bool {
    use kifu_replay::chess::{DomOptions, replay_game};
    let options = DomOptions {
        fen: false,
        variations: false,
    };
    let r = replay_game(game, &options);
    r.start.as_ref().is_some_and(|p| p.key() == key) || r.main_line().any(|n| n.key == Some(key))
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

    #[test]
    fn tests_parse_with_the_longest_leftmost_operator() {
        let t: Test = "WhiteElo>=2500".parse().unwrap();
        assert_eq!(
            (t.name.as_str(), t.op, t.value.as_str()),
            ("WhiteElo", Op::Ge, "2500")
        );
        let t: Test = "Event!~blitz".parse().unwrap();
        assert_eq!(t.op, Op::HasNot);
        assert!("=x".parse::<Test>().is_err());
        assert!("WhiteElo".parse::<Test>().is_err());
    }

    #[test]
    fn malformed_tests_are_refused_with_a_caret_where_they_go_wrong() {
        let e = "WhiteElo>>2700".parse::<Test>().unwrap_err();
        assert_eq!(
            e,
            "`WhiteElo>>2700`: a second operator:\n  WhiteElo>>2700\n           ^"
        );
        let e = "White Elo>2700".parse::<Test>().unwrap_err();
        assert!(
            e.starts_with("`White Elo>2700`: a tag or property name"),
            "{e}"
        );
        assert!(e.ends_with("\n       ^"), "{e}");
        assert!("Result==1-0".parse::<Test>().is_err());
        assert!("WhiteElo>=".parse::<Test>().is_err());
        assert!("White~".parse::<Test>().is_err());
        // an empty value is a value for = and != (an empty tag)
        assert!("Annotator=".parse::<Test>().is_ok());
        assert!(" BR >= 7d ".parse::<Test>().is_ok());
    }

    #[test]
    fn numbers_dates_and_text_compare_as_such() {
        let g = game(
            "[White \"Carlsen, Magnus\"]\n[WhiteElo \"2850\"]\n[Date \"2021.05.??\"]\n[Result \"1-0\"]\n\n1. e4 {[%clk 0:03:00]} e5 (1... c5) 1-0",
        );
        let p = |s: &[&str]| Predicate {
            tests: s.iter().map(|t| t.parse().unwrap()).collect(),
            ..Default::default()
        };
        assert!(p(&["WhiteElo>=2500", "Result=1-0", "White~carlsen"]).pgn(&g));
        assert!(!p(&["WhiteElo>2900"]).pgn(&g));
        assert!(p(&["Date>=2021", "Date<2021.06", "Date>2021.04.30"]).pgn(&g));
        assert!(!p(&["Date>=2021.05.01"]).pgn(&g), "the day is unknown");
        assert!(!p(&["BlackElo>=0"]).pgn(&g), "no such tag");
        assert!(p(&["BlackElo!=2000"]).pgn(&g));
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
            reaches: Some(kifu_replay::chess::position_key(fen).unwrap()),
            ..Default::default()
        };
        assert!(reach(after_e4).pgn(&g));
        assert!(!reach("8/8/8/8/8/8/8/K6k w - - 0 1").pgn(&g));
    }

    #[test]
    fn sgf_root_properties() {
        let t = sgf::game_trees(
            b"(;GM[1]SZ[19]PB[Cho]BR[9d]KM[6.5]DT[1996-05-02];B[pd](;W[dd])(;W[dp]C[hm]))",
        )
        .next()
        .unwrap();
        let p = |s: &[&str]| Predicate {
            tests: s.iter().map(|t| t.parse().unwrap()).collect(),
            ..Default::default()
        };
        assert!(p(&["PB=Cho", "KM>6", "DT>=1996.05", "SZ=19"]).sgf(&t));
        assert!(!p(&["PW=Cho"]).sgf(&t));
        let has = Predicate {
            has: vec![Feature::Variations, Feature::Comments],
            max_plies: Some(2),
            ..Default::default()
        };
        assert!(has.sgf(&t));
    }
}
