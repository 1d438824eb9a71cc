//! The scan: inputs cut into pieces on one thread, pieces read on several, results handed on
//! in input order, and the boundaries that turn out wrong mended on the way.

use std::io::{self, Read};
use std::sync::Arc;

use bytes::Bytes;

use super::Options;
use super::cut::{self, Cut, Cutter};
use super::lines::Start;
use super::ordered;
use super::piece::{Drive, Ended, read_on};
use super::pool::Pool;
use crate::Format;
use crate::position::Lines;
use crate::{pgn, sgf};

/// What a scan does with its pieces: one visitor per piece, of the piece's format.
///
/// A visitor sees the events of its piece only, with stream positions, and game indexes
/// counted from the piece's first game: add [`PieceInfo::first_game`] for the index in the
/// input. It gets [`on_end`](pgn::Visitor::on_end) when its piece is over, so a builder
/// flushes there. A visitor may be made and dropped unseen when a cut turns out to be no
/// game boundary (the piece before then reads this one too): keep results inside the visitor,
/// not in side effects. A visitor is made on a thread that reads pieces, or on the thread that
/// gets the results (a piece cut where no game seemed to start, which does start one, is read
/// there).
pub trait Work: Sync {
    /// What the caller knows of each input (its name, say); handed back with its results.
    type Input: Send + Sync;
    /// The visitor of a PGN piece.
    type Pgn: pgn::Visitor + Send;
    /// The visitor of an SGF piece.
    type Sgf: sgf::Visitor + Send;
    /// A visitor for a PGN piece of `input`.
    fn pgn(&self, input: &Self::Input) -> Self::Pgn;
    /// A visitor for an SGF piece of `input`.
    fn sgf(&self, input: &Self::Input) -> Self::Sgf;
    /// Hands a PGN piece's visitor the bytes its parser reads next, before it reads them:
    /// `bytes` starts at stream offset `offset`, and the parser reads with `config`. They are
    /// its piece, then, if its parser reads on past the piece's end, the next piece (of which
    /// it may read only the start). A visitor that may read a game again from its bytes keeps
    /// them (`Bytes` are shared, not copied): a fresh [`pgn::Parser`] placed at the game's
    /// start ([`start_at`](pgn::Parser::start_at)) and fed them raises the events the piece's
    /// parser raised. Default: nothing.
    ///
    /// ```
    /// use bytes::Bytes;
    /// use kifu::par::{Event, Visited, Work};
    /// use kifu::{pgn, sgf};
    ///
    /// /// Each piece's runs of bytes, with their stream offsets.
    /// #[derive(Default)]
    /// struct Runs(Vec<(u64, Bytes)>);
    /// impl pgn::Visitor for Runs {}
    /// impl sgf::Visitor for Runs {}
    ///
    /// struct Keep;
    /// impl Work for Keep {
    ///     type Input = ();
    ///     type Pgn = Runs;
    ///     type Sgf = Runs;
    ///     fn pgn(&self, _: &()) -> Runs { Runs::default() }
    ///     fn sgf(&self, _: &()) -> Runs { Runs::default() }
    ///     fn pgn_ahead(&self, v: &mut Runs, _: &pgn::Config, offset: u64, bytes: &Bytes) {
    ///         v.0.push((offset, bytes.clone()));
    ///     }
    /// }
    ///
    /// let input = "[Event \"x\"]\n\n1. e4 e5 *\n\n".repeat(100);
    /// let options = kifu::par::Options { threads: 1, piece_size: 256, ..Default::default() };
    /// let mut read = Vec::new();
    /// kifu::par::scan::<_, (), _, _>(
    ///     &options,
    ///     &Keep,
    ///     |f| { f.pgn((), pgn::Config::default(), input.as_bytes()); },
    ///     |event| {
    ///         if let Event::Piece { visited: Visited::Pgn(runs), info, .. } = event {
    ///             // the piece's own bytes first, at its offset
    ///             assert_eq!(runs.0[0].0, info.offset);
    ///             read.extend_from_slice(&runs.0[0].1);
    ///         }
    ///         Ok(())
    ///     },
    /// )
    /// .unwrap();
    /// assert_eq!(read, input.as_bytes());
    /// ```
    fn pgn_ahead(&self, visitor: &mut Self::Pgn, config: &pgn::Config, offset: u64, bytes: &Bytes) {
        let _ = (visitor, config, offset, bytes);
    }
    /// [`pgn_ahead`](Work::pgn_ahead) for an SGF piece's visitor. Default: nothing.
    fn sgf_ahead(&self, visitor: &mut Self::Sgf, config: &sgf::Config, offset: u64, bytes: &Bytes) {
        let _ = (visitor, config, offset, bytes);
    }
}

