//! A scan: a [`Source`] read on every core through `kifu::par`, the caller's work run on each
//! piece, results handed back in input order, and what the walk met reported once.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use kifu::par::{self, Event, Feeder, Work};
use kifu::{Format, pgn, sgf};
use kifu_input::Progress;

use crate::source::{Formats, Input, Source, Stoppable};

/// How a scan shares out its work, and what its decoders may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScanOptions {
    /// Threads reading pieces (1: each input read straight through on the calling thread).
    pub threads: usize,
    /// About how many bytes a piece of a large input holds.
    pub piece_size: usize,
    /// Bytes read at a time.
    pub read_size: usize,
    /// Decoded bytes of each independent frame (pzstd) or stream (pbzip2) a decoding thread may
    /// hold ahead of the reader.
    pub frame_buffer: usize,
    /// The most memory one decoder may take for what an input asks (a zstd window, an xz
    /// dictionary).
    pub decoder_memory: usize,
}

impl ScanOptions {
    /// The default [`frame_buffer`](Self::frame_buffer): 4 MiB. Two threads decoding pzstd
    /// frames each that far ahead keep both cores busy while peak memory stays near that of
    /// one thread.
    pub const DEFAULT_FRAME_BUFFER: usize = 4 << 20;

    /// `threads` threads (at least 1), the other options their defaults.
    pub fn with_threads(threads: usize) -> ScanOptions {
        ScanOptions {
            threads: threads.max(1),
            ..ScanOptions::default()
        }
    }
}

impl ScanOptions {
    /// The decoders' options (kifu-input) these options give.
    fn input(&self) -> kifu_input::Options {
        kifu_input::Options {
            threads: self.threads.max(1),
            frame_buffer: self.frame_buffer,
            decoder_memory_limit: self.decoder_memory,
            ..kifu_input::Options::default()
        }
    }
}

impl Default for ScanOptions {
    /// The machine's cores, pieces of 1 MiB, reads of 64 KiB, 4 MiB of frames ahead, 128 MiB
    /// for one decoder.
    fn default() -> ScanOptions {
        let p = par::Options::default();
        ScanOptions {
            threads: p.threads,
            piece_size: p.piece_size,
            read_size: p.read_size,
            frame_buffer: ScanOptions::DEFAULT_FRAME_BUFFER,
            decoder_memory: kifu_input::Options::default().decoder_memory_limit,
        }
    }
}

/// A piece's visitor that knows how many games it read (to name the inputs that held none).
pub trait GameCount {
    /// Games (or game trees) read.
    fn games(&self) -> u64;
    /// Problems that no game carries (met in an input without a game).
    fn unclaimed(&self) -> u64 {
        0
    }
    /// The games cut at the DOM builder's limit of bytes (`--max-game-bytes`), by their index
    /// in the piece: the scan names each ([`Note::Cut`]) and counts them ([`Scanned::cut`]).
    fn cut(&self) -> &[u64] {
        &[]
    }
}

impl GameCount for kifu::Stats {
    fn games(&self) -> u64 {
        self.games
    }
}

impl<T: GameCount + kifu_replay::chess::ReplayVisitor> GameCount
    for kifu_replay::chess::Replayer<T>
{
    fn games(&self) -> u64 {
        self.inner().games()
    }
    fn unclaimed(&self) -> u64 {
        self.inner().unclaimed()
    }
    fn cut(&self) -> &[u64] {
        self.inner().cut()
    }
}

impl<T: GameCount + kifu_replay::go::GoReplayVisitor> GameCount for kifu_replay::go::GoReplayer<T> {
    fn games(&self) -> u64 {
        self.inner().games()
    }
    fn unclaimed(&self) -> u64 {
        self.inner().unclaimed()
    }
    fn cut(&self) -> &[u64] {
        self.inner().cut()
    }
}

