//! The PGN `games` table: one row per game.

use std::fmt::Write as _;
use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_array::StructArray;
use arrow_array::builder::ArrayBuilder;
use arrow_array::builder::{
    Date32Builder, Float64Builder, Int16Builder, Int32Builder, Int64Builder, StringBuilder,
    Time64MicrosecondBuilder,
};
use arrow_buffer::NullBufferBuilder;
use arrow_schema::{DataType, Field, Fields, TimeUnit};
use kifu::pgn::{self, Command, Score};

use crate::cols::{ErrorRow, Errors, Lists, StrMap, clamp_i64, key_fields, list_of};
use crate::{TableOptions, values};

/// The type a tag column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagType {
    /// `Utf8`: the value as written.
    Text,
    /// `Int16` (ratings, rating changes; as the lichess dataset).
    Int16,
    /// `Int32`.
    Int32,
    /// `Int64` (FIDE ids).
    Int64,
    /// `Date32`, from a complete `YYYY.MM.DD`.
    Date,
    /// `Time64(Microsecond)`, from `HH:MM:SS` (Parquet's `TIME(MICROS)`: it has no time type in
    /// seconds, and Spark reads `TIME(MICROS)` but not `TIME(MILLIS)`).
    Time,
}

impl TagType {
    fn data_type(self) -> DataType {
        match self {
            TagType::Text => DataType::Utf8,
            TagType::Int16 => DataType::Int16,
            TagType::Int32 => DataType::Int32,
            TagType::Int64 => DataType::Int64,
            TagType::Date => DataType::Date32,
            TagType::Time => DataType::Time64(TimeUnit::Microsecond),
        }
    }
}

/// The tags that have a column of their own in the PGN `games` table, in column order, each
/// named exactly as the tag: the Seven Tag Roster, the columns of the lichess Parquet dataset
/// (`Lichess/standard-chess-games`, same names and types), then the tags common in TWIC and
/// other archives. Every other tag goes to the `tags` map.
pub const PGN_TAG_COLUMNS: [(&str, TagType); 30] = [
    ("Event", TagType::Text),
    ("Site", TagType::Text),
    ("Date", TagType::Date),
    ("Round", TagType::Text),
    ("White", TagType::Text),
    ("Black", TagType::Text),
    ("Result", TagType::Text),
    ("WhiteTitle", TagType::Text),
    ("BlackTitle", TagType::Text),
    ("WhiteElo", TagType::Int16),
    ("BlackElo", TagType::Int16),
    ("WhiteRatingDiff", TagType::Int16),
    ("BlackRatingDiff", TagType::Int16),
    ("UTCDate", TagType::Date),
    ("UTCTime", TagType::Time),
    ("ECO", TagType::Text),
    ("Opening", TagType::Text),
    ("Termination", TagType::Text),
    ("TimeControl", TagType::Text),
    ("Variant", TagType::Text),
    ("Variation", TagType::Text),
    ("FEN", TagType::Text),
    ("SetUp", TagType::Text),
    ("EventDate", TagType::Date),
    ("WhiteFideId", TagType::Int64),
    ("BlackFideId", TagType::Int64),
    ("PlyCount", TagType::Int32),
    ("Annotator", TagType::Text),
    ("WhiteTeam", TagType::Text),
    ("BlackTeam", TagType::Text),
];

const NTAGS: usize = PGN_TAG_COLUMNS.len();

/// The index of `TimeControl` in [`PGN_TAG_COLUMNS`] (kept so by a test).
const TIME_CONTROL: usize = 18;

/// The indexes in [`PGN_TAG_COLUMNS`] of [`values::PGN_DATE_TAGS`], in its order (kept so by
/// a test): `UTCDate`, `Date`, `EventDate`.
const DATE_TAGS: [usize; 3] = [13, 2, 23];

/// The `winner` of an outcome, in the words of the SGF `trees` table and the game keys.
fn winner(outcome: pgn::Outcome) -> Option<&'static str> {
    match outcome {
        pgn::Outcome::WhiteWins => Some("white"),
        pgn::Outcome::BlackWins => Some("black"),
        _ => None,
    }
}

/// The columns of the PGN `games` table read from the `TimeControl` tag
/// ([`kifu::pgn::TimeControl`]), right after the tag columns: `tc_base` and `tc_increment`
/// (`Int32`, seconds: the `S` and `I` of an `S` or `S+I` control, when whole seconds; null for
/// `?`, `-`, `M/S`, `*S` and several periods, which the tag alone describes) and `speed`
/// (`Utf8`: lichess's category, [`kifu::pgn::Speed`]; null where it has none).
pub const PGN_TIME_CONTROL_COLUMNS: [&str; 3] = ["tc_base", "tc_increment", "speed"];

