//! The keys of a game a user can name, in one place: `kifu filter -w`, `kifu split --by`,
//! `kifu stats --by`, `kifu export --partition-by` and Python's `stats_by(source, by)` all read them
//! here.
//!
//! A [`Key`] is a tag (PGN, any name) or a root property (SGF), by its exact name, or a value
//! derived from the game ([`DERIVED`]: `year`, `month`, `speed`, `tc_base`, `opening_eco`,
//! `plies`, `result`, `winner`, the ranks, …), or `Player` (either colour, in tests). Each has a
//! [`Kind`] (text, integer, number, date with unknown parts, rank, enumeration), which says how
//! its values compare ([`Test`]) and how rows of its values are ordered ([`Key::order`]).
//!
//! A name is checked once, where it is given ([`Key::parse`]): a name that differs only in
//! case from a known tag, property or derived key (`Whiteelo`, `Speed`), or that is a letter
//! or two away from a derived key (`yaer`), or that starts with a small letter and is no
//! derived key, is refused with the close matches; any other name starting with a capital
//! letter is a tag or property (PGN tags are open-ended). A test's value that the key can
//! never have (`speed=blits`, `WhiteElo>=strong`) is refused too.
//!
//! Values of any length are kept bounded where they group, name or partition
//! ([`Bounded`], from kifu-output): whole up to 100 bytes, else their first bytes and hashes
//! of the whole, so that two long values are never merged.
//!
//! ```
//! use kifu_pipeline::keys::{AnyOf, Key, Test};
//!
//! let g = kifu::pgn::games(b"[White \"Carlsen, Magnus\"]\n[Black \"Nepo\"]\n[Date \"2021.12.03\"]\n\
//!                            [WhiteElo \"2856\"]\n[TimeControl \"180+2\"]\n\n1. e4 e5 1-0\n")
//!     .next().unwrap();
//! let holds = |t: &str| t.parse::<Test>().unwrap().holds(&g);
//! assert!(holds("Date=2021") && holds("year>=2021") && holds("WhiteElo=2856.0"));
//! assert!(holds("speed=blitz") && holds("tc_base=180") && holds("Player~nepo"));
//! let any: AnyOf = "White~carlsen or Black~carlsen".parse().unwrap();
//! assert!(any.holds(&g));
//! assert_eq!(Key::parse("tc_base").unwrap().shown(&g).as_deref(), Some("180"));
//! let e = Key::parse("Whiteelo").unwrap_err();
//! assert!(e.contains("did you mean `WhiteElo`"), "{e}");
//! assert!("speed=blits".parse::<Test>().unwrap_err().contains("`blitz`"));
//! ```

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt::Write as _;

use kifu::Format;
use kifu::pgn::{self, Outcome, TimeControl};
use kifu::sgf::{self, GoResult, Rank};
use kifu_replay::chess::openings::Opening;

pub use kifu_export::values::Date;
use kifu_export::values::{PGN_DATE_TAGS, SGF_DATE_PROPS};
pub use kifu_output::bounded::{Bounded, BoundedBuilder, KEPT_BYTES, close_matches, cut, fnv1a};

/// What a key's values are, which says how they compare and how they are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Text as written; two values that are both numbers compare as numbers.
    Text,
    /// A whole number (`WhiteElo`, `tc_base`, `plies`).
    Integer,
    /// A number (`KM`, `margin`).
    Number,
    /// A date `YYYY.MM.DD` (also with `-` or `/`) whose parts may be unknown (`2015.??.??`).
    Date,
    /// A Go rank (`5d`, `3k`, `2p`, `7 dan`) or its number (kyu N −N, dan N N, professional
    /// dan N 9 + N).
    Rank,
    /// One of a few words, in this order (`speed`: fastest first).
    Enumeration(&'static [&'static str]),
}

/// A value derived from a game, not read as a tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Derived {
    /// The year of the game's date (PGN `UTCDate`, else `Date`, else `EventDate`; SGF `DT`).
    Year,
    /// The year and month of the game's date, `YYYY-MM`.
    Month,
    /// lichess's speed of a PGN game's `TimeControl`.
    Speed,
    /// The base time of `TimeControl`, in whole seconds.
    TcBase,
    /// The increment of `TimeControl`, in whole seconds.
    TcIncrement,
    /// The ECO code of the opening named from a PGN game's moves.
    OpeningEco,
    /// The name of the opening named from a PGN game's moves.
    OpeningName,
    /// The ply at which that opening's position stood.
    OpeningPly,
    /// The main line's plies (SGF: its moves).
    Plies,
    /// The result: `1-0`, `0-1`, `1/2-1/2` or `*` (PGN: the `Result` tag, else the termination
    /// marker; SGF: `RE`, White's win `1-0`).
    Result,
    /// Who won: `white` or `black` (`W`, `B` in tests too); none for a draw or an unknown
    /// result.
    Winner,
    /// How an SGF game ended (`RE`): `points`, `resign`, `time`, `forfeit`, `draw`, `void`.
    WinBy,
    /// The points of an SGF win on the count (`RE[W+3.5]`: 3.5).
    Margin,
    /// SGF `BR` as the rank's number.
    BlackRank,
    /// SGF `WR` as the rank's number.
    WhiteRank,
}

/// A derived key: its name, what it is, and the formats that have it.
#[derive(Clone, Copy, Debug)]
pub struct DerivedKey {
    /// The name users write.
    pub name: &'static str,
    /// The key.
    pub key: Derived,
    /// What its values are.
    pub kind: Kind,
    /// Whether PGN games have it.
    pub pgn: bool,
    /// Whether SGF game trees have it.
    pub sgf: bool,
}

const SPEEDS: &[&str] = &[
    "ultraBullet",
    "bullet",
    "blitz",
    "rapid",
    "classical",
    "correspondence",
];
const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "*"];
const WINNERS: &[&str] = &["white", "black"];
const WIN_BY: &[&str] = &["points", "resign", "time", "forfeit", "draw", "void"];

