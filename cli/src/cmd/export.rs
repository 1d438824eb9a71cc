//! `kifu export`: game records as tables (kifu-export): Parquet (zstd), CSV or JSON Lines, or
//! NumPy arrays (`.npz`, a directory of `.npy`), one file or a dataset directory, built and
//! written by kifu-pipeline's table pipeline; this module holds the arguments.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use kifu_export::{OutFormat, SinkOptions, Table, TableOptions};
use kifu_pipeline::ScanOptions;
use kifu_pipeline::tables::TableSpec;

use crate::args::{Common, GameLimit};
use crate::run::{self, Outcome};

// the piece size of the positions tables unless `--piece-size` says otherwise (the
// pipeline's: `kifu.to_arrow`'s and `kifu.to_parquet`'s too)
use kifu_pipeline::tables::POSITIONS_PIECE_SIZE;

/// Write the games as rows of a table: Parquet (zstd), CSV or JSON Lines, to one file or a
/// dataset directory that DuckDB, Polars and Spark read as one table (see docs/export.md).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// The file format (default: told by OUT's extension, `.parquet`, `.csv`, `.jsonl`,
    /// `.npz`, `.npy`; Parquet for a dataset directory).
    #[arg(long, value_enum, help_heading = "Output")]
    pub to: Option<ExportFormat>,
    /// The output: a file (`-`: stdout), or a dataset directory (with --dataset,
    /// --rows-per-file or --partition-by; `--to npy`: always a directory).
    #[arg(
        short = 'o',
        long = "output",
        value_name = "OUT",
        help_heading = "Output"
    )]
    pub out: PathBuf,
    /// The table: one row per game, per move, per position, or the `kifu json` objects.
    #[arg(long, value_enum, default_value_t = TableName::Games)]
    pub table: TableName,
    /// moves: the moves of every variation too (each row names its line).
    #[arg(long)]
    pub variations: bool,
    /// Only these columns, comma-separated (in the table's order): the work of the others is
    /// not done (`--columns White,Black,Result,WhiteElo` skips the movetext and move lists).
    /// `--to npz|npy`: every column of numbers unless this names others (text as fixed-width
    /// bytes).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub columns: Option<Vec<String>>,
    /// PGN: replay the games on a board: `games` gains `final_fen`, `moves` gains `uci`,
    /// `fen` and `key` (Polyglot).
    #[arg(long)]
    pub replay: bool,
    /// SGF positions: each position 8 times, once per symmetry of the board (4 on a board that
    /// is not square), board, move, ko point and key turned together; column `symmetry`.
    #[arg(long)]
    pub symmetries: bool,
    /// Write a dataset directory (part-00000.parquet, …), even with one file.
    #[arg(long)]
    pub dataset: bool,
    /// Hive partitions of a dataset directory (`OUT/year=2024/month=2024-01/part-00000.parquet`):
    /// any game key of `-w` (`year`, `month`, `speed`, `result`, `winner`, a tag or property)
    /// of the `games` and `trees` tables, or a column of the table.
    #[arg(
        long,
        value_name = "KEYS",
        value_delimiter = ',',
        help_heading = "Output"
    )]
    pub partition_by: Vec<String>,
    /// At most this many rows per file of a dataset directory (at least 1): each file holds
    /// exactly N but the last, the shards of a training set (`--rows-per-file`, the same).
    #[arg(long, visible_alias = "rows-per-file", value_name = "N",
          value_parser = crate::args::parse_count)]
    pub max_rows_per_file: Option<u64>,
    /// Rows per Parquet row group (at most, at least 1; groups also end at 64 MiB of data).
    #[arg(long, value_name = "N", default_value_t = 122_880,
          value_parser = crate::args::parse_count_usize)]
    pub row_group_rows: usize,
    /// SGF text encoding, as for `kifu json`.
    #[arg(long, default_value = "auto")]
    pub charset: String,
    /// Replace OUT if it exists.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub limit: GameLimit,
    #[command(flatten)]
    pub positions: PositionArgs,
}

