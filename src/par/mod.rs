//! Every core on one input, or on many, with the result of one (feature `std`).
//!
//! A scan cuts an input into pieces of about [`Options::piece_size`] bytes, reads the pieces on
//! [`Options::threads`] threads with one visitor each, and hands the visitors on in input order.
//! What the visitors see, put end to end, is exactly what one visitor sees reading the input
//! alone: the same events, stream offsets, lines, columns and errors; only the game indexes
//! count from each piece's first game ([`PieceInfo::first_game`] gives the input's index of
//! that game).
//!
//! # How the pieces are cut, and why it is exact
//!
//! A correct cut must fall where a game starts, and where a game starts depends on everything
//! before it (a `{` anywhere may turn the next thousand lines into a comment). So the cut is a
//! guess, checked afterwards:
//!
//! 1. **Cut** (one thread, cheap): after `piece_size` bytes, the next place that looks like a
//!    game's start: for PGN a `[` opening a line and a tag name, after a blank line or a line
//!    that is not a tag pair; for SGF a `(` opening a line (or after a `)`) followed by `;` and
//!    a root property. Only a few bytes around it are looked at. A reader's bytes are read
//!    straight into the buffer that becomes the piece (buffers are used again once their
//!    pieces are dropped); an input held in memory is cut into slices of it.
//! 2. **Read** (every thread): each piece is read by a fresh parser placed at the piece's
//!    first byte ([`pgn::Parser::start_at`](crate::pgn::Parser::start_at): its offset, line and
//!    column), as if a game started there. The line and column come from the line breaks of
//!    the pieces before it. Each piece's thread counts its own piece's first, so that the
//!    cutter touches no byte it does not look at and no thread waits for another for them;
//!    on two threads, where the total work is the bound rather than the cutter's rate, the
//!    cutter counts a reader's bytes itself, right after each read, while they are in the
//!    cache. A piece cut where the cutter found no place at all (after two piece sizes
//!    without one: inside a huge game, a huge comment, junk) is not read ahead: a game hardly
//!    ever starts at such a cut, and what its visitor built there (a DOM of a piece's moves,
//!    25 times its bytes) was dropped. The parser before it reads it (step 3), or, if a game
//!    does start there, the thread that hands the pieces on does.
//! 3. **Check**: after its piece, each parser reads on into the next piece (a copy of it, with
//!    the events muted) until the next game starts. If that is exactly at the cut, the parser
//!    that read everything before the cut agrees that a game starts there, so the next piece's
//!    reading is the one-thread reading; the parser then reads on to that point for real, so
//!    that its visitor also gets what comes before the next game (the end of the last game,
//!    junk reported there). If not, the cut was wrong (a blank line and a tag-like line inside
//!    a comment, say): the piece's parser and visitor read the next piece too, and its own
//!    reading is dropped. Input with no place to cut is read by one thread, and still right.
//!
//! Game counts follow from the checks (the game at a cut has the index the parser before it
//! counted), so [`PieceInfo::first_game`] is known when a piece is handed on.
//!
//! # Example: the games of a large input, counted on two threads
//!
//! ```
//! use kifu::{Control, pgn};
//!
//! #[derive(Default)]
//! struct Count(u64);
//! impl pgn::Visitor for Count {
//!     fn on_tree_end(&mut self, ctx: &pgn::Context) -> Control {
//!         if ctx.is_main_line() { self.0 += 1 }
//!         Control::Continue
//!     }
//! }
//!
//! let game = "[Event \"x\"]\n\n1. e4 {a comment} e5 2. Nf3 *\n\n";
//! let input = bytes::Bytes::from(game.repeat(1000));
//! let options = kifu::par::Options { threads: 2, piece_size: 4096, ..Default::default() };
//! let (mut games, mut pieces) = (0, 0);
//! kifu::par::pgn_bytes(&options, pgn::Config::default(), input, Count::default, |count, info| {
//!     assert_eq!(info.first_game, games);
//!     games += count.0;
//!     pieces += 1;
//! });
//! assert_eq!(games, 1000);
//! assert!(pieces > 1);
//! ```
//!
//! For inputs of both formats and many inputs in one scan (what `kifu` does with a directory),
//! implement [`Work`] and call [`scan`]; for a set of inputs that each go to one visitor whole,
//! [`map_ordered`] is enough.

mod cut;
mod lines;
mod ordered;
mod piece;
mod pool;
mod scan;

use std::io::{self, Read};

use bytes::Bytes;

