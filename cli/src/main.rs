//! `kifu`: statistics, JSON, located errors, standard rewriting, filtering, splitting and
//! deduplication of PGN and SGF game records, plain, compressed or bundled, on every core.
//!
//! ```text
//! kifu [stats|check|json|fmt|filter|split|dedup] [FILE|DIR|ARCHIVE|-]... [-j N] [--format pgn|sgf]
//! ```
//!
//! `kifu` alone shows the statistics of an embedded sample, and says so; a command with no input
//! reads stdin, or the sample when stdin is a terminal (`--sample` asks for it).

mod check;
mod dedup;
mod dom;
mod export;
mod filter;
mod fmt;
mod json;
mod out;
mod predicate;
mod problem;
mod render;
mod run;
mod source;
mod split;
mod stats;

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser as ClapParser, Subcommand, ValueEnum};

/// Streaming reader of PGN (chess) and SGF (Go) game records, plain, compressed (zstd, gzip,
/// bzip2, xz) or bundled (tar, zip), on every core: statistics, located errors, JSON, standard
/// rewriting, filtering, splitting and deduplication.
///
/// Exit status: 0 games read, nothing found; 1 no game at all in the inputs, or problems found
/// (check: problems in the games; json, fmt: an input without any game; filter: no game kept);
/// 2 an input that could not be read, was cut short or is corrupt (its checksum), an output
/// refused, or a usage error. `kifu` alone shows the statistics of an embedded sample.
#[derive(ClapParser, Debug)]
#[command(name = "kifu", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

const MAX_GAME_BYTES: usize = kifu::pgn::GameBuilder::DEFAULT_MAX_GAME_BYTES;

