//! `kifu`: statistics, JSON, located errors, standard rewriting, filtering, splitting, tables
//! and deduplication of PGN and SGF game records, plain, compressed or bundled, on every core.
//!
//! ```text
//! kifu [stats|check|json|fmt|filter|find|explore|split|export|dedup] [FILE|DIR|ARCHIVE|-]... [-j N] [--format pgn|sgf]
//! ```
//!
//! `kifu` alone shows the statistics of an embedded sample, and says so; a command with no input
//! reads stdin, or the sample when stdin is a terminal (`--sample` asks for it).

mod alloc;
mod args;
mod bufs;
mod cmd;
mod out;
mod predicate;
mod query;
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
    /// Tags and NAGs are counted too; `--by KEY` counts per value of a key (docs/cli.md).
    Stats(cmd::stats::Args),
    /// Print every problem, located (FILE:LINE:COLUMN); exit 1 if any.
    ///
    /// Each line: FILE:LINE:COLUMN: SEVERITY[ CODE]: MESSAGE: `TEXT` (game N, move M | node K).
    /// With `-q` nothing is printed: the exit status answers.
    Check(cmd::check::Args),
    /// Print one JSON object per game.
    ///
    /// Its schema: docs/json.md. An input holding no game, only problems, is named on stderr,
    /// and the exit status is then 1.
    Json(cmd::json::Args),
    /// Rewrite the games in the standard form (PGN export format, SGF FF[4]).
    ///
    /// PGN: the Seven Tag Roster first, lines of at most 79 characters. Problems met while
    /// reading go to stderr as `kifu check` prints them; the games are written as read
    /// (repaired where the reader repairs). Exit 1 if an input held no game but problems.
    Fmt(cmd::fmt::Args),
    /// Keep the games that pass every test (tags, plies, what a game holds).
    ///
    /// `--where` tests the keys of a game (tags, root properties, derived keys: docs/cli.md),
    /// then ply bounds and what a game holds; the games kept are written in the standard form
    /// or as JSON lines. Exit 1 if no game was kept.
    Filter(cmd::filter::Args),
    /// Write the games that reach a position or show a pattern (docs/search.md).
    ///
    /// `--fen FEN` (exact; transpositions found), `--subfen BOARD` (pieces on their squares,
    /// `_` an empty one), `--material SIG` (`KRPkr`, `[BN]2+`), then `--then STEP --within N`
    /// for a sequence;
    /// `-w` tests the keys as `filter -w` does. Exit 1 if no game matched.
    Find(cmd::find::Args),
    /// Show what was played next from a position, with counts, results, ratings and dates.
    ///
    /// The same queries as `find`: for each position matching, each next move with its
    /// games, White/draw/Black shares, the mover's mean rating, the last date and one game;
    /// `--by KEY` or `--by rating:200` per group; a table, or JSON lines with `--json`.
    Explore(cmd::explore::Args),
    /// Write the games into files of N games, or one file per value of a tag.
    ///
    /// `--games N` or `--by KEY` (a tag, a root property, a derived key: `--by ECO`, `--by
    /// year`), into a directory.
    Split(cmd::split::Args),
    /// Write the games as rows of a table: Parquet, CSV or JSON Lines.
    ///
    /// Parquet is zstd-compressed; the output is one file or a dataset directory that DuckDB,
    /// Polars and Spark read as one table (docs/export.md).
    Export(cmd::export::Args),
    /// Drop the games whose moves repeat an earlier game's.
    ///
    /// Tags may differ: PGN games are compared by their start (FEN) and main line, SGF by
    /// board, setup and main line. The count goes to stderr.
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
    /// Print a manual page (roff), for `man`: kifu(1), or a command's (kifu-stats(1), …).
    ///
    /// `kifu man > kifu.1 && man ./kifu.1`; `kifu man check` prints kifu-check(1);
    /// `kifu man --dir ~/.local/share/man/man1` writes every page there (kifu.1 and one
    /// kifu-COMMAND.1 per command).
    Man {
        /// The command whose page to print, as `stats` or as its page names it (`kifu-stats`);
        /// kifu's own without one.
        command: Option<String>,
        /// Write every page (kifu.1, kifu-COMMAND.1) into DIR instead.
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        dir: Option<std::path::PathBuf>,
        /// Replace pages that exist in DIR.
        #[arg(long, requires = "dir")]
        force: bool,
    },
}

