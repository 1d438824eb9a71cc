//! `kifu stats --by KEY` and `kifu.stats_by(source, by)`: the games counted per value of a key (a tag
//! or root property, `year`, `month`, `speed`, `opening_eco`), every core, bounded memory.
//!
//! Each piece's visitor reads only what the key and the counts need (a tag or two, the
//! result, the main line's plies, the errors), so a grouped scan runs near the speed of a plain
//! count. The rows are the first [`Grouping::max_groups`] distinct values *in input order*;
//! games whose value comes later go to one `other` row. Every thread count gives the same rows:
//! pieces hold every value they meet (a piece is a bounded slice of its input) and are merged
//! in input order, where the cap applies; read on one thread, each game goes straight to the
//! capped total.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use kifu::par::{Event, Visited, Work};
use kifu::pgn::{self, Outcome};
use kifu::{Control, Format, sgf};
use kifu_replay::chess::openings::{Classifier, Opening};
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::Input;
use crate::keys::{self, BoundedBuilder, Key};

/// What games are grouped by: a key of [`crate::keys`], any but `Player` (a tag or root
/// property, `year`, `month`, `speed`, `tc_base`, `opening_eco`, `plies`, `result`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct By(Key);

impl By {
    /// The key of `name` ([`Key::parse_group`]: a misspelt name is refused with the names it
    /// may have meant).
    ///
    /// ```
    /// use kifu_pipeline::group::By;
    /// use kifu_pipeline::keys::{Derived, Key};
    /// assert_eq!(By::parse("year").unwrap().key(), &Key::Derived(Derived::Year));
    /// assert_eq!(By::parse("WhiteElo").unwrap().key(), &Key::Tag("WhiteElo".into()));
    /// assert!(By::parse("White Elo").is_err());
    /// assert!(By::parse("Whiteelo").unwrap_err().contains("WhiteElo"));
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Key::parse_group`].
    pub fn parse(key: &str) -> Result<By, String> {
        Key::parse_group(key).map(By)
    }

    /// Grouped by `key` (`Player` has two values a game: grouped by it, every game has none).
    pub fn new(key: Key) -> By {
        By(key)
    }

    /// The key.
    pub fn key(&self) -> &Key {
        &self.0
    }

    /// The key as written on the command line.
    pub fn name(&self) -> &str {
        self.0.name()
    }

    /// The value a game (a DOM) has for this key, as `kifu stats --by` counts it (a long one
    /// whole: see [`Bounded`](crate::keys::Bounded) for the form rows and file names keep); `None` where it has none.
    ///
    /// ```
    /// use kifu_pipeline::group::By;
    /// let g = kifu::pgn::games(b"[Date \"2021.??.??\"]\n[UTCDate \"2020.12.31\"]\n[TimeControl \"60+1\"]\n\n1. e4 *\n")
    ///     .next().unwrap();
    /// let by = |k: &str| By::parse(k).unwrap().value(&g);
    /// assert_eq!(by("year").as_deref(), Some("2020")); // UTCDate first
    /// assert_eq!(by("speed").as_deref(), Some("bullet"));
    /// assert_eq!(by("opening_eco").as_deref(), Some("B00"));
    /// assert_eq!(by("White"), None);
    /// ```
    pub fn value(&self, game: &impl keys::Game) -> Option<String> {
        self.0.shown(game)
    }
}

impl std::str::FromStr for By {
    type Err = String;

    fn from_str(key: &str) -> Result<By, String> {
        By::parse(key)
    }
}

/// The counts of one group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupCounts {
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

