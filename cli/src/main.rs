//! `kifu`: statistics, JSON, error reports and standard rewriting of PGN and SGF game records.
//!
//! ```text
//! kifu [stats|json|check|fmt] [FILE|DIR|-]... [--buffer-size BYTES] [--format pgn|sgf]
//! ```
//!
//! With no file and nothing on stdin, it runs on an embedded sample and says so.

mod fmt;
mod input;
mod json;
mod stats;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser as ClapParser, Subcommand, ValueEnum};

use input::{Input, Source};

/// Streaming reader of PGN (chess) and SGF (Go) game records: statistics, JSON, located errors
/// and standard rewriting.
#[derive(ClapParser, Debug)]
#[command(name = "kifu", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

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
    /// Print one JSON object per game (see README for the schema). An input holding no game,
    /// only problems, is named on stderr, and the exit status is then 1.
    Json {
        #[command(flatten)]
        common: Common,
        /// SGF text encoding: `auto` (per game tree: the charset CA names, else UTF-8, else
        /// ISO-8859-1 unless the text shows another) or a charset name (`utf-8`, `gbk`, `shift_jis`, …) for every game tree.
        #[arg(long, default_value = "auto")]
        charset: String,
        /// The most a game may hold in memory, in bytes (estimated); the rest of a larger game
        /// is skipped and reported (`game_too_large`, SGF `E103`).
        #[arg(long, value_name = "BYTES", default_value_t = kifu::pgn::GameBuilder::DEFAULT_MAX_GAME_BYTES)]
        max_game_bytes: usize,
    },
    /// Rewrite the games in the standard form: PGN in the export format (Seven Tag Roster first,
    /// lines of at most 79 characters), SGF as FF[4]. Problems met while reading go to stderr
    /// as `kifu check` prints them; the games are written as read (repaired where the reader
    /// repairs). Exit 1 if an input held no game but problems.
    Fmt {
        #[command(flatten)]
        common: Common,
        /// Write to FILE instead of stdout.
        #[arg(short, long, value_name = "FILE")]
        output: Option<std::path::PathBuf>,
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
        /// The most a game may hold in memory, in bytes (estimated); the rest of a larger game
        /// is skipped and reported (`game_too_large`, SGF `E103`).
        #[arg(long, value_name = "BYTES", default_value_t = kifu::pgn::GameBuilder::DEFAULT_MAX_GAME_BYTES)]
        max_game_bytes: usize,
    },
    /// Print every problem as FILE:LINE:COLUMN: SEVERITY[ CODE]: MESSAGE: `TEXT` (game N, move
    /// M | node K); exit 1 if any.
    Check {
        #[command(flatten)]
        common: Common,
    },
}

/// What `kifu fmt --strip` can leave out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum StripWhat {
    Comments,
    Variations,
    Nags,
}

#[derive(clap::Args, Debug, Default)]
struct Common {
    /// Files or directories (every .pgn and .sgf below, sorted); `-` for stdin.
    files: Vec<std::path::PathBuf>,
    /// Bytes read at a time (down to 1).
    #[arg(long, default_value_t = 64 * 1024, value_parser = clap::value_parser!(u64).range(1..))]
    buffer_size: u64,
    /// The format of stdin (and of files whose extension does not say).
    #[arg(long, value_enum)]
    format: Option<Format>,
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
    let command = cli.command.unwrap_or(Command::Stats {
        common: Common::default(),
        json: false,
    });
    let result = match command {
        Command::Stats { common, json } => run_stats(&common, json),
        Command::Json {
            common,
            charset,
            max_game_bytes,
        } => run_json(&common, &charset, max_game_bytes),
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
            run_fmt(&common, output.as_deref(), &opts)
        }
        Command::Check { common } => run_check(&common),
    };
    match result {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kifu: {e}");
            ExitCode::from(2)
        }
    }
}

fn open_all(common: &Common) -> io::Result<Vec<Input>> {
    let buffer = if common.buffer_size == 0 {
        64 * 1024
    } else {
        common.buffer_size as usize
    };
    input::collect(&common.files, buffer)
}

