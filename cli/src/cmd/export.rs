//! `kifu export`: game records as tables (kifu-export): Parquet (zstd), CSV or JSON Lines, one
//! file or a dataset directory. Each piece's games become Arrow record batches on the worker
//! that read them; the sink adds the piece's first game index and writes them in input order.
//! The PGN `games` table is built straight from the parser's events (`GamesVisitor`: no DOM),
//! every other table (and `games` with `--replay`) from the library's DOMs.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use arrow_array::RecordBatch;
use kifu::par::{Event, Visited, Work};
use kifu::{Control, pgn, sgf};
use kifu_export::{
    Builder, GamesVisitor, OutFormat, Shift, Sink, SinkOptions, Table, TableOptions,
};

use crate::args::{Common, GameLimit};
use crate::dom::{Dom, PerGame};
use crate::out::Guard;
use crate::run::{self, Games, Outcome};
use crate::source::Input;

/// Write the games as rows of a table: Parquet (zstd), CSV or JSON Lines, to one file or a
/// dataset directory that DuckDB, Polars and Spark read as one table (see docs/export.md).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// The file format (default: told by OUT's extension, `.parquet`, `.csv`, `.jsonl`).
    #[arg(long, value_enum, help_heading = "Output")]
    pub to: Option<ExportFormat>,
    /// The output: a file (`-`: stdout), or a dataset directory (with --dataset or
    /// --max-rows-per-file).
    #[arg(
        short = 'o',
        long = "output",
        value_name = "OUT",
        help_heading = "Output"
    )]
    pub out: PathBuf,
    /// The table: one row per game, per move, per Go position, or the `kifu json` objects.
    #[arg(long, value_enum, default_value_t = TableName::Games)]
    pub table: TableName,
    /// moves: the moves of every variation too (each row names its line).
    #[arg(long)]
    pub variations: bool,
    /// PGN: replay the games on a board: `games` gains `final_fen`, `moves` gains `uci`,
    /// `fen` and `key` (Polyglot).
    #[arg(long)]
    pub replay: bool,
    /// Write a dataset directory (part-00000.parquet, …), even with one file.
    #[arg(long)]
    pub dataset: bool,
    /// At most this many rows per file of a dataset directory.
    #[arg(long, value_name = "N")]
    pub max_rows_per_file: Option<u64>,
    /// Rows per Parquet row group (at most; groups also end at 64 MiB of data).
    #[arg(long, value_name = "N", default_value_t = 122_880)]
    pub row_group_rows: usize,
    /// SGF text encoding, as for `kifu json`.
    #[arg(long, default_value = "auto")]
    pub charset: String,
    /// Replace OUT if it exists.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub limit: GameLimit,
}

/// The tables of `kifu export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TableName {
    /// One row per game (PGN `games`, SGF `trees`).
    Games,
    /// One row per game tree (SGF; for PGN input, `games`).
    Trees,
    /// One row per main-line move (every move with --variations).
    Moves,
    /// One row per main-line move of a Go game, with the board before it (SGF only).
    Positions,
    /// The `kifu json` objects, one per row.
    Json,
}

impl TableName {
    fn id(self) -> &'static str {
        match self {
            TableName::Games => "games",
            TableName::Trees => "trees",
            TableName::Moves => "moves",
            TableName::Positions => "positions",
            TableName::Json => "json",
        }
    }
}

/// The format OUT's extension names (`.parquet`, `.csv`, `.jsonl` or `.json`).
fn format_of(out: &std::path::Path) -> Option<ExportFormat> {
    let ext = out.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "parquet" | "pq" => Some(ExportFormat::Parquet),
        "csv" => Some(ExportFormat::Csv),
        "jsonl" | "ndjson" | "json" => Some(ExportFormat::Jsonl),
        _ => None,
    }
}

/// The file formats of `kifu export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Apache Parquet, zstd-compressed.
    Parquet,
    /// CSV (RFC 4180) with a header line.
    Csv,
    /// JSON Lines.
    Jsonl,
}