/// Every derived key, as users name them (the `kifu export` column of the same name where
/// there is one).
pub const DERIVED: &[DerivedKey] = &[
    d("year", Derived::Year, Kind::Integer, true, true),
    d("month", Derived::Month, Kind::Date, true, true),
    d(
        "speed",
        Derived::Speed,
        Kind::Enumeration(SPEEDS),
        true,
        false,
    ),
    d("tc_base", Derived::TcBase, Kind::Integer, true, false),
    d(
        "tc_increment",
        Derived::TcIncrement,
        Kind::Integer,
        true,
        false,
    ),
    d("opening_eco", Derived::OpeningEco, Kind::Text, true, false),
    d(
        "opening_name",
        Derived::OpeningName,
        Kind::Text,
        true,
        false,
    ),
    d(
        "opening_ply",
        Derived::OpeningPly,
        Kind::Integer,
        true,
        false,
    ),
    d("plies", Derived::Plies, Kind::Integer, true, true),
    d(
        "result",
        Derived::Result,
        Kind::Enumeration(RESULTS),
        true,
        true,
    ),
    d(
        "winner",
        Derived::Winner,
        Kind::Enumeration(WINNERS),
        true,
        true,
    ),
    d(
        "win_by",
        Derived::WinBy,
        Kind::Enumeration(WIN_BY),
        false,
        true,
    ),
    d("margin", Derived::Margin, Kind::Number, false, true),
    d("black_rank", Derived::BlackRank, Kind::Rank, false, true),
    d("white_rank", Derived::WhiteRank, Kind::Rank, false, true),
];

const fn d(name: &'static str, key: Derived, kind: Kind, pgn: bool, sgf: bool) -> DerivedKey {
    DerivedKey {
        name,
        key,
        kind,
        pgn,
        sgf,
    }
}

/// The tags and properties whose values are not plain text (any other is [`Kind::Text`]).
const TYPED_TAGS: &[(&str, Kind)] = &[
    ("Date", Kind::Date),
    ("UTCDate", Kind::Date),
    ("EventDate", Kind::Date),
    ("WhiteElo", Kind::Integer),
    ("BlackElo", Kind::Integer),
    ("WhiteRatingDiff", Kind::Integer),
    ("BlackRatingDiff", Kind::Integer),
    ("WhiteFideId", Kind::Integer),
    ("BlackFideId", Kind::Integer),
    ("WhiteUSCF", Kind::Integer),
    ("BlackUSCF", Kind::Integer),
    ("PlyCount", Kind::Integer),
    ("EventRounds", Kind::Integer),
    ("DT", Kind::Date),
    ("BR", Kind::Rank),
    ("WR", Kind::Rank),
    ("KM", Kind::Number),
    ("TM", Kind::Number),
    ("HA", Kind::Integer),
    ("GM", Kind::Integer),
    ("FF", Kind::Integer),
    ("SZ", Kind::Integer),
];

/// Tags and properties known by name: a name equal to one of them but for case is a typo.
const KNOWN_TAGS: &[&str] = &[
    "Event",
    "Site",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteTitle",
    "BlackTitle",
    "UTCTime",
    "ECO",
    "Opening",
    "Variation",
    "SubVariation",
    "Termination",
    "TimeControl",
    "Variant",
    "FEN",
    "SetUp",
    "Annotator",
    "WhiteTeam",
    "BlackTeam",
    "Mode",
    "Time",
    "Board",
    "Section",
    "Stage",
    "EventType",
    "WhiteType",
    "BlackType",
    // SGF root and game-information properties
    "CA",
    "AP",
    "ST",
    "GN",
    "EV",
    "RO",
    "PC",
    "PB",
    "PW",
    "BT",
    "WT",
    "RE",
    "RU",
    "OT",
    "SO",
    "US",
    "AN",
    "ON",
    "GC",
    "CP",
];

/// The name of the key for either player.
pub const PLAYER: &str = "Player";

/// A key a user can name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A PGN tag (its first one) or an SGF root property (its first value, decoded), by its
    /// exact name.
    Tag(String),
    /// A value derived from the game.
    Derived(Derived),
    /// Either player: PGN `White` or `Black`, SGF `PB` or `PW` (tests only: a game has two).
    Player,
}

impl std::str::FromStr for Key {
    type Err = String;

    fn from_str(name: &str) -> Result<Key, String> {
        Key::parse(name)
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Every name known: the derived keys, `Player`, the known tags and properties.
fn known_names() -> impl Iterator<Item = &'static str> {
    DERIVED
        .iter()
        .map(|d| d.name)
        .chain([PLAYER])
        .chain(TYPED_TAGS.iter().map(|(n, _)| *n))
        .chain(KNOWN_TAGS.iter().copied())
}

impl Key {
    /// The key of `name`, or why it is none, with the names it may have meant.
    ///
    /// ```
    /// use kifu_pipeline::keys::{Derived, Key};
    /// assert_eq!(Key::parse("year").unwrap(), Key::Derived(Derived::Year));
    /// assert_eq!(Key::parse("WhiteElo").unwrap(), Key::Tag("WhiteElo".into()));
    /// assert_eq!(Key::parse("LichessId").unwrap(), Key::Tag("LichessId".into()), "any tag");
    /// assert!(Key::parse("Speed").unwrap_err().contains("`speed`"));
    /// assert!(Key::parse("yaer").unwrap_err().contains("`year`"));
    /// assert!(Key::parse("White Elo").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// A name that is empty or holds other than letters, digits and `_`; a name close to a
    /// known one but not it; a name starting with a small letter that is no derived key.
    pub fn parse(name: &str) -> Result<Key, String> {
        if name.is_empty() {
            return Err("no key name: a tag or property (`WhiteElo`, `PB`) or a derived key (year, month, speed, …)".into());
        }
        if let Some(bad) = name
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
        {
            return Err(format!(
                "`{name}`: a key holds letters, digits and `_` only (not `{}`)",
                bad.escape_default()
            ));
        }
        if let Some(d) = DERIVED.iter().find(|d| d.name == name) {
            return Ok(Key::Derived(d.key));
        }
        if name == PLAYER {
            return Ok(Key::Player);
        }
        if known_names().any(|k| k == name) {
            return Ok(Key::Tag(name.to_string()));
        }
        let same_but_case: Vec<&str> = known_names()
            .filter(|k| k.eq_ignore_ascii_case(name))
            .collect();
        let near_derived = close_matches(name, DERIVED.iter().map(|d| d.name));
        let lower = name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
        if same_but_case.is_empty() && near_derived.is_empty() && !lower {
            // a tag or property, as any PGN tag may be
            return Ok(Key::Tag(name.to_string()));
        }
        let mut meant = same_but_case;
        meant.extend(near_derived);
        if meant.is_empty() {
            meant = close_matches(name, known_names());
        }
        meant.dedup();
        Err(unknown(name, &meant))
    }

