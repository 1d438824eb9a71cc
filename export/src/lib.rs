//! # kifu-export: game records as tables
//!
//! Arrow [`RecordBatch`]es built from the `kifu` DOMs ([`kifu::pgn::Game`],
//! [`kifu::sgf::GameTree`]), and the files they go to: Parquet (zstd), CSV and JSON Lines, one
//! file or a directory dataset that DuckDB, Polars, pyarrow and Spark read as one table.
//!
//! - [`Table`]: which table (PGN `games` / `moves` / `positions`, SGF `trees` / `moves` /
//!   `positions`, or the `kifu json` objects); [`schema`] gives its Arrow schema, documented
//!   column by column in `docs/export.md`.
//! - [`Builder`]: push games, [`finish`](Builder::finish) a batch. Builders are `Send`: build
//!   on worker threads, one builder per piece of input.
//! - [`JsonObject`]: the object `kifu json` writes for a game, for the command's lines and the
//!   `json` tables alike.
//! - [`rebase`]: shift the game numbers (and offsets, lines) of a batch built from a piece of a
//!   larger input, where only the writer knows how many games came before.
//! - [`create`]: a [`Sink`] writing batches to a file or a dataset directory, safely (temporary
//!   names renamed into place when complete; never an input, never an existing output unless
//!   forced).
//!
//! Nothing is dropped: a game with problems is a row like any other, its problems in its
//! `errors` column; a tag or property value that does not read as its column's type keeps its
//! raw text in the `tags` / `props` map.
//!
//! # Example
//!
//! ```
//! use kifu::pgn::Games;
//! use kifu_export::{Builder, OutFormat, SinkOptions, Table, TableOptions};
//!
//! let pgn = b"[White \"Tal\"]\n[WhiteElo \"2700\"]\n\n1. e4 {[%clk 0:03:00]} e5 1-0\n";
//! let mut builder = Builder::new(Table::PgnGames, &TableOptions::default());
//! for game in Games::new(pgn) {
//!     builder.push_pgn("tal.pgn", &game).unwrap();
//! }
//! let batch = builder.finish();
//! assert_eq!(batch.num_rows(), 1);
//!
//! let dir = std::env::temp_dir().join(format!("kifu-export-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let out = dir.join("games.parquet");
//! let mut sink = kifu_export::create(&out, OutFormat::Parquet, batch.schema(), &SinkOptions {
//!     force: true,
//!     ..SinkOptions::default()
//! }).unwrap();
//! sink.write(&batch).unwrap();
//! let summary = sink.finish().unwrap();
//! assert_eq!((summary.rows, summary.files.len()), (1, 1));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```
#![deny(missing_docs)]

use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{Field, Schema, SchemaRef};
use kifu::{pgn, sgf};

pub mod arrays;
mod buffers;
mod charset;
mod cols;
mod json_line;
mod json_rows;
mod pgn_games;
mod pgn_moves;
mod pgn_positions;
mod positions_filter;
mod rebase;
mod replayed;
mod sgf_moves;
mod sgf_positions;
mod sgf_trees;
mod sink;
pub mod values;

pub use buffers::Buffers;
pub use charset::Charset;
pub use json_line::{JsonObject, JsonOptions, file_member};
pub use pgn_games::{
    PGN_OPENING_COLUMNS, PGN_TAG_COLUMNS, PGN_TIME_CONTROL_COLUMNS, TagType,
    pgn_games_column_from_tags,
};
pub use pgn_positions::{POLICY_SIZE, PgnPositionEvents, policy_index, policy_uci};
pub use rebase::{Shift, rebase};
pub use replayed::REPLAY_COLUMNS;
pub use sgf_trees::{PropType, SGF_GAME_INFO_COLUMNS, SGF_ROOT_COLUMNS};
pub use sink::{Error, OutFormat, Sink, SinkOptions, Summary, array_columns, create};

