//! What `kifu filter` keeps: predicates on tags (PGN) or root properties (SGF), on the values
//! derived from them ([`DERIVED`]), ply bounds and what a game holds.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::str::FromStr;

use kifu::pgn::{Speed, TimeControl};
use kifu::sgf::{Color, GoResult, Rank};
use kifu::{pgn, sgf};

/// One `--where` test: `NAME OP VALUE`.
#[derive(Clone, Debug, PartialEq)]
pub struct Test {
    name: String,
    op: Op,
    value: String,
    /// The value read as each kind of [`Typed`] value it can be compared with (once, here,
    /// not per game).
    as_number: Option<f64>,
    as_rank: Option<i16>,
    as_speed: Option<Speed>,
}

/// A game's value for a test's name: its text (what `~` and `!~` search, what `=` compares
/// when the test's value is not of the value's kind), and what it is.
#[derive(Clone, Debug, PartialEq)]
struct Value<'a> {
    text: Cow<'a, str>,
    typed: Typed,
}

impl<'a> Value<'a> {
    /// A tag's or property's text, compared by [`compare`].
    fn plain(text: impl Into<Cow<'a, str>>) -> Value<'a> {
        Value {
            text: text.into(),
            typed: Typed::Plain,
        }
    }
}

/// What a value is, for `=`, `!=` and the orderings.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Typed {
    /// A tag or property as written: numbers, dates or text, as [`compare`] says.
    Plain,
    /// A number (`tc_base`, `margin`).
    Number(f64),
    /// A Go rank's number ([`Rank::value`]): the test's value is a rank (`7d`, `3 kyu`) or
    /// that number (`7`, `-3`).
    Rank(i16),
    /// A speed, ordered fastest first (`speed<=blitz`).
    Speed(Speed),
    /// Text with no order: `BR` that is no rank (`NR`) equals its text, and is neither more
    /// nor less than a rank.
    Unordered,
}