    /// The key as users write it.
    pub fn name(&self) -> &str {
        match self {
            Key::Tag(name) => name,
            Key::Player => PLAYER,
            Key::Derived(d) => d.info().name,
        }
    }

    /// What the key's values are.
    pub fn kind(&self) -> Kind {
        match self {
            Key::Tag(name) => TYPED_TAGS
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(Kind::Text, |(_, k)| *k),
            Key::Player => Kind::Text,
            Key::Derived(d) => d.info().kind,
        }
    }

    /// The key's value in `game`; `None` where it has none (no such tag; a derived key of the
    /// other format). `Player` has two values: this is none of them (see [`Test`]).
    pub fn value<'g>(&self, game: &'g impl Game) -> Option<Value<'g>> {
        match self {
            Key::Tag(name) => game.tag(name).map(Value::Text),
            Key::Player => None,
            Key::Derived(d) => d.value(game),
        }
    }

    /// The value as [`shown`](Value::write_text): the text `split` names files with and
    /// `stats --by` counts by.
    pub fn shown(&self, game: &impl Game) -> Option<String> {
        let v = self.value(game)?;
        let mut s = String::new();
        v.write_text(&mut s);
        Some(s)
    }

    /// A word for a tag or property name kifu does not know that is close to one it does
    /// (`WhitElo`: `WhiteElo`): it is read as a tag of that name, as PGN allows any tag, so
    /// a test of it may match nothing where a typo was meant; the frontends say this as a
    /// warning. `None` for every other key.
    ///
    /// ```
    /// use kifu_pipeline::keys::Key;
    /// let w = Key::parse("WhitElo").unwrap().near_miss().unwrap();
    /// assert!(w.contains("did you mean one of `WhiteElo`, `White`?"), "{w}");
    /// assert_eq!(Key::parse("WhiteElo").unwrap().near_miss(), None);
    /// assert_eq!(Key::parse("LichessId").unwrap().near_miss(), None);
    /// ```
    pub fn near_miss(&self) -> Option<String> {
        let Key::Tag(name) = self else { return None };
        if known_names().any(|k| k == name) {
            return None;
        }
        let meant = close_matches(name, known_names());
        if meant.is_empty() {
            return None;
        }
        let list: Vec<String> = meant.iter().map(|m| format!("`{m}`")).collect();
        Some(format!(
            "`{name}` is no tag or property kifu knows: it is read as a tag of that name, which \
             games may not have; did you mean {}?",
            match list.as_slice() {
                [one] => one.clone(),
                many => format!("one of {}", many.join(", ")),
            }
        ))
    }

    /// The key for grouping (`--by`, `--partition-by`): every key but `Player`.
    ///
    /// # Errors
    ///
    /// As [`parse`](Self::parse), and `Player`, which has two values a game.
    pub fn parse_group(name: &str) -> Result<Key, String> {
        match Key::parse(name)? {
            Key::Player => Err(format!(
                "`{PLAYER}` has two values a game (White and Black; SGF PB and PW): group by one of them"
            )),
            k => Ok(k),
        }
    }

    /// Orders two shown values of this key as its kind orders them: numbers as numbers, dates
    /// and ranks as such, an enumeration in its order (speeds fastest first), else as text
    /// (numbers before other text); values not of the kind after those that are.
    pub fn order(&self, a: &str, b: &str) -> Ordering {
        let kind = self.kind();
        let rank = |s: &str| rank_of(s).or_else(|| s.trim().parse::<i16>().ok());
        let typed = match kind {
            Kind::Integer | Kind::Number | Kind::Text => {
                both(a, b, |s| s.trim().parse::<f64>().ok(), f64::total_cmp)
            }
            Kind::Rank => both(a, b, rank, |x, y| x.cmp(y)),
            Kind::Date => both(a, b, Date::parse, |x, y| x.order(y)),
            Kind::Enumeration(m) => both(a, b, |s| member(m, s), |x, y| x.cmp(y)),
        };
        typed.then_with(|| a.cmp(b))
    }

    /// The tags (PGN) or root properties (SGF) the key reads, for a scan that reads only
    /// those: its own name, the date tags, `TimeControl`, `RE`, `BR`/`WR`, `Result`.
    pub fn source_tags(&self, format: Format) -> &'static [&'static str] {
        let pgn = format == Format::Pgn;
        match self {
            Key::Tag(_) | Key::Player => &[],
            Key::Derived(d) => match d {
                Derived::Year | Derived::Month if pgn => &PGN_DATE_TAGS,
                Derived::Year | Derived::Month => &SGF_DATE_PROPS,
                Derived::Speed | Derived::TcBase | Derived::TcIncrement if pgn => &["TimeControl"],
                Derived::Result | Derived::Winner if pgn => &["Result"],
                Derived::Result | Derived::Winner | Derived::WinBy | Derived::Margin if !pgn => {
                    &["RE"]
                }
                Derived::BlackRank if !pgn => &["BR"],
                Derived::WhiteRank if !pgn => &["WR"],
                _ => &[],
            },
        }
    }

    /// Whether the key needs the opening named from the moves.
    pub fn needs_opening(&self) -> bool {
        matches!(
            self,
            Key::Derived(Derived::OpeningEco | Derived::OpeningName | Derived::OpeningPly)
        )
    }
}

