//! Running a command's work over its inputs: every core (`kifu::par`), a progress bar on a
//! terminal, the inputs that could not be read reported by name, and the exit status.

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use kifu::par::{self, Event, Work};
use kifu_input::Progress;

use crate::Common;
use crate::source::{Input, Sources};

/// How a command ended, for its exit status.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outcome {
    /// Problems were found in the games (or, per command, what it calls a finding).
    pub found: bool,
    /// An input could not be read, or was cut short.
    pub input_failed: bool,
    /// No game at all was read (empty stdin, an empty file, a directory without game files).
    pub no_games: bool,
}

impl Outcome {
    /// The outcome of a scan, with the command's own finding.
    pub fn of(scanned: &Scanned, found: bool) -> Outcome {
        Outcome {
            found,
            input_failed: scanned.failed,
            no_games: scanned.games == 0,
        }
    }

    /// 0: games read, nothing found; 1: problems found in the games, or no game at all;
    /// 2: an input or usage error (as grep and ripgrep do).
    pub fn code(self) -> ExitCode {
        if self.input_failed {
            ExitCode::from(2)
        } else if self.found || self.no_games {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// What a scan read, for the exit status and `stats`.
#[derive(Clone, Debug, Default)]
pub struct Scanned {
    /// An input could not be read, or was cut short (named on stderr).
    pub failed: bool,
    /// Games (or game trees) read, over all inputs.
    pub games: u64,
    /// The walk's counts: inputs named, streams read, files and members skipped.
    pub report: Counts,
}

/// The walk's counts (see [`kifu_input::Report`]).
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// Top-level inputs (files, directories, stdin, the sample).
    pub inputs: u64,
    /// Streams read: files and archive members.
    pub streams: u64,
    /// Files of walked directories that are neither PGN, SGF nor an archive.
    pub skipped_files: u64,
    /// Archive members that are neither PGN nor SGF.
    pub skipped_members: u64,
    /// The names of the first skipped files and members, with why.
    pub skipped: Vec<String>,
}

/// Runs `work` over the inputs `common` names, handing each piece (and each input's end) to
/// `sink` in input order; `verb` says what is done, for the note on the embedded sample. The
/// inputs that could not be read (or were cut short) are named on stderr, and so are those
/// that held no game.
pub fn scan<W, S>(common: &Common, verb: &str, work: &W, mut sink: S) -> io::Result<Scanned>
where
    W: Work<Input = Input>,
    W::Pgn: Games,
    W::Sgf: Games,
    S: FnMut(Event<'_, W>) -> io::Result<()>,
{
    common.note_threads();
    let threads = common.threads();
    let sources = Sources::new(
        &common.files,
        common.format,
        threads,
        common.frame_buffer as usize,
        common.sample,
    )?
    .with_decoder_memory(usize::try_from(common.decoder_memory).unwrap_or(usize::MAX));
    let sample = sources.is_sample();
    if sample && common.sample {
        eprintln!(
            "kifu: {verb} the embedded sample (3 games); `kifu stats FILE` (or stdin) for yours"
        );
    } else if sample {
        eprintln!(
            "kifu: no input given and stdin is a terminal: {verb} the embedded sample (3 games)"
        );
    }
    let options = par::Options {
        threads,
        piece_size: common.piece_size,
        read_size: common.buffer_size as usize,
    };
    let games = Arc::new(AtomicU64::new(0));
    // games and problems no game carries, in the current input
    let mut in_input = (0u64, 0u64);
    let mut total = 0u64;
    let bar = Bar::start(
        common.quiet,
        Arc::clone(&sources.progress),
        Arc::clone(&games),
    );
    let mut report = None;
    let result: io::Result<()> = par::scan(
        &options,
        work,
        |feeder| report = Some(sources.feed(feeder)),
        |event| {
            let mut empty = None;
            match &event {
                Event::Piece { visited, .. } => {
                    let (n, unclaimed) = count(visited);
                    games.fetch_add(n, Ordering::Relaxed);
                    in_input.0 += n;
                    in_input.1 += unclaimed;
                }
                Event::End { input, error, .. } => {
                    total += in_input.0;
                    if in_input.0 == 0 && error.is_none() {
                        empty = Some((shown(&input.name).into_owned(), in_input.1));
                    }
                    in_input = (0, 0);
                }
            }
            sink(event)?;
            if let Some((name, problems)) = empty {
                if problems > 0 {
                    eprintln!(
                        "kifu: {name}: no game read; {problems} problem(s) (`kifu check` lists them)"
                    );
                } else {
                    eprintln!("kifu: {name}: no game in it");
                }
            }
            Ok(())
        },
    );
    bar.finish();
    result?;
    let report = report.unwrap_or_default();
    for e in &report.errors {
        eprintln!("kifu: {}: {}", shown(&e.name), shown(&e.error.to_string()));
    }
    let counts = Counts {
        inputs: report
            .inputs
            .max(common.files.len() as u64)
            .max(u64::from(sample)),
        streams: report.entries + u64::from(sample),
        skipped_files: report.skipped_files,
        skipped_members: report.skipped_members,
        skipped: report.skipped.clone(),
    };
    if !sample && report.entries == 0 && report.errors.is_empty() && !common.files.is_empty() {
        let names: Vec<_> = common
            .files
            .iter()
            .map(|f| shown(&f.to_string_lossy()).into_owned())
            .collect();
        eprintln!("kifu: {}: no PGN or SGF input in it", names.join(", "));
    }
    Ok(Scanned {
        failed: !report.errors.is_empty(),
        games: total,
        report: counts,
    })
}

/// Text from an input (a name, a member name, a message quoting it) made safe for a
/// terminal: control characters (C0, DEL, C1: escape sequences, newlines, carriage returns)
/// written as `\n`, `\x1b`, `\u{9b}`, so that no input can move the cursor, recolour the
/// screen or forge a line.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x80 && c.is_control() => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A piece's visitor that knows how many games it read (for the progress bar, and to name
/// the inputs without a game).
pub trait Games {
    /// Games (or game trees) read.
    fn games(&self) -> u64;
    /// Problems that no game carries (met in an input without a game).
    fn unclaimed(&self) -> u64 {
        0
    }
}

fn count<P: Games, S: Games>(visited: &par::Visited<P, S>) -> (u64, u64) {
    match visited {
        par::Visited::Pgn(v) => (v.games(), v.unclaimed()),
        par::Visited::Sgf(v) => (v.games(), v.unclaimed()),
    }
}

/// The progress bar: on stderr when it is a terminal (and not `--quiet`), drawn from a thread
/// of its own that reads the counters ten times a second, so that reading pays nothing for it.
struct Bar {
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Bar {
    fn start(quiet: bool, progress: Arc<Progress>, games: Arc<AtomicU64>) -> Bar {
        let done = Arc::new(AtomicBool::new(false));
        if quiet || !io::stderr().is_terminal() {
            return Bar { done, thread: None };
        }
        let stop = Arc::clone(&done);
        let thread = std::thread::spawn(move || {
            let bar = indicatif::ProgressBar::with_draw_target(
                None,
                indicatif::ProgressDrawTarget::stderr_with_hz(10),
            );
            let known = "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} {msg} ETA {eta}";
            let unknown = "{spinner} {bytes} {binary_bytes_per_sec} {msg} {elapsed}";
            let style = |t: &str| {
                indicatif::ProgressStyle::with_template(t)
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            };
            let mut sized = false;
            while !stop.load(Ordering::Relaxed) {
                match progress.total_bytes() {
                    Some(total) if total > 0 => {
                        if !sized {
                            bar.set_style(style(known));
                            sized = true;
                        }
                        bar.set_length(total);
                    }
                    _ if !sized => bar.set_style(style(unknown)),
                    _ => {}
                }
                bar.set_position(progress.bytes_read());
                bar.set_message(format!("{} games", games.load(Ordering::Relaxed)));
                std::thread::sleep(Duration::from_millis(100));
            }
            bar.finish_and_clear();
        });
        Bar {
            done,
            thread: Some(thread),
        }
    }

    fn finish(mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