/// A piece's visitor, of the piece's format.
#[derive(Debug)]
pub enum Visited<P, S> {
    /// A PGN piece.
    Pgn(P),
    /// An SGF piece.
    Sgf(S),
}

/// Where a piece lies in its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceInfo {
    /// Stream offset of the piece's first byte in its input.
    pub offset: u64,
    /// Its length in bytes.
    pub len: u64,
    /// The index, in the input, of the game the piece's visitor saw as game 0.
    pub first_game: u64,
    /// Whether the piece is the last of its input.
    pub last: bool,
}

/// What a scan hands on, in input order.
#[derive(Debug)]
pub enum Event<'a, W: Work + ?Sized> {
    /// A piece was read: its visitor.
    Piece {
        /// The input it belongs to.
        input: &'a W::Input,
        /// The visitor that read it.
        visited: Visited<W::Pgn, W::Sgf>,
        /// Where it lies.
        info: PieceInfo,
    },
    /// An input is over, after all its pieces.
    End {
        /// The input.
        input: &'a W::Input,
        /// Bytes read from it.
        bytes: u64,
        /// The read error that ended it early, if one did (every piece read before it came
        /// first).
        error: Option<io::Error>,
    },
}

/// Where the producer of a [`scan`] puts its inputs, one after the other.
pub struct Feeder<'s, W: Work, E> {
    mode: Mode<'s, W, E>,
    options: Options,
    /// The read buffer, kept from one input to the next.
    scratch: Vec<u8>,
    /// The cutter's read buffers, kept from one input to the next (made at the first input
    /// that is cut).
    pool: Option<Arc<Pool>>,
}

impl<W: Work, E> core::fmt::Debug for Feeder<'_, W, E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Feeder")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

enum Mode<'s, W: Work, E> {
    /// One thread: each piece read on the calling thread as soon as it is cut (and the next
    /// one known), and handed on; nothing is read ahead or read twice.
    Serial(Serial<'s, W, E>),
    /// Pieces to the pool; small whole inputs gathered into batches first.
    Pool(&'s mut ordered::Sender<Task<W>>, Batch<W>),
}

/// The one-thread scan: the pool's work and merge, run on the calling thread a piece at a
/// time, so that a piece's results go on (and are dropped) before the next piece is read.
struct Serial<'s, W: Work, E> {
    work: &'s W,
    merge: Merge<W>,
    sink: &'s mut dyn FnMut(Event<'_, W>) -> Result<(), E>,
    failed: &'s mut Option<Halt<E>>,
}

impl<W: Work, E> Serial<'_, W, E> {
    /// Reads `task` and hands on what it gives; `false` once the scan is over (the sink failed
    /// or a visitor stopped).
    fn run(&mut self, task: Task<W>) -> bool {
        let done = match task {
            // a piece whose start the open piece before it reads: not read on its own (on
            // one thread nothing is read only to be dropped)
            Task::Piece {
                input,
                cut,
                next,
                syntax: _,
            } if self.merge.open.is_some() => Done::Piece {
                input,
                cut,
                next,
                read: Reading::Open,
            },
            task => run_task(self.work, task),
        };
        match self.merge.take(self.work, done, self.sink) {
            Ok(()) => true,
            Err(halt) => {
                *self.failed = Some(halt);
                false
            }
        }
    }
}

/// Where the producer's tasks go: to the pool (small whole inputs batched), or read at once.
trait Out<W: Work> {
    /// Sends `task`, after any batched ones; `false` once the scan is over.
    fn send(&mut self, task: Task<W>) -> bool;
    /// Sends `task` of a small whole input (`bytes` long), batched where that pays.
    fn send_small(&mut self, task: Task<W>, bytes: usize) -> bool;
}

