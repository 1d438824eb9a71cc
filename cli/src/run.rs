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
}

impl Outcome {
    /// 0: nothing found; 1: problems found in the games; 2: an input or usage error (as grep
    /// and ripgrep do).
    pub fn code(self) -> ExitCode {
        if self.input_failed {
            ExitCode::from(2)
        } else if self.found {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// Runs `work` over the inputs `common` names, handing each piece (and each input's end) to
/// `sink` in input order; `verb` says what is done, for the note on the embedded sample. The
/// inputs that could not be read (or were cut short) are named on stderr; the result says
/// whether one was.
pub fn scan<W, S>(common: &Common, verb: &str, work: &W, mut sink: S) -> io::Result<bool>
where
    W: Work<Input = Input>,
    W::Pgn: Games,
    W::Sgf: Games,
    S: FnMut(Event<'_, W>) -> io::Result<()>,
{
    let threads = common.threads();
    let sources = Sources::new(
        &common.files,
        common.format,
        threads,
        common.frame_buffer as usize,
    )?;
    if sources.is_sample() {
        eprintln!("kifu: no input given: {verb} the embedded sample (3 games)");
    }
    let options = par::Options {
        threads,
        piece_size: common.piece_size,
        read_size: common.buffer_size as usize,
    };
    let games = Arc::new(AtomicU64::new(0));
    let bar = Bar::start(
        common.quiet,
        Arc::clone(&sources.progress),
        Arc::clone(&games),
    );
    let mut report = None;
    let result = par::scan(
        &options,
        work,
        |feeder| report = Some(sources.feed(feeder)),
        |event| {
            if let Event::Piece { visited, .. } = &event {
                games.fetch_add(count(visited), Ordering::Relaxed);
            }
            sink(event)
        },
    );
    bar.finish();
    result?;
    let report = report.unwrap_or_default();
    for e in &report.errors {
        eprintln!("kifu: {}: {}", e.name, e.error);
    }
    Ok(!report.errors.is_empty())
}

/// A piece's visitor that knows how many games it read (for the progress bar).
pub trait Games {
    /// Games (or game trees) read.
    fn games(&self) -> u64;
}

fn count<P: Games, S: Games>(visited: &par::Visited<P, S>) -> u64 {
    match visited {
        par::Visited::Pgn(v) => v.games(),
        par::Visited::Sgf(v) => v.games(),
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