fn main() -> ExitCode {
    let matches = <Cli as clap::CommandFactory>::command().get_matches();
    let mut cli = <Cli as clap::FromArgMatches>::from_arg_matches(&matches).unwrap_or_else(|e| {
        e.format(&mut <Cli as clap::CommandFactory>::command())
            .exit()
    });
    // each --within bounds the step of the --then before it: their order on the command line
    match (&mut cli.command, matches.subcommand()) {
        (Some(Command::Find(a)), Some((_, m))) => a.query.pair_within(m),
        (Some(Command::Explore(a)), Some((_, m))) => a.query.pair_within(m),
        _ => {}
    }
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
        Command::Find(a) => cmd::find::run(a),
        Command::Explore(a) => cmd::explore::run(a),
        Command::Split(a) => cmd::split::run(a),
        Command::Export(a) => cmd::export::run(a),
        Command::Dedup(a) => cmd::dedup::run(a),
        Command::Completions { shell } => completions(shell),
        Command::Man {
            command,
            dir,
            force,
        } => man(command.as_deref(), dir.as_deref(), force),
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

/// `kifu man [COMMAND]`, `kifu man --dir DIR`: kifu(1) and a page per command, kifu-stats(1)
/// and the others, as kifu(1)'s SEE ALSO (its COMMANDS section) names them.
fn man(command: Option<&str>, dir: Option<&std::path::Path>, force: bool) -> io::Result<ExitCode> {
    use clap::CommandFactory;
    let mut cli = Cli::command().disable_help_subcommand(true);
    cli.build();
    let page = |cmd: &clap::Command| -> io::Result<Vec<u8>> {
        let mut roff = Vec::new();
        let source = format!("kifu {}", env!("CARGO_PKG_VERSION"));
        clap_mangen::Man::new(cmd.clone())
            .source(source)
            .render(&mut roff)?;
        Ok(roff)
    };
    let Some(dir) = dir else {
        // a page's own name is a command's too: `kifu-stats`, `kifu-stats(1)`, `kifu`
        let command = command.map(page_command);
        let cmd = match command {
            None | Some("kifu") => &cli,
            Some(name) => cli.find_subcommand(name).ok_or_else(|| {
                let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("no command `{name}` (the commands: {})", names.join(", ")),
                )
            })?,
        };
        io::Write::write_all(&mut io::stdout(), &page(cmd)?)?;
        return Ok(ExitCode::SUCCESS);
    };
    if !dir.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("{}: not a directory", dir.display()),
        ));
    }
    let guard = out::Guard::new(&[], force);
    for cmd in std::iter::once(&cli).chain(cli.get_subcommands()) {
        let name = cmd.get_display_name().unwrap_or(cmd.get_name());
        let path = dir.join(format!("{name}.1"));
        let mut file = out::open(Some(&path), &guard)?;
        io::Write::write_all(&mut file, &page(cmd)?)?;
        out::finish(file)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The command a manual page's name names: `kifu-stats(1)`, `kifu-stats.1`, `kifu-stats` and
/// `stats` name `stats`; `kifu(1)` names `kifu`.
fn page_command(name: &str) -> &str {
    let name = name.trim();
    let name = name
        .strip_suffix("(1)")
        .or_else(|| name.strip_suffix(".1"))
        .unwrap_or(name);
    name.strip_prefix("kifu-").unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn a_page_name_names_its_command() {
        for (name, want) in [
            ("stats", "stats"),
            ("kifu-stats", "stats"),
            ("kifu-stats(1)", "stats"),
            ("kifu-stats.1", "stats"),
            ("kifu(1)", "kifu"),
            ("kifu", "kifu"),
        ] {
            assert_eq!(page_command(name), want, "{name}");
        }
    }

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
