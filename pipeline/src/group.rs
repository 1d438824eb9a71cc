//! `kifu stats --by KEY` and `kifu.stats(by=…)`: the games counted per value of a key (a tag
//! or root property, `year`, `month`, `speed`, `opening_eco`), every core, bounded memory.
//!
//! Each piece's visitor reads only what the key and the counts need (a tag or two, the
//! result, the main line's plies, the errors), so a grouped scan runs near the speed of a plain
//! count. The rows are the first [`Grouping::max_groups`] distinct values *in input order*;
//! games whose value comes later go to one `other` row. Every thread count gives the same rows:
//! pieces hold every value they meet (a piece is a bounded slice of its input) and are merged
//! in input order, where the cap applies; read on one thread, each game goes straight to the
//! capped total.

use std::collections::HashMap;
use std::sync::Arc;

use kifu::Control;
use kifu::par::{Event, Visited, Work};
use kifu::pgn::{self, Outcome, TimeControl};
use kifu::sgf;
use kifu_replay::chess::openings::Classifier;
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::Input;

/// What games are grouped by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum By {
    /// A PGN tag or an SGF root property, by its exact name (`White`, `ECO`, `RU`, `BR`).
    Field(String),
    /// The year of the game's date (PGN `UTCDate`, else `Date`, else `EventDate`; SGF `DT`).
    Year,
    /// The year and month of the game's date, `YYYY-MM`.
    Month,
    /// The speed of a PGN game, lichess's category of its `TimeControl`
    /// ([`kifu::pgn::Speed`]: `bullet`, `blitz`, …).
    Speed,
    /// The ECO code of a PGN game's opening, named from its moves
    /// ([`kifu_replay::chess::openings`]), whatever its tags say.
    OpeningEco,
    /// The name of a PGN game's opening, named from its moves.
    OpeningName,
}

impl By {
    /// `year`, `month`, or a tag / property name (letters, digits and `_`).
    ///
    /// ```
    /// use kifu_pipeline::group::By;
    /// assert_eq!("year".parse::<By>().unwrap(), By::Year);
    /// assert_eq!("WhiteElo".parse::<By>().unwrap(), By::Field("WhiteElo".into()));
    /// assert!("White Elo".parse::<By>().is_err());
    /// ```
    pub fn parse(key: &str) -> Result<By, String> {
        key.parse()
    }

    /// The key as written on the command line.
    pub fn name(&self) -> &str {
        match self {
            By::Field(name) => name,
            By::Year => "year",
            By::Month => "month",
            By::Speed => "speed",
            By::OpeningEco => "opening_eco",
            By::OpeningName => "opening_name",
        }
    }
}

impl std::str::FromStr for By {
    type Err = String;

    fn from_str(key: &str) -> Result<By, String> {
        Ok(match key {
            "year" => By::Year,
            "month" => By::Month,
            "speed" => By::Speed,
            "opening_eco" => By::OpeningEco,
            "opening_name" => By::OpeningName,
            _ if !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') => {
                By::Field(key.to_string())
            }
            _ => {
                return Err(format!(
                    "`{key}`: not a key: year, month, speed, opening_eco, opening_name, or a tag or property name (letters, digits, `_`)"
                ));
            }
        })
    }
}

/// The counts of one group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games.
    pub games: u64,
    /// Main-line plies (moves) over those games.
    pub plies: u64,
    /// Games White won (PGN `1-0`; SGF `RE[W+…]`).
    pub white: u64,
    /// Games Black won.
    pub black: u64,
    /// Drawn games (PGN `1/2-1/2`; SGF `RE[0]`, `RE[Draw]`).
    pub draws: u64,
    /// Problems met while reading those games (warnings included).
    pub errors: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.games += o.games;
        self.plies += o.plies;
        self.white += o.white;
        self.black += o.black;
        self.draws += o.draws;
        self.errors += o.errors;
    }

    fn share(&self, n: u64) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            n as f64 / self.games as f64
        }
    }

    /// White's wins over all games of the group (0 for no game).
    pub fn white_share(&self) -> f64 {
        self.share(self.white)
    }

    /// Black's wins over all games of the group.
    pub fn black_share(&self) -> f64 {
        self.share(self.black)
    }

    /// Draws over all games of the group.
    pub fn draw_share(&self) -> f64 {
        self.share(self.draws)
    }

    /// Plies a game, on average.
    pub fn mean_plies(&self) -> f64 {
        self.share(self.plies)
    }
}