/// The pool's side of [`Out`]: its channel, the batch being gathered, the piece size.
struct ToPool<'a, W: Work>(&'a mut ordered::Sender<Task<W>>, &'a mut Batch<W>, usize);

impl<W: Work> Out<W> for ToPool<'_, W> {
    fn send(&mut self, task: Task<W>) -> bool {
        self.1.flush(self.0) && self.0.send(task)
    }
    fn send_small(&mut self, task: Task<W>, bytes: usize) -> bool {
        self.1.push(self.0, task, bytes, self.2)
    }
}

impl<W: Work, E> Out<W> for Serial<'_, W, E> {
    fn send(&mut self, task: Task<W>) -> bool {
        self.run(task)
    }
    fn send_small(&mut self, task: Task<W>, _bytes: usize) -> bool {
        self.run(task)
    }
}

/// Small whole inputs (one piece each, and their ends) gathered into one task, so that a
/// directory of many small files costs the pool one hand-over per batch, not two per file.
struct Batch<W: Work> {
    tasks: Vec<Task<W>>,
    bytes: usize,
}

impl<W: Work> Batch<W> {
    /// At most this many tasks in one batch (and about a piece's worth of bytes).
    const MAX_TASKS: usize = 64;

    fn new() -> Self {
        Batch {
            tasks: Vec::new(),
            bytes: 0,
        }
    }

    /// Adds a task of `bytes`; sends the batch when it holds about a piece's worth.
    fn push(
        &mut self,
        tx: &mut ordered::Sender<Task<W>>,
        task: Task<W>,
        bytes: usize,
        piece_size: usize,
    ) -> bool {
        self.tasks.push(task);
        self.bytes += bytes;
        if self.bytes >= piece_size || self.tasks.len() >= Self::MAX_TASKS {
            return self.flush(tx);
        }
        true
    }

    /// Sends what was gathered (before any task that is not batched, to keep the order).
    fn flush(&mut self, tx: &mut ordered::Sender<Task<W>>) -> bool {
        self.bytes = 0;
        match self.tasks.len() {
            0 => true,
            1 => tx.send(self.tasks.pop().expect("one task")),
            _ => tx.send(Task::Batch(core::mem::take(&mut self.tasks))),
        }
    }
}

/// Why a scan ends early.
enum Halt<E> {
    Sink(E),
    Stopped,
}

/// A format and its parser's limits.
#[derive(Clone, Copy)]
enum Syntax {
    Pgn(pgn::Config),
    Sgf(sgf::Config),
}

/// What the pool works on.
enum Task<W: Work> {
    /// Small whole inputs, in order.
    Batch(Vec<Task<W>>),
    Piece {
        input: Arc<W::Input>,
        syntax: Syntax,
        cut: Cut,
        next: Option<Bytes>,
    },
    End {
        input: Arc<W::Input>,
        bytes: u64,
        error: Option<io::Error>,
    },
}

/// What the pool gives back.
enum Done<W: Work> {
    Batch(Vec<Done<W>>),
    Piece {
        input: Arc<W::Input>,
        cut: Cut,
        next: Option<Bytes>,
        read: Reading<W>,
    },
    End {
        input: Arc<W::Input>,
        bytes: u64,
        error: Option<io::Error>,
    },
}

/// A piece as read, with how its reading ended.
enum Reading<W: Work> {
    Pgn(W::Pgn, Ended<pgn::Parser>),
    Sgf(W::Sgf, Ended<sgf::Parser>),
    /// Not read: the open piece before it reads it (one thread only).
    Open,
    /// Not read ahead, as it starts where the cutter found no place to cut ([`Cut::forced`]):
    /// the open piece before it reads it, or, if a game does start there, the sink's thread
    /// does (with the parser's syntax and the line counter at the piece's start).
    Deferred(Syntax, Lines),
}