impl GroupCounts {
    fn add(&mut self, o: &GroupCounts) {
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
    pub counts: GroupCounts,
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
    rows: Vec<(Option<Box<str>>, GroupCounts)>,
    index: HashMap<Box<str>, usize>,
    /// The row of the games without a value.
    none: Option<usize>,
    max: usize,
    other: GroupCounts,
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
            other: GroupCounts::default(),
            dropped: false,
        }
    }

    fn add(&mut self, key: Option<&str>, counts: &GroupCounts) {
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
                // as the key's kind orders them: numbers as numbers, speeds fastest first, …
                (Some(x), Some(y)) => grouping.by.key().order(x, y),
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

impl Work for GroupWork {
    type Input = Input;
    type Pgn = PgnGroups;
    type Sgf = SgfGroups;

    fn pgn(&self, _: &Input) -> PgnGroups {
        PgnGroups {
            acc: Acc::new(self, Format::Pgn),
            openings: self.by.key().needs_opening().then(Classifier::new),
            replaying: false,
            tagged: false,
        }
    }

    fn sgf(&self, _: &Input) -> SgfGroups {
        SgfGroups {
            acc: Acc::new(self, Format::Sgf),
            root: false,
        }
    }
}

/// The tags a derived key reads, gathered as they come (buffers reused from game to game).
#[derive(Debug)]
struct Sources {
    format: Format,
    /// Each source tag's name, its first value, and whether the game has it.
    tags: Vec<(&'static str, String, bool)>,
    /// The lengths of their names, as bits (63: 63 bytes or more).
    lengths: u64,
    plies: u64,
    outcome: Outcome,
    opening: Option<Opening>,
}

impl keys::Game for Sources {
    fn format(&self) -> Format {
        self.format
    }
    fn tag(&self, name: &str) -> Option<Cow<'_, str>> {
        self.tags
            .iter()
            // the names asked are those of `tags` (the same static text): the address first
            .find(|(n, _, found)| *found && (std::ptr::eq(*n, name) || *n == name))
            .map(|(_, v, _)| Cow::Borrowed(v.as_str()))
    }
    fn plies(&self) -> u64 {
        self.plies
    }
    fn outcome(&self) -> Outcome {
        self.outcome
    }
    fn opening(&self) -> Option<Opening> {
        self.opening
    }
}

/// The most bytes of a source tag's value kept (a date, a time control, a result: short).
const MAX_SOURCE_BYTES: usize = 256;

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
    /// The game's value of a tag key, bounded, as its pieces come.
    key: BoundedBuilder,
    has_key: bool,
    /// A derived key's sources (none for a tag key).
    sources: Option<Sources>,
    /// The value as it is counted (reused).
    shown: String,
    counts: GroupCounts,
}

impl Acc {
    fn new(work: &GroupWork, format: Format) -> Acc {
        let key = work.by.key();
        let sources = matches!(key, Key::Derived(_)).then(|| Sources {
            format,
            tags: key
                .source_tags(format)
                .iter()
                .map(|&t| (t, String::new(), false))
                .collect(),
            lengths: key
                .source_tags(format)
                .iter()
                .fold(0, |m, t| m | 1u64 << t.len().min(63)),
            plies: 0,
            outcome: Outcome::Unknown,
            opening: None,
        });
        Acc {
            by: work.by.clone(),
            groups: Groups::new(usize::MAX),
            in_game: false,
            seen: 0,
            stray: 0,
            key: BoundedBuilder::default(),
            has_key: false,
            sources,
            shown: String::new(),
            counts: GroupCounts::default(),
        }
    }

    fn start(&mut self) {
        self.in_game = true;
        self.seen += 1;
        self.key.clear();
        self.has_key = false;
        if let Some(s) = &mut self.sources {
            for t in &mut s.tags {
                t.2 = false;
            }
        }
        self.counts = GroupCounts {
            games: 1,
            ..GroupCounts::default()
        };
    }

    /// Where the key wants the tag or root property `name`: `Some(None)` its own value,
    /// `Some(Some(i))` a derived key's source `i`; `None` where it does not read it.
    #[inline]
    fn wants(&self, name: &[u8]) -> Option<Option<usize>> {
        match &self.sources {
            None => {
                matches!(self.by.key(), Key::Tag(key) if key.as_bytes() == name).then_some(None)
            }
            // most tags are told apart by their length alone
            Some(s) if s.lengths & (1u64 << name.len().min(63)) == 0 => None,
            Some(s) => s.tags.iter().position(|t| t.0.as_bytes() == name).map(Some),
        }
    }