/// Whether a column of the PGN `games` table is made from the game's tags alone: the key
/// columns, the tag columns, `tags` and [`PGN_TIME_CONTROL_COLUMNS`]. A table of such columns
/// only needs no movetext read (the parser can skip it).
///
/// ```
/// use kifu_export::pgn_games_column_from_tags as from_tags;
/// assert!(from_tags("WhiteElo") && from_tags("speed") && from_tags("file") && from_tags("year"));
/// assert!(!from_tags("moves") && !from_tags("plies") && !from_tags("outcome") && !from_tags("winner"));
/// ```
pub fn pgn_games_column_from_tags(name: &str) -> bool {
    matches!(
        name,
        "file" | "game_index" | "byte_offset" | "tags" | "year" | "month"
    ) || tag_column(name).is_some()
        || PGN_TIME_CONTROL_COLUMNS.contains(&name)
}

/// A duration as whole seconds (`None` with a fraction of a second, or past `i32`).
fn whole_seconds(d: core::time::Duration) -> Option<i32> {
    if d.subsec_nanos() != 0 {
        return None;
    }
    i32::try_from(d.as_secs()).ok()
}

/// The column of a tag: a `match` (compiled to a switch on the length, then a comparison),
/// kept equal to [`PGN_TAG_COLUMNS`] by a test.
fn tag_column(name: &str) -> Option<usize> {
    Some(match name {
        "Event" => 0,
        "Site" => 1,
        "Date" => 2,
        "Round" => 3,
        "White" => 4,
        "Black" => 5,
        "Result" => 6,
        "WhiteTitle" => 7,
        "BlackTitle" => 8,
        "WhiteElo" => 9,
        "BlackElo" => 10,
        "WhiteRatingDiff" => 11,
        "BlackRatingDiff" => 12,
        "UTCDate" => 13,
        "UTCTime" => 14,
        "ECO" => 15,
        "Opening" => 16,
        "Termination" => 17,
        "TimeControl" => 18,
        "Variant" => 19,
        "Variation" => 20,
        "FEN" => 21,
        "SetUp" => 22,
        "EventDate" => 23,
        "WhiteFideId" => 24,
        "BlackFideId" => 25,
        "PlyCount" => 26,
        "Annotator" => 27,
        "WhiteTeam" => 28,
        "BlackTeam" => 29,
        _ => return None,
    })
}

fn eval_fields() -> Fields {
    Fields::from(vec![
        Field::new("cp", DataType::Int32, true),
        Field::new("mate", DataType::Int32, true),
    ])
}

fn clocks_type() -> DataType {
    list_of(DataType::Float64, true)
}

fn evals_type() -> DataType {
    list_of(DataType::Struct(eval_fields()), true)
}

fn moves_type() -> DataType {
    list_of(DataType::Utf8, false)
}

/// The columns of the PGN `games` table naming the game's opening from its moves
/// ([`kifu_replay::chess::openings`], lichess's names and rule), after `outcome`: `opening_eco` and `opening_name` (`Utf8`) and `opening_ply` (`Int32`, the ply of
/// the naming position); null when no position of the main line has a name, the game starts
/// from a set-up position or is not standard chess.
pub const PGN_OPENING_COLUMNS: [&str; 3] = ["opening_eco", "opening_name", "opening_ply"];

fn opening_fields() -> [Field; 3] {
    [
        Field::new("opening_eco", DataType::Utf8, true),
        Field::new("opening_name", DataType::Utf8, true),
        Field::new("opening_ply", DataType::Int32, true),
    ]
}

pub(crate) fn fields() -> Vec<Field> {
    let mut f: Vec<Field> = key_fields().into();
    f.extend(
        PGN_TAG_COLUMNS
            .iter()
            .map(|(name, ty)| Field::new(*name, ty.data_type(), true)),
    );
    f.push(Field::new("tc_base", DataType::Int32, true));
    f.push(Field::new("tc_increment", DataType::Int32, true));
    f.push(Field::new("speed", DataType::Utf8, true));
    f.push(Field::new("year", DataType::Int32, true));
    f.push(Field::new("month", DataType::Utf8, true));
    f.push(Field::new("tags", StrMap::data_type(), false));
    f.push(Field::new("movetext", DataType::Utf8, false));
    f.push(Field::new("moves", moves_type(), false));
    f.push(Field::new("clocks", clocks_type(), true));
    f.push(Field::new("evals", evals_type(), true));
    f.push(Field::new("plies", DataType::Int32, false));
    f.push(Field::new("outcome", DataType::Utf8, false));
    f.push(Field::new("winner", DataType::Utf8, true));
    f.extend(opening_fields());
    f.extend(Errors::fields(false));
    f
}