/// One row of a grouped count.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The key's value; `None` for the games that have none (no such tag, no date).
    pub key: Option<String>,
    /// Whether this is the row of the values beyond [`Grouping::max_groups`] (its `key` is
    /// `None`).
    pub other: bool,
    /// Its counts.
    pub counts: Counts,
}

impl Serialize for Row {
    /// One JSON Lines row: `key`, `other`, `games`, `plies`, `mean_plies`, `white`, `draws`,
    /// `black`, `white_share`, `draw_share`, `black_share`, `errors`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = &self.counts;
        let mut m = s.serialize_map(Some(12))?;
        m.serialize_entry("key", &self.key)?;
        m.serialize_entry("other", &self.other)?;
        m.serialize_entry("games", &c.games)?;
        m.serialize_entry("plies", &c.plies)?;
        m.serialize_entry("mean_plies", &c.mean_plies())?;
        m.serialize_entry("white", &c.white)?;
        m.serialize_entry("draws", &c.draws)?;
        m.serialize_entry("black", &c.black)?;
        m.serialize_entry("white_share", &c.white_share())?;
        m.serialize_entry("draw_share", &c.draw_share())?;
        m.serialize_entry("black_share", &c.black_share())?;
        m.serialize_entry("errors", &c.errors)?;
        m.end()
    }
}

/// Counts per value, in the order the values first came, at most `max` values (games of any
/// later value counted in `other`).
#[derive(Clone, Debug)]
struct Groups {
    rows: Vec<(Option<Box<str>>, Counts)>,
    index: HashMap<Box<str>, usize>,
    /// The row of the games without a value.
    none: Option<usize>,
    max: usize,
    other: Counts,
    /// Whether a value was turned away by the cap.
    dropped: bool,
}

impl Groups {
    fn new(max: usize) -> Groups {
        Groups {
            rows: Vec::new(),
            index: HashMap::new(),
            none: None,
            max,
            other: Counts::default(),
            dropped: false,
        }
    }

    fn add(&mut self, key: Option<&str>, counts: &Counts) {
        let found = match key {
            Some(k) => self.index.get(k).copied(),
            None => self.none,
        };
        match found {
            Some(i) => self.rows[i].1.add(counts),
            None if self.rows.len() < self.max => {
                let at = self.rows.len();
                match key {
                    Some(k) => {
                        self.index.insert(k.into(), at);
                    }
                    None => self.none = Some(at),
                }
                self.rows.push((key.map(Box::from), *counts));
            }
            None => {
                self.dropped = true;
                self.other.add(counts);
            }
        }
    }

    /// Adds a later piece's groups, in its order.
    fn absorb(&mut self, piece: Groups) {
        for (key, counts) in &piece.rows {
            self.add(key.as_deref(), counts);
        }
        if piece.dropped {
            self.dropped = true;
            self.other.add(&piece.other);
        }
    }
}

/// The result of a grouped scan.
#[derive(Clone, Debug)]
pub struct Grouped {
    /// The key.
    pub by: By,
    /// The rows: one per value, in the order [`Grouping::sort`] asks, the games without a
    /// value next, the `other` row (if the cap was reached) last.
    pub rows: Vec<Row>,
    /// Whether [`Grouping::max_groups`] was reached (the `other` row holds the rest).
    pub capped: bool,
    /// The cap.
    pub max_groups: usize,
}

/// How rows are ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sort {
    /// By the value: as numbers where both are numbers, else as text (speeds fastest first).
    #[default]
    Key,
    /// Most games first (ties by the value).
    Games,
}

/// What a grouped scan counts by, and how.
#[derive(Clone, Debug)]
pub struct Grouping {
    /// The key.
    pub by: By,
    /// The most distinct values kept (the rest go to the `other` row).
    pub max_groups: usize,
    /// The order of the rows.
    pub sort: Sort,
}

impl Grouping {
    /// The default [`max_groups`](Self::max_groups): 100,000 values.
    pub const DEFAULT_MAX_GROUPS: usize = 100_000;