/// The schema metadata key naming the table (`pgn_games`, `pgn_moves`, `pgn_positions`,
/// `sgf_trees`, `sgf_moves`, `sgf_positions`, `pgn_json`, `sgf_json`).
pub const TABLE_KEY: &str = "kifu.table";

/// The tables kifu exports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Table {
    /// PGN `games`: one row per game (tags as columns, movetext, SAN list, clocks, evals,
    /// errors).
    PgnGames,
    /// PGN `moves`: one row per main-line ply (and, with [`TableOptions::variations`], per move
    /// of every variation).
    PgnMoves,
    /// PGN `positions`: one row per position of the main line, the final one included, replayed
    /// (twelve bitboards, Polyglot key, EPD, the move played from it with its policy index,
    /// the targets of training): for position search and training pipelines.
    PgnPositions,
    /// SGF `trees`: one row per game tree (root properties as columns, main-line moves).
    SgfTrees,
    /// SGF `moves`: one row per main-line move.
    SgfMoves,
    /// SGF `positions`: one row per main-line move of a Go game with the board before it
    /// (kifu-replay's training rows), for training pipelines.
    SgfPositions,
    /// PGN `json`: one row per game holding the object `kifu json` writes (for JSON Lines
    /// output, the same lines as `kifu json`).
    PgnJson,
    /// SGF `json`: one row per game tree holding the object `kifu json` writes.
    SgfJson,
}

impl Table {
    /// Every table.
    pub const ALL: [Table; 8] = [
        Table::PgnGames,
        Table::PgnMoves,
        Table::PgnPositions,
        Table::SgfTrees,
        Table::SgfMoves,
        Table::SgfPositions,
        Table::PgnJson,
        Table::SgfJson,
    ];

    /// The table of a format (`sgf`) by its command-line name: `games`, `moves`, `trees`,
    /// `positions`, `json`. `games` and `trees` name the one-row-per-game table of either
    /// format.
    ///
    /// ```
    /// use kifu_export::Table;
    /// assert_eq!(Table::by_name("moves", true), Some(Table::SgfMoves));
    /// assert_eq!(Table::by_name("games", true), Some(Table::SgfTrees));
    /// assert_eq!(Table::by_name("positions", false), Some(Table::PgnPositions));
    /// assert_eq!(Table::by_name("boards", false), None);
    /// ```
    pub fn by_name(name: &str, sgf: bool) -> Option<Table> {
        Some(match (name, sgf) {
            ("games" | "trees", false) => Table::PgnGames,
            ("games" | "trees", true) => Table::SgfTrees,
            ("moves", false) => Table::PgnMoves,
            ("moves", true) => Table::SgfMoves,
            ("positions", false) => Table::PgnPositions,
            ("positions", true) => Table::SgfPositions,
            ("json", false) => Table::PgnJson,
            ("json", true) => Table::SgfJson,
            _ => return None,
        })
    }

    /// The name stored in the schema's metadata under [`TABLE_KEY`] (`pgn_games`, …).
    pub fn id(self) -> &'static str {
        match self {
            Table::PgnGames => "pgn_games",
            Table::PgnMoves => "pgn_moves",
            Table::PgnPositions => "pgn_positions",
            Table::SgfTrees => "sgf_trees",
            Table::SgfMoves => "sgf_moves",
            Table::SgfPositions => "sgf_positions",
            Table::PgnJson => "pgn_json",
            Table::SgfJson => "sgf_json",
        }
    }

    /// Whether the table is built from SGF game trees.
    pub fn is_sgf(self) -> bool {
        matches!(
            self,
            Table::SgfTrees | Table::SgfMoves | Table::SgfPositions | Table::SgfJson
        )
    }
}