/// `kifu export`.
pub fn run(args: Args) -> io::Result<ExitCode> {
    let to = args.to.or_else(|| format_of(&args.out)).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{}: --to parquet|csv|jsonl (the name has no extension that tells)",
                args.out.display()
            ),
        )
    })?;
    let opts = Options {
        out: args.out,
        to: match to {
            ExportFormat::Parquet => OutFormat::Parquet,
            ExportFormat::Csv => OutFormat::Csv,
            ExportFormat::Jsonl => OutFormat::Jsonl,
        },
        table: args.table.id().to_string(),
        table_options: TableOptions {
            variations: args.variations,
            charset: kifu_export::Charset::by_name(&args.charset).ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("unknown charset `{}`", args.charset),
                )
            })?,
            ..Default::default()
        },
        sink: SinkOptions {
            force: args.force,
            dataset: args.dataset,
            max_rows_per_file: args.max_rows_per_file,
            row_group_rows: args.row_group_rows,
            ..Default::default()
        },
        batch_rows: 8192,
        replay: args.replay,
        max_game_bytes: args.limit.max_game_bytes,
    };
    command(&args.common, opts)
}

/// What `kifu export` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The output file or dataset directory.
    pub out: PathBuf,
    /// Parquet, CSV or JSON Lines.
    pub to: OutFormat,
    /// `games` (`trees`), `moves` or `json`.
    pub table: String,
    /// The tables' options (variations in `moves`, SGF charset).
    pub table_options: TableOptions,
    /// The sink's options (dataset, rows per file, row groups, force).
    pub sink: SinkOptions,
    /// Rows per record batch built on a worker.
    pub batch_rows: usize,
    /// `--replay`: PGN games replayed on a board (`games` gains `final_fen`, `moves` gains
    /// `uci`, `fen`, `key`).
    pub replay: bool,
    /// The DOM builders' limit on one game.
    pub max_game_bytes: usize,
}

/// A piece's rows, as record batches.
pub struct Rows {
    builder: Option<Builder>,
    batches: Vec<RecordBatch>,
    /// Games that could not go to the table (index in the piece, why).
    refused: Vec<(u64, String)>,
    file: String,
    batch_rows: usize,
}

impl Rows {
    fn flush(&mut self) {
        if let Some(b) = &mut self.builder
            && b.rows() > 0
        {
            self.batches.push(b.finish());
        }
    }

    fn pushed(&mut self, index: u64, r: Result<(), kifu_export::PushError>) {
        if let Err(e) = r {
            self.refused.push((index, e.to_string()));
        }
        if self
            .builder
            .as_ref()
            .is_some_and(|b| b.rows() >= self.batch_rows)
        {
            self.flush();
        }
    }
}

impl PerGame for Rows {
    fn pgn(&mut self, game: pgn::Game) {
        let r = match &mut self.builder {
            Some(b) => b.push_pgn(&self.file, &game),
            None => Ok(()),
        };
        self.pushed(game.index, r);
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        let r = match &mut self.builder {
            Some(b) => b.push_sgf(&self.file, &tree),
            None => Ok(()),
        };
        self.pushed(tree.index(), r);
    }
    fn end(&mut self) {
        self.flush();
    }
}

struct ExportWork<'o>(&'o Options);

impl ExportWork<'_> {
    fn rows(&self, input: &Input, sgf: bool) -> Rows {
        let table = Table::by_name(&self.0.table, sgf);
        let builder = table.map(|t| {
            let b = Builder::new(t, &self.0.table_options);
            match t {
                Table::PgnGames | Table::PgnMoves if self.0.replay => b.with_columns(Box::new(
                    ReplayColumns::new(t, self.0.table_options.variations),
                )),
                _ => b,
            }
        });
        Rows {
            builder,
            batches: Vec::new(),
            refused: Vec::new(),
            file: input.name.clone(),
            batch_rows: self.0.batch_rows,
        }
    }
}

/// A PGN piece's visitor: the `games` table straight from the parser's events (no DOM), or
/// the DOM builder for the other tables and for `--replay` (which replays the DOM's moves).
pub enum PgnPiece {
    /// The `games` table without `--replay`.
    Events(Box<GamesVisitor>),
    /// Every other table.
    Dom(Box<Dom<pgn::GameBuilder, Rows>>),
}