    /// Grouped by `by`, the other settings their defaults.
    pub fn new(by: By) -> Grouping {
        Grouping {
            by,
            max_groups: Grouping::DEFAULT_MAX_GROUPS,
            sort: Sort::Key,
        }
    }
}

/// The work of a grouped scan: a visitor per piece, on any number of threads. Its
/// [`GroupTotal`] adds up what the pieces found, in input order.
#[derive(Debug)]
pub struct GroupWork {
    by: Arc<By>,
    max: usize,
}

impl GroupWork {
    /// The work for `grouping` (every thread count gives the same rows).
    pub fn new(grouping: &Grouping) -> GroupWork {
        GroupWork {
            by: Arc::new(grouping.by.clone()),
            max: grouping.max_groups.max(1),
        }
    }

    /// The total the scan's events go to.
    pub fn total(&self) -> GroupTotal {
        GroupTotal {
            total: Groups::new(self.max),
        }
    }
}

/// The sum of a grouped scan: give it every event of the scan, in order.
#[derive(Debug)]
pub struct GroupTotal {
    total: Groups,
}

impl GroupTotal {
    /// Adds what a scan's event brings.
    pub fn take(&mut self, event: Event<'_, GroupWork>) {
        if let Event::Piece { visited, .. } = event {
            let groups = match visited {
                Visited::Pgn(v) => v.acc.groups,
                Visited::Sgf(v) => v.acc.groups,
            };
            self.total.absorb(groups);
        }
    }

    /// The rows, ordered as `grouping` asks.
    pub fn finish(self, grouping: &Grouping) -> Grouped {
        let t = self.total;
        let mut rows: Vec<Row> = t
            .rows
            .into_iter()
            .map(|(key, counts)| Row {
                key: key.map(String::from),
                other: false,
                counts,
            })
            .collect();
        rows.sort_by(|a, b| {
            let by_key = || match (&a.key, &b.key) {
                // speeds fastest first, as the filter orders them
                (Some(x), Some(y)) if grouping.by == By::Speed => {
                    pgn::Speed::by_name(x).cmp(&pgn::Speed::by_name(y))
                }
                (Some(x), Some(y)) => compare_values(x, y),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            };
            match grouping.sort {
                Sort::Key => by_key(),
                Sort::Games => b.counts.games.cmp(&a.counts.games).then_with(by_key),
            }
        });
        if t.dropped {
            rows.push(Row {
                key: None,
                other: true,
                counts: t.other,
            });
        }
        Grouped {
            by: grouping.by.clone(),
            rows,
            capped: t.dropped,
            max_groups: t.max,
        }
    }
}

/// Orders two values: as numbers where both are numbers, else as text.
fn compare_values(a: &str, b: &str) -> std::cmp::Ordering {
    match (a.trim().parse::<f64>(), b.trim().parse::<f64>()) {
        (Ok(x), Ok(y)) => x.total_cmp(&y).then_with(|| a.cmp(b)),
        (Ok(_), Err(_)) => std::cmp::Ordering::Less,
        (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
        (Err(_), Err(_)) => a.cmp(b),
    }
}

impl Work for GroupWork {
    type Input = Input;
    type Pgn = PgnGroups;
    type Sgf = SgfGroups;

    fn pgn(&self, _: &Input) -> PgnGroups {
        PgnGroups {
            acc: Acc::new(self),
            dates: Dates::default(),
            openings: matches!(*self.by, By::OpeningEco | By::OpeningName).then(Classifier::new),
            replaying: false,
            tagged: false,
        }
    }

    fn sgf(&self, _: &Input) -> SgfGroups {
        SgfGroups {
            acc: Acc::new(self),
            root: false,
        }
    }
}

/// What one game brings, gathered as its events come; shared by both formats.
#[derive(Debug)]
struct Acc {
    by: Arc<By>,
    /// This piece's groups (uncapped: a piece is a bounded slice of its input).
    groups: Groups,
    in_game: bool,
    /// Games begun in this piece.
    seen: u64,
    /// Problems met outside every game.
    stray: u64,
    key: String,
    has_key: bool,
    counts: Counts,
}

impl Acc {
    fn new(work: &GroupWork) -> Acc {
        Acc {
            by: work.by.clone(),
            groups: Groups::new(usize::MAX),
            in_game: false,
            seen: 0,
            stray: 0,
            key: String::new(),
            has_key: false,
            counts: Counts::default(),
        }
    }

    fn start(&mut self) {
        self.in_game = true;
        self.seen += 1;
        self.key.clear();
        self.has_key = false;
        self.counts = Counts {
            games: 1,
            ..Counts::default()
        };
    }

    fn end(&mut self) {
        if !self.in_game {
            return;
        }
        self.in_game = false;
        let key = self.has_key.then_some(self.key.as_str());
        self.groups.add(key, &self.counts);
    }

    fn set_key(&mut self, value: &[u8]) {
        self.key.clear();
        push_text(&mut self.key, value);
        self.has_key = true;
    }

    fn error(&mut self) {
        if self.in_game {
            self.counts.errors += 1;
        } else {
            self.stray += 1;
        }
    }
}

/// Appends `bytes` as text: UTF-8 where it is, else Latin-1 (as `kifu filter` reads values).
fn push_text(out: &mut String, bytes: &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(s) => out.push_str(s),
        Err(_) => out.extend(bytes.iter().map(|&b| b as char)),
    }
}