    /// A piece of a tag or root property [`wants`](Self::wants) took (`first`: its first).
    fn tag(&mut self, at: Option<usize>, value: &[u8], first: bool) {
        match (at, &mut self.sources) {
            (None, _) => {
                if first {
                    if self.has_key {
                        return; // the first tag of that name counts
                    }
                    self.key.clear();
                    self.has_key = true;
                }
                self.key.push_bytes(value);
            }
            (Some(i), Some(s)) => {
                let t = &mut s.tags[i];
                if first {
                    if t.2 {
                        return;
                    }
                    t.1.clear();
                    t.2 = true;
                }
                if t.1.len() < MAX_SOURCE_BYTES {
                    push_text(&mut t.1, value);
                }
            }
            (Some(_), None) => {}
        }
    }

    /// The game ended: its value (a derived key's, from its sources) and counts to its row.
    fn end(&mut self, opening: Option<Opening>) {
        if !self.in_game {
            return;
        }
        self.in_game = false;
        self.shown.clear();
        let has = match &mut self.sources {
            None => {
                if let (true, Some(whole)) = (self.has_key, self.key.whole()) {
                    // a short value (most): counted as it is, not copied
                    self.groups.add(Some(whole), &self.counts);
                    return;
                }
                if self.has_key {
                    self.key.write_shown(&mut self.shown);
                }
                self.has_key
            }
            Some(s) => {
                s.plies = self.counts.plies;
                s.outcome = match (self.counts.white, self.counts.black, self.counts.draws) {
                    (1, _, _) => Outcome::WhiteWins,
                    (_, 1, _) => Outcome::BlackWins,
                    (_, _, 1) => Outcome::Draw,
                    _ => Outcome::Unknown,
                };
                s.opening = opening;
                match self.by.key().value(&*s) {
                    Some(v) => {
                        v.write_text(&mut self.shown);
                        true
                    }
                    None => false,
                }
            }
        };
        let key = has.then_some(self.shown.as_str());
        self.groups.add(key, &self.counts);
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

/// A PGN piece's visitor of a grouped scan.
#[derive(Debug)]
pub struct PgnGroups {
    acc: Acc,
    /// `opening_eco`, `opening_name`, `opening_ply`: the game's moves replayed as far as a
    /// name can change.
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
        if tag.name == b"Result" {
            // a Result tag that reads wins over the termination marker
            if let Some(outcome) = Outcome::parse(tag.value.as_bytes().trim_ascii()) {
                self.tagged = true;
                set_outcome(&mut self.acc.counts, outcome);
            }
        }
        if let Some(at) = self.acc.wants(tag.name) {
            self.acc.tag(at, &tag.value.decode(), true);
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
            let opening = self.openings.as_ref().and_then(Classifier::opening);
            self.acc.end(opening);
        }
        Control::Continue
    }
}

fn set_outcome(c: &mut GroupCounts, outcome: Outcome) {
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
            let outcome = keys::sgf_outcome(value.raw.as_bytes());
            set_outcome(&mut self.acc.counts, outcome);
        }
        if let Some(at) = self.acc.wants(value.name) {
            let text = value.raw.decoded(value.name);
            self.acc.tag(at, &text, value.first);
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
            self.acc.end(None);
        }
        Control::Continue
    }
}

impl crate::GameCount for PgnGroups {
    fn games(&self) -> u64 {
        self.acc.seen
    }
    fn unclaimed(&self) -> u64 {
        self.acc.stray
    }
}