/// The games exported, and the positions of the `positions` tables (docs/export.md § Which
/// positions).
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// Only the games that pass the test, as for `kifu filter -w` (NAME OP VALUE: a tag or
    /// root property, or a derived key such as speed, year, plies; tests joined by `or` in
    /// one -w, repeated -w all hold).
    #[arg(
        short = 'w',
        long = "where",
        value_name = "TEST",
        help_heading = "Which rows"
    )]
    pub tests: Vec<kifu_pipeline::keys::AnyOf>,
    /// positions: only the positions at this ply or later (0 is the start: `--min-ply 10`
    /// skips the first ten half-moves).
    #[arg(long, value_name = "N", help_heading = "Which rows")]
    pub min_ply: Option<u32>,
    /// positions: only the positions at this ply or earlier.
    #[arg(long, value_name = "N", help_heading = "Which rows")]
    pub max_ply: Option<u32>,
    /// positions: a game's rows end before its first move that cannot be played (that row
    /// and, in Go, every later one left out).
    #[arg(long, help_heading = "Which rows")]
    pub legal_only: bool,
    /// positions: keep each position with this probability (0 < RATE <= 1), decided by a
    /// hash of --seed, the game and the position: the same rows at every -j.
    #[arg(long, value_name = "RATE", help_heading = "Which rows")]
    pub sample_rate: Option<f64>,
    /// positions: the seed of --sample-rate.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 0,
        requires = "sample_rate",
        help_heading = "Which rows"
    )]
    pub seed: u64,
    /// positions: one row per distinct position (by `key`), the first in input order; the
    /// repeats dropped are counted on stderr.
    #[arg(long, help_heading = "Which rows")]
    pub distinct: bool,
    /// positions: the memory --distinct's set of keys may take (8 bytes a slot, at most 7/8
    /// full; 1,024 slots at least); past it, new positions are kept unchecked and counted on
    /// stderr.
    #[arg(long, value_name = "SIZE", default_value = "512M", requires = "distinct",
          value_parser = crate::args::parse_nonzero_size, help_heading = "Which rows")]
    pub distinct_memory: u64,
}

