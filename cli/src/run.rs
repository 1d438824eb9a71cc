//! Running a command's work over its inputs: every core (`kifu::par`), a progress bar on a
//! terminal, the inputs that could not be read reported by name, and the exit status.

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use kifu::par::{self, Event, Work};
use kifu_input::Progress;
use kifu_pipeline::{Formats, Games, Input, Note, Scan, ScanOptions, Scanned};

use crate::{Common, source};

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
            input_failed: scanned.failed(),
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

/// The scan `common` asks for: its source (files, stdin or the embedded sample, said so on
/// stderr), every core, the sizes and limits of the command line.
pub fn scan_of(common: &Common, verb: &str) -> io::Result<Scan<'static>> {
    common.note_threads();
    let (source, sample) = source::of(common)?;
    if sample && common.sample {
        eprintln!(
            "kifu: {verb} the embedded sample (3 games); `kifu stats FILE` (or stdin) for yours"
        );
    } else if sample {
        eprintln!(
            "kifu: no input given and stdin is a terminal: {verb} the embedded sample (3 games)"
        );
    }
    let options = ScanOptions {
        threads: common.threads(),
        piece_size: common.piece_size,
        read_size: common.buffer_size as usize,
        frame_buffer: common.frame_buffer as usize,
        decoder_memory: usize::try_from(common.decoder_memory).unwrap_or(usize::MAX),
    };
    let formats = Formats {
        forced: common.format,
        only: None,
    };
    Ok(Scan::new(source, formats).with_options(options))
}

/// Says a scan's note on stderr.
pub fn note(n: Note) {
    match &n {
        Note::NoGame { problems, .. } if *problems > 0 => {
            eprintln!("kifu: {n} (`kifu check` lists them)");
        }
        Note::NoTable { .. } | Note::NotInTable { .. } | Note::Refused { .. } => {
            eprintln!("kifu export: {n}");
        }
        _ => eprintln!("kifu: {n}"),
    }
}

/// Names on stderr the inputs that could not be read.
pub fn report(scanned: &Scanned) {
    for e in &scanned.errors {
        eprintln!("kifu: {e}");
    }
}

/// Runs `work` over the inputs `common` names, handing each piece (and each input's end) to
/// `sink` in input order; `verb` says what is done, for the note on the embedded sample. The
/// inputs that could not be read (or were cut short) are named on stderr, and so are those
/// that held no game; a progress bar is drawn on a terminal.
pub fn scan<W, S>(common: &Common, verb: &str, work: &W, mut sink: S) -> io::Result<Scanned>
where
    W: Work<Input = Input>,
    W::Pgn: Games,
    W::Sgf: Games,
    S: FnMut(Event<'_, W>) -> io::Result<()>,
{
    let scan = scan_of(common, verb)?;
    let games = Arc::new(AtomicU64::new(0));
    let bar = Bar::start(common.quiet, scan.progress(), Arc::clone(&games));
    let result = scan.run(
        work,
        |event| {
            if let Event::Piece { visited, .. } = &event {
                let n = match visited {
                    par::Visited::Pgn(v) => v.games(),
                    par::Visited::Sgf(v) => v.games(),
                };
                games.fetch_add(n, Ordering::Relaxed);
            }
            sink(event)
        },
        note,
    );
    bar.finish();
    let scanned = result?;
    report(&scanned);
    Ok(scanned)
}

/// The progress bar: on stderr when it is a terminal (and not `--quiet`), drawn from a thread
/// of its own that reads the counters ten times a second, so that reading pays nothing for it.
pub struct Bar {
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Bar {
    pub fn start(quiet: bool, progress: Arc<Progress>, games: Arc<AtomicU64>) -> Bar {
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
                match games.load(Ordering::Relaxed) {
                    0 => bar.set_message(""),
                    n => bar.set_message(format!("{n} games")),
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            bar.finish_and_clear();
        });
        Bar {
            done,
            thread: Some(thread),
        }
    }

    pub fn finish(mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
