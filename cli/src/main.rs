//! `kifu`: statistics, JSON, located errors, standard rewriting, filtering, splitting, tables
//! and deduplication of PGN and SGF game records, plain, compressed or bundled, on every core.
//!
//! ```text
//! kifu [stats|check|json|fmt|filter|split|export|dedup] [FILE|DIR|ARCHIVE|-]... [-j N] [--format pgn|sgf]
//! ```
//!
//! `kifu` alone shows the statistics of an embedded sample, and says so; a command with no input
//! reads stdin, or the sample when stdin is a terminal (`--sample` asks for it).

mod args;
mod bufs;
mod cmd;
mod out;
mod predicate;
mod render;
mod run;
mod seen;
mod source;

use std::io;
use std::process::ExitCode;

use clap::{Parser as ClapParser, Subcommand};

pub use args::{Common, Format};

/// Streaming reader of PGN (chess) and SGF (Go) game records, plain, compressed (zstd, gzip,
/// bzip2, xz) or bundled (tar, zip), on every core.
///
/// Exit status: 0 games read, nothing found; 1 no game at all in the inputs, or problems found
/// (check: problems in the games; json, fmt: an input without any game; filter: no game kept);
/// 2 an input that could not be read, was cut short or is corrupt (its checksum), an output
/// refused, or a usage error. `kifu` alone shows the statistics of an embedded sample.
#[derive(ClapParser, Debug)]
#[command(name = "kifu", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The commands: each owns its arguments and its run (`cmd/`).
#[derive(Subcommand, Debug)]
enum Command {
    /// Count games, moves, comments, variations and errors, with throughput.
    ///
    /// Count games, tags, moves, comments, NAGs, variations and errors, with throughput.
    Stats(cmd::stats::Args),
    /// Print every problem, located (FILE:LINE:COLUMN); exit 1 if any.
    ///
    /// Print every problem as FILE:LINE:COLUMN: SEVERITY[ CODE]: MESSAGE: `TEXT` (game N, move
    /// M | node K); exit 1 if any.
    Check(cmd::check::Args),
    /// Print one JSON object per game.
    ///
    /// Print one JSON object per game (its schema: docs/json.md). An input holding no game,
    /// only problems, is named on stderr, and the exit status is then 1.
    Json(cmd::json::Args),
    /// Rewrite the games in the standard form (PGN export format, SGF FF[4]).
    ///
    /// Rewrite the games in the standard form: PGN in the export format (Seven Tag Roster first,
    /// lines of at most 79 characters), SGF as FF[4]. Problems met while reading go to stderr
    /// as `kifu check` prints them; the games are written as read (repaired where the reader
    /// repairs). Exit 1 if an input held no game but problems.
    Fmt(cmd::fmt::Args),
    /// Keep the games that pass every test (tags, plies, what a game holds).
    ///
    /// Keep the games that pass every test: `--where` on tags (PGN) or root properties (SGF),
    /// ply bounds, what a game holds; write them in the standard form or as JSON lines. Exit 1
    /// if no game was kept.
    Filter(cmd::filter::Args),
    /// Write the games into files of N games, or one file per value of a tag.
    ///
    /// Write the games into files of N games each (`--games`) or one file per value of a tag or
    /// root property (`--by ECO`, `--by Event`, `--by year`), in a directory.
    Split(cmd::split::Args),
    /// Write the games as rows of a table: Parquet, CSV or JSON Lines.
    ///
    /// Write the games as rows of a table: Parquet (zstd), CSV or JSON Lines, to one file or a
    /// dataset directory that DuckDB, Polars and Spark read as one table (see docs/export.md).
    Export(cmd::export::Args),
    /// Drop the games whose moves repeat an earlier game's.
    ///
    /// Drop the games whose moves repeat an earlier game's (tags may differ): PGN by the start
    /// (FEN) and main line, SGF by board, setup and main line. The count goes to stderr.
    Dedup(cmd::dedup::Args),
    /// Print a shell's completion script (bash, zsh, fish, powershell, elvish).
    ///
    /// For bash: `kifu completions bash > ~/.local/share/bash-completion/completions/kifu`;
    /// for zsh, into a folder of `$fpath` as `_kifu`; for fish, into
    /// `~/.config/fish/completions/kifu.fish`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), for `man`.
    ///
    /// `kifu man > kifu.1 && man ./kifu.1`, or into a folder of `manpath` as `man1/kifu.1`.
    Man,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // an interrupt (SIGINT, SIGTERM, SIGHUP) removes the temporary files of the outputs
    #[cfg(unix)]
    if let Err(e) = kifu_output::remove_on_signal() {
        eprintln!("kifu: cannot watch for interrupts: {e}");
    }
    // stdin redirected from a file is an input of the run, named `-` or not: no output of this
    // process replaces that file (kifu-output's guard refuses it while this lives)
    let _stdin = kifu_output::Reading::stdin();
    // `kifu` alone is the tour: the statistics of the embedded sample, said so on stderr (it
    // reads no stdin: every command does, and none of them invents a game)
    let command = cli.command.unwrap_or_else(|| {
        Command::Stats(cmd::stats::Args {
            common: Common::sample(),
            json: false,
            by: None,
            max_groups: kifu_pipeline::group::Grouping::DEFAULT_MAX_GROUPS,
            sort: cmd::stats::SortBy::Key,
        })
    });
    let result = match command {
        Command::Stats(a) => cmd::stats::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Json(a) => cmd::json::run(a),
        Command::Fmt(a) => cmd::fmt::run(a),
        Command::Filter(a) => cmd::filter::run(a),
        Command::Split(a) => cmd::split::run(a),
        Command::Export(a) => cmd::export::run(a),
        Command::Dedup(a) => cmd::dedup::run(a),
        Command::Completions { shell } => completions(shell),
        Command::Man => man(),
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

/// `kifu completions SHELL`.
fn completions(shell: clap_complete::Shell) -> io::Result<ExitCode> {
    use clap::CommandFactory;
    clap_complete::generate(shell, &mut Cli::command(), "kifu", &mut io::stdout());
    Ok(ExitCode::SUCCESS)
}

/// `kifu man`.
fn man() -> io::Result<ExitCode> {
    use clap::CommandFactory;
    clap_mangen::Man::new(Cli::command()).render(&mut io::stdout())?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_command_has_a_one_line_description() {
        let cli = Cli::command();
        for sub in cli.get_subcommands() {
            let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
            assert!(
                !about.is_empty() && !about.contains('\n'),
                "{}: {about:?}",
                sub.get_name()
            );
        }
    }
}