impl Games for PgnPiece {
    fn games(&self) -> u64 {
        match self {
            PgnPiece::Events(v) => v.games(),
            PgnPiece::Dom(d) => d.games(),
        }
    }
}

/// Hands each event to the piece's visitor.
macro_rules! each {
    ($self:ident, $v:ident => $call:expr) => {
        match $self {
            PgnPiece::Events($v) => $call,
            PgnPiece::Dom($v) => $call,
        }
    };
}

impl pgn::Visitor for PgnPiece {
    fn on_tree(&mut self, ctx: &pgn::Context) -> Control {
        each!(self, v => v.on_tree(ctx))
    }
    fn on_tree_end(&mut self, ctx: &pgn::Context) -> Control {
        each!(self, v => v.on_tree_end(ctx))
    }
    fn on_property(&mut self, ctx: &pgn::Context, tag: &pgn::Tag<'_>) -> Control {
        each!(self, v => v.on_property(ctx, tag))
    }
    fn on_tags_end(&mut self, ctx: &pgn::Context) -> Control {
        each!(self, v => v.on_tags_end(ctx))
    }
    fn on_move(&mut self, ctx: &pgn::Context, mv: &pgn::Move<'_>) -> Control {
        each!(self, v => v.on_move(ctx, mv))
    }
    fn on_nag(&mut self, ctx: &pgn::Context, nag: pgn::Nag, form: pgn::NagForm) -> Control {
        each!(self, v => v.on_nag(ctx, nag, form))
    }
    fn on_comment(&mut self, ctx: &pgn::Context, comment: &pgn::Comment<'_>) -> Control {
        each!(self, v => v.on_comment(ctx, comment))
    }
    fn on_result(&mut self, ctx: &pgn::Context, outcome: pgn::Outcome) -> Control {
        each!(self, v => v.on_result(ctx, outcome))
    }
    fn on_error(&mut self, error: &pgn::Error<'_>) -> Control {
        each!(self, v => v.on_error(error))
    }
    fn on_end(&mut self) {
        each!(self, v => v.on_end())
    }
}

impl Work for ExportWork<'_> {
    type Input = Input;
    type Pgn = PgnPiece;
    type Sgf = Dom<sgf::TreeBuilder, Rows>;
    fn pgn(&self, input: &Input) -> Self::Pgn {
        if Table::by_name(&self.0.table, false) == Some(Table::PgnGames) && !self.0.replay {
            let v = GamesVisitor::new(&input.name, &self.0.table_options)
                .with_max_game_bytes(self.0.max_game_bytes)
                .with_batch_size(self.0.batch_rows, GamesVisitor::DEFAULT_BATCH_BYTES);
            return PgnPiece::Events(Box::new(v));
        }
        let b = pgn::GameBuilder::new().with_max_game_bytes(self.0.max_game_bytes);
        PgnPiece::Dom(Box::new(Dom::new(b, self.rows(input, false))))
    }
    fn sgf(&self, input: &Input) -> Self::Sgf {
        let b = sgf::TreeBuilder::new().with_max_game_bytes(self.0.max_game_bytes);
        Dom::new(b, self.rows(input, true))
    }
}

/// The columns `--replay` adds (kifu-replay's DOM helper): `final_fen` to `games` (the
/// position after the main line, null when it could not be replayed whole), `uci`, `fen` and
/// `key` (the Polyglot key after the move, as a signed 64-bit integer of the same bits) to
/// `moves` (null for a move that could not be replayed).
struct ReplayColumns {
    table: Table,
    variations: bool,
    final_fen: arrow_array::builder::StringBuilder,
    uci: arrow_array::builder::StringBuilder,
    fen: arrow_array::builder::StringBuilder,
    key: arrow_array::builder::Int64Builder,
}

impl ReplayColumns {
    fn new(table: Table, variations: bool) -> ReplayColumns {
        use arrow_array::builder::{Int64Builder, StringBuilder};
        ReplayColumns {
            table,
            variations,
            final_fen: StringBuilder::new(),
            uci: StringBuilder::new(),
            fen: StringBuilder::new(),
            key: Int64Builder::new(),
        }
    }
}