impl<W: Work, E> Feeder<'_, W, E> {
    /// Reads `reader` as PGN (with `config`'s limits): cut into pieces on the scan's threads,
    /// or one after another on the calling thread with one. Returns `false` when the scan is stopping (the
    /// sink failed or a visitor stopped): the producer should then return.
    pub fn pgn<R: Read>(&mut self, input: W::Input, config: pgn::Config, reader: R) -> bool {
        self.input(input, Syntax::Pgn(config), reader, None)
    }

    /// Reads `reader` as SGF (with `config`'s limits); as [`pgn`](Self::pgn).
    pub fn sgf<R: Read>(&mut self, input: W::Input, config: sgf::Config, reader: R) -> bool {
        self.input(input, Syntax::Sgf(config), reader, None)
    }

    /// Reads an input held in memory as PGN; its pieces are slices of it, not copies.
    pub fn pgn_bytes(&mut self, input: W::Input, config: pgn::Config, data: Bytes) -> bool {
        self.input(input, Syntax::Pgn(config), io::empty(), Some(data))
    }

    /// Reads an input held in memory as SGF; as [`pgn_bytes`](Self::pgn_bytes).
    pub fn sgf_bytes(&mut self, input: W::Input, config: sgf::Config, data: Bytes) -> bool {
        self.input(input, Syntax::Sgf(config), io::empty(), Some(data))
    }

    /// Reports an input that could not be read at all (it had no piece) in its place in the
    /// order: an [`Event::End`] with the error.
    pub fn failed(&mut self, input: W::Input, error: io::Error) -> bool {
        let end = Task::End {
            input: Arc::new(input),
            bytes: 0,
            error: Some(error),
        };
        match &mut self.mode {
            Mode::Serial(serial) => serial.run(end),
            Mode::Pool(tx, batch) => batch.push(tx, end, 0, self.options.piece_size),
        }
    }

    fn input<R: Read>(
        &mut self,
        input: W::Input,
        syntax: Syntax,
        reader: R,
        data: Option<Bytes>,
    ) -> bool {
        let format = match syntax {
            Syntax::Pgn(_) => Format::Pgn,
            Syntax::Sgf(_) => Format::Sgf,
        };
        let size = self.options.piece_size;
        let input = Arc::new(input);
        let mut out: &mut dyn Out<W> = match &mut self.mode {
            Mode::Serial(serial) => serial,
            Mode::Pool(tx, batch) => &mut ToPool(tx, batch, size),
        };
        match data {
            Some(data) => {
                let mut cutter = Cutter::whole(data, format, size);
                cut_all(&mut out, &input, syntax, &mut cutter)
            }
            None => {
                let scratch = core::mem::take(&mut self.scratch);
                let read_size = self.options.read_size;
                // the pieces in flight, and a few more
                let keep = 2 * self.options.threads + 4;
                let pool = self
                    .pool
                    .get_or_insert_with(|| cut::pool(size, read_size, keep));
                let mut cutter = Cutter::new(reader, format, size, read_size)
                    .with_scratch(scratch)
                    .with_pool(Arc::clone(pool))
                    .counting(self.options.threads <= 2);
                let going = cut_all(&mut out, &input, syntax, &mut cutter);
                self.scratch = cutter.into_scratch();
                going
            }
        }
    }
}

/// Cuts an input into pieces and sends them, each with the next one (one piece late). An
/// input of one piece goes as a small one, with its end.
fn cut_all<W: Work, R: Read>(
    out: &mut &mut dyn Out<W>,
    input: &Arc<W::Input>,
    syntax: Syntax,
    cutter: &mut Cutter<R>,
) -> bool {
    let mut held: Option<Cut> = None;
    let mut sent = false;
    let error = loop {
        match cutter.next_cut() {
            Ok(Some(cut)) => {
                if let Some(prev) = held.replace(cut) {
                    sent = true;
                    let next = held.as_ref().map(|c| c.bytes.clone());
                    if !out.send(piece_task(input, syntax, prev, next)) {
                        return false;
                    }
                }
            }
            Ok(None) => break None,
            Err(e) => break Some(e),
        }
    };
    let prev = held.take().unwrap_or_else(|| Cut {
        // an empty input is one empty piece: its visitor still sees its start and end
        bytes: Bytes::new(),
        offset: 0,
        start: Start::Known(Lines::default()),
        forced: false,
    });
    let end = Task::End {
        input: Arc::clone(input),
        bytes: cutter.offset(),
        error,
    };
    if !sent {
        let len = prev.bytes.len();
        return out.send_small(piece_task(input, syntax, prev, None), len)
            && out.send_small(end, 0);
    }
    out.send(piece_task(input, syntax, prev, None)) && out.send(end)
}