/// How the tables are built.
#[derive(Clone, Debug)]
pub struct TableOptions {
    /// PGN `moves`: also a row per move of every variation, each row naming its line (columns
    /// `line`, `parent_line`, `depth`). Default: main line only.
    pub variations: bool,
    /// SGF: how text values are decoded (as `kifu json --charset`). Default: per game tree,
    /// from `CA`, else guessed.
    pub charset: Charset,
    /// PGN `games`: the longest line of `movetext`; `None` (the default) writes it on one line,
    /// as the lichess dataset does (a `;` comment still ends its line). `Some(79)` gives the
    /// PGN export format's layout.
    pub movetext_width: Option<usize>,
    /// PGN: replay the moves (kifu-replay) and add what it gives: `final_fen` to `games` (the
    /// position after the main line, null when it could not be replayed whole); `uci`, `fen`
    /// and `key` (the Polyglot key after the move, as a signed 64-bit integer of the same
    /// bits) to `moves` (null for a move that could not be replayed). Default: no replay.
    pub replay: bool,
    /// SGF `positions`: each position once per symmetry of the board, its board, move, ko
    /// point and key turned together, the `symmetry` column saying which (8 on a square board,
    /// on another the 4 that keep its shape). Default: once, as played (`symmetry` 0).
    pub symmetries: bool,
    /// The `positions` tables (PGN and SGF): which positions become rows. Default: every
    /// position.
    pub positions: PositionOptions,
    /// The `positions` tables: where their columns of numbers get their buffers, kept from
    /// one batch to the next (the builders made with clones of these options share them).
    /// Default: a pool of its own.
    pub buffers: Buffers,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            variations: false,
            charset: Charset::Auto,
            movetext_width: None,
            replay: false,
            symmetries: false,
            positions: PositionOptions::default(),
            buffers: Buffers::default(),
        }
    }
}

/// Which positions the `positions` tables (PGN and SGF) keep as rows: the filters a training
/// set needs, applied in this order after the games themselves are chosen (`kifu export -w`):
/// [`min_ply`](Self::min_ply) and [`max_ply`](Self::max_ply), [`legal_only`](Self::legal_only),
/// [`sample`](Self::sample), then [`distinct`](Self::distinct) on the rows the others kept.
/// Every filter is a function of the rows themselves, never of the threads or of where the
/// input was cut, so that a scan on N threads keeps the rows one thread keeps.
///
/// ```
/// use kifu_export::{Builder, PositionOptions, Sample, Table, TableOptions};
///
/// let opts = TableOptions {
///     positions: PositionOptions { min_ply: 2, ..PositionOptions::default() },
///     ..TableOptions::default()
/// };
/// let mut b = Builder::new(Table::PgnPositions, &opts);
/// for game in kifu::pgn::Games::new(b"1. e4 e5 2. Nf3 *") {
///     b.push_pgn("g.pgn", &game).unwrap();
/// }
/// assert_eq!(b.rows(), 2); // plies 2 and 3 of 0 ... 3
/// assert!(Sample::new(0.0, 1).is_none() && Sample::new(0.5, 1).is_some());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PositionOptions {
    /// Leave out the positions before this ply (`ply < min_ply`: 0 keeps the start; 10
    /// skips the first ten half-moves, the opening book of most games). Default 0.
    pub min_ply: u32,
    /// Leave out the positions after this ply (`None`, the default: no bound).
    pub max_ply: Option<u32>,
    /// A game's rows end before its first move that cannot be played: that position's row (its
    /// `error` set) and, in Go, whose replay goes on past such a move, every row after it are
    /// left out, so that every row kept was reached by legal moves only and is followed by a
    /// legal move or ends its game. (Chess rows never go past such a move: its replay stops
    /// there.) Default: kept, their `error` saying why.
    pub legal_only: bool,
    /// Keep each position with a probability (`None`, the default: every one).
    pub sample: Option<Sample>,
    /// One row per distinct position: the first row of each `key`, in input order; the others
    /// are dropped and counted. Applied by the consumer that sees the rows in input order
    /// ([`DistinctKeys`]; `kifu_pipeline::tables` does it for every table scan, `kifu export`'s
    /// among them): a [`Builder`] alone does not, as it sees only the games pushed to it.
    /// Default `None`: every row.
    pub distinct: Option<Distinct>,
}

