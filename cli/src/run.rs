//! Running a command's work over its inputs: every core (`kifu::par`), a progress bar on a
//! terminal, the inputs that could not be read reported by name, and the exit status.

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use kifu::par::{Event, Work};
use kifu_input::Progress;
use kifu_pipeline::keys;
use kifu_pipeline::{Formats, GameCount, Input, Note, Scan, ScanOptions, Scanned};

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
    /// The outcome of a scan, with the command's own finding; a game cut at
    /// `--max-game-bytes` ([`Scanned::cut`], named on stderr by the scan's note) is one too:
    /// not read whole, so nothing is lost silently.
    pub fn of(scanned: &Scanned, found: bool) -> Outcome {
        Outcome {
            found: found || scanned.cut > 0,
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

/// The piece size of `kifu json` unless `--piece-size` says otherwise: its lines take 3 to 10
/// times the bytes of their games (10 for games of one line), and `2N + 2` pieces are in
/// flight, each with its lines until the sink writes them. With pieces of 1 MiB that was up
/// to 60 MiB of lines at `-j2`, reached or not as the threads happened to be scheduled (peaks
/// of 61 to 92 MiB on the same 512 MiB of PGN, run to run); with 256 KiB at most 15 MiB, in
/// the same time (docs/figures.md § Every command in constant memory).
pub const JSON_PIECE_SIZE: usize = 256 << 10;

/// The piece size of a command writing games `to` a form: [`JSON_PIECE_SIZE`] for JSON lines
/// (a piece's lines are up to ten times its bytes), else the scan's default.
pub fn piece_size_to(to: crate::render::To) -> usize {
    match to {
        crate::render::To::Jsonl => JSON_PIECE_SIZE,
        _ => kifu::par::Options::DEFAULT_PIECE_SIZE,
    }
}

/// The scan `common` asks for: its source (files, stdin or the embedded sample, said so on
/// stderr), every core, the sizes and limits of the command line.
pub fn scan_of(common: &Common, verb: &str) -> io::Result<Scan<'static>> {
    scan_in_pieces_of(common, verb, kifu::par::Options::DEFAULT_PIECE_SIZE)
}

/// [`scan_of`], with pieces of `piece_size` bytes unless `--piece-size` says otherwise.
fn scan_in_pieces_of(common: &Common, verb: &str, piece_size: usize) -> io::Result<Scan<'static>> {
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
        piece_size: common.piece_size.unwrap_or(piece_size),
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

/// Warns on stderr, unless `quiet`, of each key named that is a tag kifu does not know but
/// close to one it does (`-w WhitElo>=2500`: did you mean `WhiteElo`?): such a test is kept,
/// as PGN allows any tag, but may match nothing.
pub fn warn_near_misses<'a>(quiet: bool, keys: impl IntoIterator<Item = &'a keys::Key>) {
    if quiet {
        return;
    }
    let mut said: Vec<String> = Vec::new();
    for w in keys.into_iter().filter_map(keys::Key::near_miss) {
        if !said.contains(&w) {
            eprintln!("kifu: warning: {w}");
            said.push(w);
        }
    }
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

/// Set once a command wrote all the games it was asked for (`-m`): the scan ends at its next
/// game, the pieces in flight are handed on (and not written), and [`Scanned::stopped`] says
/// so. One flag for the process: the command-line tool runs one scan.
static ENOUGH: AtomicBool = AtomicBool::new(false);

/// The games a command may still write (`-m`): none to count without a limit.
#[derive(Clone, Copy, Debug)]
pub struct Budget(Option<u64>);

impl Budget {
    /// At most `max` games (`None`: any number).
    pub fn new(max: Option<u64>) -> Budget {
        Budget(max)
    }

    /// Whether every game allowed was written.
    pub fn done(&self) -> bool {
        self.0 == Some(0)
    }

    /// Whether one more game may be written; counts it if so. Taking the last one ends the
    /// scan at its next game.
    pub fn take(&mut self) -> bool {
        match &mut self.0 {
            None => true,
            Some(0) => false,
            Some(n) => {
                *n -= 1;
                if *n == 0 {
                    ENOUGH.store(true, Ordering::Relaxed);
                }
                true
            }
        }
    }
}

/// Runs one of the pipeline's jobs (`Scan::stats`, `Scan::group`, `Scan::check`) over the
/// inputs `common` names, with the progress bar on a terminal; `verb` says what is done, for the
/// note on the embedded sample. The caller names the inputs that failed ([`report`]).
pub fn job<T>(
    common: &Common,
    verb: &str,
    f: impl FnOnce(Scan<'_>) -> io::Result<T>,
) -> io::Result<T> {
    let scan = scan_of(common, verb)?.with_stop(&ENOUGH);
    let bar = Bar::start(common.quiet, scan.progress());
    let result = f(scan);
    bar.finish();
    result
}

/// Runs `work` over the inputs `common` names, handing each piece (and each input's end) to
/// `sink` in input order; `verb` says what is done, for the note on the embedded sample. The
/// inputs that could not be read (or were cut short) are named on stderr, and so are those
/// that held no game; a progress bar is drawn on a terminal.
pub fn scan<W, S>(common: &Common, verb: &str, work: &W, sink: S) -> io::Result<Scanned>
where
    W: Work<Input = Input>,
    W::Pgn: GameCount,
    W::Sgf: GameCount,
    S: FnMut(Event<'_, W>) -> io::Result<()>,
{
    scan_in_pieces(
        common,
        verb,
        kifu::par::Options::DEFAULT_PIECE_SIZE,
        work,
        sink,
    )
}

/// [`scan`], with pieces of `piece_size` bytes unless `--piece-size` says otherwise (for a
/// command whose output per piece takes many times the piece: [`JSON_PIECE_SIZE`]).
pub fn scan_in_pieces<W, S>(
    common: &Common,
    verb: &str,
    piece_size: usize,
    work: &W,
    sink: S,
) -> io::Result<Scanned>
where
    W: Work<Input = Input>,
    W::Pgn: GameCount,
    W::Sgf: GameCount,
    S: FnMut(Event<'_, W>) -> io::Result<()>,
{
    let scan = scan_in_pieces_of(common, verb, piece_size)?.with_stop(&ENOUGH);
    let bar = Bar::start(common.quiet, scan.progress());
    let result = scan.run(work, sink, note);
    bar.finish();
    let scanned = result?;
    report(&scanned);
    Ok(scanned)
}

/// The progress bar: on stderr when it is a terminal (and not `--quiet`), drawn from a thread
/// of its own that reads the counters ten times a second, so that reading pays nothing for it.
///
/// Its position is the input the parsers have been handed ([`Progress::bytes_consumed`]): the
/// raw bytes, compressed ones for a compressed input (and then it says "compressed"), behind
/// the decoded bytes handed over so far, not the bytes the decoders have read ahead. The games
/// are those parsed; they lag the position by the pieces `kifu::par` holds in flight.
pub struct Bar {
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// The bar's text: the position, of the total when known, the rate, the games and the time left
/// (or spent, when the total is not known). `{compressed}` says whether the bytes are compressed
/// and `{games}` counts the games parsed, both read when the bar is drawn, so that they go with
/// the position drawn.
const KNOWN: &str =
    "{bar:30} {bytes}/{total_bytes}{compressed}, {binary_bytes_per_sec}{games}, ETA {eta}";
const UNKNOWN: &str = "{spinner} {bytes}{compressed}, {binary_bytes_per_sec}{games}, {elapsed}";

impl Bar {
    pub fn start(quiet: bool, progress: Arc<Progress>) -> Bar {
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
            let games = {
                let progress = Arc::clone(&progress);
                move |_: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&games_text(progress.games()));
                }
            };
            let compressed = {
                let progress = Arc::clone(&progress);
                move |_: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    if progress.compressed() {
                        let _ = w.write_str(" compressed");
                    }
                }
            };
            let style = |t: &str| {
                indicatif::ProgressStyle::with_template(t)
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                    .with_key("games", games.clone())
                    .with_key("compressed", compressed.clone())
            };
            bar.set_style(style(UNKNOWN));
            let mut length = None;
            // every change draws the bar (ten times a second at most): one change a tick, so
            // that what is drawn goes together
            while !stop.load(Ordering::Relaxed) {
                let pos = progress.bytes_consumed();
                match progress.total_bytes().filter(|&t| t > 0) {
                    Some(total) if length != Some(total) => {
                        if length.is_none() {
                            bar.set_style(style(KNOWN));
                        }
                        length = Some(total);
                        bar.update(|s| {
                            s.set_len(total);
                            s.set_pos(pos);
                        });
                    }
                    _ => bar.set_position(pos),
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

/// The games part of the bar's text: `, 1,470,852 games`, nothing before the first.
fn games_text(n: u64) -> String {
    if n == 0 {
        return String::new();
    }
    let digits = n.to_string();
    let mut out = String::from(", ");
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out.push_str(if n == 1 { " game" } else { " games" });
    out
}

/// Per input, what the sink saw: games, and problems no game carries.
#[derive(Default)]
pub struct InputTally {
    /// Games written or not.
    pub games: u64,
    /// Problems of an input without any game.
    pub unclaimed: u64,
}

impl InputTally {
    /// Adds a piece's visitor.
    pub fn add<B, T>(&mut self, dom: &kifu_pipeline::Dom<B, T>) {
        self.games += kifu_pipeline::GameCount::games(dom);
        self.unclaimed += dom.unclaimed.len() as u64;
    }

    /// At the input's end: the count of its problems if it held no game but problems (no
    /// game carries them, the command names it); resets for the next input.
    pub fn end(&mut self) -> Option<u64> {
        let t = std::mem::take(self);
        (t.games == 0 && t.unclaimed > 0).then_some(t.unclaimed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_text_groups_digits() {
        assert_eq!(games_text(0), "");
        assert_eq!(games_text(1), ", 1 game");
        assert_eq!(games_text(999), ", 999 games");
        assert_eq!(games_text(1000), ", 1,000 games");
        assert_eq!(games_text(1_470_852), ", 1,470,852 games");
    }

    #[test]
    fn the_templates_parse() {
        for t in [KNOWN, UNKNOWN] {
            assert!(indicatif::ProgressStyle::with_template(t).is_ok(), "{t}");
        }
    }
}