fn piece_task<W: Work>(
    input: &Arc<W::Input>,
    syntax: Syntax,
    cut: Cut,
    next: Option<Bytes>,
) -> Task<W> {
    Task::Piece {
        input: Arc::clone(input),
        syntax,
        cut,
        next,
    }
}

/// A worker's job: one piece read by a fresh parser placed at its start.
fn run_task<W: Work>(w: &W, task: Task<W>) -> Done<W> {
    match task {
        Task::Batch(tasks) => Done::Batch(tasks.into_iter().map(|t| run_task(w, t)).collect()),
        Task::Piece {
            input,
            syntax,
            cut,
            next,
        } => {
            let lines = cut.start.resolve(&cut.bytes);
            // a piece cut where no game seemed to start (inside a huge game, say) is not read
            // ahead: what a visitor would build of it (a DOM of a piece's moves: 25 times its
            // bytes) is nearly always dropped, as the piece before reads on into it
            let read = if cut.forced {
                Reading::Deferred(syntax, lines)
            } else {
                read_piece(w, &input, syntax, lines, &cut, next.as_ref())
            };
            Done::Piece {
                input,
                cut,
                next,
                read,
            }
        }
        Task::End {
            input,
            bytes,
            error,
        } => Done::End {
            input,
            bytes,
            error,
        },
    }
}

/// `cut` read by a fresh parser placed at its start (whose line counter is `lines`), then its
/// end decided with `next`.
fn read_piece<W: Work>(
    w: &W,
    input: &W::Input,
    syntax: Syntax,
    lines: Lines,
    cut: &Cut,
    next: Option<&Bytes>,
) -> Reading<W> {
    let end = cut.offset + cut.bytes.len() as u64;
    match syntax {
        Syntax::Pgn(cfg) => {
            let mut v = w.pgn(input);
            let parser = <pgn::Parser as Drive<W::Pgn>>::fresh(&cfg, lines, cut.offset);
            let ended = read_on(parser, &cut.bytes, end, next, &mut v, |v, c, o, b| {
                w.pgn_ahead(v, c, o, b)
            });
            Reading::Pgn(v, ended)
        }
        Syntax::Sgf(cfg) => {
            let mut v = w.sgf(input);
            let parser = <sgf::Parser as Drive<W::Sgf>>::fresh(&cfg, lines, cut.offset);
            let ended = read_on(parser, &cut.bytes, end, next, &mut v, |v, c, o, b| {
                w.sgf_ahead(v, c, o, b)
            });
            Reading::Sgf(v, ended)
        }
    }
}

/// A piece whose end was no game boundary, reading on into the pieces after it.
enum Open<W: Work> {
    Pgn(Box<pgn::Parser>, W::Pgn, PieceInfo),
    Sgf(Box<sgf::Parser>, W::Sgf, PieceInfo),
}

/// The sink's side: hands the pieces on in order, reads on where a cut was wrong, and counts
/// the games so that each piece knows the index of its first one.
struct Merge<W: Work> {
    /// Index of the game that starts the next piece of the current input.
    first_game: u64,
    open: Option<Open<W>>,
}