impl PositionOptions {
    /// Whether every position is kept (no filter set).
    pub fn keeps_all(&self) -> bool {
        *self == PositionOptions::default()
    }
}

pub use positions_filter::{Distinct, DistinctKeys, Sample};

/// A column name that is not one of the table's ([`Builder::project`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no column `{name}` in the {} table (its columns: {})", table.id(), columns.join(", "))]
pub struct UnknownColumn {
    /// The name asked for.
    pub name: String,
    /// The table.
    pub table: Table,
    /// The table's columns, in order.
    pub columns: Vec<String>,
}

/// The Arrow schema of `table` built with `opts` (every column: see [`Builder::project`] for
/// fewer).
///
/// ```
/// use kifu_export::{schema, Table, TableOptions};
/// use arrow_schema::DataType;
/// let s = schema(Table::PgnGames, &TableOptions::default());
/// assert_eq!(s.field_with_name("WhiteElo").unwrap().data_type(), &DataType::Int16);
/// assert_eq!(s.field_with_name("UTCDate").unwrap().data_type(), &DataType::Date32);
/// assert_eq!(s.metadata()["kifu.table"], "pgn_games");
/// ```
pub fn schema(table: Table, opts: &TableOptions) -> SchemaRef {
    let fields = match table {
        Table::PgnGames => pgn_games::fields(),
        Table::PgnMoves => pgn_moves::fields(opts),
        Table::PgnPositions => pgn_positions::fields(),
        Table::SgfTrees => sgf_trees::fields(),
        Table::SgfMoves => sgf_moves::fields(),
        Table::SgfPositions => sgf_positions::fields(),
        Table::PgnJson | Table::SgfJson => json_rows::fields(),
    };
    let mut fields = fields;
    if opts.replay {
        fields.extend(replayed::fields(table));
    }
    make_schema(table, fields)
}

fn make_schema(table: Table, fields: Vec<Field>) -> SchemaRef {
    let meta = [(TABLE_KEY.to_string(), table.id().to_string())].into();
    Arc::new(Schema::new_with_metadata(fields, meta))
}

/// A row of the PGN `moves` table, as the replayed columns see it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveRow<'a> {
    /// The move.
    pub node: &'a pgn::Node,
    /// Its ply: 1 for White's first move (a game starting from a `FEN` counts from its move
    /// number and side to move).
    pub ply: u32,
    /// Its line: 0 for the main line, then 1, 2, … for the variations in the order the moves
    /// table lists them.
    pub line: u32,
    /// The line it branches from (`None` for the main line).
    pub parent_line: Option<u32>,
}

/// Why a game was not added to a batch.
#[derive(Debug, thiserror::Error)]
pub enum PushError {
    /// A PGN game pushed to an SGF table, or the other way round.
    #[error("a {format} record cannot go to the {table:?} table")]
    WrongFormat {
        /// `PGN` or `SGF`.
        format: &'static str,
        /// The builder's table.
        table: Table,
    },
    /// The JSON tables: the game tree nests variations deeper than its serialization goes
    /// (`kifu::sgf::SERDE_MAX_DEPTH`); `kifu json` names such a tree and goes on. The message
    /// names no game: the caller, who knows where the game is in its input, does
    /// (`FILE: game N: not written: …`).
    #[error("not written: {reason}")]
    NotSerializable {
        /// The game's index.
        index: u64,
        /// What serde said.
        reason: String,
    },
    /// The PGN `positions` table: a game that is not replayed (a `Variant` that is not chess,
    /// a `FEN` tag that does not read) has no position to write. As for
    /// [`NotSerializable`](Self::NotSerializable), the caller names the game and goes on.
    #[error("{reason}")]
    NotReplayed {
        /// The game's index.
        index: u64,
        /// Why (the variant, or what is wrong with the FEN).
        reason: String,
    },
}