/// The builder of one typed tag column.
#[derive(Debug)]
enum TagCol {
    Text(StringBuilder),
    I16(Int16Builder),
    I32(Int32Builder),
    I64(Int64Builder),
    Date(Date32Builder),
    Time(Time64MicrosecondBuilder),
}

impl TagCol {
    fn new(ty: TagType) -> TagCol {
        match ty {
            TagType::Text => TagCol::Text(StringBuilder::with_capacity(0, 0)),
            TagType::Int16 => TagCol::I16(Int16Builder::with_capacity(0)),
            TagType::Int32 => TagCol::I32(Int32Builder::with_capacity(0)),
            TagType::Int64 => TagCol::I64(Int64Builder::with_capacity(0)),
            TagType::Date => TagCol::Date(Date32Builder::with_capacity(0)),
            TagType::Time => TagCol::Time(Time64MicrosecondBuilder::with_capacity(0)),
        }
    }

    /// Appends the value read from `raw` (or null); `false` when `raw` does not read.
    fn append(&mut self, raw: Option<&str>) -> bool {
        let Some(raw) = raw else {
            match self {
                TagCol::Text(b) => b.append_null(),
                TagCol::I16(b) => b.append_null(),
                TagCol::I32(b) => b.append_null(),
                TagCol::I64(b) => b.append_null(),
                TagCol::Date(b) => b.append_null(),
                TagCol::Time(b) => b.append_null(),
            }
            return true;
        };
        match self {
            TagCol::Text(b) => {
                b.append_value(raw);
                true
            }
            TagCol::I16(b) => put(b, values::int(raw)),
            TagCol::I32(b) => put(b, values::int(raw)),
            TagCol::I64(b) => put(b, values::int(raw)),
            TagCol::Date(b) => put(b, values::date(raw)),
            TagCol::Time(b) => put(b, values::time(raw).map(|s| i64::from(s) * 1_000_000)),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            TagCol::Text(b) => Arc::new(b.finish()),
            TagCol::I16(b) => Arc::new(b.finish()),
            TagCol::I32(b) => Arc::new(b.finish()),
            TagCol::I64(b) => Arc::new(b.finish()),
            TagCol::Date(b) => Arc::new(b.finish()),
            TagCol::Time(b) => Arc::new(b.finish()),
        }
    }
}

fn put<T: arrow_array::ArrowPrimitiveType>(
    b: &mut arrow_array::builder::PrimitiveBuilder<T>,
    v: Option<T::Native>,
) -> bool {
    b.append_option(v);
    v.is_some()
}

/// The library writer of `opts.movetext_width`'s layout.
fn writer(opts: &TableOptions) -> pgn::Writer {
    match opts.movetext_width {
        // comments exactly as written: one line for lichess-style games (the lichess
        // dataset's own form, `1. e4 { [%clk 0:03:00] } 1... e5`), nothing changed
        None => pgn::Writer::new().compact(true).wrap_comments(false),
        Some(w) => pgn::Writer::new().line_width(w),
    }
}

/// Clock, elapsed time and evaluation of a move's comment commands (the first of each).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MoveData {
    pub(crate) clock: Option<f64>,
    pub(crate) emt: Option<f64>,
    pub(crate) eval: Option<pgn::Eval>,
}

impl MoveData {
    /// The data of the comments after a move.
    pub(crate) fn of(node: &pgn::Node) -> MoveData {
        let mut d = MoveData::default();
        for text in &node.comments {
            for c in pgn::Commands::new(text) {
                match c {
                    Command::Clock(t) if d.clock.is_none() => d.clock = Some(t.as_secs_f64()),
                    Command::Elapsed(t) if d.emt.is_none() => d.emt = Some(t.as_secs_f64()),
                    Command::Eval(e) if d.eval.is_none() => d.eval = Some(e),
                    _ => {}
                }
            }
        }
        d
    }

    /// `(centipawns, mate)`.
    pub(crate) fn score(&self) -> (Option<i32>, Option<i32>) {
        match self.eval.map(|e| e.score) {
            Some(Score::Centipawns(cp)) => (Some(cp), None),
            Some(Score::Mate(m)) => (None, Some(m)),
            None => (None, None),
        }
    }
}