/// `a` and `b` ordered by `cmp` when `read` reads both; one that reads before one that does
/// not; `Equal` when neither does (the caller orders them as text).
fn both<T>(
    a: &str,
    b: &str,
    read: impl Fn(&str) -> Option<T>,
    cmp: impl Fn(&T, &T) -> Ordering,
) -> Ordering {
    match (read(a), read(b)) {
        (Some(x), Some(y)) => cmp(&x, &y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// The message for a name that is no key.
fn unknown(name: &str, meant: &[&str]) -> String {
    let mut s = format!("`{name}`: no such key");
    match meant {
        [] => s.push_str(
            "; a derived key is one of year, month, speed, tc_base, tc_increment, opening_eco, \
             opening_name, opening_ply, plies, result, winner, win_by, margin, black_rank, \
             white_rank; a tag or property starts with a capital letter",
        ),
        [one] => {
            let _ = write!(s, "; did you mean `{one}`?");
        }
        many => {
            let list: Vec<String> = many.iter().map(|m| format!("`{m}`")).collect();
            let _ = write!(s, "; did you mean one of {}?", list.join(", "));
        }
    }
    s
}

impl Derived {
    /// Its entry in [`DERIVED`].
    pub fn info(self) -> &'static DerivedKey {
        // [`DERIVED`] lists the keys in the order of this enum (a test checks it)
        &DERIVED[self as usize]
    }

    fn value<'g>(self, game: &'g impl Game) -> Option<Value<'g>> {
        let info = self.info();
        let pgn = game.format() == Format::Pgn;
        if !(if pgn { info.pgn } else { info.sgf }) {
            return None;
        }
        let tc = || TimeControl::parse(game.tag("TimeControl")?.as_bytes());
        let re = || GoResult::parse(game.tag("RE")?.as_bytes());
        Some(match self {
            Derived::Year | Derived::Month => {
                let month = self == Derived::Month;
                let dates = self.sources(pgn).iter().map(|t| game.tag(t));
                let date = Date::of_game(dates, month)?;
                if month {
                    Value::Date(date)
                } else {
                    Value::Int(i64::from(date.year?))
                }
            }
            Derived::Speed => Value::Word(tc()?.speed()?.as_str()),
            Derived::TcBase => seconds(tc()?.base()?)?,
            Derived::TcIncrement => seconds(tc()?.increment()?)?,
            Derived::OpeningEco => Value::Text(Cow::Borrowed(game.opening()?.eco)),
            Derived::OpeningName => Value::Text(Cow::Borrowed(game.opening()?.name)),
            Derived::OpeningPly => Value::Int(i64::from(game.opening()?.ply)),
            Derived::Plies => Value::Int(i64::try_from(game.plies()).ok()?),
            Derived::Result => Value::Word(game.outcome().as_str()),
            Derived::Winner => Value::Word(match game.outcome() {
                Outcome::WhiteWins => "white",
                Outcome::BlackWins => "black",
                _ => return None,
            }),
            Derived::WinBy => Value::Word(re()?.win_by()?),
            Derived::Margin => Value::Num(re()?.margin()?),
            Derived::BlackRank | Derived::WhiteRank => {
                let prop = if self == Derived::BlackRank {
                    "BR"
                } else {
                    "WR"
                };
                Value::Int(i64::from(Rank::parse(game.tag(prop)?.as_bytes())?.value()))
            }
        })
    }

    fn sources(self, pgn: bool) -> &'static [&'static str] {
        Key::Derived(self).source_tags(if pgn { Format::Pgn } else { Format::Sgf })
    }
}

/// Whole seconds, as a number (the `tc_base` / `tc_increment` columns' rule).
fn seconds(d: std::time::Duration) -> Option<Value<'static>> {
    if d.subsec_nanos() != 0 {
        return None;
    }
    Some(Value::Int(i64::try_from(d.as_secs()).ok()?))
}

/// A key's value in a game.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// A tag or property as written (read as the key's [`Kind`] where it compares).
    Text(Cow<'a, str>),
    /// A whole number.
    Int(i64),
    /// A number.
    Num(f64),
    /// A date (`month`: its day unknown, shown `YYYY-MM`).
    Date(Date),
    /// A word of an enumeration.
    Word(&'static str),
}

impl Value<'_> {
    /// The value as text, appended to `out`: a tag as written, numbers in digits, a month
    /// `YYYY-MM`.
    pub fn write_text(&self, out: &mut String) {
        match self {
            Value::Text(t) => out.push_str(t),
            Value::Int(n) => push_int(out, *n),
            Value::Num(x) => {
                let _ = write!(out, "{x}");
            }
            Value::Date(d) => {
                if let Some(y) = d.year {
                    let _ = write!(out, "{y:04}");
                }
                if let Some(m) = d.month {
                    let _ = write!(out, "-{m:02}");
                }
                if let Some(day) = d.day {
                    let _ = write!(out, "-{day:02}");
                }
            }
            Value::Word(w) => out.push_str(w),
        }
    }

    /// The value as text.
    pub fn text(&self) -> Cow<'_, str> {
        match self {
            Value::Text(t) => Cow::Borrowed(t),
            Value::Word(w) => Cow::Borrowed(w),
            _ => {
                let mut s = String::new();
                self.write_text(&mut s);
                Cow::Owned(s)
            }
        }
    }

    fn number(&self) -> Option<f64> {
        match self {
            Value::Int(n) => Some(*n as f64),
            Value::Num(x) => Some(*x),
            Value::Text(t) => t.trim().parse().ok().filter(|x: &f64| x.is_finite()),
            _ => None,
        }
    }
}

/// `n` in digits, appended (without the formatting machinery: a scan writes one a game).
fn push_int(out: &mut String, n: i64) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    let mut m = n.unsigned_abs();
    loop {
        at -= 1;
        buf[at] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if n < 0 {
        out.push('-');
    }
    out.extend(buf[at..].iter().map(|&b| b as char));
}