impl kifu_export::Columns for ReplayColumns {
    fn fields(&self) -> Vec<arrow_schema::Field> {
        use arrow_schema::{DataType, Field};
        match self.table {
            Table::PgnGames => vec![Field::new("final_fen", DataType::Utf8, true)],
            _ => vec![
                Field::new("uci", DataType::Utf8, true),
                Field::new("fen", DataType::Utf8, true),
                Field::new("key", DataType::Int64, true),
            ],
        }
    }

    fn pgn_game(&mut self, game: &pgn::Game) {
        let options = kifu_replay::chess::DomOptions {
            fen: false,
            variations: false,
        };
        self.final_fen
            .append_option(kifu_replay::chess::replay_game(game, &options).end_fen());
    }

    fn pgn_moves(&mut self, game: &pgn::Game, rows: &[kifu_export::MoveRow<'_>]) {
        let options = kifu_replay::chess::DomOptions {
            variations: self.variations,
            ..Default::default()
        };
        let r = kifu_replay::chess::replay_game(game, &options);
        // the replay's entries are in text order: find each row's by its node
        let mut order = std::collections::HashMap::new();
        let mut stack: Vec<(&[pgn::Node], usize)> = vec![(&game.moves, 0)];
        let mut k = 0usize;
        while let Some((moves, next)) = stack.pop() {
            let Some(node) = moves.get(next) else {
                continue;
            };
            order.insert(node as *const pgn::Node, k);
            k += 1;
            stack.push((moves, next + 1));
            if self.variations {
                for v in node.variations.iter().rev() {
                    stack.push((&v.moves, 0));
                }
            }
        }
        for row in rows {
            let n = order
                .get(&(row.node as *const pgn::Node))
                .and_then(|&k| r.nodes.get(k));
            self.uci
                .append_option(n.and_then(|n| n.uci).map(|u| u.to_string()));
            self.fen.append_option(n.and_then(|n| n.fen.as_deref()));
            self.key
                .append_option(n.and_then(|n| n.key).map(|k| k as i64));
        }
    }

    fn finish(&mut self) -> Vec<arrow_array::ArrayRef> {
        use std::sync::Arc;
        match self.table {
            Table::PgnGames => vec![Arc::new(self.final_fen.finish())],
            _ => vec![
                Arc::new(self.uci.finish()),
                Arc::new(self.fen.finish()),
                Arc::new(self.key.finish()),
            ],
        }
    }
}

/// Record batches cut again to a fixed number of rows before they go to the sink, so that the
/// files do not depend on where pieces were cut: `-jN` writes the bytes `-j1` writes.
struct Rechunk {
    pending: Vec<RecordBatch>,
    rows: usize,
    size: usize,
}

impl Rechunk {
    fn push(&mut self, batch: RecordBatch, sink: &mut dyn Sink) -> io::Result<()> {
        self.rows += batch.num_rows();
        self.pending.push(batch);
        while self.rows >= self.size {
            let all = self.take()?;
            sink.write(&all.slice(0, self.size))
                .map_err(io::Error::other)?;
            let rest = all.slice(self.size, all.num_rows() - self.size);
            self.rows = rest.num_rows();
            if self.rows > 0 {
                self.pending.push(rest);
            }
        }
        Ok(())
    }

    /// The pending rows as one batch.
    fn take(&mut self) -> io::Result<RecordBatch> {
        let pending = std::mem::take(&mut self.pending);
        if pending.len() == 1 {
            return Ok(pending.into_iter().next().expect("one"));
        }
        let schema = pending[0].schema();
        arrow_select::concat::concat_batches(&schema, &pending).map_err(io::Error::other)
    }