/// The formats a scan cuts (the crate's one [`Format`]).
pub use crate::Format;
pub use ordered::map_ordered;
pub use scan::{Event, Feeder, PieceInfo, Visited, Work, scan, scan_on};

use crate::{pgn, sgf};

/// How a scan shares out its work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Threads that read pieces. 1 reads the pieces one after another on the calling thread,
    /// each handed on before the next is read.
    /// Default: the machine's cores (`std::thread::available_parallelism`).
    pub threads: usize,
    /// About how many bytes a piece holds (more when no game starts for a while: at most four
    /// times this, unless the input ends first). Memory holds about `2 * threads + 2` pieces.
    /// Default: 1 MiB (a piece stays in the caches while its thread counts its lines and
    /// reads it; larger
    /// pieces read more slowly and hold more memory).
    pub piece_size: usize,
    /// Bytes read from a reader at a time. Default: 64 KiB.
    pub read_size: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: cores(),
            piece_size: Options::DEFAULT_PIECE_SIZE,
            read_size: 64 << 10,
        }
    }
}

impl Options {
    /// The default piece size, 1 MiB.
    pub const DEFAULT_PIECE_SIZE: usize = 1 << 20;
}

/// The machine's cores, as `std::thread::available_parallelism` says (1 if it cannot tell),
/// asked once per process: on Linux each asking reads the process's cgroup files (a dozen
/// system calls), and every default of a scan's options asks.
///
/// ```
/// assert!(kifu::par::cores() >= 1);
/// assert_eq!(kifu::par::cores(), kifu::par::Options::default().threads);
/// ```
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// A piece's reading, handed to an [`Executor`].
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// Threads lent to a scan ([`scan_on`]): the pieces are read there instead of on threads of
/// the scan's own (a host's worker threads, say: a database's, which call back for work).
pub trait Executor: Send + Sync {
    /// Runs `job` on one of the executor's threads, now or later. Every job must run: the
    /// scan waits for each one's result, in order (a job dropped unrun makes the scan panic
    /// rather than hand on an input with pieces missing).
    fn execute(&self, job: Job);
}

/// Reads `reader` as PGN on `options.threads` threads: `make` makes a visitor per piece,
/// `done` gets each in input order with its [`PieceInfo`]. A read error ends the input, after
/// the pieces read before it were handed on, and is returned.
///
/// ```
/// # use kifu::pgn;
/// let mut logs = Vec::new();
/// let input = &b"1. e4 *\n\n[Event \"b\"]\n1. d4 *\n"[..];
/// let options = kifu::par::Options { threads: 2, piece_size: 1, ..Default::default() };
/// kifu::par::pgn(&options, pgn::Config::default(), input, pgn::EventLog::default, |log, info| {
///     logs.push((info.first_game, log.games()));
/// })
/// .unwrap();
/// assert_eq!(logs, [(0, 1), (1, 1)]);
/// ```
pub fn pgn<R, V, M, D>(
    options: &Options,
    config: pgn::Config,
    reader: R,
    make: M,
    done: D,
) -> io::Result<()>
where
    R: Read + Send,
    V: pgn::Visitor + Send,
    M: Fn() -> V + Sync,
    D: FnMut(V, PieceInfo),
{
    one(
        options,
        &Pgn(make),
        |f| f.pgn((), config, reader),
        pgn_of,
        done,
    )
}

/// [`pgn()`] over an input held in memory: the pieces are slices of `data`, not copies.
pub fn pgn_bytes<V, M, D>(options: &Options, config: pgn::Config, data: Bytes, make: M, done: D)
where
    V: pgn::Visitor + Send,
    M: Fn() -> V + Sync,
    D: FnMut(V, PieceInfo),
{
    let _ = one(
        options,
        &Pgn(make),
        |f| f.pgn_bytes((), config, data),
        pgn_of,
        done,
    );
}

/// Reads `reader` as SGF on `options.threads` threads; as [`pgn()`].
pub fn sgf<R, V, M, D>(
    options: &Options,
    config: sgf::Config,
    reader: R,
    make: M,
    done: D,
) -> io::Result<()>
where
    R: Read + Send,
    V: sgf::Visitor + Send,
    M: Fn() -> V + Sync,
    D: FnMut(V, PieceInfo),
{
    one(
        options,
        &Sgf(make),
        |f| f.sgf((), config, reader),
        sgf_of,
        done,
    )
}

/// [`sgf()`] over an input held in memory: the pieces are slices of `data`, not copies.
pub fn sgf_bytes<V, M, D>(options: &Options, config: sgf::Config, data: Bytes, make: M, done: D)
where
    V: sgf::Visitor + Send,
    M: Fn() -> V + Sync,
    D: FnMut(V, PieceInfo),
{
    let _ = one(
        options,
        &Sgf(make),
        |f| f.sgf_bytes((), config, data),
        sgf_of,
        done,
    );
}