/// `YYYY` (`month`: `YYYY-MM`) of a date written `YYYY.MM.DD` (also with `-` or `/`; the
/// first of an SGF list), when those parts are digits.
fn date_key(date: &[u8], month: bool) -> Option<[u8; 7]> {
    let d = date.trim_ascii_start();
    let year = d.get(..4)?;
    if !year.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut out = [0u8; 7];
    out[..4].copy_from_slice(year);
    if month {
        let sep = *d.get(4)?;
        let m = d.get(5..7)?;
        if !matches!(sep, b'.' | b'-' | b'/') || !m.iter().all(u8::is_ascii_digit) || m == b"00" {
            return None;
        }
        out[4] = b'-';
        out[5..].copy_from_slice(m);
    }
    Some(out)
}

impl By {
    /// The value of this key a PGN game (a DOM) has, as `kifu stats --by` counts it; `None`
    /// where it has none. `kifu split --by` names its files with it.
    ///
    /// ```
    /// use kifu_pipeline::group::By;
    /// let g = kifu::pgn::games(b"[Date \"2021.??.??\"]\n[UTCDate \"2020.12.31\"]\n[TimeControl \"60+1\"]\n\n1. e4 *\n")
    ///     .next().unwrap();
    /// assert_eq!(By::Year.pgn_value(&g).as_deref(), Some("2020")); // UTCDate first
    /// assert_eq!(By::Speed.pgn_value(&g).as_deref(), Some("bullet"));
    /// assert_eq!(By::OpeningEco.pgn_value(&g).as_deref(), Some("B00"));
    /// assert_eq!(By::Field("White".into()).pgn_value(&g), None);
    /// ```
    pub fn pgn_value(&self, game: &pgn::Game) -> Option<String> {
        match self {
            By::Field(name) => game.tag(name).map(str::to_string),
            By::Year | By::Month => {
                let month = *self == By::Month;
                let d = ["UTCDate", "Date", "EventDate"]
                    .iter()
                    .find_map(|t| date_key(game.tag(t)?.as_bytes(), month))?;
                Some(date_text(&d, month))
            }
            By::Speed => {
                let tc = TimeControl::parse(game.tag("TimeControl")?.as_bytes())?;
                Some(tc.speed()?.as_str().to_string())
            }
            By::OpeningEco | By::OpeningName => {
                let o = kifu_replay::chess::openings::classify(game)?;
                Some(
                    if *self == By::OpeningEco {
                        o.eco
                    } else {
                        o.name
                    }
                    .to_string(),
                )
            }
        }
    }

    /// The value of this key an SGF game tree has (a root property, its text decoded as
    /// UTF-8 where it is, else as Latin-1; the year or month of `DT`); `None` where it has
    /// none, and for the PGN keys (`speed`, the openings).
    pub fn sgf_value(&self, tree: &sgf::GameTree) -> Option<String> {
        if tree.is_empty() {
            return None;
        }
        let root = tree.root();
        match self {
            By::Field(name) => {
                let v = root.value(name.as_bytes())?;
                let mut out = String::new();
                push_text(&mut out, &v.decoded(name.as_bytes()));
                Some(out)
            }
            By::Year | By::Month => {
                let month = *self == By::Month;
                let d = date_key(root.value(b"DT")?.as_bytes(), month)?;
                Some(date_text(&d, month))
            }
            By::Speed | By::OpeningEco | By::OpeningName => None,
        }
    }
}