/// The columns of the `games` table being built, filled part by part for each row (by
/// [`GamesBuilder`]), in this order: [`key`](Self::key), [`tags`](Self::tags),
/// [`movetext`](Self::movetext), [`moves`](Self::moves),
/// [`plies_outcome`](Self::plies_outcome), then the errors on [`errors`](Self::errors).
#[derive(Debug)]
pub(crate) struct GameColumns {
    file: StringBuilder,
    index: Int64Builder,
    offset: Int64Builder,
    tags: Vec<TagCol>,
    tc_base: Int32Builder,
    tc_increment: Int32Builder,
    speed: StringBuilder,
    year: Int32Builder,
    month: StringBuilder,
    opening_eco: StringBuilder,
    opening_name: StringBuilder,
    opening_ply: Int32Builder,
    other: StrMap,
    movetext: StringBuilder,
    moves: Lists,
    moves_san: StringBuilder,
    clocks: Lists,
    clock_values: Float64Builder,
    evals: Lists,
    eval_cp: Int32Builder,
    eval_mate: Int32Builder,
    eval_nulls: NullBufferBuilder,
    plies: Int32Builder,
    outcome: StringBuilder,
    winner: StringBuilder,
    pub(crate) errors: Errors,
    rows: usize,
    bytes: usize,
    /// Per row: the tags going to the map (their indexes in the row's tags).
    other_tags: Vec<usize>,
}

impl GameColumns {
    pub(crate) fn new() -> GameColumns {
        GameColumns {
            file: StringBuilder::with_capacity(0, 0),
            index: Int64Builder::with_capacity(0),
            offset: Int64Builder::with_capacity(0),
            tags: PGN_TAG_COLUMNS
                .iter()
                .map(|&(_, t)| TagCol::new(t))
                .collect(),
            tc_base: Int32Builder::with_capacity(0),
            tc_increment: Int32Builder::with_capacity(0),
            speed: StringBuilder::with_capacity(0, 0),
            year: Int32Builder::with_capacity(0),
            month: StringBuilder::with_capacity(0, 0),
            opening_eco: StringBuilder::with_capacity(0, 0),
            opening_name: StringBuilder::with_capacity(0, 0),
            opening_ply: Int32Builder::with_capacity(0),
            other: StrMap::new(),
            movetext: StringBuilder::with_capacity(0, 0),
            moves: Lists::new(),
            moves_san: StringBuilder::with_capacity(0, 0),
            clocks: Lists::new(),
            clock_values: Float64Builder::with_capacity(0),
            evals: Lists::new(),
            eval_cp: Int32Builder::with_capacity(0),
            eval_mate: Int32Builder::with_capacity(0),
            eval_nulls: NullBufferBuilder::new(0),
            plies: Int32Builder::with_capacity(0),
            outcome: StringBuilder::with_capacity(0, 0),
            winner: StringBuilder::with_capacity(0, 0),
            errors: Errors::new(false),
            rows: 0,
            bytes: 0,
            other_tags: Vec::new(),
        }
    }

    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    pub(crate) fn estimated_bytes(&self) -> usize {
        self.bytes
    }

    /// Starts a row: `file`, `index`, `offset`.
    pub(crate) fn key(&mut self, file: &str, index: u64, offset: u64) {
        self.rows += 1;
        self.file.append_value(file);
        self.index.append_value(clamp_i64(index));
        self.offset.append_value(clamp_i64(offset));
    }

