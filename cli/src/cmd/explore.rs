//! `kifu explore`: what was played next from a position (or from every position matching a
//! pattern), with counts, results, the movers' mean rating, the last date and one game, as a
//! table or JSON lines (docs/search.md).

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;

use kifu::par::{Event, Visited};
use kifu_pipeline::DomScope;
use kifu_pipeline::explore::{Explorer, Exploring, Group, Row};
use kifu_pipeline::find::Query;
use kifu_pipeline::go_find::{GoExplorer, GoFindWork, GoQuery, Next, NextRow};
use kifu_replay::go::Pattern;

use crate::args::{Common, GameLimit};
use crate::query::QueryArgs;
use crate::run::{self, Outcome};

/// Show each move played next from a position, with counts, results, ratings and dates.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub query: QueryArgs,
    /// A test on the game's keys, as `kifu filter -w`; repeat: all must hold.
    #[arg(short = 'w', long = "where", value_name = "TEST")]
    pub tests: Vec<kifu_pipeline::keys::AnyOf>,
    /// Rows per value of KEY (a tag or root property, `year`, `speed`, `black_rank`, `KM`, `HA`,
    /// …: docs/cli.md § Keys), or per band of the mover's rating (chess): `rating:200`
    /// (2000-2199, …).
    #[arg(long, value_name = "KEY", value_parser = Group::parse, help_heading = "Grouping")]
    pub by: Option<Group>,
    /// The most distinct (group, position, move) rows kept (at least 1); the plays of later
    /// ones are counted, with a note.
    #[arg(long, value_name = "N", default_value_t = Explorer::DEFAULT_MAX_ENTRIES,
          value_parser = crate::args::parse_count_usize, help_heading = "Grouping")]
    pub max_entries: usize,
    /// One JSON object a row (JSON Lines) instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub limit: GameLimit,
}

/// `kifu explore`. Exit status 1 when no game matched, 2 when an input could not be read.
pub fn run(args: Args) -> io::Result<ExitCode> {
    let query = args.query.query()?;
    if !args.common.quiet {
        for note in args.query.notes(&query) {
            eprintln!("kifu explore: {note}");
        }
    }
    // a key of -w or --by that games may lack but one they have is near (`Evnet`: `Event`?)
    let by_key = match &args.by {
        Some(Group::Key(k)) => Some(k),
        _ => None,
    };
    crate::run::warn_near_misses(
        args.common.quiet,
        args.tests.iter().flat_map(|t| t.keys()).chain(by_key),
    );
    if let Query::Go(pattern) = query {
        return run_go(args, pattern);
    }
    let query = Arc::new(query);
    let scope = if args.query.variations {
        DomScope::FULL
    } else {
        DomScope::MAIN_LINE
    };
    // on the main line, each game searched on the parser's events first, built only when it
    // may match
    let work = Exploring::new(Arc::clone(&query), args.by.clone(), args.tests)
        .work(scope.with_max_game_bytes(args.limit.max_game_bytes))
        .sieve(!args.query.dom_search);
    let mut explorer = Explorer::new(args.by.clone(), args.max_entries);
    let mut saw = false;
    let scanned = run::scan(&args.common, "exploring", &work, |event| {
        saw |= matches!(
            event,
            Event::Piece {
                visited: Visited::Pgn(_),
                ..
            }
        );
        explorer.take(event);
        Ok(())
    })?;
    let other = crate::query::format_note(false, scanned.games, saw);
    let (games, dropped) = (explorer.games, explorer.dropped);
    let rows = explorer.rows();
    let stdout = io::stdout();
    let terminal = stdout.is_terminal();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.json {
        let grouped = args.by.is_some();
        for r in &rows {
            let row = with_group(serde_json::to_value(r)?, grouped, r.group.as_deref());
            serde_json::to_writer(&mut out, &row)?;
            out.write_all(b"\n")?;
        }
    } else {
        table(&mut out, &rows, args.by.is_some(), terminal)?;
    }
    out.flush()?;
    if dropped > 0 {
        eprintln!(
            "kifu explore: {} of moves past --max-entries {} not counted",
            counted(dropped, "play", "plays"),
            args.max_entries
        );
    }
    if !args.common.quiet && !args.json {
        eprintln!("kifu explore: {} matched", counted(games, "game", "games"));
    }
    if let Some(n) = other
        && !args.common.quiet
    {
        eprintln!("kifu explore: {n}");
    }
    Ok(Outcome::of(&scanned, games == 0).code())
}