// One builder a table, made once and kept for the whole scan: its size is no cost worth a box.
#[allow(clippy::large_enum_variant)]
enum Inner {
    PgnGames(pgn_games::GamesBuilder),
    PgnMoves(pgn_moves::MovesBuilder),
    PgnPositions(pgn_positions::PositionsBuilder),
    SgfTrees(sgf_trees::TreesBuilder),
    SgfMoves(sgf_moves::MovesBuilder),
    SgfPositions(sgf_positions::PositionsBuilder),
    Json(json_rows::JsonBuilder),
}

/// Builds record batches of one [`Table`]: push games, then [`finish`](Builder::finish).
///
/// A builder holds the rows pushed since its last `finish` (about what the games' texts take);
/// finish a batch every few thousand games, or per piece of input, and keep
/// [`estimated_bytes`](Builder::estimated_bytes) well under 1 GiB (Arrow's 32-bit offsets
/// allow 2 GiB of text per column and batch).
///
/// ```
/// use kifu_export::{Builder, Table, TableOptions};
/// use arrow_array::{cast::AsArray, types::Int32Type};
///
/// let mut b = Builder::new(Table::PgnMoves, &TableOptions::default());
/// for game in kifu::pgn::Games::new(b"1. e4 e5 2. Nf3 *\n\n1. d4 *") {
///     b.push_pgn("two.pgn", &game).unwrap();
/// }
/// assert_eq!((b.games(), b.rows()), (2, 4));
/// let batch = b.finish();
/// let ply = batch.column_by_name("ply").unwrap().as_primitive::<Int32Type>();
/// assert_eq!(ply.values().to_vec(), [1, 2, 3, 1]);
/// assert_eq!(b.rows(), 0); // the builder starts a new batch
/// ```
pub struct Builder {
    table: Table,
    schema: SchemaRef,
    inner: Inner,
    /// The replayed columns ([`TableOptions::replay`]), for the PGN tables.
    extra: Option<replayed::Replayed>,
    games: usize,
    /// The columns kept ([`Builder::project`]): their indexes in the whole row.
    keep: Option<Vec<usize>>,
}

impl core::fmt::Debug for Builder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Builder")
            .field("table", &self.table)
            .field("games", &self.games)
            .field("rows", &self.rows())
            .finish_non_exhaustive()
    }
}

impl Builder {
    /// A builder of `table`.
    pub fn new(table: Table, opts: &TableOptions) -> Builder {
        let inner = match table {
            Table::PgnGames => Inner::PgnGames(pgn_games::GamesBuilder::new(opts)),
            Table::PgnMoves => Inner::PgnMoves(pgn_moves::MovesBuilder::new(opts)),
            Table::PgnPositions => Inner::PgnPositions(pgn_positions::PositionsBuilder::new(opts)),
            Table::SgfTrees => Inner::SgfTrees(sgf_trees::TreesBuilder::new(opts)),
            Table::SgfMoves => Inner::SgfMoves(sgf_moves::MovesBuilder::new(opts)),
            Table::SgfPositions => Inner::SgfPositions(sgf_positions::PositionsBuilder::new(opts)),
            Table::PgnJson | Table::SgfJson => Inner::Json(json_rows::JsonBuilder::new(opts)),
        };
        let replays = opts.replay && matches!(table, Table::PgnGames | Table::PgnMoves);
        Builder {
            table,
            schema: schema(table, opts),
            inner,
            extra: replays.then(|| replayed::Replayed::new(table, opts.variations)),
            games: 0,
            keep: None,
        }
    }