/// The text of a [`date_key`].
fn date_text(d: &[u8; 7], month: bool) -> String {
    String::from_utf8_lossy(&d[..if month { 7 } else { 4 }]).into_owned()
}

/// The PGN dates a game may be dated by, best first.
#[derive(Debug, Default)]
struct Dates {
    /// `UTCDate`, `Date`, `EventDate`: the key each gives.
    found: [Option<[u8; 7]>; 3],
}

/// A PGN piece's visitor of a grouped scan.
#[derive(Debug)]
pub struct PgnGroups {
    acc: Acc,
    dates: Dates,
    /// `opening_eco`, `opening_name`: the game's moves replayed as far as a name can change.
    openings: Option<Classifier>,
    /// The classifier wants the game's next main-line move.
    replaying: bool,
    /// The game's `Result` tag was read (it wins over the termination marker).
    tagged: bool,
}

impl pgn::Visitor for PgnGroups {
    fn on_tree(&mut self, ctx: &pgn::Context) -> Control {
        if ctx.depth == 0 {
            self.acc.start();
            self.dates = Dates::default();
            self.tagged = false;
            if let Some(c) = &mut self.openings {
                c.start();
                self.replaying = true;
            }
        }
        Control::Continue
    }

    fn on_property(&mut self, _: &pgn::Context, tag: &pgn::Tag<'_>) -> Control {
        if let Some(c) = &mut self.openings
            && matches!(tag.name, b"FEN" | b"Variant")
        {
            c.tag(tag.name, &tag.value.decode());
        }
        let by = &*self.acc.by;
        match by {
            By::Speed if tag.name == b"TimeControl" => {
                match TimeControl::parse(tag.value.as_bytes()).and_then(|t| t.speed()) {
                    Some(speed) => self.acc.set_key(speed.as_str().as_bytes()),
                    None => self.acc.has_key = false,
                }
            }
            By::Field(name) if name.as_bytes() == tag.name => {
                let value = tag.value.decode();
                self.acc.set_key(&value);
            }
            By::Year | By::Month => {
                let slot = match tag.name {
                    b"UTCDate" => 0,
                    b"Date" => 1,
                    b"EventDate" => 2,
                    _ => return self.result_tag(tag),
                };
                self.dates.found[slot] = date_key(tag.value.as_bytes(), *by == By::Month);
            }
            _ => {}
        }
        self.result_tag(tag)
    }

    fn on_tags_end(&mut self, _: &pgn::Context) -> Control {
        if matches!(*self.acc.by, By::Year | By::Month)
            && let Some(d) = self.dates.found.iter().flatten().next()
        {
            let len = if *self.acc.by == By::Month { 7 } else { 4 };
            let d = *d;
            self.acc.set_key(&d[..len]);
        }
        Control::Continue
    }

    fn on_move(&mut self, ctx: &pgn::Context, mv: &pgn::Move<'_>) -> Control {
        if ctx.depth == 0 {
            self.acc.counts.plies += 1;
            if self.replaying
                && let Some(c) = &mut self.openings
            {
                self.replaying = c.play(mv.san);
            }
        }
        Control::Continue
    }

    fn on_result(&mut self, ctx: &pgn::Context, outcome: Outcome) -> Control {
        // the termination marker counts where the Result tag said nothing
        if ctx.depth == 0 && !self.tagged {
            set_outcome(&mut self.acc.counts, outcome);
        }
        Control::Continue
    }

    fn on_error(&mut self, _: &pgn::Error<'_>) -> Control {
        self.acc.error();
        Control::Continue
    }

    fn on_tree_end(&mut self, ctx: &pgn::Context) -> Control {
        if ctx.depth == 0 {
            if let Some(c) = &self.openings
                && let Some(o) = c.opening()
            {
                let key = if *self.acc.by == By::OpeningEco {
                    o.eco
                } else {
                    o.name
                };
                self.acc.set_key(key.as_bytes());
            }
            self.acc.end();
        }
        Control::Continue
    }
}