    /// The row's `n` tags, `tag(k)` the k-th `(name, value)` in input order: the first of
    /// each typed one to its column, the rest to the map; the columns read from `TimeControl`.
    pub(crate) fn tags<'t>(&mut self, n: usize, tag: impl Fn(usize) -> (&'t str, &'t str)) {
        let mut first: [Option<usize>; NTAGS] = [None; NTAGS];
        self.other_tags.clear();
        for k in 0..n {
            let (name, value) = tag(k);
            self.bytes += name.len() + value.len();
            match tag_column(name) {
                Some(i) if first[i].is_none() => first[i] = Some(k),
                _ => self.other_tags.push(k),
            }
        }
        for (i, col) in self.tags.iter_mut().enumerate() {
            let value = first[i].map(|k| tag(k).1);
            if !col.append(value) {
                // a value that does not read as the column's type keeps its text in the map
                // (under the column's name: the tag's own)
                self.other_tags
                    .push(first[i].expect("a value that did not read"));
            }
        }
        let other = &self.other_tags;
        self.other.push_row_by(other.len(), |j| tag(other[j]));
        let tc = first[TIME_CONTROL].and_then(|k| pgn::TimeControl::parse(tag(k).1.as_bytes()));
        let tc = tc.as_ref();
        self.tc_base
            .append_option(tc.and_then(|t| t.base()).and_then(whole_seconds));
        self.tc_increment
            .append_option(tc.and_then(|t| t.increment()).and_then(whole_seconds));
        self.speed
            .append_option(tc.and_then(|t| t.speed()).map(pgn::Speed::as_str));
        // the game keys' `year` and `month` (kifu-pipeline's `keys`): the first date tag of
        // `PGN_DATE_TAGS` giving the parts, as written (`2015.??.??` gives a year)
        let dates = DATE_TAGS.map(|c| first[c].map(|k| tag(k).1));
        let year = values::Date::of_game(dates, false).and_then(|d| d.year);
        self.year
            .append_option(year.and_then(|y| i32::try_from(y).ok()));
        let month = values::Date::of_game(dates, true);
        self.month.append_option(month.and_then(|d| d.month_text()));
    }

    /// The row's opening (`None`: not named, or not asked for).
    pub(crate) fn opening(&mut self, opening: Option<kifu_replay::chess::openings::Opening>) {
        self.opening_eco.append_option(opening.map(|o| o.eco));
        self.opening_name.append_option(opening.map(|o| o.name));
        self.opening_ply
            .append_option(opening.map(|o| i32::try_from(o.ply).unwrap_or(i32::MAX)));
    }

    /// The row's movetext.
    pub(crate) fn movetext(&mut self, text: &str) {
        self.bytes += text.len() + 64;
        self.movetext.append_value(text);
    }

    /// The row's main line: its moves as written, and their data (`data` empty when no move
    /// has a comment, else one per move).
    pub(crate) fn moves<'m>(&mut self, san: impl Iterator<Item = &'m str>, data: &[MoveData]) {
        let mut n = 0;
        for s in san {
            self.moves_san.append_value(s);
            n += 1;
        }
        self.moves.close(self.moves_san.len());
        self.bytes += n * 8;
        if data.iter().any(|d| d.clock.is_some()) {
            for d in data {
                self.clock_values.append_option(d.clock);
            }
            self.clocks.close(self.clock_values.len());
            self.bytes += data.len() * 8;
        } else {
            self.clocks.null();
        }
        if data.iter().any(|d| d.eval.is_some()) {
            for d in data {
                let (cp, mate) = d.score();
                self.eval_cp.append_option(cp);
                self.eval_mate.append_option(mate);
                self.eval_nulls.append(d.eval.is_some());
            }
            self.evals.close(self.eval_cp.len());
            self.bytes += data.len() * 8;
        } else {
            self.evals.null();
        }
    }

    /// The row's `plies`, `outcome` and `winner`.
    pub(crate) fn plies_outcome(&mut self, plies: usize, outcome: pgn::Outcome) {
        self.plies
            .append_value(i32::try_from(plies).unwrap_or(i32::MAX));
        self.outcome.append_value(outcome.as_str());
        self.winner.append_option(winner(outcome));
    }

    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        let mut out: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.index.finish()),
            Arc::new(self.offset.finish()),
        ];
        out.extend(self.tags.iter_mut().map(TagCol::finish));
        out.push(Arc::new(self.tc_base.finish()));
        out.push(Arc::new(self.tc_increment.finish()));
        out.push(Arc::new(self.speed.finish()));
        out.push(Arc::new(self.year.finish()));
        out.push(Arc::new(self.month.finish()));
        out.push(self.other.finish());
        out.push(Arc::new(self.movetext.finish()));
        let san = Arc::new(self.moves_san.finish());
        out.push(self.moves.finish_list(&moves_type(), san));
        let clocks = Arc::new(self.clock_values.finish());
        out.push(self.clocks.finish_list(&clocks_type(), clocks));
        let evals = StructArray::new(
            eval_fields(),
            vec![
                Arc::new(self.eval_cp.finish()),
                Arc::new(self.eval_mate.finish()),
            ],
            self.eval_nulls.finish(),
        );
        out.push(self.evals.finish_list(&evals_type(), Arc::new(evals)));
        out.push(Arc::new(self.plies.finish()));
        out.push(Arc::new(self.outcome.finish()));
        out.push(Arc::new(self.winner.finish()));
        out.push(Arc::new(self.opening_eco.finish()));
        out.push(Arc::new(self.opening_name.finish()));
        out.push(Arc::new(self.opening_ply.finish()));
        out.extend(self.errors.finish());
        self.rows = 0;
        self.bytes = 0;
        out
    }
}