/// Cuts `reader` into pieces as a scan's cutter does (counting the lines itself when
/// `counting`, as it does for a scan on at most two threads), and hands them to one other
/// thread that only works out their line counters (a worker's first step) and drops them: the
/// pieces and bytes cut, and the seconds spent cutting on the calling thread. Only for
/// measuring the cutter's own rate (`examples/cut_rate.rs`); not part of the API.
#[doc(hidden)]
pub fn cut_only<R: Read>(
    options: &Options,
    format: Format,
    reader: R,
    counting: bool,
) -> io::Result<(u64, u64, f64)> {
    let cutter =
        cut::Cutter::new(reader, format, options.piece_size, options.read_size).counting(counting);
    cut_timed(cutter)
}

/// [`cut_only`] over an input held in memory (the pieces are slices of it).
#[doc(hidden)]
pub fn cut_only_bytes(options: &Options, format: Format, data: Bytes) -> (u64, u64, f64) {
    let cutter = cut::Cutter::whole(data, format, options.piece_size);
    cut_timed(cutter).expect("no read error in memory")
}

fn cut_timed<R: Read>(mut cutter: cut::Cutter<R>) -> io::Result<(u64, u64, f64)> {
    let (tx, rx) = std::sync::mpsc::sync_channel::<cut::Cut>(4);
    let counter = std::thread::spawn(move || {
        for cut in rx {
            core::hint::black_box(cut.start.resolve(&cut.bytes));
        }
    });
    let (mut pieces, mut seconds) = (0, 0.0);
    let result = loop {
        let t = std::time::Instant::now();
        let next = cutter.next_cut();
        seconds += t.elapsed().as_secs_f64();
        match next {
            Ok(Some(cut)) => {
                pieces += 1;
                tx.send(cut).expect("the counter runs");
            }
            Ok(None) => break Ok((pieces, cutter.offset(), seconds)),
            Err(e) => break Err(e),
        }
    };
    drop(tx);
    counter.join().expect("the counter ends");
    result
}

/// Takes the visitor of a one-format scan out of its format's case.
type Pick<W, V> = fn(Visited<<W as Work>::Pgn, <W as Work>::Sgf>) -> Option<V>;

/// A scan of one input of one format; `pick` takes the visitor out of its format's case.
fn one<W, V, D>(
    options: &Options,
    work: &W,
    produce: impl for<'s> FnOnce(&mut Feeder<'s, W, io::Error>) -> bool + Send,
    pick: Pick<W, V>,
    mut done: D,
) -> io::Result<()>
where
    W: Work<Input = ()>,
    D: FnMut(V, PieceInfo),
{
    scan(
        options,
        work,
        |f| {
            produce(f);
        },
        |event| match event {
            Event::Piece { visited, info, .. } => {
                if let Some(v) = pick(visited) {
                    done(v, info);
                }
                Ok(())
            }
            Event::End { error, .. } => error.map_or(Ok(()), Err),
        },
    )
}

/// The [`Work`] of a PGN-only scan.
struct Pgn<M>(M);
/// The [`Work`] of an SGF-only scan.
struct Sgf<M>(M);

/// The visitor of the format a one-format scan does not read.
struct Never;
impl pgn::Visitor for Never {}
impl sgf::Visitor for Never {}

impl<V: pgn::Visitor + Send, M: Fn() -> V + Sync> Work for Pgn<M> {
    type Input = ();
    type Pgn = V;
    type Sgf = Never;
    fn pgn(&self, _: &()) -> V {
        (self.0)()
    }
    fn sgf(&self, _: &()) -> Never {
        Never
    }
}

impl<V: sgf::Visitor + Send, M: Fn() -> V + Sync> Work for Sgf<M> {
    type Input = ();
    type Pgn = Never;
    type Sgf = V;
    fn pgn(&self, _: &()) -> Never {
        Never
    }
    fn sgf(&self, _: &()) -> V {
        (self.0)()
    }
}

fn pgn_of<P, S>(v: Visited<P, S>) -> Option<P> {
    match v {
        Visited::Pgn(v) => Some(v),
        Visited::Sgf(_) => None,
    }
}

fn sgf_of<P, S>(v: Visited<P, S>) -> Option<S> {
    match v {
        Visited::Sgf(v) => Some(v),
        Visited::Pgn(_) => None,
    }
}