    fn finish(&mut self, sink: &mut dyn Sink) -> io::Result<()> {
        if self.rows > 0 {
            let rest = self.take()?;
            sink.write(&rest).map_err(io::Error::other)?;
            self.rows = 0;
        }
        Ok(())
    }
}

/// The tables a `--table` name gives, PGN's then SGF's (`positions` is SGF's only).
pub fn tables(name: &str) -> Option<(Option<Table>, Option<Table>)> {
    let both = (Table::by_name(name, false), Table::by_name(name, true));
    (both.0.is_some() || both.1.is_some()).then_some(both)
}

/// `kifu export`: the games of every input as rows of one table. The output is created when
/// the first rows come (its schema is the table of the first input's format); an input of the
/// other format cannot join it and is named on stderr (exit status 1). Exit status 2 when an
/// input could not be read or the output was refused.
pub fn command(common: &Common, mut opts: Options) -> io::Result<ExitCode> {
    let (pgn_table, sgf_table) = tables(&opts.table).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "no table `{}` (games, trees, moves, positions, json)",
                opts.table
            ),
        )
    })?;
    // the output is checked before anything is read (it is created when the first rows come)
    let guard = Guard::new(&common.files, opts.sink.force);
    if opts.sink.dataset || opts.sink.max_rows_per_file.is_some() {
        guard.check_dataset(&opts.out, opts.to.extension())?;
    } else {
        guard.check(&opts.out)?;
    }
    opts.sink.inputs = common.files.clone();
    let mut sink: Option<(Box<dyn Sink>, Table)> = None;
    let mut chunks = Rechunk {
        pending: Vec::new(),
        rows: 0,
        size: opts.batch_rows,
    };
    let mut mismatched = 0u64;
    let mut refused = 0u64;
    let work = ExportWork(&opts);
    let scanned = run::scan(common, "exporting", &work, |event| {
        let Event::Piece {
            input,
            visited,
            info,
        } = event
        else {
            return Ok(());
        };
        let (rows, table, format) = match visited {
            Visited::Pgn(PgnPiece::Events(mut v)) => {
                let rows = Rows {
                    builder: None,
                    batches: v.take_batches(),
                    refused: Vec::new(),
                    file: String::new(),
                    batch_rows: 0,
                };
                (rows, pgn_table, "PGN")
            }
            Visited::Pgn(PgnPiece::Dom(dom)) => (dom.each, pgn_table, "PGN"),
            Visited::Sgf(dom) => (dom.each, sgf_table, "SGF"),
        };
        let Some(table) = table else {
            if info.offset == 0 {
                mismatched += 1;
                eprintln!(
                    "kifu export: {}: the {} table holds no {format} game; not exported",
                    crate::run::shown(&input.name),
                    opts.table
                );
            }
            return Ok(());
        };
        for (index, why) in &rows.refused {
            refused += 1;
            eprintln!(
                "kifu export: {}: game {}: {why}",
                crate::run::shown(&input.name),
                info.first_game + index + 1
            );
        }
        let Some(first) = rows.batches.first() else {
            return Ok(());
        };
        if sink.is_none() {
            let s = kifu_export::create(&opts.out, opts.to, first.schema(), &opts.sink)
                .map_err(io::Error::other)?;
            sink = Some((s, table));
        }
        let (s, sink_table) = sink.as_mut().expect("created");
        if *sink_table != table {
            mismatched += 1;
            eprintln!(
                "kifu export: {}: a {} input cannot join the {} table; not exported",
                crate::run::shown(&input.name),
                if table.is_sgf() { "SGF" } else { "PGN" },
                sink_table.id()
            );
            return Ok(());
        }
        let shift = Shift {
            index: info.first_game,
            offset: 0,
            line: 0,
        };
        for batch in &rows.batches {
            let batch = kifu_export::rebase(batch, shift).map_err(io::Error::other)?;
            chunks.push(batch, s.as_mut())?;
        }
        Ok(())
    })?;
    let sink = match sink {
        Some((mut s, _)) => {
            chunks.finish(s.as_mut())?;
            s
        }
        // no rows at all: the table, empty
        None => {
            let sgf_first = common.format == Some(crate::Format::Sgf) || pgn_table.is_none();
            let table = if sgf_first { sgf_table } else { pgn_table }.expect("one of them");
            let schema = kifu_export::schema(table, &opts.table_options);
            kifu_export::create(&opts.out, opts.to, schema, &opts.sink).map_err(io::Error::other)?
        }
    };
    let summary = sink.finish().map_err(io::Error::other)?;
    if !common.quiet {
        eprintln!(
            "kifu export: {} rows in {} file(s) at {}",
            summary.rows,
            summary.files.len(),
            opts.out.display()
        );
    }
    Ok(Outcome::of(&scanned, mismatched + refused > 0).code())
}