/// Something a scan says besides its results, in input order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// An input was read to its end without a game in it.
    NoGame {
        /// The input.
        input: String,
        /// Problems met in it (no game carries them: `kifu check` lists them).
        problems: u64,
    },
    /// The paths named held no PGN or SGF stream at all (a directory of other files).
    NoInput {
        /// The paths.
        names: Vec<String>,
    },
    /// A table scan: the table has no rows for an input of this format (PGN for `positions`).
    NoTable {
        /// The input.
        input: String,
        /// Its format.
        format: Format,
        /// The table (`positions`).
        table: &'static str,
    },
    /// A table scan: an input of the other format than the table's (the table of the first
    /// input with rows) cannot join it.
    NotInTable {
        /// The input.
        input: String,
        /// Its format.
        format: Format,
        /// The table the output holds (`games`, `trees`, `moves`).
        table: &'static str,
    },
    /// A table scan: a game that could not go to the table.
    Refused {
        /// The input.
        input: String,
        /// The game's index in its input (0-based).
        game: u64,
        /// Why.
        why: String,
    },
    /// A game larger than the DOM builder's limit of bytes (`--max-game-bytes`): what came
    /// before the limit was built and handed on, the rest skipped. Every command that builds
    /// games names it, and exits 1.
    Cut {
        /// The input.
        input: String,
        /// The game's index in its input (0-based).
        game: u64,
    },
    /// More games of an input cut at the DOM builder's limit than are named one by one
    /// ([`MAX_CUT_NAMED`] an input): how many more, after the last [`Note::Cut`] of the input.
    CutMore {
        /// The input.
        input: String,
        /// The games cut past those named.
        more: u64,
    },
}

/// The most games cut at the DOM builder's limit named one by one ([`Note::Cut`]) for an
/// input; the rest are counted ([`Note::CutMore`]), so that an input of a million games each
/// past the limit is not a million names held until its end.
pub const MAX_CUT_NAMED: usize = 100;

impl Note {
    /// Whether it says that something read was left out of a table (the table is not whole).
    pub fn left_out(&self) -> bool {
        matches!(
            self,
            Note::NoTable { .. } | Note::NotInTable { .. } | Note::Refused { .. }
        )
    }
}

impl std::fmt::Display for Note {
    /// The note as `kifu` prints it after `kifu: ` (names made safe for a terminal).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Note::NoGame { input, problems: 0 } => {
                write!(f, "{}: no game in it", crate::shown(input))
            }
            Note::NoGame { input, problems } => write!(
                f,
                "{}: no game read; {problems} problem(s)",
                crate::shown(input)
            ),
            Note::NoInput { names } => {
                let names: Vec<_> = names.iter().map(|n| crate::shown(n)).collect();
                write!(f, "{}: no PGN or SGF input in it", names.join(", "))
            }
            Note::NoTable {
                input,
                format,
                table,
            } => write!(
                f,
                "{}: the {table} table holds no {} game; not exported",
                crate::shown(input),
                format.name().to_ascii_uppercase()
            ),
            Note::NotInTable {
                input,
                format,
                table,
            } => write!(
                f,
                "{}: {} input cannot join the {table} table; not exported",
                crate::shown(input),
                match format {
                    Format::Pgn => "a PGN",
                    Format::Sgf => "an SGF",
                }
            ),
            Note::Refused { input, game, why } => write!(
                f,
                "{}: game {}: {}",
                crate::shown(input),
                game + 1,
                crate::shown(why)
            ),
            Note::Cut { input, game } => write!(
                f,
                "{}: game {}: cut: larger than --max-game-bytes allows in memory; the rest \
                 of it was skipped (a larger --max-game-bytes keeps it whole)",
                crate::shown(input),
                game + 1,
            ),
            Note::CutMore { input, more } => write!(
                f,
                "{}: {more} more game(s) cut at --max-game-bytes (the first {MAX_CUT_NAMED} \
                 named above)",
                crate::shown(input),
            ),
        }
    }
}

/// An input that could not be read, or was cut short.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The input (`ARCHIVE:MEMBER` for a member).
    pub name: String,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for InputError {
    /// `NAME: MESSAGE`, made safe for a terminal.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {}",
            crate::shown(&self.name),
            crate::shown(&self.message)
        )
    }
}

/// The walk's counts, as `kifu stats` and `kifu.stats` give them.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct WalkCounts {
    /// Top-level inputs (files, directories, stdin, a reader, bytes).
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