    /// Keeps only the columns named (in the table's order, whatever the order of `names`): the
    /// batches hold those, and the work of the columns left out is not done where it is worth
    /// it (PGN `games`: no `movetext` written, no move list built; no replay when no replayed
    /// column is kept).
    ///
    /// # Errors
    ///
    /// The first name that is not a column of the table.
    ///
    /// ```
    /// use kifu::pgn::Games;
    /// use kifu_export::{Builder, Table, TableOptions};
    ///
    /// let mut b = Builder::new(Table::PgnGames, &TableOptions::default())
    ///     .project(&["White", "Result", "plies"])
    ///     .unwrap();
    /// for game in Games::new(b"[White \"Tal\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n") {
    ///     b.push_pgn("g.pgn", &game).unwrap();
    /// }
    /// let batch = b.finish();
    /// let names: Vec<_> = batch.schema().fields().iter().map(|f| f.name().clone()).collect();
    /// assert_eq!(names, ["White", "Result", "plies"]);
    /// assert!(Builder::new(Table::PgnGames, &TableOptions::default()).project(&["nope"]).is_err());
    /// ```
    pub fn project<S: AsRef<str>>(mut self, names: &[S]) -> Result<Builder, UnknownColumn> {
        assert_eq!(self.rows(), 0, "columns are chosen before the first row");
        let all = self.schema.clone();
        for n in names {
            if all.field_with_name(n.as_ref()).is_err() {
                return Err(UnknownColumn {
                    name: n.as_ref().to_string(),
                    table: self.table,
                    columns: all.fields().iter().map(|f| f.name().clone()).collect(),
                });
            }
        }
        let wanted = |name: &str| names.iter().any(|n| n.as_ref() == name);
        let keep: Vec<usize> = (0..all.fields().len())
            .filter(|&k| wanted(all.field(k).name()))
            .collect();
        if let Inner::PgnGames(b) = &mut self.inner {
            b.want_movetext = wanted("movetext");
            b.want_moves = wanted("moves") || wanted("clocks") || wanted("evals");
            b.want_opening = pgn_games::PGN_OPENING_COLUMNS.iter().any(|c| wanted(c));
        }
        if let Inner::PgnPositions(b) = &mut self.inner {
            b.wanted = pgn_positions::Wanted::of(wanted);
        }
        if let Inner::SgfPositions(b) = &mut self.inner {
            b.wanted = sgf_positions::Wanted::of(wanted);
        }
        if !REPLAY_COLUMNS.iter().any(|c| wanted(c)) {
            self.extra = None;
        }
        let fields = keep.iter().map(|&k| all.field(k).clone()).collect();
        self.schema = make_schema(self.table, fields);
        self.keep = Some(keep);
        Ok(self)
    }

    /// The table built.
    pub fn table(&self) -> Table {
        self.table
    }

    /// The schema of the batches, with the added columns.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// Adds a PGN game read from `file` (the name the `file` column holds).
    ///
    /// # Errors
    ///
    /// [`PushError::WrongFormat`] if the table is an SGF one; for [`Table::PgnPositions`],
    /// [`PushError::NotReplayed`] for a game with no position (a variant that is not chess, a
    /// `FEN` tag that does not read: no row is added; name the game and go on); for
    /// [`Table::PgnJson`], [`PushError::NotSerializable`].
    pub fn push_pgn(&mut self, file: &str, game: &pgn::Game) -> Result<(), PushError> {
        let wrong = PushError::WrongFormat {
            format: "PGN",
            table: self.table,
        };
        match &mut self.inner {
            Inner::PgnGames(b) => {
                b.push(file, game);
                if let Some(x) = &mut self.extra {
                    x.push_game(game);
                }
            }
            Inner::PgnMoves(b) => {
                let rows = b.push(file, game);
                if let Some(x) = &mut self.extra {
                    x.push_moves(game, &rows);
                }
            }
            Inner::PgnPositions(b) => b.push(file, game)?,
            Inner::Json(b) if self.table == Table::PgnJson => b.push_pgn(file, game)?,
            _ => return Err(wrong),
        }
        self.games += 1;
        Ok(())
    }