/// Where a derived value comes from: a PGN game or an SGF game tree.
#[derive(Clone, Copy)]
enum Of {
    Pgn(fn(&pgn::Game) -> Option<Value<'static>>),
    Sgf(fn(&SgfRoot<'_>) -> Option<Value<'static>>),
}

/// A name `--where` knows beyond the tags and properties: the value derived for it (the same
/// as the `kifu export` column of that name). One entry per name: a derived name that needs
/// more (the opening of a replayed game) is one more entry.
pub struct Derived {
    /// The name, as tests write it.
    pub name: &'static str,
    of: Of,
}

/// The derived names, by format. For a game of the other format the name is a tag or
/// property as any other.
pub const DERIVED: &[Derived] = &[
    // PGN, from the TimeControl tag
    Derived {
        name: "tc_base",
        of: Of::Pgn(|g| seconds(time_control(g)?.base()?)),
    },
    Derived {
        name: "tc_increment",
        of: Of::Pgn(|g| seconds(time_control(g)?.increment()?)),
    },
    Derived {
        name: "speed",
        of: Of::Pgn(|g| {
            let s = time_control(g)?.speed()?;
            Some(Value {
                text: Cow::Borrowed(s.as_str()),
                typed: Typed::Speed(s),
            })
        }),
    },
    // PGN, the opening named from the moves (the games table's columns)
    Derived {
        name: "opening_eco",
        of: Of::Pgn(|g| Some(Value::plain(opening(g)?.eco))),
    },
    Derived {
        name: "opening_name",
        of: Of::Pgn(|g| Some(Value::plain(opening(g)?.name))),
    },
    Derived {
        name: "opening_ply",
        of: Of::Pgn(|g| {
            let ply = opening(g)?.ply;
            Some(Value {
                text: Cow::Owned(ply.to_string()),
                typed: Typed::Number(f64::from(ply)),
            })
        }),
    },
    // SGF: the ranks, as ranks (`BR>=7d`), and their numbers
    Derived {
        name: "BR",
        of: Of::Sgf(|t| rank(t, "BR", false)),
    },
    Derived {
        name: "WR",
        of: Of::Sgf(|t| rank(t, "WR", false)),
    },
    Derived {
        name: "black_rank",
        of: Of::Sgf(|t| rank(t, "BR", true)),
    },
    Derived {
        name: "white_rank",
        of: Of::Sgf(|t| rank(t, "WR", true)),
    },
    // SGF, from RE
    Derived {
        name: "winner",
        of: Of::Sgf(|t| {
            let w = match result(t)?.winner()? {
                Color::Black => "B",
                Color::White => "W",
            };
            Some(Value::plain(w))
        }),
    },
    Derived {
        name: "win_by",
        of: Of::Sgf(|t| Some(Value::plain(result(t)?.win_by()?))),
    },
    Derived {
        name: "margin",
        of: Of::Sgf(|t| {
            let m = result(t)?.margin()?;
            Some(Value {
                text: Cow::Owned(m.to_string()),
                typed: Typed::Number(m),
            })
        }),
    },
];

impl Derived {
    /// The derived entry of `name` for PGN games, if any.
    fn pgn(name: &str) -> Option<fn(&pgn::Game) -> Option<Value<'static>>> {
        DERIVED.iter().find_map(|d| match d.of {
            Of::Pgn(f) if d.name == name => Some(f),
            _ => None,
        })
    }

    /// The derived entry of `name` for SGF game trees, if any.
    fn sgf(name: &str) -> Option<fn(&SgfRoot<'_>) -> Option<Value<'static>>> {
        DERIVED.iter().find_map(|d| match d.of {
            Of::Sgf(f) if d.name == name => Some(f),
            _ => None,
        })
    }
}

/// The game's opening, named from its main line (kifu-replay's lichess names and rule).
fn opening(game: &pgn::Game) -> Option<kifu_replay::chess::openings::Opening> {
    kifu_replay::chess::openings::classify(game)
}

/// The game's first `TimeControl` tag, read.
fn time_control(game: &pgn::Game) -> Option<TimeControl> {
    TimeControl::parse(game.tag("TimeControl")?.as_bytes())
}

/// Whole seconds, as a number (the `tc_base` / `tc_increment` columns' rule).
fn seconds(d: std::time::Duration) -> Option<Value<'static>> {
    if d.subsec_nanos() != 0 {
        return None;
    }
    let n = i32::try_from(d.as_secs()).ok()?;
    Some(Value {
        text: Cow::Owned(n.to_string()),
        typed: Typed::Number(f64::from(n)),
    })
}

/// A rank property: its text (`as_number`: its number, as the column) and its number; a
/// text that is no rank stays text for `BR` (`BR=NR`), and is no value for `black_rank`.
fn rank(root: &SgfRoot<'_>, prop: &str, as_number: bool) -> Option<Value<'static>> {
    let text = root.prop(prop)?;
    let Some(r) = Rank::parse(text.as_bytes()) else {
        return (!as_number).then_some(Value {
            text: Cow::Owned(text),
            typed: Typed::Unordered,
        });
    };
    let text = if as_number {
        r.value().to_string()
    } else {
        text
    };
    Some(Value {
        text: Cow::Owned(text),
        typed: Typed::Rank(r.value()),
    })
}

/// The tree's `RE`, read.
fn result(root: &SgfRoot<'_>) -> Option<GoResult> {
    GoResult::parse(root.prop("RE")?.as_bytes())
}

/// An SGF game tree's root, as the tests read it.
struct SgfRoot<'a> {
    tree: &'a sgf::GameTree,
}

impl SgfRoot<'_> {
    /// A root property's first value, decoded as UTF-8 where it is, else as Latin-1.
    fn prop(&self, name: &str) -> Option<String> {
        let root = (!self.tree.is_empty()).then(|| self.tree.root())?;
        let value = root.value(name.as_bytes())?;
        let text = value.decoded(name.as_bytes());
        Some(match std::str::from_utf8(&text) {
            Ok(s) => s.to_string(),
            Err(_) => text.iter().map(|&b| b as char).collect(),
        })
    }
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
            as_number: value.parse().ok(),
            as_rank: Rank::parse(value.as_bytes())
                .map(Rank::value)
                .or_else(|| value.parse().ok()),
            as_speed: Speed::by_name(value),
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
    fn holds(&self, value: Option<Value<'_>>) -> bool {
        let Some(v) = value else {
            return matches!(self.op, Op::Ne | Op::HasNot);
        };
        let has = || v.text.to_lowercase().contains(&self.value.to_lowercase());
        // a typed value against the test's value read as the same kind (`None`: not of it)
        let typed = match v.typed {
            Typed::Plain => None,
            Typed::Number(x) => Some(self.as_number.and_then(|t| x.partial_cmp(&t))),
            Typed::Rank(r) => Some(self.as_rank.map(|t| r.cmp(&t))),
            Typed::Speed(s) => Some(self.as_speed.map(|t| s.cmp(&t))),
            Typed::Unordered => Some(None),
        };
        let ord = || match typed {
            None => compare(&self.name, &v.text, &self.value),
            Some(o) => o,
        };
        // `=` compares as the kind when the test's value is of it, else as text
        let eq = || match typed {
            Some(Some(o)) => o == Ordering::Equal,
            _ => v.text == self.value,
        };
        match self.op {
            Op::Eq => eq(),
            Op::Ne => !eq(),
            Op::Has => has(),
            Op::HasNot => !has(),
            Op::Lt => ord() == Some(Ordering::Less),
            Op::Le => matches!(ord(), Some(Ordering::Less | Ordering::Equal)),
            Op::Gt => ord() == Some(Ordering::Greater),
            Op::Ge => matches!(ord(), Some(Ordering::Greater | Ordering::Equal)),
        }
    }