impl PgnGroups {
    fn result_tag(&mut self, tag: &pgn::Tag<'_>) -> Control {
        if tag.name == b"Result" {
            self.tagged = true;
            let outcome = match tag.value.as_bytes().trim_ascii() {
                b"1-0" => Outcome::WhiteWins,
                b"0-1" => Outcome::BlackWins,
                b"1/2-1/2" => Outcome::Draw,
                _ => Outcome::Unknown,
            };
            set_outcome(&mut self.acc.counts, outcome);
        }
        Control::Continue
    }
}

fn set_outcome(c: &mut Counts, outcome: Outcome) {
    (c.white, c.black, c.draws) = match outcome {
        Outcome::WhiteWins => (1, 0, 0),
        Outcome::BlackWins => (0, 1, 0),
        Outcome::Draw => (0, 0, 1),
        Outcome::Unknown => (0, 0, 0),
    };
}

/// An SGF piece's visitor of a grouped scan.
#[derive(Debug)]
pub struct SgfGroups {
    acc: Acc,
    /// In the root node of a game tree.
    root: bool,
}

impl sgf::Visitor for SgfGroups {
    fn on_tree(&mut self, ctx: &sgf::Context) -> Control {
        if ctx.depth == 0 {
            self.acc.start();
        }
        Control::Continue
    }

    fn on_node(&mut self, ctx: &sgf::Context) -> Control {
        self.root = ctx.depth == 0 && ctx.node == 0;
        Control::Continue
    }

    fn on_value(&mut self, _: &sgf::Context, value: &sgf::Value<'_>) -> Control {
        if !self.root || value.index != 0 {
            return Control::Continue;
        }
        if value.name == b"RE" && value.first {
            let outcome = match sgf::GoResult::parse(value.raw.as_bytes()) {
                Some(sgf::GoResult::Win { winner, .. }) => match winner {
                    sgf::Color::White => Outcome::WhiteWins,
                    sgf::Color::Black => Outcome::BlackWins,
                },
                Some(sgf::GoResult::Draw) => Outcome::Draw,
                _ => Outcome::Unknown,
            };
            set_outcome(&mut self.acc.counts, outcome);
        }
        match &*self.acc.by {
            By::Field(name) if name.as_bytes() == value.name => {
                let text = value.raw.decoded(value.name);
                if value.first {
                    self.acc.set_key(&text);
                } else if self.acc.key.len() < MAX_KEY_BYTES {
                    push_text(&mut self.acc.key, &text);
                }
            }
            By::Year | By::Month if value.name == b"DT" && value.first => {
                let month = *self.acc.by == By::Month;
                if let Some(d) = date_key(value.raw.as_bytes(), month) {
                    self.acc.set_key(&d[..if month { 7 } else { 4 }]);
                }
            }
            _ => {}
        }
        Control::Continue
    }

    fn on_move(&mut self, ctx: &sgf::Context, _: &sgf::Move<'_>) -> Control {
        if ctx.main_line {
            self.acc.counts.plies += 1;
        }
        Control::Continue
    }

    fn on_error(&mut self, _: &sgf::Error<'_>) -> Control {
        self.acc.error();
        Control::Continue
    }

    fn on_tree_end(&mut self, ctx: &sgf::Context) -> Control {
        if ctx.depth == 0 {
            self.root = false;
            self.acc.end();
        }
        Control::Continue
    }
}

impl crate::Games for PgnGroups {
    fn games(&self) -> u64 {
        self.acc.seen
    }
    fn unclaimed(&self) -> u64 {
        self.acc.stray
    }
}

impl crate::Games for SgfGroups {
    fn games(&self) -> u64 {
        self.acc.seen
    }
    fn unclaimed(&self) -> u64 {
        self.acc.stray
    }
}

/// The most bytes of a long SGF value kept as a key (its first pieces).
const MAX_KEY_BYTES: usize = 4096;