/// A share as a percentage.
fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A share as a percentage, `-` when unknown (no game of known result).
fn pct_or_dash(x: Option<f64>) -> String {
    x.map_or_else(|| String::from("-"), pct)
}

/// `n` and the noun, singular for 1: `1 game`, `2 games`.
fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The rows as a table: a heading per position (and group), a line per move (`end`: the
/// games that end there).
fn table(out: &mut impl Write, rows: &[Row], grouped: bool, bold: bool) -> io::Result<()> {
    let (b, r) = if bold {
        ("\x1b[1m", "\x1b[0m")
    } else {
        ("", "")
    };
    let mut last: Option<(&Option<String>, &str)> = None;
    for row in rows {
        if last != Some((&row.group, &row.fen)) {
            if last.is_some() {
                writeln!(out)?;
            }
            if grouped {
                let g = row.group.as_deref().unwrap_or("(none)");
                writeln!(out, "{b}{g}{r}  {}", row.fen)?;
            } else {
                writeln!(out, "{b}{}{r}", row.fen)?;
            }
            writeln!(
                out,
                "  {:<8} {:>8} {:>7} {:>7} {:>7} {:>6} {:<10}  game",
                "move", "games", "white", "draw", "black", "elo", "last"
            )?;
            last = Some((&row.group, &row.fen));
        }
        let elo = row
            .mean_elo
            .map_or(String::from("-"), |e| format!("{e:.0}"));
        writeln!(
            out,
            "  {:<8} {:>8} {:>7} {:>7} {:>7} {:>6} {:<10}  {}:{}",
            row.san,
            row.games,
            pct_or_dash(row.white_share),
            pct_or_dash(row.draw_share),
            pct_or_dash(row.black_share),
            elo,
            row.last_date.as_deref().unwrap_or("-"),
            kifu_pipeline::shown(&row.file),
            row.game
        )?;
    }
    Ok(())
}

/// `kifu explore --go-pattern`: the next moves from every position where the pattern stands,
/// in the pattern's coordinates and colours (docs/search.md § Go patterns), counted with who
/// won. Exit status 1 when no game matched, 2 when an input could not be read.
fn run_go(args: Args, pattern: Pattern) -> io::Result<ExitCode> {
    let key = match &args.by {
        None => None,
        Some(Group::Key(k)) => Some(k.clone()),
        Some(Group::Band(_)) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "--by rating:N bands the Elo ratings of chess players: group Go games by a rank \
                 (--by black_rank, --by white_rank) or another key",
            ));
        }
    };
    let grouped = key.is_some();
    let (w, h) = (pattern.width(), pattern.height());
    let work = GoFindWork::new(GoQuery::new(pattern).with_tests(args.tests.clone()));
    let mut explorer = GoExplorer::grouped(key, args.max_entries);
    let mut games = 0u64;
    let mut saw = false;
    let scanned = run::scan(&args.common, "exploring", &work, |event| {
        if let Event::Piece {
            visited: Visited::Sgf(v),
            info,
            ..
        } = event
        {
            saw = true;
            for mut hit in v.into_inner().into_hits() {
                hit.game += info.first_game;
                games += 1;
                explorer.add(&hit);
            }
        }
        Ok(())
    })?;
    let rows = explorer.rows();
    let stdout = io::stdout();
    let terminal = stdout.is_terminal();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.json {
        for r in &rows {
            serde_json::to_writer(&mut out, &go_json(r, grouped))?;
            out.write_all(b"\n")?;
        }
    } else {
        go_table(&mut out, &rows, (w, h), args.by.as_ref(), terminal)?;
    }
    out.flush()?;
    if explorer.dropped > 0 {
        eprintln!(
            "kifu explore: {} of moves past --max-entries {} not counted",
            counted(explorer.dropped, "play", "plays"),
            args.max_entries
        );
    }
    if !args.common.quiet && !args.json {
        eprintln!(
            "kifu explore: {} matched, at {}",
            counted(games, "game", "games"),
            counted(explorer.positions(), "position", "positions")
        );
    }
    if let Some(n) = crate::query::format_note(true, scanned.games, saw)
        && !args.common.quiet
    {
        eprintln!("kifu explore: {n}");
    }
    Ok(Outcome::of(&scanned, games == 0).code())
}