impl<W: Work> Merge<W> {
    /// Hands on `done` (a piece read, an input's end), reading here what no worker read
    /// (`work` makes its visitor).
    fn take<E>(
        &mut self,
        work: &W,
        done: Done<W>,
        sink: &mut dyn FnMut(Event<'_, W>) -> Result<(), E>,
    ) -> Result<(), Halt<E>> {
        let (input, cut, next, read) = match done {
            Done::Batch(done) => {
                for d in done {
                    self.take(work, d, sink)?;
                }
                return Ok(());
            }
            Done::End {
                input,
                bytes,
                error,
            } => {
                self.first_game = 0;
                self.open = None;
                let end = Event::End {
                    input: &*input,
                    bytes,
                    error,
                };
                return sink(end).map_err(Halt::Sink);
            }
            Done::Piece {
                input,
                cut,
                next,
                read,
            } => (input, cut, next, read),
        };
        let len = cut.bytes.len() as u64;
        let end = cut.offset + len;
        let next = next.as_ref();
        // a piece whose start was no game boundary: the open one reads it instead, and the
        // speculative reading is dropped
        let (visited, info, ended) = match (self.open.take(), read) {
            (Some(Open::Pgn(parser, mut v, mut info)), _) => {
                info.len += len;
                let ended = read_on(*parser, &cut.bytes, end, next, &mut v, |v, c, o, b| {
                    work.pgn_ahead(v, c, o, b)
                });
                (Visited::Pgn(v), info, ended.map(OpenParser::Pgn))
            }
            (Some(Open::Sgf(parser, mut v, mut info)), _) => {
                info.len += len;
                let ended = read_on(*parser, &cut.bytes, end, next, &mut v, |v, c, o, b| {
                    work.sgf_ahead(v, c, o, b)
                });
                (Visited::Sgf(v), info, ended.map(OpenParser::Sgf))
            }
            (None, read) => {
                let info = PieceInfo {
                    offset: cut.offset,
                    len,
                    first_game: self.first_game,
                    last: next.is_none(),
                };
                // a game starts where the cutter found none: read here, as a worker would have
                let read = match read {
                    Reading::Deferred(syntax, lines) => {
                        read_piece(work, &input, syntax, lines, &cut, next)
                    }
                    read => read,
                };
                match read {
                    Reading::Pgn(v, ended) => (Visited::Pgn(v), info, ended.map(OpenParser::Pgn)),
                    Reading::Sgf(v, ended) => (Visited::Sgf(v), info, ended.map(OpenParser::Sgf)),
                    Reading::Open | Reading::Deferred(..) => {
                        unreachable!("a piece is left unread only when one is open")
                    }
                }
            }
        };
        let mut info = info;
        info.last = next.is_none();
        match ended {
            Ended::Open(open) => {
                // the visitor reads on into the next piece
                self.open = Some(match (*open, visited) {
                    (OpenParser::Pgn(p), Visited::Pgn(v)) => Open::Pgn(p, v, info),
                    (OpenParser::Sgf(p), Visited::Sgf(v)) => Open::Sgf(p, v, info),
                    _ => unreachable!("a piece keeps its format"),
                });
                Ok(())
            }
            Ended::Closed { game } => {
                self.first_game = info.first_game + game;
                sink(Event::Piece {
                    input: &*input,
                    visited,
                    info,
                })
                .map_err(Halt::Sink)
            }
            Ended::Last => sink(Event::Piece {
                input: &*input,
                visited,
                info,
            })
            .map_err(Halt::Sink),
            Ended::Stopped => {
                sink(Event::Piece {
                    input: &*input,
                    visited,
                    info,
                })
                .map_err(Halt::Sink)?;
                Err(Halt::Stopped)
            }
        }
    }
}

/// An open piece's parser, of its format.
enum OpenParser {
    Pgn(Box<pgn::Parser>),
    Sgf(Box<sgf::Parser>),
}

impl<P> Ended<P> {
    fn map<Q>(self, f: impl FnOnce(Box<P>) -> Q) -> Ended<Q> {
        match self {
            Ended::Closed { game } => Ended::Closed { game },
            Ended::Last => Ended::Last,
            Ended::Stopped => Ended::Stopped,
            Ended::Open(p) => Ended::Open(Box::new(f(p))),
        }
    }
}

/// The producer's side of a scan on several threads: `produce` puts its inputs into a feeder
/// that sends their pieces (and batches of small inputs) down `tx`, the last batch at the end.
fn feed_pool<W: Work, E>(
    tx: &mut ordered::Sender<Task<W>>,
    options: Options,
    produce: impl for<'s> FnOnce(&mut Feeder<'s, W, E>),
) {
    let mut feeder = Feeder {
        mode: Mode::Pool(tx, Batch::new()),
        options,
        scratch: Vec::new(),
        pool: None,
    };
    produce(&mut feeder);
    if let Mode::Pool(tx, batch) = &mut feeder.mode {
        // the scan ends whether or not this last send goes through
        let _ = batch.flush(tx);
    }
}