impl crate::Scan<'_> {
    /// Counts the games per value of `grouping.by`: the scan of `kifu stats --by`.
    ///
    /// # Errors
    ///
    /// None of the scan's own (an input that cannot be read is in the [`Scanned`](crate::Scanned)).
    ///
    /// ```
    /// use kifu_pipeline::group::{By, Grouping};
    /// use kifu_pipeline::{Formats, Scan, Source};
    ///
    /// let pgn = b"[Date \"1972.07.11\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
    ///             [Date \"1972.08.31\"]\n[Result \"1/2-1/2\"]\n\n1. d4 1/2-1/2\n\n\
    ///             [Date \"1985.??.??\"]\n\n1. c4 *\n".to_vec();
    /// let scan = Scan::new(Source::Bytes { name: "g.pgn".into(), data: pgn }, Formats::ANY);
    /// let (grouped, _) = scan.group(&Grouping::new(By::Year), |_| {}).unwrap();
    /// let rows: Vec<_> = grouped.rows.iter().map(|r| (r.key.as_deref(), r.counts.games)).collect();
    /// assert_eq!(rows, [(Some("1972"), 2), (Some("1985"), 1)]);
    /// assert_eq!((grouped.rows[0].counts.white, grouped.rows[0].counts.draws), (1, 1));
    /// ```
    pub fn group(
        self,
        grouping: &Grouping,
        note: impl FnMut(crate::Note),
    ) -> std::io::Result<(Grouped, crate::Scanned)> {
        let work = GroupWork::new(grouping);
        let mut total = work.total();
        let scanned = self.run(
            &work,
            |event| {
                total.take(event);
                Ok::<(), std::io::Error>(())
            },
            note,
        )?;
        Ok((total.finish(grouping), scanned))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Formats, Scan, ScanOptions, Source};

    fn grouped(data: &[u8], name: &str, grouping: &Grouping, threads: usize) -> Grouped {
        let source = Source::Bytes {
            name: name.into(),
            data: data.to_vec(),
        };
        let options = ScanOptions {
            piece_size: 64,
            ..ScanOptions::with_threads(threads)
        };
        Scan::new(source, Formats::ANY)
            .with_options(options)
            .group(grouping, |_| {})
            .unwrap()
            .0
    }

    fn pgn_games(n: usize) -> Vec<u8> {
        let mut s = String::new();
        for i in 0..n {
            let result = ["1-0", "0-1", "1/2-1/2", "*"][i % 4];
            s.push_str(&format!(
                "[Event \"e{}\"]\n[Date \"{}.0{}.01\"]\n[Result \"{result}\"]\n\n1. e4 e5 2. Nf3 {result}\n\n",
                i % 7,
                2000 + i % 3,
                1 + i % 2
            ));
        }
        s.into_bytes()
    }

    #[test]
    fn every_thread_count_gives_the_same_rows_capped_or_not() {
        let data = pgn_games(200);
        for by in ["Event", "year", "month", "Result", "Nope"] {
            for max in [1, 3, 100] {
                let g = Grouping {
                    max_groups: max,
                    ..Grouping::new(by.parse().unwrap())
                };
                let one = grouped(&data, "g.pgn", &g, 1);
                for threads in [2, 3, 8] {
                    let many = grouped(&data, "g.pgn", &g, threads);
                    assert_eq!(one.rows, many.rows, "{by} max {max} -j{threads}");
                }
                let games: u64 = one.rows.iter().map(|r| r.counts.games).sum();
                assert_eq!(games, 200, "{by}: no game lost");
            }
        }
    }

    #[test]
    fn counts_results_plies_and_errors() {
        let data = pgn_games(8);
        let g = grouped(&data, "g.pgn", &Grouping::new(By::Year), 1);
        let keys: Vec<_> = g.rows.iter().map(|r| r.key.clone().unwrap()).collect();
        assert_eq!(keys, ["2000", "2001", "2002"]);
        let y2000 = g.rows[0].counts;
        // games 0, 3, 6: results 1-0, *, 1/2-1/2
        assert_eq!(
            (y2000.games, y2000.white, y2000.black, y2000.draws),
            (3, 1, 0, 1)
        );
        assert_eq!(y2000.plies, 9);
        let bad = b"[Event \"x\"]\n\n1. e4 Zz9 e5 1-0\n";
        let g = grouped(bad, "b.pgn", &Grouping::new(By::Field("Event".into())), 1);
        assert!(g.rows[0].counts.errors >= 1);
        assert_eq!(g.rows[0].counts.white, 1);
    }

    #[test]
    fn missing_values_and_the_cap_have_rows_of_their_own() {
        let data = b"[White \"b\"]\n\n1. e4 *\n\n[Black \"x\"]\n\n1. d4 *\n\n[White \"a\"]\n\n*\n\n[White \"c\"]\n\n*\n";
        let g = Grouping {
            max_groups: 2,
            ..Grouping::new(By::Field("White".into()))
        };
        let r = grouped(data, "g.pgn", &g, 1);
        let rows: Vec<_> = r
            .rows
            .iter()
            .map(|r| (r.key.as_deref(), r.other, r.counts.games))
            .collect();
        // the first two values met (b, then none) have rows; a and c come later
        assert_eq!(
            rows,
            [(Some("b"), false, 1), (None, false, 1), (None, true, 2)]
        );
        assert!(r.capped);
        let sorted = Grouping {
            sort: Sort::Games,
            ..Grouping::new(By::Field("White".into()))
        };
        let r = grouped(
            b"[White \"z\"]\n*\n\n[White \"a\"]\n*\n\n[White \"z\"]\n*\n",
            "g.pgn",
            &sorted,
            1,
        );
        assert_eq!(r.rows[0].key.as_deref(), Some("z"));
    }

    #[test]
    fn speeds_and_openings() {
        let data = b"[TimeControl \"180+2\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 1-0\n\n\
                     [TimeControl \"60\"]\n\n1. e4 c5 2. Nc3 d6 3. Nf3 Nf6 4. d4 cxd4 5. Nxd4 a6 0-1\n\n\
                     [TimeControl \"-\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kb1 *\n";
        for threads in [1, 2] {
            let speed = grouped(data, "g.pgn", &Grouping::new(By::Speed), threads);
            let rows: Vec<_> = speed
                .rows
                .iter()
                .map(|r| (r.key.clone().unwrap(), r.counts.games))
                .collect();
            assert_eq!(
                rows,
                [
                    ("bullet".into(), 1),
                    ("blitz".into(), 1),
                    ("correspondence".into(), 1)
                ]
            );
            let eco = grouped(data, "g.pgn", &Grouping::new(By::OpeningEco), threads);
            let rows: Vec<_> = eco
                .rows
                .iter()
                .map(|r| (r.key.clone(), r.counts.games, r.counts.white))
                .collect();
            assert_eq!(
                rows,
                [(Some("B90".into()), 2, 1), (None, 1, 0)],
                "a transposition, a FEN start"
            );
            let name = grouped(
                data,
                "g.pgn",
                &Grouping::new("opening_name".parse().unwrap()),
                threads,
            );
            assert_eq!(
                name.rows[0].key.as_deref(),
                Some("Sicilian Defense: Najdorf Variation")
            );
        }
    }

    #[test]
    fn numbers_order_as_numbers() {
        let data = b"[WhiteElo \"800\"]\n*\n\n[WhiteElo \"1500\"]\n*\n\n[WhiteElo \"?\"]\n*\n";
        let r = grouped(
            data,
            "g.pgn",
            &Grouping::new("WhiteElo".parse().unwrap()),
            2,
        );
        let keys: Vec<_> = r.rows.iter().map(|r| r.key.clone().unwrap()).collect();
        assert_eq!(keys, ["800", "1500", "?"]);
    }

    #[test]
    fn sgf_root_properties_dates_and_results() {
        let data =
            b"(;GM[1]SZ[19]RU[Japanese]DT[2019-03-01,02]RE[B+R];B[pd];W[dd](;B[pp])(;B[dp];W[pp]))\
                     (;GM[1]RU[Chinese]DT[2019-05-01]RE[W+0.5];B[aa])\
                     (;GM[1]RU[Japanese]DT[2020]RE[0])";
        let r = grouped(data, "g.sgf", &Grouping::new("RU".parse().unwrap()), 1);
        let rows: Vec<_> = r
            .rows
            .iter()
            .map(|r| {
                (
                    r.key.clone().unwrap(),
                    r.counts.games,
                    r.counts.plies,
                    r.counts.black,
                    r.counts.white,
                    r.counts.draws,
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                ("Chinese".to_string(), 1, 1, 0, 1, 0),
                ("Japanese".to_string(), 2, 3, 1, 0, 1)
            ]
        );
        let r = grouped(data, "g.sgf", &Grouping::new(By::Month), 2);
        let keys: Vec<_> = r.rows.iter().map(|r| r.key.clone()).collect();
        assert_eq!(keys, [Some("2019-03".into()), Some("2019-05".into()), None]);
    }
}