/// What a scan read.
#[derive(Clone, Debug, Default)]
pub struct Scanned {
    /// Games (or game trees) read, over all inputs.
    pub games: u64,
    /// The inputs that could not be read, or were cut short, in the order met.
    pub errors: Vec<InputError>,
    /// The walk's counts.
    pub counts: WalkCounts,
    /// Streams skipped because their name says the other format ([`Formats::only`]).
    pub skipped_format: Vec<String>,
    /// The scan was told to stop ([`Scan::with_stop`]) before its end: what it read is not
    /// the whole of its inputs.
    pub stopped: bool,
    /// Games cut at the DOM builder's limit of bytes ([`Note::Cut`]): not read whole.
    pub cut: u64,
}

impl Scanned {
    /// Whether an input could not be read, or was cut short.
    pub fn failed(&self) -> bool {
        !self.errors.is_empty()
    }
}

/// A scan of a [`Source`]: set it up, then [`run`](Scan::run) it with a piece's work.
pub struct Scan<'s> {
    source: Source,
    formats: Formats,
    options: ScanOptions,
    progress: Arc<Progress>,
    stop: Option<&'s AtomicBool>,
}

impl<'s> Scan<'s> {
    /// A scan of `source` on every core, with the default options.
    pub fn new(source: Source, formats: Formats) -> Scan<'s> {
        Scan {
            source,
            formats,
            options: ScanOptions::default(),
            progress: Arc::new(Progress::new()),
            stop: None,
        }
    }

    /// With these options.
    pub fn with_options(mut self, options: ScanOptions) -> Scan<'s> {
        self.options = options;
        self
    }

    /// The stop flag of [`with_stop`](Self::with_stop), for work that can end early too.
    pub(crate) fn stop_flag(&self) -> Option<&'s AtomicBool> {
        self.stop
    }

    /// Stops the scan once `stop` is set (Ctrl-C, a consumer gone): reads fail, the sink is no
    /// longer called, and [`run`](Self::run) returns within a read.
    pub fn with_stop(mut self, stop: &'s AtomicBool) -> Scan<'s> {
        self.stop = Some(stop);
        self
    }

    /// The input's counters, for a progress bar: raw bytes (compressed ones for compressed
    /// input) read by the decoders and consumed by the parsers ([`Progress::bytes_consumed`],
    /// the bar's position), the total size when known, the games read (each piece's, as it is
    /// handed on).
    pub fn progress(&self) -> Arc<Progress> {
        Arc::clone(&self.progress)
    }

    /// The options.
    pub fn options(&self) -> &ScanOptions {
        &self.options
    }

    /// The paths the source names.
    pub fn paths(&self) -> &[std::path::PathBuf] {
        self.source.paths()
    }

    /// The format a stream whose name says nothing is read as, if one is forced.
    pub fn forced_format(&self) -> Option<Format> {
        self.formats.forced
    }

    /// Walks the source on the calling thread, one stream after another, without `par`: `each`
    /// gets each stream (its UTF-16 turned into UTF-8) to read as it likes (a visitor that must
    /// stay on this thread, say), and returns `false` to end the walk. An error it returns
    /// (the stream's own read error, say) makes that stream a failed input, and the walk goes
    /// on.
    pub fn walk(
        self,
        mut each: impl FnMut(Input, &mut dyn io::Read) -> io::Result<bool>,
    ) -> Scanned {
        let Scan {
            source,
            formats,
            options,
            progress,
            stop,
        } = self;
        let named = source.count();
        let input_options = options.input();
        let mut skipped_format = Vec::new();
        let mut ended = false;
        let report = source.walk(&input_options, &progress, |entry| {
            let Some(format) = formats.choose(&entry) else {
                skipped_format.push(entry.name.to_string());
                return Ok(());
            };
            let input = Input {
                name: Arc::from(entry.name),
                format,
            };
            let mut reader = kifu::encoding::Utf16Reader::new(Stoppable {
                inner: entry.reader,
                stop,
            });
            match each(input, &mut reader)? {
                true => Ok(()),
                false => {
                    ended = true;
                    Err(io::Error::other("the walk ended"))
                }
            }
        });
        let mut scanned = Scanned::from_report(&report, named, skipped_format, 0);
        scanned.stopped = stop.is_some_and(|s| s.load(Ordering::Relaxed));
        if ended {
            // the caller ended the walk: the stream it was reading is not a failed input
            scanned.errors.clear();
        }
        scanned
    }

    /// Runs `work` on every piece; `sink` gets each piece's visitor and each input's end in
    /// input order, on the calling thread; `note` hears of the inputs that held no game, in
    /// order. An error from `sink` stops the scan and is returned.
    ///
    /// # Errors
    ///
    /// The first error `sink` returned. An input that cannot be read is not an error of the
    /// scan: it is in [`Scanned::errors`], and the other inputs are read.
    pub fn run<W, E, S, N>(self, work: &W, sink: S, note: N) -> Result<Scanned, E>
    where
        W: Work<Input = Input>,
        W::Pgn: GameCount,
        W::Sgf: GameCount,
        E: Send,
        S: FnMut(Event<'_, W>) -> Result<(), E>,
        N: FnMut(Note),
    {
        self.run_with(Own(work), sink, note)
    }

    /// As [`run`](Self::run), with the pieces read on `executor`'s threads (`kifu::par::scan_on`:
    /// a host's threads, a database's, say) rather than on threads of the scan's own: the same
    /// events in the same order. The walk of the inputs still runs on a thread of the scan's,
    /// and `sink` and `note` on the calling thread.
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run).
    ///
    /// # Panics
    ///
    /// When `executor` drops a piece's job unrun (`kifu::par::Executor` runs every job).
    pub fn run_on<W, E, S, N>(
        self,
        work: Arc<W>,
        executor: &dyn par::Executor,
        sink: S,
        note: N,
    ) -> Result<Scanned, E>
    where
        W: Work<Input = Input> + Send + 'static,
        W::Pgn: GameCount + 'static,
        W::Sgf: GameCount + 'static,
        E: Send,
        S: FnMut(Event<'_, W>) -> Result<(), E>,
        N: FnMut(Note),
    {
        self.run_with(On(work, executor), sink, note)
    }

    fn run_with<W, E, S, N, D>(self, drive: D, mut sink: S, mut note: N) -> Result<Scanned, E>
    where
        W: Work<Input = Input>,
        W::Pgn: GameCount,
        W::Sgf: GameCount,
        E: Send,
        S: FnMut(Event<'_, W>) -> Result<(), E>,
        N: FnMut(Note),
        D: Drive<W>,
    {
        let Scan {
            source,
            formats,
            options,
            progress,
            stop,
        } = self;
        let named = source.count();
        let names: Vec<String> = source
            .paths()
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let par_options = par::Options {
            threads: options.threads.max(1),
            piece_size: options.piece_size,
            read_size: options.read_size,
        };
        let input_options = options.input();
        let stopped = |s: Option<&AtomicBool>| s.is_some_and(|s| s.load(Ordering::Relaxed));
        let mut report = None;
        let mut skipped_format = Vec::new();
        // games and problems no game carries, in the current input
        let mut in_input = (0u64, 0u64);
        let mut games = 0u64;
        // the games of the current input cut at the DOM's limit, named at the input's end (in
        // game order, after what the pieces' sink said: the same order at every piece size)
        let mut cut: Vec<Note> = Vec::new();
        let mut cut_more = 0u64;
        let mut cut_count = 0u64;
        let result = drive.scan(
            &par_options,
            |feeder: &mut Feeder<'_, W, E>| {
                report = Some(source.walk(&input_options, &progress, |entry| {
                    let Some(format) = formats.choose(&entry) else {
                        skipped_format.push(entry.name.to_string());
                        return Ok(());
                    };
                    let input = Input {
                        name: Arc::from(entry.name),
                        format,
                    };
                    let reader = kifu::encoding::Utf16Reader::new(Stoppable {
                        inner: entry.reader,
                        stop,
                    });
                    let go_on = match format {
                        Format::Pgn => feeder.pgn(input, pgn::Config::default(), reader),
                        Format::Sgf => feeder.sgf(input, sgf::Config::default(), reader),
                    };
                    // told to stop: an error of the callback's own, so that the walk ends here
                    // rather than reading the rest of the input to its end
                    if go_on && !stopped(stop) {
                        Ok(())
                    } else {
                        Err(io::Error::other("the scan stopped"))
                    }
                }));
            },
            |event| {
                let mut empty = None;
                let mut named = Vec::new();
                match &event {
                    Event::Piece {
                        visited,
                        input,
                        info,
                    } => {
                        let (n, unclaimed, cut_games) = match visited {
                            par::Visited::Pgn(v) => (v.games(), v.unclaimed(), v.cut()),
                            par::Visited::Sgf(v) => (v.games(), v.unclaimed(), v.cut()),
                        };
                        cut_count += cut_games.len() as u64;
                        for &k in cut_games {
                            if cut.len() < MAX_CUT_NAMED {
                                cut.push(Note::Cut {
                                    input: input.name.to_string(),
                                    game: info.first_game + k,
                                });
                            } else {
                                cut_more += 1;
                            }
                        }
                        in_input.0 += n;
                        in_input.1 += unclaimed;
                        progress.add_games(n);
                    }
                    Event::End { input, error, .. } => {
                        games += in_input.0;
                        if in_input.0 == 0 && error.is_none() {
                            empty = Some(Note::NoGame {
                                input: input.name.to_string(),
                                problems: in_input.1,
                            });
                        }
                        in_input = (0, 0);
                        named = std::mem::take(&mut cut);
                        if cut_more > 0 {
                            named.push(Note::CutMore {
                                input: input.name.to_string(),
                                more: std::mem::take(&mut cut_more),
                            });
                        }
                    }
                }
                sink(event)?;
                named.into_iter().for_each(&mut note);
                if let Some(n) = empty {
                    note(n);
                }
                Ok(())
            },
        );
        result?;
        // (a scan stopped before an input's end)
        let last = match cut.last() {
            Some(Note::Cut { input, .. }) if cut_more > 0 => Some(Note::CutMore {
                input: input.clone(),
                more: cut_more,
            }),
            _ => None,
        };
        cut.into_iter().chain(last).for_each(&mut note);
        let report = report.unwrap_or_default();
        if report.entries == 0 && report.errors.is_empty() && !names.is_empty() {
            note(Note::NoInput { names });
        }
        let mut scanned = Scanned::from_report(&report, named, skipped_format, games);
        scanned.stopped = stopped(stop);
        scanned.cut = cut_count;
        Ok(scanned)
    }
}

/// Where a scan's pieces are read: on threads of the scan's own, or on an executor's.
trait Drive<W: Work> {
    fn scan<E, P, S>(self, options: &par::Options, produce: P, sink: S) -> Result<(), E>
    where
        E: Send,
        P: for<'s> FnOnce(&mut Feeder<'s, W, E>) + Send,
        S: FnMut(Event<'_, W>) -> Result<(), E>;
}

/// On threads of the scan's own (`kifu::par::scan`).
struct Own<'w, W>(&'w W);