    /// The PGN `positions` table's rows made from the parser's events, without a game built
    /// ([`PgnPositionEvents`]: the same rows as [`push_pgn`](Self::push_pgn) makes); `None`
    /// for another table.
    pub fn pgn_position_events(&mut self) -> Option<PgnPositionEvents<'_>> {
        match &mut self.inner {
            Inner::PgnPositions(b) => Some(PgnPositionEvents {
                b,
                games: &mut self.games,
            }),
            _ => None,
        }
    }

    /// Adds an SGF game tree read from `file`.
    ///
    /// # Errors
    ///
    /// [`PushError::WrongFormat`] if the table is a PGN one; for [`Table::SgfJson`],
    /// [`PushError::NotSerializable`] for a tree nesting deeper than its serialization goes
    /// (no row is added: name the tree, as `kifu json` does, and go on).
    pub fn push_sgf(&mut self, file: &str, tree: &sgf::GameTree) -> Result<(), PushError> {
        let wrong = PushError::WrongFormat {
            format: "SGF",
            table: self.table,
        };
        match &mut self.inner {
            Inner::SgfTrees(b) => b.push(file, tree),
            Inner::SgfMoves(b) => {
                b.push(file, tree);
            }
            Inner::SgfPositions(b) => b.push(file, tree),
            Inner::Json(b) if self.table == Table::SgfJson => b.push_sgf(file, tree)?,
            _ => return Err(wrong),
        }
        self.games += 1;
        Ok(())
    }

    /// The rows pushed since the last `finish`.
    pub fn rows(&self) -> usize {
        match &self.inner {
            Inner::PgnGames(b) => b.rows(),
            Inner::PgnMoves(b) => b.rows(),
            Inner::PgnPositions(b) => b.rows(),
            Inner::SgfTrees(b) => b.rows(),
            Inner::SgfMoves(b) => b.rows(),
            Inner::SgfPositions(b) => b.rows(),
            Inner::Json(b) => b.rows(),
        }
    }

    /// The games (or trees) pushed since the last `finish`.
    pub fn games(&self) -> usize {
        self.games
    }

    /// About the bytes the rows pushed since the last `finish` hold (their texts and values).
    pub fn estimated_bytes(&self) -> usize {
        match &self.inner {
            Inner::PgnGames(b) => b.estimated_bytes(),
            Inner::PgnMoves(b) => b.estimated_bytes(),
            Inner::PgnPositions(b) => b.estimated_bytes(),
            Inner::SgfTrees(b) => b.estimated_bytes(),
            Inner::SgfMoves(b) => b.estimated_bytes(),
            Inner::SgfPositions(b) => b.estimated_bytes(),
            Inner::Json(b) => b.estimated_bytes(),
        }
    }

    /// The rows pushed since the last `finish`, as a batch of [`schema`](Builder::schema); the
    /// builder starts a new batch.
    pub fn finish(&mut self) -> RecordBatch {
        let rows = self.rows();
        let mut columns = match &mut self.inner {
            Inner::PgnGames(b) => b.finish(),
            Inner::PgnMoves(b) => b.finish(),
            Inner::PgnPositions(b) => b.finish(),
            Inner::SgfTrees(b) => b.finish(),
            Inner::SgfMoves(b) => b.finish(),
            Inner::SgfPositions(b) => b.finish(),
            Inner::Json(b) => b.finish(),
        };
        if let Some(x) = &mut self.extra {
            columns.extend(x.finish());
        }
        if let Some(keep) = &self.keep {
            columns = keep.iter().map(|&k| columns[k].clone()).collect();
        }
        self.games = 0;
        // a projection may keep no column: the batch still counts its rows
        let rows = arrow_array::RecordBatchOptions::new().with_row_count(Some(rows));
        RecordBatch::try_new_with_options(self.schema.clone(), columns, &rows)
            .expect("the builder's columns match its schema")
    }
}

/// The example of the crate's README, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