#[derive(Subcommand, Debug)]
enum Command {
    /// Count games, tags, moves, comments, NAGs, variations and errors, with throughput.
    Stats {
        #[command(flatten)]
        common: Common,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print every problem as FILE:LINE:COLUMN: SEVERITY[ CODE]: MESSAGE: `TEXT` (game N, move
    /// M | node K); exit 1 if any.
    Check {
        #[command(flatten)]
        common: Common,
        /// One JSON object per problem (JSON Lines), then a summary object.
        #[arg(long)]
        json: bool,
        /// Replay the games on a board too: illegal and ambiguous moves, bad FENs, unsupported
        /// variants (chess); occupied points, ko, suicide, points off the board (Go).
        #[arg(long)]
        legal: bool,
    },
    /// Print one JSON object per game (see README for the schema). An input holding no game,
    /// only problems, is named on stderr, and the exit status is then 1.
    Json {
        #[command(flatten)]
        common: Common,
        /// SGF text encoding: `auto` (per game tree: the charset CA names, else UTF-8, else
        /// ISO-8859-1 unless the text shows another) or a charset name (`utf-8`, `gbk`,
        /// `shift_jis`, …) for every game tree.
        #[arg(long, default_value = "auto")]
        charset: String,
        /// PGN: replay the moves and give each its move in UCI (`"uci"`).
        #[arg(long)]
        uci: bool,
        /// PGN: replay the moves and give each the FEN after it (`"fen"`).
        #[arg(long)]
        fen: bool,
        /// The most a game may hold in memory, in bytes (estimated); the rest of a larger game
        /// is skipped and reported (`game_too_large`, SGF `E103`).
        #[arg(long, value_name = "BYTES", default_value_t = MAX_GAME_BYTES)]
        max_game_bytes: usize,
    },
    /// Rewrite the games in the standard form: PGN in the export format (Seven Tag Roster first,
    /// lines of at most 79 characters), SGF as FF[4]. Problems met while reading go to stderr
    /// as `kifu check` prints them; the games are written as read (repaired where the reader
    /// repairs). Exit 1 if an input held no game but problems.
    Fmt {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        output: OutputArgs,
        /// Leave out any of: comments, variations, nags (comma-separated). For SGF, comments
        /// are C and GC, nags the annotation properties (BM DO IT TE DM GB GW UC HO).
        #[arg(long, value_delimiter = ',', value_enum)]
        strip: Vec<StripWhat>,
        /// PGN: each game's movetext on one line; SGF: each game tree on one line.
        #[arg(long)]
        compact: bool,
        /// SGF: one node per line.
        #[arg(long, conflicts_with = "compact")]
        node_per_line: bool,
        /// The most a game may hold in memory, in bytes (estimated).
        #[arg(long, value_name = "BYTES", default_value_t = MAX_GAME_BYTES)]
        max_game_bytes: usize,
    },
    /// Keep the games that pass every test: `--where` on tags (PGN) or root properties (SGF),
    /// ply bounds, what a game holds; write them in the standard form or as JSON lines. Exit 1
    /// if no game was kept.
    Filter {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        output: OutputArgs,
        /// A test NAME OP VALUE, OP one of = != ~ (contains, ignoring case) !~ < <= > >=:
        /// numbers compare as numbers, dates (Date, UTCDate, EventDate, DT) part by part
        /// (`Date>=2020`, `Date<2021.06`), other text as text. A game without the tag passes
        /// only != and !~. Repeat for more tests; all must hold.
        #[arg(short = 'w', long = "where", value_name = "TEST")]
        tests: Vec<predicate::Test>,
        /// At least this many main-line plies (SGF: moves).
        #[arg(long, value_name = "N")]
        min_plies: Option<u64>,
        /// At most this many main-line plies (SGF: moves).
        #[arg(long, value_name = "N")]
        max_plies: Option<u64>,
        /// The game holds this (repeat or comma-separate).
        #[arg(long, value_delimiter = ',', value_enum)]
        has: Vec<predicate::Feature>,
        /// The game does not hold this.
        #[arg(long, value_delimiter = ',', value_enum)]
        lacks: Vec<predicate::Feature>,
        /// PGN: the main line, replayed on a board, reaches this position (its start included),
        /// compared by Polyglot key (the move counters do not matter).
        #[arg(long, value_name = "FEN")]
        reaches: Option<String>,
        /// Keep the games that fail instead.
        #[arg(short = 'v', long)]
        invert: bool,
        /// Print only how many games are kept.
        #[arg(short = 'c', long)]
        count: bool,
        /// The form of the games written.
        #[arg(long, value_enum, default_value_t)]
        to: render::To,
        /// The most a game may hold in memory, in bytes (estimated).
        #[arg(long, value_name = "BYTES", default_value_t = MAX_GAME_BYTES)]
        max_game_bytes: usize,
    },
    /// Write the games into files of N games each (`--games`) or one file per value of a tag or
    /// root property (`--by ECO`, `--by Event`, `--by year`), in a directory.
    Split {
        #[command(flatten)]
        common: Common,
        /// The directory the files go to (made if missing).
        #[arg(short = 'o', long = "output", value_name = "DIR")]
        dir: PathBuf,
        /// N games per file.
        #[arg(
            long,
            value_name = "N",
            conflicts_with = "by",
            required_unless_present = "by"
        )]
        games: Option<u64>,
        /// One file per value of this tag (PGN) or root property (SGF); `year`: the year of
        /// Date (PGN; else UTCDate, EventDate) or DT (SGF).
        #[arg(long, value_name = "NAME")]
        by: Option<String>,
        /// File name template: {n} (file number, 0001 on), {value} (the value, made safe for a
        /// file name), {ext}. Default: part-{n}.{ext} with --games, {value}.{ext} with --by.
        #[arg(long, value_name = "TEMPLATE")]
        name: Option<String>,
        /// Replace files that exist already.
        #[arg(long)]
        force: bool,
        /// The form of the games written.
        #[arg(long, value_enum, default_value_t)]
        to: render::To,
        /// The most a game may hold in memory, in bytes (estimated).
        #[arg(long, value_name = "BYTES", default_value_t = MAX_GAME_BYTES)]
        max_game_bytes: usize,
    },
    /// Write the games as rows of a table: Parquet (zstd), CSV or JSON Lines, to one file or a
    /// dataset directory that DuckDB, Polars and Spark read as one table (see docs/export.md).
    Export {
        #[command(flatten)]
        common: Common,
        /// The file format.
        #[arg(long, value_enum)]
        to: ExportFormat,
        /// The output: a file, or a dataset directory (with --dataset or --max-rows-per-file).
        #[arg(short = 'o', long = "output", value_name = "OUT")]
        out: PathBuf,
        /// games (PGN; `trees` for SGF: one row per game), moves (one row per main-line move),
        /// json (the `kifu json` objects).
        #[arg(long, default_value = "games")]
        table: String,
        /// moves: the moves of every variation too (each row names its line).
        #[arg(long)]
        variations: bool,
        /// PGN: replay the games on a board: `games` gains `final_fen`, `moves` gains `uci`,
        /// `fen` and `key` (Polyglot).
        #[arg(long)]
        replay: bool,
        /// Write a dataset directory (part-00000.parquet, …), even with one file.
        #[arg(long)]
        dataset: bool,
        /// At most this many rows per file of a dataset directory.
        #[arg(long, value_name = "N")]
        max_rows_per_file: Option<u64>,
        /// Rows per Parquet row group (at most; groups also end at 64 MiB of data).
        #[arg(long, value_name = "N", default_value_t = 122_880)]
        row_group_rows: usize,
        /// SGF text encoding, as for `kifu json`.
        #[arg(long, default_value = "auto")]
        charset: String,
        /// Replace OUT if it exists.
        #[arg(long)]
        force: bool,
        /// The most a game may hold in memory, in bytes (estimated).
        #[arg(long, value_name = "BYTES", default_value_t = MAX_GAME_BYTES)]
        max_game_bytes: usize,
    },
    /// Drop the games whose moves repeat an earlier game's (tags may differ): PGN by the start
    /// (FEN) and main line, SGF by board, setup and main line. The count goes to stderr.
    Dedup {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        output: OutputArgs,
        /// List the duplicates (FILE:GAME: duplicate of FILE:GAME) instead of writing games.
        #[arg(long)]
        list: bool,
        /// What makes two games the same: their moves as written (parsed), or their main lines
        /// replayed on a board (the same moves reaching the same final position, whatever
        /// notation wrote them: SAN, UCI, long algebraic).
        #[arg(long, value_enum, default_value_t = DedupBy::Moves)]
        by: DedupBy,
        /// The form of the games written.
        #[arg(long, value_enum, default_value_t)]
        to: render::To,
        /// The most a game may hold in memory, in bytes (estimated).
        #[arg(long, value_name = "BYTES", default_value_t = MAX_GAME_BYTES)]
        max_game_bytes: usize,
    },
}