impl crate::GameCount for SgfGroups {
    fn games(&self) -> u64 {
        self.acc.seen
    }
    fn unclaimed(&self) -> u64 {
        self.acc.stray
    }
}

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
    /// let (grouped, _) = scan.group(&Grouping::new(By::parse("year").unwrap()), |_| {}).unwrap();
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
        let g = grouped(
            &data,
            "g.pgn",
            &Grouping::new(By::parse("year").unwrap()),
            1,
        );
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
        let g = grouped(bad, "b.pgn", &Grouping::new(By::parse("Event").unwrap()), 1);
        assert!(g.rows[0].counts.errors >= 1);
        assert_eq!(g.rows[0].counts.white, 1);
    }

    #[test]
    fn missing_values_and_the_cap_have_rows_of_their_own() {
        let data = b"[White \"b\"]\n\n1. e4 *\n\n[Black \"x\"]\n\n1. d4 *\n\n[White \"a\"]\n\n*\n\n[White \"c\"]\n\n*\n";
        let g = Grouping {
            max_groups: 2,
            ..Grouping::new(By::parse("White").unwrap())
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
            ..Grouping::new(By::parse("White").unwrap())
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
            let speed = grouped(
                data,
                "g.pgn",
                &Grouping::new(By::parse("speed").unwrap()),
                threads,
            );
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
            let eco = grouped(
                data,
                "g.pgn",
                &Grouping::new(By::parse("opening_eco").unwrap()),
                threads,
            );
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
        let r = grouped(
            data,
            "g.sgf",
            &Grouping::new(By::parse("month").unwrap()),
            2,
        );
        let keys: Vec<_> = r.rows.iter().map(|r| r.key.clone()).collect();
        assert_eq!(keys, [Some("2019-03".into()), Some("2019-05".into()), None]);
    }

    #[test]
    fn long_values_are_never_merged() {
        // three players whose names differ only after 4,096 bytes, each value in several pieces
        let base = "x".repeat(5000);
        let mut data = String::new();
        for (i, end) in ["a", "b", "c", "a"].iter().enumerate() {
            data.push_str(&format!(
                "(;GM[1]PB[{base}{end}]RE[{}])",
                ["B+R", "W+R"][i % 2]
            ));
        }
        for threads in [1, 2] {
            let r = grouped(
                data.as_bytes(),
                "g.sgf",
                &Grouping::new(By::parse("PB").unwrap()),
                threads,
            );
            let games: Vec<u64> = r.rows.iter().map(|r| r.counts.games).collect();
            assert_eq!(games.iter().sum::<u64>(), 4);
            assert_eq!(r.rows.len(), 3, "-j{threads}");
            for row in &r.rows {
                let k = row.key.as_deref().unwrap();
                assert!(
                    k.starts_with("xxx") && k.contains("5001 bytes") && k.len() < 200,
                    "{k}"
                );
            }
        }
    }

    #[test]
    fn every_derived_key_groups() {
        let data = b"[TimeControl \"180+2\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
                     [TimeControl \"60\"]\n\n1. d4 0-1\n\n[TimeControl \"180+0\"]\n[Result \"1/2-1/2\"]\n\n*\n";
        let rows = |key: &str| -> Vec<(Option<String>, u64)> {
            grouped(data, "g.pgn", &Grouping::new(By::parse(key).unwrap()), 2)
                .rows
                .iter()
                .map(|r| (r.key.clone(), r.counts.games))
                .collect()
        };
        assert_eq!(
            rows("tc_base"),
            [(Some("60".into()), 1), (Some("180".into()), 2)]
        );
        assert_eq!(
            rows("tc_increment"),
            [(Some("0".into()), 2), (Some("2".into()), 1)]
        );
        assert_eq!(
            rows("plies"),
            [
                (Some("0".into()), 1),
                (Some("1".into()), 1),
                (Some("2".into()), 1)
            ]
        );
        assert_eq!(
            rows("result"),
            [
                (Some("1-0".into()), 1),
                (Some("0-1".into()), 1),
                (Some("1/2-1/2".into()), 1)
            ]
        );
        assert_eq!(
            rows("winner"),
            [
                (Some("white".into()), 1),
                (Some("black".into()), 1),
                (None, 1)
            ]
        );
        assert!(By::parse("Player").is_err());
    }
}