fn run_stats(common: &Common, as_json: bool) -> io::Result<ExitCode> {
    let inputs = open_all(common)?;
    let start = std::time::Instant::now();
    let mut total = stats::Stats::default();
    for input in inputs {
        if matches!(input.source, Source::Sample) {
            eprintln!("kifu: no input given: reading the embedded sample (3 games)");
        }
        match input.format(common.format)? {
            Format::Pgn => input.read_pgn(&mut total)?,
            Format::Sgf => input.read_sgf(&mut total)?,
        }
        total.bytes += input.bytes_read();
    }
    let seconds = start.elapsed().as_secs_f64();
    let out = io::stdout();
    let mut out = out.lock();
    if as_json {
        writeln!(out, "{}", total.to_json(seconds))?;
    } else {
        total.write_text(&mut out, seconds)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_json(common: &Common, charset: &str, max_game_bytes: usize) -> io::Result<ExitCode> {
    let choice = if charset.eq_ignore_ascii_case("auto") {
        json::CharsetChoice::Auto
    } else {
        match kifu::encoding::for_charset(charset.as_bytes()) {
            Some(e) => json::CharsetChoice::Fixed(e),
            None => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("unknown charset `{charset}`"),
                ));
            }
        }
    };
    let inputs = open_all(common)?;
    let out = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, out.lock());
    let mut unclaimed_inputs = 0u64;
    let mut body = Vec::with_capacity(1 << 16);
    let mut unwritten = json::Unwritten::default();
    for input in inputs {
        if matches!(input.source, Source::Sample) {
            eprintln!("kifu: no input given: reading the embedded sample (3 games)");
        }
        let name = json::file_entry(&input.name());
        let unclaimed = match input.format(common.format)? {
            Format::Pgn => input
                .for_each_game(kifu::pgn::Scope::Full, max_game_bytes, |game| {
                    let w = json::write_pgn(&mut out, &mut body, &name, &game)?;
                    unwritten.note(&input.name(), game.index, w);
                    Ok(())
                })?
                .len(),
            Format::Sgf => input
                .for_each_tree(kifu::sgf::Scope::Full, max_game_bytes, |tree| {
                    let w = json::write_sgf(&mut out, &mut body, &name, &tree, choice)?;
                    unwritten.note(&input.name(), tree.index(), w);
                    Ok(())
                })?
                .len(),
        };
        if unclaimed > 0 {
            // no JSON object carries them: say so, or a pipeline never learns of the input
            unclaimed_inputs += 1;
            out.flush()?;
            eprintln!(
                "kifu json: {}: no game read; {unclaimed} problem(s) (`kifu check` lists them)",
                input.name()
            );
        }
    }
    out.flush()?;
    Ok(if unclaimed_inputs > 0 || unwritten.count > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn run_fmt(
    common: &Common,
    output: Option<&std::path::Path>,
    opts: &fmt::Options,
) -> io::Result<ExitCode> {
    let inputs = open_all(common)?;
    if let Some(out) = output.and_then(|p| std::fs::canonicalize(p).ok()) {
        // creating the output truncates it: it must not be one of the inputs
        for input in &inputs {
            if let Source::File(p) = &input.source {
                if std::fs::canonicalize(p).is_ok_and(|p| p == out) {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!(
                            "{}: -o names an input; write elsewhere, then move the file",
                            p.display()
                        ),
                    ));
                }
            }
        }
    }
    let mut out: Box<dyn Write> = match output {
        Some(p) => Box::new(io::BufWriter::with_capacity(
            1 << 16,
            std::fs::File::create(p)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", p.display())))?,
        )),
        None => Box::new(io::BufWriter::with_capacity(1 << 16, io::stdout().lock())),
    };
    let stderr = io::stderr();
    let mut err = stderr.lock();
    let mut problems = fmt::Problems {
        err: &mut err,
        found: 0,
    };
    let mut unclaimed_inputs = 0u64;
    let pgn_writer = fmt::pgn_writer(opts);
    let sgf_writer = fmt::sgf_writer(opts);
    for input in inputs {
        if matches!(input.source, Source::Sample) {
            eprintln!("kifu: no input given: formatting the embedded sample (3 games)");
        }
        let name = input.name();
        let unclaimed = match input.format(common.format)? {
            Format::Pgn => {
                let errors =
                    input.for_each_game(fmt::pgn_keep(opts), opts.max_game_bytes, |game| {
                        fmt::write_pgn(&game, &pgn_writer, &name, &mut out, &mut problems)
                    })?;
                fmt::report_unclaimed_pgn(&errors, &name, &mut problems)?
            }
            Format::Sgf => {
                let errors =
                    input.for_each_tree(fmt::sgf_scope(opts), opts.max_game_bytes, |tree| {
                        fmt::write_sgf(
                            &tree,
                            &sgf_writer,
                            &opts.strip,
                            &name,
                            &mut out,
                            &mut problems,
                        )
                    })?;
                fmt::report_unclaimed_sgf(&errors, &name, &mut problems)?
            }
        };
        if unclaimed > 0 {
            unclaimed_inputs += 1;
            writeln!(
                problems.err,
                "kifu fmt: {name}: no game read; {unclaimed} problem(s), nothing written for it"
            )?;
        }
    }
    out.flush()?;
    if problems.found > 0 {
        let _ = writeln!(
            problems.err,
            "kifu fmt: {} problem(s) met while reading; the games were written as repaired",
            problems.found
        );
    }
    Ok(if unclaimed_inputs > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn run_check(common: &Common) -> io::Result<ExitCode> {
    let inputs = open_all(common)?;
    let out = io::stdout();
    let mut out = io::BufWriter::new(out.lock());
    let mut found = 0u64;
    for input in inputs {
        if matches!(input.source, Source::Sample) {
            eprintln!("kifu: no input given: checking the embedded sample (3 games)");
        }
        let mut c = json::Check::new(&mut out, input.name());
        match input.format(common.format)? {
            Format::Pgn => input.read_pgn(&mut c)?,
            Format::Sgf => input.read_sgf(&mut c)?,
        }
        found += c.into_result()?;
    }
    out.flush()?;
    Ok(if found > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