impl<W: Work> Drive<W> for Own<'_, W> {
    fn scan<E, P, S>(self, options: &par::Options, produce: P, sink: S) -> Result<(), E>
    where
        E: Send,
        P: for<'s> FnOnce(&mut Feeder<'s, W, E>) + Send,
        S: FnMut(Event<'_, W>) -> Result<(), E>,
    {
        par::scan(options, self.0, produce, sink)
    }
}

/// On an executor's threads (`kifu::par::scan_on`).
struct On<'e, W>(Arc<W>, &'e dyn par::Executor);

impl<W> Drive<W> for On<'_, W>
where
    W: Work + Send + 'static,
    W::Input: 'static,
    W::Pgn: 'static,
    W::Sgf: 'static,
{
    fn scan<E, P, S>(self, options: &par::Options, produce: P, sink: S) -> Result<(), E>
    where
        E: Send,
        P: for<'s> FnOnce(&mut Feeder<'s, W, E>) + Send,
        S: FnMut(Event<'_, W>) -> Result<(), E>,
    {
        par::scan_on(options, self.0, self.1, produce, sink)
    }
}

impl Scanned {
    fn from_report(
        report: &kifu_input::Report,
        named: u64,
        skipped_format: Vec<String>,
        games: u64,
    ) -> Scanned {
        Scanned {
            games,
            errors: report
                .errors
                .iter()
                .map(|e| InputError {
                    name: e.name.clone(),
                    message: e.error.to_string(),
                })
                .collect(),
            counts: WalkCounts {
                inputs: report.inputs.max(named),
                streams: report.entries,
                skipped_files: report.skipped_files,
                skipped_members: report.skipped_members,
                skipped: report.skipped.clone(),
            },
            skipped_format,
            stopped: false,
            cut: 0,
        }
    }
}