/// A rank's number, from its text (`7d`, `3 kyu`, `9p`).
fn rank_of(text: &str) -> Option<i16> {
    Rank::parse(text.as_bytes()).map(Rank::value)
}

/// The place of `word` among `members`, in any case; `W`, `B` for `white`, `black`.
fn member(members: &[&str], word: &str) -> Option<usize> {
    let word = word.trim();
    let word = match word {
        "W" | "w" => "white",
        "B" | "b" => "black",
        "1/2" | "½-½" => "1/2-1/2",
        w => w,
    };
    members.iter().position(|m| m.eq_ignore_ascii_case(word))
}

/// What a key reads from a game: its tags, its plies, its result, its opening. Implemented for
/// the DOMs (`pgn::Game`, `sgf::GameTree`) and by scans that read only what a key needs.
pub trait Game {
    /// The game's format.
    fn format(&self) -> Format;
    /// The first tag of this name (PGN), or the root property's first value, decoded as UTF-8
    /// where it is, else as Latin-1 (SGF).
    fn tag(&self, name: &str) -> Option<Cow<'_, str>>;
    /// Main-line plies (SGF: main-line moves).
    fn plies(&self) -> u64;
    /// The result: PGN the `Result` tag, else the termination marker; SGF `RE`.
    fn outcome(&self) -> Outcome;
    /// The opening named from a PGN game's main line; `None` for SGF.
    fn opening(&self) -> Option<Opening>;
}

impl Game for pgn::Game {
    fn format(&self) -> Format {
        Format::Pgn
    }
    fn tag(&self, name: &str) -> Option<Cow<'_, str>> {
        pgn::Game::tag(self, name).map(Cow::Borrowed)
    }
    fn plies(&self) -> u64 {
        self.moves.len() as u64
    }
    fn outcome(&self) -> Outcome {
        // the Result tag wins over the termination marker (kifu::pgn::Game::outcome)
        pgn::Game::outcome(self)
    }
    fn opening(&self) -> Option<Opening> {
        kifu_replay::chess::openings::classify(self)
    }
}

impl Game for sgf::GameTree {
    fn format(&self) -> Format {
        Format::Sgf
    }
    fn tag(&self, name: &str) -> Option<Cow<'_, str>> {
        let root = (!self.is_empty()).then(|| self.root())?;
        let value = root.value(name.as_bytes())?;
        let text = value.decoded(name.as_bytes());
        Some(Cow::Owned(match std::str::from_utf8(&text) {
            Ok(s) => s.to_string(),
            Err(_) => text.iter().map(|&b| b as char).collect(),
        }))
    }
    fn plies(&self) -> u64 {
        self.main_line().filter(|n| n.go_move().is_some()).count() as u64
    }
    fn outcome(&self) -> Outcome {
        sgf_outcome(self.tag("RE").as_deref().unwrap_or("").as_bytes())
    }
    fn opening(&self) -> Option<Opening> {
        None
    }
}

/// The outcome an SGF `RE` says.
pub fn sgf_outcome(re: &[u8]) -> Outcome {
    kifu_export::values::go_outcome(GoResult::parse(re).as_ref())
}

/// The operator of a [`Test`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `=`: equal as the key's kind (a date on the parts given).
    Eq,
    /// `!=`: not `=` (a game without the value passes).
    Ne,
    /// `~`: the text contains the value, ignoring case.
    Has,
    /// `!~`: not `~` (a game without the value passes).
    HasNot,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

impl Op {
    fn orders(self) -> bool {
        matches!(self, Op::Lt | Op::Le | Op::Gt | Op::Ge)
    }
    fn negated(self) -> bool {
        matches!(self, Op::Ne | Op::HasNot)
    }
}

/// A test's value, read once as every kind it can be compared as.
#[derive(Clone, Debug, PartialEq)]
struct Operand {
    text: String,
    lower: String,
    number: Option<f64>,
    date: Option<Date>,
    rank: Option<i16>,
    member: Option<usize>,
}

/// One test `NAME OP VALUE` (`WhiteElo>=2500`, `Date=2015`, `speed<=blitz`, `Player~carlsen`).
///
/// The same rule for every key: `=` is equal as the key's [`Kind`] when the value is of it
/// (numbers as numbers, `2500.0` = `2500`; a date on the parts the test gives, `Date=2015` is
/// every game of 2015; ranks as ranks; an enumeration's word in any case), else as text;
/// `<`, `<=`, `>`, `>=` order as the kind, and a game's value that is not of it (`?` for an
/// Elo, `NR` for a rank, `2015.??.??` against `2015.03`) is neither less nor more; `=` holds
/// exactly when both `<=` and `>=` do. `~` is "contains, ignoring case" on the value's text.
/// A game without the value passes only `!=` and `!~`. `Player` tests either player:
/// `Player=X` holds when White or Black is X, `Player!=X` when neither is.
#[derive(Clone, Debug, PartialEq)]
pub struct Test {
    key: Key,
    op: Op,
    value: Operand,
}

impl std::str::FromStr for Test {
    type Err = String;