    /// The value of a PGN game for the test's name: a derived one ([`DERIVED`]), else the
    /// first tag of that name.
    fn pgn_value<'g>(&self, game: &'g pgn::Game) -> Option<Value<'g>> {
        match Derived::pgn(&self.name) {
            Some(f) => f(game),
            None => game.tag(&self.name).map(Value::plain),
        }
    }

    /// The value of an SGF game tree for the test's name: a derived one ([`DERIVED`]), else
    /// the root property's text.
    fn sgf_value(&self, root: &SgfRoot<'_>) -> Option<Value<'static>> {
        match Derived::sgf(&self.name) {
            Some(f) => f(root),
            None => root.prop(&self.name).map(Value::plain),
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
        self.tests.iter().all(|t| t.holds(t.pgn_value(game)))
            && self.plies(game.moves.len() as u64)
            && self.features(|f| pgn_has(game, f))
            && self.reaches.is_none_or(|key| reaches(game, key))
    }

    /// Whether an SGF game tree passes (tests on root properties, decoded as UTF-8 where they
    /// are, else as Latin-1, and on the values derived from them).
    pub fn sgf(&self, tree: &sgf::GameTree) -> bool {
        let root = SgfRoot { tree };
        let moves = tree.main_line().filter(|n| n.go_move().is_some()).count() as u64;
        self.tests.iter().all(|t| t.holds(t.sgf_value(&root)))
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

    fn tests(s: &[&str]) -> Predicate {
        Predicate {
            tests: s.iter().map(|t| t.parse().unwrap()).collect(),
            ..Default::default()
        }
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
        assert_eq!(kept(&["win_by=resign"]), [0]);
        assert_eq!(kept(&["win_by=draw"]), [3]);
        assert_eq!(kept(&["margin>3"]), [1]);
        assert_eq!(kept(&["margin<3"]), Vec::<usize>::new());
        assert_eq!(kept(&["RE=W+3.5"]), [1]);
    }

    #[test]
    fn derived_names_are_one_per_format_and_a_tag_elsewhere() {
        for d in DERIVED {
            let twice = DERIVED.iter().filter(|e| {
                e.name == d.name
                    && matches!(
                        (e.of, d.of),
                        (Of::Pgn(_), Of::Pgn(_)) | (Of::Sgf(_), Of::Sgf(_))
                    )
            });
            assert_eq!(twice.count(), 1, "{}", d.name);
        }
        // `speed` on an SGF tree is its property `speed`, if any (none here)
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