/// [`scan`] with the pieces read on `executor`'s threads (`options.threads` sizes the window of
/// pieces in flight, about `2 * threads + 2`): the producer still runs on a thread of the
/// scan's own and `sink` on the calling thread, which also mends the wrong cuts and counts the
/// games, so that the visitors see what they see in [`scan`], whatever the executor's threads.
/// With one thread everything runs on the calling thread, a piece at a time, as in [`scan`].
///
/// `work` is shared with the executor's threads, hence the `Arc` and the `'static` bounds.
///
/// # Panics
///
/// As [`scan`] (a panic of `produce` or of a visitor is raised again here), and when the
/// executor drops a job unrun.
pub fn scan_on<W, E, P, S>(
    options: &Options,
    work: Arc<W>,
    executor: &dyn super::Executor,
    produce: P,
    mut sink: S,
) -> Result<(), E>
where
    W: Work + Send + 'static,
    W::Input: 'static,
    W::Pgn: 'static,
    W::Sgf: 'static,
    P: for<'s> FnOnce(&mut Feeder<'s, W, E>) + Send,
    S: FnMut(Event<'_, W>) -> Result<(), E>,
    E: Send,
{
    if options.threads <= 1 {
        return scan(options, &*work, produce, sink);
    }
    let options = *options;
    let mut merge = Merge::<W> {
        first_game: 0,
        open: None,
    };
    let worker = Arc::clone(&work);
    let job: Arc<dyn Fn(Task<W>) -> Done<W> + Send + Sync> =
        Arc::new(move |task| run_task(&*worker, task));
    let result = ordered::run_on(
        2 * options.threads + 2,
        |tx: &mut ordered::Sender<Task<W>>| feed_pool(tx, options, produce),
        job,
        executor,
        |done| merge.take(&*work, done, &mut sink),
    );
    match result {
        Err(Halt::Sink(e)) => Err(e),
        Err(Halt::Stopped) | Ok(()) => Ok(()),
    }
}

/// Runs a scan: `produce` puts inputs into the [`Feeder`] (on a thread of its own when the
/// scan has several), `work` makes a visitor per piece, and `sink` gets the pieces' visitors
/// and the inputs' ends in input order, on the calling thread.
///
/// Each input is cut into pieces of about [`Options::piece_size`] bytes where a game probably
/// starts, and a cut that turns out to be no game boundary is mended by reading on (see the
/// [module docs](super)); the visitors then see exactly the events of the one-visitor reading,
/// shared out among them. With more than one thread the pieces are read on the threads, and
/// inputs smaller than a piece (a directory of SGF files) travel to them in batches of about a
/// piece's worth, so that each costs no hand-over of its own; memory holds about
/// `2 * threads + 2` pieces. With one thread ([`Options::threads`] = 1) everything runs on the
/// calling thread, a piece at a time: each piece is read once (never ahead, never only to be
/// dropped) and handed to `sink` before the next is read, so that what a visitor holds is
/// bounded by a piece, not by its input.
///
/// The first error of `sink` ends the scan and is returned. A visitor's
/// [`Control::Stop`](crate::Control::Stop) ends the scan after that piece.
pub fn scan<W, E, P, S>(options: &Options, work: &W, produce: P, mut sink: S) -> Result<(), E>
where
    W: Work,
    P: for<'s> FnOnce(&mut Feeder<'s, W, E>) + Send,
    S: FnMut(Event<'_, W>) -> Result<(), E>,
    E: Send,
{
    let options = *options;
    if options.threads <= 1 {
        let mut failed = None;
        {
            let mut feeder = Feeder {
                mode: Mode::Serial(Serial {
                    work,
                    merge: Merge {
                        first_game: 0,
                        open: None,
                    },
                    sink: &mut sink,
                    failed: &mut failed,
                }),
                options,
                scratch: Vec::new(),
                pool: None,
            };
            produce(&mut feeder);
        }
        return match failed {
            Some(Halt::Sink(e)) => Err(e),
            Some(Halt::Stopped) | None => Ok(()),
        };
    }
    let mut merge = Merge::<W> {
        first_game: 0,
        open: None,
    };
    let result = ordered::run(
        options.threads,
        2 * options.threads + 2,
        |tx: &mut ordered::Sender<Task<W>>| feed_pool(tx, options, produce),
        |task| run_task(work, task),
        |done| merge.take(work, done, &mut sink),
    );
    match result {
        Err(Halt::Sink(e)) => Err(e),
        Err(Halt::Stopped) | Ok(()) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;
    use crate::Control;

    /// Counts the moves of each game it sees, and every move any visitor of the scan sees
    /// (`seen`, shared: what was read, kept or dropped).
    struct Moves {
        games: Vec<u64>,
        seen: Arc<AtomicU64>,
    }

    impl pgn::Visitor for Moves {
        fn on_tree(&mut self, ctx: &pgn::Context) -> Control {
            if ctx.depth == 0 {
                self.games.push(0);
            }
            Control::Continue
        }
        fn on_move(&mut self, _: &pgn::Context, _: &pgn::Move<'_>) -> Control {
            self.seen.fetch_add(1, Ordering::Relaxed);
            if let Some(n) = self.games.last_mut() {
                *n += 1;
            }
            Control::Continue
        }
    }

    struct CountMoves(Arc<AtomicU64>);

    impl Work for CountMoves {
        type Input = ();
        type Pgn = Moves;
        type Sgf = super::super::Never;
        fn pgn(&self, _: &()) -> Moves {
            Moves {
                games: Vec::new(),
                seen: Arc::clone(&self.0),
            }
        }
        fn sgf(&self, _: &()) -> super::super::Never {
            super::super::Never
        }
    }

    /// The moves of each game, read from `input` `read` bytes at a time in pieces of `size`,
    /// and the moves all the scan's visitors saw, with the pieces handed on.
    fn scan_moves(
        input: &[u8],
        threads: usize,
        size: usize,
        read: usize,
    ) -> (Vec<u64>, u64, usize) {
        let options = Options {
            threads,
            piece_size: size,
            read_size: read,
        };
        let work = CountMoves(Arc::default());
        let (mut games, mut pieces) = (Vec::new(), 0);
        let config = pgn::Config::default();
        let _ = scan::<_, (), _, _>(
            &options,
            &work,
            |f| {
                f.pgn((), config, input);
            },
            |event| {
                if let Event::Piece {
                    visited: Visited::Pgn(v),
                    ..
                } = event
                {
                    games.extend(v.games);
                    pieces += 1;
                }
                Ok(())
            },
        );
        (games, work.0.load(Ordering::Relaxed), pieces)
    }

    /// One game of 40,000 moves, with no place to cut: every piece after the first is cut
    /// where the cutter found none. None of them is read ahead as if a game started there
    /// (each built a DOM of its moves, then dropped it: 184 to 267 MiB for `kifu json -j2` on
    /// a game of 200 MB), so the scan's visitors see each move once.
    #[test]
    fn a_piece_cut_without_a_candidate_is_not_read_ahead() {
        let mut game = b"[Event \"huge\"]\n\n".to_vec();
        for _ in 0..10_000 {
            game.extend_from_slice(b"1. Nf3 Nf6 2. Ng1 Ng8 ");
        }
        game.extend_from_slice(b"*\n");
        for threads in [1, 2, 3] {
            let (games, seen, pieces) = scan_moves(&game, threads, 1024, 256);
            assert_eq!(games, [40_000], "threads {threads}");
            assert_eq!(
                seen, 40_000,
                "threads {threads}: moves read ahead and dropped"
            );
            assert_eq!(pieces, 1, "threads {threads}");
        }
    }

    /// Games without tags, each 8 bytes, read 8 bytes at a time: a piece without a candidate
    /// is cut at a read's end, so exactly where a game starts. The piece is not read ahead,
    /// and read after the piece before it closes there: every game in its piece, read once.
    #[test]
    fn a_game_at_a_cut_without_a_candidate_is_read_once() {
        let input = b"1. e4 *\n".repeat(1000);
        let (alone, _, _) = scan_moves(&input, 1, 1 << 20, 1 << 16);
        assert_eq!(alone, vec![1; 1000]);
        for threads in [1, 2, 3] {
            let (games, seen, pieces) = scan_moves(&input, threads, 4, 8);
            assert_eq!(games, alone, "threads {threads}");
            assert_eq!(seen, 1000, "threads {threads}");
            assert!(pieces > 10, "threads {threads}: {pieces} pieces");
        }
    }
}