/// What `kifu dedup` compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DedupBy {
    /// The moves as parsed.
    Moves,
    /// The main line replayed: same moves, same final position.
    Positions,
}

/// The file formats of `kifu export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ExportFormat {
    /// Apache Parquet, zstd-compressed.
    Parquet,
    /// CSV (RFC 4180) with a header line.
    Csv,
    /// JSON Lines.
    Jsonl,
}

/// What `kifu fmt --strip` can leave out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum StripWhat {
    Comments,
    Variations,
    Nags,
}

/// Where a command that writes games writes them.
#[derive(clap::Args, Debug, Default)]
struct OutputArgs {
    /// Write to FILE instead of stdout (under a temporary name until complete; never an input).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace FILE if it exists.
    #[arg(long)]
    force: bool,
}

/// The default `--frame-buffer`: 4 MiB. Two threads decoding pzstd
/// frames each that far ahead keep both cores busy (one decoder runs beside the parsing), while
/// peak memory stays near that of one thread (64 MiB, kifu-input's default, held whole frames
/// of 16-32 MiB ahead: 160 MiB on a 1 GB lichess-style stream).
pub const DEFAULT_FRAME_BUFFER: u64 = 4 << 20;

/// What every command takes.
#[derive(clap::Args, Debug, Default)]
pub struct Common {
    /// Files, directories (every .pgn and .sgf below, compressed and archived ones too) and
    /// archives (.zip, .tar, .tar.gz, .tgz, .tar.bz2, .tar.xz, .tar.zst); `-` for stdin.
    /// Compression is told from the bytes (zstd, gzip, bzip2, xz).
    pub files: Vec<PathBuf>,
    /// Threads (default: the machine's cores). With 1, each input is read straight through;
    /// with more, inputs in parallel and large ones in pieces: the output is the same.
    #[arg(short = 'j', long = "threads", value_name = "N")]
    pub threads: Option<usize>,
    /// About how many bytes each piece of a large input holds when read on several threads.
    #[arg(long, value_name = "BYTES", default_value_t = kifu::par::Options::DEFAULT_PIECE_SIZE)]
    pub piece_size: usize,
    /// Bytes read at a time (down to 1).
    #[arg(long, default_value_t = 64 * 1024, value_parser = clap::value_parser!(u64).range(1..))]
    pub buffer_size: u64,
    /// Decoded bytes of each independent frame (pzstd) or stream (pbzip2) that a decoding
    /// thread may hold ahead of the reader; larger frames are decoded ahead only this far.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_FRAME_BUFFER,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub frame_buffer: u64,
    /// The most memory one decoder may take for what an input asks (a zstd window, an xz
    /// dictionary): a larger one is refused, named as the limit. Bytes, or with a suffix: K,
    /// M, G (powers of 1024). `zstd --long=31` archives need 2G.
    #[arg(long, value_name = "SIZE", default_value = "128M", value_parser = parse_size)]
    pub decoder_memory: u64,
    /// The format of stdin (and of inputs whose name does not say).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// No progress bar (it is drawn on stderr only when stderr is a terminal), no note on the
    /// thread count, and no summary from `dedup` and `split`.
    #[arg(short, long)]
    pub quiet: bool,
    /// Read the embedded sample (3 games, one of them sloppy on purpose) instead of any input.
    /// It is also read when no input is named and stdin is a terminal; an empty or piped stdin
    /// is read as it is (no game from nowhere).
    #[arg(long)]
    pub sample: bool,
}