    /// `WhiteElo>=2500`, `Result=1-0`, `White~carlsen`, `ECO!=B90`, `Date<2000.01.01`; the
    /// value may be in double quotes (`Event="Rock or Roll"`).
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
        let mut value = rest.trim();
        let value_at = at + len + (rest.len() - rest.trim_start().len());
        if value.starts_with(['=', '<', '>', '!', '~']) {
            return Err(pointed(s, value_at, "a second operator"));
        }
        if value.len() >= 2 && value.starts_with('"') && value.ends_with('"') {
            value = &value[1..value.len() - 1];
        }
        if value.is_empty() && !matches!(op, Op::Eq | Op::Ne) {
            return Err(pointed(s, at + len, "no value after the operator"));
        }
        let key = Key::parse(name).map_err(|e| format!("`{s}`: {e}"))?;
        let searched = matches!(op, Op::Has | Op::HasNot);
        // a value of the key's kind is read strictly: `Date>=2015.13` or `WhiteElo>=nan` is
        // refused, never read as `Date>=2015` or as a number nothing equals
        let number = value.parse::<f64>().ok();
        if matches!(key.kind(), Kind::Integer | Kind::Number)
            && !searched
            && number.is_some_and(|x| !x.is_finite())
        {
            return Err(format!(
                "`{s}`: {} compares with a number, and `{value}` is none (a finite number)",
                key.name()
            ));
        }
        let date = if key.kind() == Kind::Date
            && !searched
            && value.starts_with(|c: char| c.is_ascii_digit())
        {
            let date = Date::given(value).map_err(|e| format!("`{s}`: {e}"))?;
            // `month` is a year and a month: a day would match nothing
            if key.name() == "month" && date.is_some_and(|d| d.day.is_some()) {
                return Err(format!(
                    "`{s}`: month is a year and a month (YYYY-MM); `{value}` gives a day too"
                ));
            }
            date
        } else {
            Date::parse(value)
        };
        let operand = Operand {
            text: value.to_string(),
            lower: value.to_lowercase(),
            number: number.filter(|x| x.is_finite()),
            date,
            rank: rank_of(value).or_else(|| value.parse().ok()),
            member: match key.kind() {
                Kind::Enumeration(m) => member(m, value),
                _ => None,
            },
        };
        check_operand(s, &key, op, &operand)?;
        Ok(Test {
            key,
            op,
            value: operand,
        })
    }
}

/// Refuses a value the key can never have where it matters: an enumeration's word that is
/// none of its words (but with `~`), a value that is no number, date or rank for `<`, `>`.
fn check_operand(s: &str, key: &Key, op: Op, v: &Operand) -> Result<(), String> {
    let what = match key.kind() {
        Kind::Enumeration(m) if v.member.is_none() && !matches!(op, Op::Has | Op::HasNot) => {
            let near = close_matches(&v.text, m.iter().copied());
            let list: Vec<String> = m.iter().map(|w| format!("`{w}`")).collect();
            let mut e = format!(
                "`{s}`: `{}` is no value of {}: {}",
                v.text,
                key.name(),
                list.join(", ")
            );
            match near.as_slice() {
                [] => {}
                [one] => {
                    let _ = write!(e, "; did you mean `{one}`?");
                }
                many => {
                    let l: Vec<String> = many.iter().map(|w| format!("`{w}`")).collect();
                    let _ = write!(e, "; did you mean one of {}?", l.join(", "));
                }
            }
            return Err(e);
        }
        Kind::Integer | Kind::Number if op.orders() && v.number.is_none() => "a number",
        Kind::Date if op.orders() && v.date.is_none() => "a date (YYYY, YYYY.MM, YYYY.MM.DD)",
        Kind::Rank if op.orders() && v.rank.is_none() => "a rank (`7d`, `3k`, `2p`) or its number",
        _ => return Ok(()),
    };
    Err(format!(
        "`{s}`: {} compares with {what}, and `{}` is none",
        key.name(),
        v.text
    ))
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
    /// The key tested.
    pub fn key(&self) -> &Key {
        &self.key
    }

    /// The operator.
    pub fn op(&self) -> Op {
        self.op
    }

    /// Whether `game` passes.
    pub fn holds(&self, game: &impl Game) -> bool {
        match &self.key {
            Key::Player => {
                let names: &[&str] = match game.format() {
                    Format::Pgn => &["White", "Black"],
                    Format::Sgf => &["PB", "PW"],
                };
                let one = |n: &str| game.tag(n).map(Value::Text);
                if self.op.negated() {
                    // neither player is (has) it
                    names.iter().all(|n| self.passes(Kind::Text, one(n)))
                } else {
                    names.iter().any(|n| self.passes(Kind::Text, one(n)))
                }
            }
            key => self.passes(key.kind(), key.value(game)),
        }
    }

    /// Whether a value (`None`: the game has none) passes, compared as `kind`.
    fn passes(&self, kind: Kind, value: Option<Value<'_>>) -> bool {
        let Some(v) = value else {
            return self.op.negated();
        };
        let has = || v.text().to_lowercase().contains(&self.value.lower);
        let ord = compare(kind, &v, &self.value);
        // `=`: equal as the kind where both are of it, else as text
        let eq = || match ord {
            Some(o) => o == Ordering::Equal,
            None => v.text() == self.value.text.as_str(),
        };
        match self.op {
            Op::Eq => eq(),
            Op::Ne => !eq(),
            Op::Has => has(),
            Op::HasNot => !has(),
            Op::Lt => ord == Some(Ordering::Less),
            Op::Le => matches!(ord, Some(Ordering::Less | Ordering::Equal)),
            Op::Gt => ord == Some(Ordering::Greater),
            Op::Ge => matches!(ord, Some(Ordering::Greater | Ordering::Equal)),
        }
    }
}

/// A game's value against a test's, as `kind` orders them; `None` where either is not of the
/// kind (or a date lacks a part the test gives).
fn compare(kind: Kind, v: &Value<'_>, t: &Operand) -> Option<Ordering> {
    match kind {
        Kind::Integer | Kind::Number => v.number()?.partial_cmp(&t.number?),
        Kind::Text => match (v.number(), t.number) {
            (Some(a), Some(b)) => a.partial_cmp(&b),
            (None, None) => Some(v.text().as_ref().cmp(t.text.as_str())),
            // a number against text (`?` against 2500): no order
            _ => None,
        },
        Kind::Date => {
            let d = match v {
                Value::Date(d) => *d,
                other => Date::parse(&other.text())?,
            };
            d.against(&t.date?)
        }
        Kind::Rank => {
            let r = match v {
                Value::Int(n) => i16::try_from(*n).ok()?,
                other => rank_of(&other.text())?,
            };
            Some(r.cmp(&t.rank?))
        }
        Kind::Enumeration(m) => Some(member(m, &v.text())?.cmp(&t.member?)),
    }
}

/// Tests of which one must hold: one `-w` (`White~carlsen or Black~carlsen`). Several `-w`
/// must all hold: `or` binds within one `-w`, and the `-w`s are joined by "and".
#[derive(Clone, Debug, PartialEq)]
pub struct AnyOf(pub Vec<Test>);