/// A Go row as a JSON object: its group (with `--by`), the move in words and in parts, the
/// counts, one game.
fn go_json(r: &NextRow, grouped: bool) -> serde_json::Value {
    let colour = |c: &kifu::sgf::Color| match c {
        kifu::sgf::Color::Black => "X",
        kifu::sgf::Color::White => "O",
    };
    let (kind, color, x, y) = match &r.next {
        Next::At { x, y, color } => ("point", Some(colour(color)), Some(*x), Some(*y)),
        Next::Tenuki { color } => ("tenuki", Some(colour(color)), None, None),
        Next::Pass { color } => ("pass", Some(colour(color)), None, None),
        Next::End => ("end", None, None, None),
    };
    let row = serde_json::json!({
        "move": r.next.to_string(),
        "kind": kind,
        "color": color,
        "x": x,
        "y": y,
        "games": r.games,
        "positions": r.count,
        "x_wins": r.x_wins,
        "o_wins": r.o_wins,
        "other": r.other,
        "file": &*r.example.file,
        "game": r.example.game + 1,
        "ply": r.example.ply,
    });
    with_group(row, grouped, r.group.as_deref())
}

/// A JSON row of `kifu explore --json`, chess or Go: with `--by`, its `group` first, `null`
/// when the game has no value of the key; without `--by`, no `group` member.
fn with_group(mut row: serde_json::Value, grouped: bool, group: Option<&str>) -> serde_json::Value {
    if let Some(map) = row.as_object_mut() {
        map.shift_remove("group");
        if grouped {
            let mut with = serde_json::Map::new();
            with.insert("group".into(), group.into());
            with.extend(std::mem::take(map));
            *map = with;
        }
    }
    row
}

/// The Go rows as a table: a line per next move.
fn go_table(
    out: &mut impl Write,
    rows: &[&NextRow],
    (w, h): (u8, u8),
    by: Option<&Group>,
    bold: bool,
) -> io::Result<()> {
    let grouped = by.is_some();
    // a rank's number (`--by black_rank`: -30, 7) heads its group as the rank (30k, 7d)
    let ranks = matches!(by, Some(Group::Key(k)) if k.kind() == kifu_pipeline::keys::Kind::Rank);
    let heading_of = |group: Option<&str>| -> String {
        match group {
            None => "(none)".into(),
            Some(g) => match g
                .parse::<i16>()
                .ok()
                .filter(|_| ranks)
                .and_then(kifu::sgf::Rank::from_value)
            {
                Some(rank) => format!("{rank} ({g})"),
                None => g.to_string(),
            },
        }
    };
    let (b, r) = if bold {
        ("\x1b[1m", "\x1b[0m")
    } else {
        ("", "")
    };
    writeln!(
        out,
        "{b}next move{r}, at x,y from the pattern's upper-left point (inside: x 0-{}, y 0-{}; \
         one point outside: -1, x {w}, y {h})",
        w.saturating_sub(1),
        h.saturating_sub(1)
    )?;
    let heading = |out: &mut dyn Write| {
        writeln!(
            out,
            "  {:<10} {:>6} {:>9} {:>7} {:>7} {:>7}  game",
            "move", "games", "positions", "X won", "O won", "other"
        )
    };
    if !grouped {
        heading(out)?;
    }
    let mut last: Option<&Option<String>> = None;
    for row in rows {
        if grouped && last != Some(&row.group) {
            writeln!(out)?;
            writeln!(out, "{b}{}{r}", heading_of(row.group.as_deref()))?;
            heading(out)?;
            last = Some(&row.group);
        }
        let share = |n: u64| pct(n as f64 / row.count.max(1) as f64);
        // where the pattern stood in the example game: after its move N (the row's move is
        // then move N + 1)
        let at = match row.example.ply {
            0 => "at the start".to_string(),
            n => format!("after move {n}"),
        };
        writeln!(
            out,
            "  {:<10} {:>6} {:>9} {:>7} {:>7} {:>7}  {}:{} ({at})",
            row.next.to_string(),
            row.games,
            row.count,
            share(row.x_wins),
            share(row.o_wins),
            share(row.other),
            kifu_pipeline::shown(&row.example.file),
            row.example.game + 1,
        )?;
    }
    Ok(())
}