/// The most threads `-j` gives, per core of the machine (and at least [`MIN_THREAD_CAP`]).
pub const THREADS_PER_CORE: usize = 8;
/// The cap on `-j` is never below this.
pub const MIN_THREAD_CAP: usize = 16;

impl Common {
    /// The threads to use: `-j`, at most [`THREADS_PER_CORE`] per core (at least
    /// [`MIN_THREAD_CAP`]); the machine's cores by default.
    pub fn threads(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        match self.threads.filter(|&n| n > 0) {
            None => cores,
            Some(n) => n.min(thread_cap(cores)),
        }
    }

    /// Says on stderr (unless `--quiet`) when `-j` asked for more threads than the cap.
    pub fn note_threads(&self) {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if let Some(n) = self.threads
            && n > thread_cap(cores)
            && !self.quiet
        {
            eprintln!(
                "kifu: -j {n}: using {} threads ({THREADS_PER_CORE} per core on this machine's {cores}, at least {MIN_THREAD_CAP})",
                thread_cap(cores)
            );
        }
    }
}

/// A size on the command line: bytes, or a number with `K`, `M`, `G` (or `KiB`, `MiB`, `GiB`;
/// powers of 1024), as `128M`.
fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("`{text}`: a size is a number of bytes, or with K, M or G"))?;
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return Err(format!("`{text}`: the unit is K, M or G")),
    };
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}`: too large"))
}

/// The most threads on a machine of `cores` cores.
fn thread_cap(cores: usize) -> usize {
    cores.saturating_mul(THREADS_PER_CORE).max(MIN_THREAD_CAP)
}

/// Input formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Portable Game Notation (chess).
    Pgn,
    /// Smart Game Format (Go and other games).
    Sgf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // an interrupt (SIGINT, SIGTERM, SIGHUP) removes the temporary files of the outputs
    #[cfg(unix)]
    if let Err(e) = kifu_output::remove_on_signal() {
        eprintln!("kifu: cannot watch for interrupts: {e}");
    }
    // `kifu` alone is the tour: the statistics of the embedded sample, said so on stderr (it
    // reads no stdin: every command does, and none of them invents a game)
    let command = cli.command.unwrap_or(Command::Stats {
        common: Common {
            buffer_size: 64 * 1024,
            frame_buffer: DEFAULT_FRAME_BUFFER,
            piece_size: kifu::par::Options::DEFAULT_PIECE_SIZE,
            sample: true,
            decoder_memory: 128 << 20,
            ..Common::default()
        },
        json: false,
    });
    match run(command) {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kifu: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> io::Result<ExitCode> {
    match command {
        Command::Stats { common, json } => stats::command(&common, json),
        Command::Check {
            common,
            json,
            legal,
        } => check::command(&common, json, legal),
        Command::Json {
            common,
            charset,
            uci,
            fen,
            max_game_bytes,
        } => json::command(&common, &charset, json::Replay { uci, fen }, max_game_bytes),
        Command::Fmt {
            common,
            output,
            strip,
            compact,
            node_per_line,
            max_game_bytes,
        } => {
            let opts = fmt::Options {
                strip: fmt::Strip {
                    comments: strip.contains(&StripWhat::Comments),
                    variations: strip.contains(&StripWhat::Variations),
                    nags: strip.contains(&StripWhat::Nags),
                },
                compact,
                node_per_line,
                max_game_bytes,
            };
            fmt::command(&common, output.output.as_deref(), output.force, &opts)
        }
        Command::Filter {
            common,
            output,
            tests,
            min_plies,
            max_plies,
            has,
            lacks,
            reaches,
            invert,
            count,
            to,
            max_game_bytes,
        } => {
            let reaches = match reaches {
                Some(fen) => Some(kifu_replay::chess::position_key(&fen).map_err(|e| {
                    io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("--reaches `{fen}`: {e}"),
                    )
                })?),
                None => None,
            };
            let opts = filter::Options {
                predicate: predicate::Predicate {
                    tests,
                    min_plies,
                    max_plies,
                    has,
                    lacks,
                    reaches,
                },
                invert,
                to,
                count,
                max_game_bytes,
            };
            filter::command(&common, opts, output.output.as_deref(), output.force)
        }
        Command::Split {
            common,
            dir,
            games,
            by,
            name,
            force,
            to,
            max_game_bytes,
        } => {
            let by = match (games, by) {
                (Some(n), _) if n > 0 => split::By::Count(n),
                (_, Some(name)) => split::By::Value(name),
                _ => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "--games N (at least 1) or --by NAME",
                    ));
                }
            };
            let opts = split::Options {
                dir,
                by,
                name,
                to,
                max_game_bytes,
            };
            split::command(&common, opts, force)
        }
        Command::Export {
            common,
            to,
            out,
            table,
            variations,
            replay,
            dataset,
            max_rows_per_file,
            row_group_rows,
            charset,
            force,
            max_game_bytes,
        } => {
            let opts = export::Options {
                out,
                to: match to {
                    ExportFormat::Parquet => kifu_export::OutFormat::Parquet,
                    ExportFormat::Csv => kifu_export::OutFormat::Csv,
                    ExportFormat::Jsonl => kifu_export::OutFormat::Jsonl,
                },
                table,
                table_options: kifu_export::TableOptions {
                    variations,
                    charset: kifu_export::Charset::by_name(&charset).ok_or_else(|| {
                        io::Error::new(
                            io::ErrorKind::InvalidInput,
                            format!("unknown charset `{charset}`"),
                        )
                    })?,
                    ..Default::default()
                },
                sink: kifu_export::SinkOptions {
                    force,
                    dataset,
                    max_rows_per_file,
                    row_group_rows,
                    ..Default::default()
                },
                batch_rows: 8192,
                replay,
                max_game_bytes,
            };
            export::command(&common, opts)
        }
        Command::Dedup {
            common,
            output,
            list,
            by,
            to,
            max_game_bytes,
        } => dedup::command(
            &common,
            to,
            list,
            by == DedupBy::Positions,
            output.output.as_deref(),
            output.force,
            max_game_bytes,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_take_suffixes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("128M"), Ok(128 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("64KiB"), Ok(64 << 10));
        assert!(parse_size("12X").is_err());
        assert!(parse_size("M").is_err());
        assert!(parse_size("99999999999G").is_err());
    }
}