impl AnyOf {
    /// The keys its tests name.
    pub fn keys(&self) -> impl Iterator<Item = &Key> {
        self.0.iter().map(Test::key)
    }
}

impl std::str::FromStr for AnyOf {
    type Err = String;

    /// Tests joined by the word `or` (also `OR`), outside double quotes.
    ///
    /// ```
    /// use kifu_pipeline::keys::AnyOf;
    /// let any: AnyOf = "WhiteElo>=2700 or BlackElo>=2700".parse().unwrap();
    /// assert_eq!(any.0.len(), 2);
    /// assert_eq!("Event=\"Rock or Roll\"".parse::<AnyOf>().unwrap().0.len(), 1);
    /// assert!("WhiteElo>=2700 or".parse::<AnyOf>().unwrap_err().contains("no test after `or`"));
    /// ```
    fn from_str(s: &str) -> Result<AnyOf, String> {
        let mut tests = Vec::new();
        let mut start = 0;
        let mut quoted = false;
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'"' {
                quoted = !quoted;
            } else if !quoted
                && b.is_ascii_whitespace()
                && bytes.len() >= i + 3
                && matches!(&bytes[i + 1..i + 3], b"or" | b"OR")
                && bytes.get(i + 3).is_none_or(u8::is_ascii_whitespace)
            {
                tests.push(one_test(s, &s[start..i])?);
                start = (i + 4).min(s.len());
                i = start;
                continue;
            }
            i += 1;
        }
        let last = &s[start..];
        if last.trim().is_empty() && !tests.is_empty() {
            return Err(format!("`{s}`: no test after `or`"));
        }
        tests.push(one_test(s, last)?);
        Ok(AnyOf(tests))
    }
}

fn one_test(all: &str, part: &str) -> Result<Test, String> {
    if part.trim().is_empty() && part.len() != all.len() {
        return Err(format!("`{all}`: no test before `or`"));
    }
    part.trim().parse()
}