/// The `games` table from DOMs ([`pgn::Game`]).
#[derive(Debug)]
pub(crate) struct GamesBuilder {
    writer: pgn::Writer,
    columns: GameColumns,
    /// Buffers reused from row to row: the movetext, the move data of the main line, an
    /// error's message and move.
    movetext: String,
    data: Vec<MoveData>,
    message: String,
    at: String,
    /// Whether the `movetext` column is wanted (else it holds empty strings, left out by the
    /// projection).
    pub(crate) want_movetext: bool,
    /// Whether `moves`, `clocks` or `evals` is wanted (else they hold empty lists).
    pub(crate) want_moves: bool,
    /// Whether an opening column is wanted (else the game is not replayed for it).
    pub(crate) want_opening: bool,
}

impl GamesBuilder {
    pub(crate) fn new(opts: &TableOptions) -> GamesBuilder {
        GamesBuilder {
            writer: writer(opts),
            columns: GameColumns::new(),
            movetext: String::new(),
            data: Vec::new(),
            message: String::new(),
            at: String::new(),
            want_movetext: true,
            want_moves: true,
            want_opening: true,
        }
    }

    pub(crate) fn rows(&self) -> usize {
        self.columns.rows()
    }

    pub(crate) fn estimated_bytes(&self) -> usize {
        self.columns.estimated_bytes()
    }

    pub(crate) fn push(&mut self, file: &str, game: &pgn::Game) {
        let c = &mut self.columns;
        c.key(file, game.index, game.offset);
        c.tags(game.tags.len(), |k| {
            let (name, value) = &game.tags[k];
            (name.as_str(), value.as_str())
        });
        c.opening(if self.want_opening {
            kifu_replay::chess::openings::classify(game)
        } else {
            None
        });
        self.movetext.clear();
        if self.want_movetext {
            self.writer.write_movetext(game, &mut self.movetext);
        }
        c.movetext(&self.movetext);
        self.data.clear();
        if self.want_moves {
            // clocks and evals live in comments: a game without comments has neither
            if game.moves.iter().any(|n| !n.comments.is_empty()) {
                self.data.extend(game.moves.iter().map(MoveData::of));
            }
            c.moves(game.moves.iter().map(|n| n.text.as_str()), &self.data);
        } else {
            c.moves(std::iter::empty(), &self.data);
        }
        c.plies_outcome(game.moves.len(), game.outcome());
        for e in &game.errors {
            self.message.clear();
            let _ = write!(self.message, "{}", e.kind);
            self.at.clear();
            if let Some(at) = e.at {
                let _ = write!(self.at, "{at}");
            }
            c.errors.push(ErrorRow {
                kind: e.kind.code(),
                code: None,
                severity: e.severity.as_str(),
                message: &self.message,
                text: &e.text,
                pos: e.pos,
                at_move: e.at.map(|_| self.at.as_str()),
                at_node: None,
            });
        }
        c.errors
            .end_row(game.errors.len() as u64 + game.errors_dropped);
    }

    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        self.columns.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_column_is_the_table() {
        for (i, (name, _)) in PGN_TAG_COLUMNS.iter().enumerate() {
            assert_eq!(tag_column(name), Some(i), "{name}");
        }
        assert_eq!(tag_column("Eco"), None);
        assert_eq!(tag_column("white"), None);
        assert_eq!(PGN_TAG_COLUMNS[TIME_CONTROL].0, "TimeControl");
        for (i, name) in DATE_TAGS.iter().zip(values::PGN_DATE_TAGS) {
            assert_eq!(PGN_TAG_COLUMNS[*i].0, name);
        }
    }

    #[test]
    fn from_tags_is_the_schema_up_to_tags() {
        let names: Vec<String> = fields().iter().map(|f| f.name().clone()).collect();
        let tags_at = names.iter().position(|n| n == "tags").unwrap();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(pgn_games_column_from_tags(n), i <= tags_at, "{n}");
        }
    }

    #[test]
    fn whole_seconds_only() {
        use core::time::Duration;
        assert_eq!(whole_seconds(Duration::from_secs(180)), Some(180));
        assert_eq!(whole_seconds(Duration::from_millis(1200)), None);
        assert_eq!(whole_seconds(Duration::from_secs(1 << 40)), None);
    }
}