impl PositionArgs {
    /// The positions options, checked: `None` with no positions flag.
    fn options(&self, table: TableName) -> io::Result<kifu_export::PositionOptions> {
        let usage = |m: String| io::Error::new(io::ErrorKind::InvalidInput, m);
        let any = self.min_ply.is_some()
            || self.max_ply.is_some()
            || self.legal_only
            || self.sample_rate.is_some()
            || self.distinct;
        if any && table != TableName::Positions {
            return Err(usage(
                "--min-ply, --max-ply, --legal-only, --sample-rate and --distinct choose \
                 positions: --table positions"
                    .into(),
            ));
        }
        crate::query::check_plies(self.min_ply, self.max_ply)?;
        let sample = match self.sample_rate {
            None => None,
            Some(rate) => Some(kifu_export::Sample::new(rate, self.seed).ok_or_else(|| {
                usage(format!("--sample-rate {rate}: a rate above 0, at most 1"))
            })?),
        };
        Ok(kifu_export::PositionOptions {
            min_ply: self.min_ply.unwrap_or(0),
            max_ply: self.max_ply,
            legal_only: self.legal_only,
            sample,
            distinct: self.distinct.then(|| kifu_export::Distinct {
                memory: usize::try_from(self.distinct_memory).unwrap_or(usize::MAX),
            }),
        })
    }
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
    /// One row per position of the main line: chess (PGN: bitboards, key, EPD, the move played
    /// from it, the final position included) or Go (SGF: the board before each move).
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

/// The format OUT's extension names (`.parquet`, `.csv`, `.jsonl` or `.json`, `.npz`,
/// `.npy`).
fn format_of(out: &std::path::Path) -> Option<ExportFormat> {
    Some(match OutFormat::by_extension(out)? {
        OutFormat::Parquet => ExportFormat::Parquet,
        OutFormat::Csv => ExportFormat::Csv,
        OutFormat::Jsonl => ExportFormat::Jsonl,
        OutFormat::Npz => ExportFormat::Npz,
        OutFormat::Npy => ExportFormat::Npy,
    })
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
    /// NumPy arrays in one `.npz` archive (stored): `numpy.load(OUT)` gives a dict of arrays,
    /// a column each (`bitboards` uint64 [N, 12], Go `board` uint8 [N, rows, cols]).
    Npz,
    /// NumPy arrays in a directory, a `.npy` file per column: `numpy.load(f, mmap_mode='r')`
    /// maps each without copying.
    Npy,
}

/// `kifu export`: the games of every input as rows of one table (kifu-pipeline's
/// [`export`](kifu_pipeline::tables::export), which `kifu.to_parquet` runs too). The output is
/// created when the first rows come (its schema is the table of the first input's format); an
/// input of the other format cannot join it and is named on stderr (exit status 1). Exit
/// status 2 when an input could not be read or the output was refused.
pub fn run(args: Args) -> io::Result<ExitCode> {
    crate::alloc::for_tables(args.table.id() == "positions");
    let partition_keys: Vec<_> = (args.partition_by.iter())
        .filter_map(|name| kifu_pipeline::keys::Key::parse(name).ok())
        .collect();
    let keys = args.positions.tests.iter().flat_map(|t| t.keys());
    crate::run::warn_near_misses(args.common.quiet, keys.chain(&partition_keys));
    // a dataset directory's name tells no format: Parquet, unless --to says otherwise
    let dataset = args.dataset || args.max_rows_per_file.is_some() || !args.partition_by.is_empty();
    let to = args
        .to
        .or_else(|| format_of(&args.out))
        .or(dataset.then_some(ExportFormat::Parquet))
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: --to parquet|csv|jsonl|npz|npy (the name has no extension that tells)",
                    args.out.display()
                ),
            )
        })?;
    let to = match to {
        ExportFormat::Parquet => OutFormat::Parquet,
        ExportFormat::Csv => OutFormat::Csv,
        ExportFormat::Jsonl => OutFormat::Jsonl,
        ExportFormat::Npz => OutFormat::Npz,
        ExportFormat::Npy => OutFormat::Npy,
    };
    // --to and a name that says another format: never CSV under a `.parquet` name (a dataset
    // directory's name tells no format)
    if args.to.is_some()
        && !dataset
        && let Some(named) = to.named_otherwise(&args.out)
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{}: --to {} writes {}, but the name's extension says {}: name it `.{}`, or \
                 leave out --to",
                args.out.display(),
                to.extension(),
                to.extension(),
                named.extension(),
                to.extension()
            ),
        ));
    }
    // a compressed file's name (`x.csv.gz`): kifu writes none, so never plain text under it
    let compressed = OutFormat::compressed_name(&args.out);
    if let Some(ext) = compressed.filter(|_| !dataset) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{}: kifu export writes no `.{ext}` file ({} is written as it is; Parquet \
                 compresses its columns itself): name it without `.{ext}` and compress it after",
                args.out.display(),
                to.extension(),
            ),
        ));
    }
    if args.symmetries && args.table != TableName::Positions {
        // only Go positions turn; which format the inputs hold is known only once read
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--symmetries turns the Go positions of SGF games: --table positions",
        ));
    }
    let mut spec = TableSpec::by_name(args.table.id()).expect("every --table names a table");
    spec.options = TableOptions {
        variations: args.variations,
        charset: kifu_export::Charset::by_name(&args.charset).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("unknown charset `{}`", args.charset),
            )
        })?,
        positions: args.positions.options(args.table)?,
        symmetries: args.symmetries,
        ..Default::default()
    };
    spec.tests = args.positions.tests.clone();
    spec.replay = args.replay;
    if let Some(idle) = spec.idle_options().first() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "--{idle} changes nothing in the positions table (its rows are the main line's, \
                 replayed: epd, key, uci): --replay and --variations are for the games and \
                 moves tables"
            ),
        ));
    }
    spec.max_game_bytes = args.limit.max_game_bytes;
    spec.columns = args.columns.clone();
    spec.check_columns()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    if to.is_array() && spec.columns.is_none() {
        // arrays of numbers (the text columns, and their work, left out): those of the table
        // of either format
        // of either format, and those --partition-by names (the key `result`: `outcome`)
        let mut names: Vec<String> = Vec::new();
        for table in [spec.pgn, spec.sgf].into_iter().flatten() {
            let schema = spec.schema(table);
            let keys = args.partition_by.iter().map(|k| match k.as_str() {
                "result" => "outcome",
                other => other,
            });
            let keys = keys
                .filter(|k| schema.field_with_name(k).is_ok())
                .map(String::from);
            for name in kifu_export::array_columns(&schema).into_iter().chain(keys) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        spec.columns = Some(names);
    }
    let sink = SinkOptions {
        force: args.force,
        dataset: args.dataset,
        max_rows_per_file: args.max_rows_per_file,
        partition_by: args.partition_by.clone(),
        row_group_rows: args.row_group_rows,
        ..Default::default()
    };
    let common = &args.common;
    let mut scan = run::scan_of(common, "exporting")?;
    if common.piece_size.is_none() && spec.builds_positions() {
        // a position is a row of about 300 bytes: a piece of 1 MiB of games is some 20 MiB of
        // rows, and 2N + 2 pieces are in flight (docs/figures.md § Every command in constant
        // memory: 420 MiB at -j2 with pieces of 1 MiB, 160 with 256 KiB, at the same speed)
        let options = ScanOptions {
            piece_size: POSITIONS_PIECE_SIZE,
            ..*scan.options()
        };
        scan = scan.with_options(options);
    }
    let bar = run::Bar::start(common.quiet, scan.progress());
    let done = kifu_pipeline::tables::export(scan, &spec, &args.out, to, &sink, run::note);
    bar.finish();
    let done = done?;
    run::report(&done.scan.scanned);
    if !common.quiet {
        eprintln!(
            "kifu export: {} rows in {} file(s) at {}",
            done.summary.rows,
            done.summary.files.len(),
            args.out.display()
        );
        if let Some((path, other)) = &done.other {
            // a mixed archive: its other format's table, beside the output
            eprintln!(
                "kifu export: {} rows in {} file(s) at {} (the {} games)",
                other.rows,
                other.files.len(),
                path.display(),
                match done.scan.other_table {
                    Some(t) if t.is_sgf() => "SGF",
                    _ => "PGN",
                }
            );
        }
        let go = [done.scan.table, done.scan.other_table].contains(&Some(Table::SgfPositions));
        if args.symmetries && done.scan.table == Some(Table::PgnPositions) && !go {
            eprintln!(
                "kifu export: --symmetries: no SGF game was read; PGN positions have no \
                 symmetries (each written once, as without the flag)"
            );
        }
        if let Some(d) = done.scan.distinct {
            eprintln!(
                "kifu export: --distinct: {} distinct positions, {} repeats dropped",
                d.keys, d.dropped
            );
            if d.unchecked > 0 {
                eprintln!(
                    "kifu export: --distinct: the set of keys was full ({} keys, \
                     --distinct-memory): {} rows kept unchecked, their positions may repeat",
                    d.capacity, d.unchecked
                );
            }
        }
    }
    // rows an array file could not hold (Go boards of another size than its first), said
    // even with -q: they explain the exit status
    let other = done.other.as_ref().map(|(path, s)| (path.as_path(), s));
    let mut left_out = false;
    for (path, summary) in std::iter::once((args.out.as_path(), &done.summary)).chain(other) {
        if summary.left_out > 0 {
            left_out = true;
            eprintln!(
                "kifu export: {}: {} positions left out: their board is not the size of the \
                 first (an array holds one size; --rows-per-file or --dataset writes a folder \
                 per size, board=19x19/)",
                path.display(),
                summary.left_out
            );
        }
        // text cut to the arrays' width: lossy too, said even with -q, exit status 1
        if summary.truncated > 0 {
            left_out = true;
            eprintln!(
                "kifu export: {}: {} text values cut to {} bytes (an array's text is fixed-width, \
                 as wide as its longest value: the array formats cut longer values at a UTF-8 \
                 character; Parquet, CSV or JSON Lines keep them whole)",
                path.display(),
                summary.truncated,
                kifu_export::arrays::TEXT_WIDTH
            );
        }
    }
    Ok(Outcome::of(&done.scan.scanned, done.scan.left_out > 0 || left_out).code())
}