impl AnyOf {
    /// Whether one of the tests holds.
    pub fn holds(&self, game: &impl Game) -> bool {
        self.0.iter().any(|t| t.holds(game))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pgn(text: &str) -> Vec<pgn::Game> {
        pgn::Games::new(text.as_bytes()).collect()
    }

    fn kept<G: Game>(games: &[G], tests: &[&str]) -> Vec<usize> {
        let t: Vec<AnyOf> = tests.iter().map(|t| t.parse().unwrap()).collect();
        (0..games.len())
            .filter(|&i| t.iter().all(|a| a.holds(&games[i])))
            .collect()
    }

    #[test]
    fn dates_match_on_the_parts_given_and_agree_with_the_orderings() {
        let g = pgn(
            "[Date \"2014.12.31\"]\n*\n\n[Date \"2015.03.02\"]\n*\n\n[Date \"2015.??.??\"]\n*\n\n\
             [Date \"2016.01.01\"]\n*\n\n[Event \"undated\"]\n*\n",
        );
        assert_eq!(kept(&g, &["Date=2015"]), [1, 2]);
        assert_eq!(kept(&g, &["Date<=2015"]), [0, 1, 2]);
        assert_eq!(kept(&g, &["Date>=2015"]), [1, 2, 3]);
        assert_eq!(
            kept(&g, &["Date<=2015", "Date>=2015"]),
            kept(&g, &["Date=2015"])
        );
        assert_eq!(kept(&g, &["Date=2015.03"]), [1]);
        assert_eq!(
            kept(&g, &["Date=2015.??.??"]),
            [1, 2],
            "`?` parts are not given"
        );
        assert_eq!(kept(&g, &["Date!=2015"]), [0, 3, 4]);
        assert_eq!(
            kept(&g, &["Date<2015.06"]),
            [0, 1],
            "2015.??.?? is unknown there"
        );
        assert_eq!(kept(&g, &["year=2015"]), [1, 2]);
        assert_eq!(kept(&g, &["year>=2015"]), [1, 2, 3]);
        assert_eq!(kept(&g, &["month=2015-03"]), [1]);
        assert_eq!(kept(&g, &["month>=2015.03"]), [1, 3]);
    }

    #[test]
    fn dates_and_numbers_that_are_none_are_refused() {
        for (test, part) in [
            ("Date>=2015.13", "`13` is no month"),
            ("Date>=2015.99", "`99` is no month"),
            ("Date>=2015.xx", "`xx` is no month"),
            ("Date>=2015.00", "`00` is no month"),
            ("Date=2015.06.45", "`45` is no day"),
            ("Date>=2015.06.00", "`00` is no day"),
            ("Date>=2015.", "`` is no month"),
            ("Date<2015.??.03", "a day after no month"),
            ("month=2015-13", "`13` is no month"),
            ("Date>=2015.01.01.01", "is no date"),
            ("WhiteElo>=nan", "`nan` is none"),
            ("WhiteElo=inf", "`inf` is none"),
            ("WhiteElo<-infinity", "`-infinity` is none"),
            ("year>=1e999", "`1e999` is none"),
            ("Date<20150601", "`20150601` is no year"),
            ("month=2012-06-03", "gives a day too"),
        ] {
            let e = test.parse::<Test>().unwrap_err();
            assert!(e.contains(part), "{test}: {e}");
        }
        // `?` parts, text and searches stay valid
        for test in [
            "Date=2015.??.??",
            "Date>=2015.??",
            "Date=????.??.??",
            "Date=?",
            "Date~2015.13",
            "WhiteElo=?",
            "WhiteElo~nan",
            "White=nan",
        ] {
            assert!(test.parse::<Test>().is_ok(), "{test}");
        }
    }

    #[test]
    fn numbers_compare_as_numbers() {
        let g = pgn("[WhiteElo \"2500\"]\n*\n\n[WhiteElo \"?\"]\n*\n\n[WhiteElo \"2700\"]\n*\n");
        assert_eq!(kept(&g, &["WhiteElo=2500.0"]), [0]);
        assert_eq!(kept(&g, &["WhiteElo=2500"]), [0]);
        assert_eq!(kept(&g, &["WhiteElo>=2500"]), [0, 2]);
        assert_eq!(kept(&g, &["WhiteElo=?"]), [1], "not a number: as text");
        assert_eq!(kept(&g, &["WhiteElo!=2500"]), [1, 2]);
        assert!("WhiteElo>=strong".parse::<Test>().is_err());
    }

    #[test]
    fn either_player_and_or() {
        let g = pgn(
            "[White \"Carlsen\"]\n[Black \"Kasparov\"]\n*\n\n[White \"Anand\"]\n[Black \"Carlsen\"]\n*\n\n\
             [White \"Tal\"]\n[Black \"Anand\"]\n*\n",
        );
        assert_eq!(kept(&g, &["Player=Carlsen"]), [0, 1]);
        assert_eq!(kept(&g, &["Player!=Carlsen"]), [2]);
        assert_eq!(kept(&g, &["Player~an"]), [1, 2]);
        assert_eq!(kept(&g, &["White=Tal or Black=Kasparov"]), [0, 2]);
        assert_eq!(
            kept(
                &g,
                &[
                    "White=Tal or Black=Kasparov",
                    "Player=Anand or Player=Carlsen"
                ]
            ),
            [0, 2]
        );
        assert_eq!(kept(&g, &["White=Tal OR White=Anand"]), [1, 2]);
        let t = sgf::game_trees(b"(;PB[Cho]PW[Lee])").next().unwrap();
        assert!("Player=Lee".parse::<Test>().unwrap().holds(&t));
        assert!(Key::parse_group("Player").is_err());
    }

    #[test]
    fn names_close_to_known_ones_are_refused_with_them() {
        let e = Key::parse("Whiteelo").unwrap_err();
        assert!(e.contains("did you mean `WhiteElo`?"), "{e}");
        let e = Key::parse("tc_bse").unwrap_err();
        assert!(e.contains("`tc_base`"), "{e}");
        let e = Key::parse("pb").unwrap_err();
        assert!(e.contains("`PB`"), "{e}");
        assert!(Key::parse("nonsense").is_err(), "small letters: no tag");
        assert_eq!(
            Key::parse("Tournament").unwrap(),
            Key::Tag("Tournament".into())
        );
        assert_eq!(Key::parse("PlyCount").unwrap(), Key::Tag("PlyCount".into()));
        let e = "speed=blits".parse::<Test>().unwrap_err();
        assert!(e.contains("did you mean `blitz`?"), "{e}");
        assert!("speed~bli".parse::<Test>().is_ok(), "~ searches text");
        assert!("winner=W".parse::<Test>().is_ok());
        assert!("result=1/2".parse::<Test>().is_ok());
    }

    #[test]
    fn derived_values_of_both_formats() {
        let g = pgn(
            "[UTCDate \"2021.05.01\"]\n[TimeControl \"180+2\"]\n[Result \"0-1\"]\n\n\
             1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 0-1\n",
        );
        let shown = |k: &str| Key::parse(k).unwrap().shown(&g[0]);
        assert_eq!(shown("year").as_deref(), Some("2021"));
        assert_eq!(shown("month").as_deref(), Some("2021-05"));
        assert_eq!(shown("speed").as_deref(), Some("blitz"));
        assert_eq!(shown("tc_base").as_deref(), Some("180"));
        assert_eq!(shown("tc_increment").as_deref(), Some("2"));
        assert_eq!(shown("opening_eco").as_deref(), Some("B90"));
        assert_eq!(shown("plies").as_deref(), Some("10"));
        assert_eq!(shown("result").as_deref(), Some("0-1"));
        assert_eq!(shown("winner").as_deref(), Some("black"));
        assert_eq!(shown("margin"), None, "an SGF key");
        let t: Vec<sgf::GameTree> =
            sgf::game_trees(b"(;DT[2019-03-01]BR[7d]WR[3k]RE[W+3.5];B[aa];W[bb])").collect();
        let shown = |k: &str| Key::parse(k).unwrap().shown(&t[0]);
        assert_eq!(shown("month").as_deref(), Some("2019-03"));
        assert_eq!(shown("black_rank").as_deref(), Some("7"));
        assert_eq!(shown("white_rank").as_deref(), Some("-3"));
        assert_eq!(shown("winner").as_deref(), Some("white"));
        assert_eq!(shown("result").as_deref(), Some("1-0"));
        assert_eq!(shown("margin").as_deref(), Some("3.5"));
        assert_eq!(shown("plies").as_deref(), Some("2"));
        assert_eq!(shown("speed"), None, "a PGN key");
        assert_eq!(kept(&t, &["BR>=5d", "WR<1d", "winner=W", "margin>3"]), [0]);
    }

    #[test]
    fn integers_are_written_in_digits() {
        for n in [0, 7, -3, 2015, i64::MIN, i64::MAX] {
            let mut s = String::new();
            Value::Int(n).write_text(&mut s);
            assert_eq!(s, n.to_string());
        }
    }

    #[test]
    fn derived_keys_are_listed_in_their_order() {
        for (i, d) in DERIVED.iter().enumerate() {
            assert_eq!(d.key as usize, i, "{}", d.name);
            assert_eq!(d.key.info().name, d.name);
        }
    }

    #[test]
    fn speeds_are_the_library_s() {
        let names: Vec<&str> = kifu::pgn::Speed::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, SPEEDS);
    }

    #[test]
    fn rows_order_as_the_kind() {
        let speed = Key::parse("speed").unwrap();
        assert_eq!(speed.order("bullet", "blitz"), Ordering::Less);
        let elo = Key::parse("WhiteElo").unwrap();
        assert_eq!(elo.order("800", "1500"), Ordering::Less);
        assert_eq!(elo.order("1500", "?"), Ordering::Less);
        let br = Key::parse("BR").unwrap();
        assert_eq!(br.order("3k", "1d"), Ordering::Less);
        assert_eq!(br.order("1p", "9d"), Ordering::Greater);
    }
}
