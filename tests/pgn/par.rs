//! `kifu::par` on PGN: the pieces' visitors, put end to end (game indexes made absolute), see
//! exactly what one visitor sees reading the input alone, whatever the piece size and thread
//! count; on adversarial input (cuts that look like game starts and are not), on random input
//! and on the corpus.

use bytes::Bytes;
use kifu::par::Options;
use kifu::{Control, pgn};
use proptest::prelude::*;

fn pgn_rebased(mut e: pgn::Event, base: u64) -> pgn::Event {
    use pgn::Event::*;
    match &mut e {
        Tree(c) | TreeEnd(c) | TagsEnd(c) => c.game += base,
        Property { ctx, .. }
        | Move { ctx, .. }
        | Nag { ctx, .. }
        | Comment { ctx, .. }
        | Result { ctx, .. } => ctx.game += base,
        Error { game, .. } => *game += base,
    }
    e
}

/// A visitor that records every event and skips some: the movetext of games whose `Event` is
/// "b", and variations below depth 1 (so the skips run across the cuts too). It decides on the
/// text only, as a visitor of a parallel scan must (its game indexes are the piece's).
#[derive(Default)]
struct Skipping {
    log: pgn::EventLog,
    event_b: bool,
}

impl pgn::Visitor for Skipping {
    fn on_tree(&mut self, ctx: &pgn::Context) -> Control {
        let _ = self.log.on_tree(ctx);
        if ctx.depth == 0 {
            self.event_b = false;
        }
        if ctx.depth > 1 {
            Control::Skip
        } else {
            Control::Continue
        }
    }
    fn on_tree_end(&mut self, ctx: &pgn::Context) -> Control {
        self.log.on_tree_end(ctx)
    }
    fn on_property(&mut self, ctx: &pgn::Context, tag: &pgn::Tag<'_>) -> Control {
        self.event_b |= tag.name == b"Event" && tag.value.as_bytes() == b"b";
        self.log.on_property(ctx, tag)
    }
    fn on_tags_end(&mut self, ctx: &pgn::Context) -> Control {
        let _ = self.log.on_tags_end(ctx);
        if self.event_b {
            Control::Skip
        } else {
            Control::Continue
        }
    }
    fn on_move(&mut self, ctx: &pgn::Context, mv: &pgn::Move<'_>) -> Control {
        self.log.on_move(ctx, mv)
    }
    fn on_comment(&mut self, ctx: &pgn::Context, c: &pgn::Comment<'_>) -> Control {
        self.log.on_comment(ctx, c)
    }
    fn on_error(&mut self, e: &pgn::Error<'_>) -> Control {
        self.log.on_error(e)
    }
}

fn pgn_pieces(
    data: &[u8],
    threads: usize,
    piece_size: usize,
    read: Option<usize>,
) -> Vec<pgn::Event> {
    pieces_with(
        data,
        threads,
        piece_size,
        read,
        pgn::EventLog::default,
        |log| log.events,
    )
}

/// The events `make`'s visitors record (`events` takes them out) over the pieces, made absolute:
/// `data` held in memory (`read: None`) or read through a reader `read` bytes at a time.
fn pieces_with<V: pgn::Visitor + Send>(
    data: &[u8],
    threads: usize,
    piece_size: usize,
    read: Option<usize>,
    make: fn() -> V,
    events: fn(V) -> Vec<pgn::Event>,
) -> Vec<pgn::Event> {
    let options = Options {
        threads,
        piece_size,
        read_size: read.unwrap_or(64 << 10),
    };
    let mut all = Vec::new();
    let mut next_game = 0;
    let mut ends = 0;
    let done = |v, info: kifu::par::PieceInfo| {
        assert_eq!(info.first_game, next_game, "pieces come in order, counted");
        ends += u64::from(info.last);
        let events = events(v);
        let games = events
            .iter()
            .filter(|e| matches!(e, pgn::Event::TreeEnd(c) if c.depth == 0))
            .count();
        next_game = info.first_game + games as u64;
        all.extend(events.into_iter().map(|e| pgn_rebased(e, info.first_game)));
    };
    let config = pgn::Config::default();
    match read {
        None => kifu::par::pgn_bytes(&options, config, Bytes::copy_from_slice(data), make, done),
        Some(_) => kifu::par::pgn(&options, config, data, make, done).expect("no read error"),
    }
    assert_eq!(ends, 1, "one last piece");
    all
}

fn pgn_alone(data: &[u8]) -> Vec<pgn::Event> {
    let mut log = pgn::EventLog::default();
    pgn::parse(data, &mut log);
    log.events
}

fn check_pgn(data: &[u8], threads: usize, piece_size: usize) {
    for read in [None, Some(1), Some(7)] {
        check_pgn_read(data, threads, piece_size, read);
    }
}

fn check_pgn_read(data: &[u8], threads: usize, piece_size: usize, read: Option<usize>) {
    let want = pgn_alone(data);
    let got = pgn_pieces(data, threads, piece_size, read);
    if got != want {
        let i = got
            .iter()
            .zip(&want)
            .position(|(a, b)| a != b)
            .unwrap_or(got.len().min(want.len()));
        panic!(
            "threads {threads}, pieces of {piece_size}, read {read:?}: first difference at event {i} of {}:\n got {:?}\nwant {:?}",
            want.len(),
            got.get(i),
            want.get(i)
        );
    }
}

/// Inputs where places that look like a game's start are not one, and the other way round.
const PGN_TRAPS: &[&[u8]] = &[
    // a comment holding a blank line and a tag pair, closed soon after: one game
    b"[Event \"a\"]\n\n1. e4 {look:\n\n[Event \"inside\"]\n} e5 *\n\n[Event \"b\"]\n\n1. d4 *\n",
    // an unclosed comment: the tag line ends it and starts a game
    b"[Event \"a\"]\n\n1. e4 {never closed\n\n[Event \"b\"]\n\n1. d4 *\n",
    // tag-only games, no blank lines, a repeated roster tag starts a game
    b"[Event \"a\"]\n[Site \"x\"]\n[Event \"b\"]\n[Site \"y\"]\n\n[Event \"c\"]\n",
    // movetext straight after a result starts a game; junk between games
    b"1. e4 e5 1-0\n1. d4 d5 0-1\njunk here\n\n[Event \"c\"]\n1. c4 *\n",
    // CRLF and lone CR line ends, a BOM, an escape line, a semicolon comment
    b"\xEF\xBB\xBF[Event \"a\"]\r\n\r\n1. e4 ; a [Event line\r\n%escape\r\n*\r\r[Event \"b\"]\r*\r\n",
    // variations open at a cut, an unclosed variation
    b"[Event \"a\"]\n\n1. e4 (1. d4 (1. c4)\n\n[Event \"b\"]\n\n1. Nf3 (1. g3 *\n",
    // a tag line in a string value and stray brackets
    b"[Event \"[Event \\\"x\\\"]\"]\n\n1. e4 } ) *\n\n[Event \"b\"]\n\n*",
];

#[test]
fn pgn_traps_read_as_alone() {
    for (k, trap) in PGN_TRAPS.iter().enumerate() {
        for threads in [1, 2, 3] {
            for size in 1..trap.len() + 2 {
                let data: Vec<u8> = trap.repeat(3);
                std::panic::catch_unwind(|| check_pgn(&data, threads, size))
                    .unwrap_or_else(|_| panic!("trap {k}, threads {threads}, size {size}"));
            }
        }
    }
}

#[test]
fn pgn_skipping_visitors_read_as_alone() {
    let data = PGN_TRAPS.concat().repeat(2);
    let mut alone = Skipping::default();
    pgn::parse(&data, &mut alone);
    for size in [1, 10, 50, 200] {
        let got = pieces_with(&data, 2, size, None, Skipping::default, |v| v.log.events);
        assert_eq!(got, alone.log.events, "pieces of {size}");
    }
}

fn pgn_fragment() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"[Event \"x\"]\n".to_vec()),
        Just(b"[Site \"y\"]\n".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"1. e4 ".to_vec()),
        Just(b"e5 ".to_vec()),
        Just(b"2. Nf3 $1 ".to_vec()),
        Just(b"{c\n\n[Event \"z\"]\n} ".to_vec()),
        Just(b"{open ".to_vec()),
        Just(b"} ".to_vec()),
        Just(b"( ".to_vec()),
        Just(b") ".to_vec()),
        Just(b"; line\n".to_vec()),
        Just(b"\n%esc\n".to_vec()),
        Just(b"1-0\n".to_vec()),
        Just(b"*\n\n".to_vec()),
        Just(b"junk ".to_vec()),
        "[ -~]{0,12}".prop_map(String::into_bytes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn pgn_any_input_any_cut(parts in proptest::collection::vec(pgn_fragment(), 0..80),
                             size in 1usize..300, threads in 2usize..5) {
        let data = parts.concat();
        check_pgn(&data, threads, size);
    }
}

// ----- the corpus ------------------------------------------------------------------------------

/// At most this much of each corpus file (the tests run unoptimized).
const CORPUS_PREFIX: usize = 1 << 20;

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn pgn_corpus_reads_as_alone() {
    let shared = kifu_testkit::shared();
    let mut all = Vec::new();
    for path in kifu_testkit::files_with_ext(&shared.join("corpus/pgn"), "pgn") {
        let bytes = std::fs::read(&path).unwrap();
        all.extend_from_slice(&bytes[..bytes.len().min(CORPUS_PREFIX)]);
        all.extend_from_slice(b"\n");
    }
    for size in [4096, 300_000] {
        for read in [None, Some(4096)] {
            check_pgn_read(&all, 2, size, read);
        }
    }
}

#[test]
fn a_read_error_comes_after_the_pieces_before_it() {
    struct Failing<'a>(&'a [u8]);
    impl std::io::Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::other("disk on fire"));
            }
            let n = self.0.len().min(buf.len()).min(7);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let data =
        b"[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *\n\n[Event \"c\"]\n1. c4".repeat(20);
    for threads in [1, 2] {
        let options = Options {
            threads,
            piece_size: 50,
            ..Default::default()
        };
        let mut games = 0;
        let err = kifu::par::pgn(
            &options,
            pgn::Config::default(),
            Failing(&data),
            pgn::EventLog::default,
            |log, _| games += log.games(),
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "disk on fire");
        assert_eq!(
            games, 60,
            "threads {threads}: every game read before the fault"
        );
    }
}

#[test]
fn a_cut_inside_a_comment_is_mended() {
    let trap = PGN_TRAPS[0];
    let inside = trap.windows(7).position(|w| w == b"[Event ").unwrap();
    let inside = inside
        + 1
        + trap[inside + 1..]
            .windows(7)
            .position(|w| w == b"[Event ")
            .unwrap();
    assert_eq!(&trap[inside..inside + 15], b"[Event \"inside\"");
    let options = Options {
        threads: 2,
        piece_size: 1,
        ..Default::default()
    };
    let mut starts = Vec::new();
    kifu::par::pgn_bytes(
        &options,
        pgn::Config::default(),
        Bytes::from_static(trap),
        pgn::EventLog::default,
        |_, info| starts.push(info.offset),
    );
    assert!(!starts.contains(&(inside as u64)), "{starts:?}");
    assert_eq!(
        starts.len(),
        2,
        "the game holding the comment, then the next: {starts:?}"
    );
}

/// An executor whose jobs wait in a queue until one of its threads takes them, the last queued
/// first: pieces are read out of order, on threads the scan does not own.
/// The jobs waiting, whether the workers may end, and the signal of a change.
type Queue = std::sync::Arc<(
    std::sync::Mutex<(Vec<kifu::par::Job>, bool)>,
    std::sync::Condvar,
)>;

struct Lent {
    jobs: Queue,
}

impl kifu::par::Executor for Lent {
    fn execute(&self, job: kifu::par::Job) {
        let (lock, cond) = &*self.jobs;
        lock.lock().unwrap().0.push(job);
        cond.notify_one();
    }
}

/// The scan's work: an event log per piece.
struct Logs;

impl kifu::par::Work for Logs {
    type Input = ();
    type Pgn = pgn::EventLog;
    type Sgf = kifu::sgf::EventLog;
    fn pgn(&self, _: &()) -> pgn::EventLog {
        pgn::EventLog::default()
    }
    fn sgf(&self, _: &()) -> kifu::sgf::EventLog {
        kifu::sgf::EventLog::default()
    }
}

/// The events of `data` read by `scan_on` on `lent` threads of a [`Lent`] executor.
fn pgn_lent(data: &[u8], threads: usize, piece_size: usize, lent: usize) -> Vec<pgn::Event> {
    use std::sync::{Arc, Condvar, Mutex};
    let jobs = Arc::new((
        Mutex::new((Vec::<kifu::par::Job>::new(), false)),
        Condvar::new(),
    ));
    let workers: Vec<_> = (0..lent)
        .map(|_| {
            let jobs = Arc::clone(&jobs);
            std::thread::spawn(move || {
                let (lock, cond) = &*jobs;
                loop {
                    let mut q = lock.lock().unwrap();
                    while q.0.is_empty() && !q.1 {
                        q = cond.wait(q).unwrap();
                    }
                    let Some(job) = q.0.pop() else { return };
                    drop(q);
                    job();
                }
            })
        })
        .collect();
    let options = Options {
        threads,
        piece_size,
        ..Default::default()
    };
    let mut all = Vec::new();
    let data = Bytes::copy_from_slice(data);
    kifu::par::scan_on(
        &options,
        Arc::new(Logs),
        &Lent {
            jobs: Arc::clone(&jobs),
        },
        |f| {
            f.pgn_bytes((), pgn::Config::default(), data);
        },
        |event| -> Result<(), ()> {
            if let kifu::par::Event::Piece {
                visited: kifu::par::Visited::Pgn(log),
                info,
                ..
            } = event
            {
                all.extend(
                    log.events
                        .into_iter()
                        .map(|e| pgn_rebased(e, info.first_game)),
                );
            }
            Ok(())
        },
    )
    .unwrap();
    jobs.0.lock().unwrap().1 = true;
    jobs.1.notify_all();
    for w in workers {
        w.join().unwrap();
    }
    all
}

#[test]
fn pieces_read_on_lent_threads_read_as_alone() {
    let mut long = Vec::new();
    for (i, trap) in PGN_TRAPS.iter().cycle().take(200).enumerate() {
        long.extend_from_slice(trap);
        long.extend_from_slice(format!("\n[Event \"{i}\"]\n\n1. e4 {{{i}}} e5 *\n\n").as_bytes());
    }
    let want = pgn_alone(&long);
    for (threads, piece_size, lent) in [(2, 64, 1), (3, 200, 2), (4, 1000, 3), (1, 64, 1)] {
        let got = pgn_lent(&long, threads, piece_size, lent);
        assert!(
            got == want,
            "threads {threads}, pieces of {piece_size}, {lent} lent threads: {} events, want {}",
            got.len(),
            want.len()
        );
    }
}

/// Keeps what its parser reads (the runs [`kifu::par::Work::pgn_ahead`] hands it) and the events.
#[derive(Default)]
struct Kept {
    runs: Vec<(u64, Bytes)>,
    log: pgn::EventLog,
}

impl pgn::Visitor for Kept {
    fn on_tree(&mut self, ctx: &pgn::Context) -> Control {
        self.log.on_tree(ctx)
    }
    fn on_tree_end(&mut self, ctx: &pgn::Context) -> Control {
        self.log.on_tree_end(ctx)
    }
    fn on_property(&mut self, ctx: &pgn::Context, tag: &pgn::Tag<'_>) -> Control {
        self.log.on_property(ctx, tag)
    }
    fn on_tags_end(&mut self, ctx: &pgn::Context) -> Control {
        self.log.on_tags_end(ctx)
    }
    fn on_move(&mut self, ctx: &pgn::Context, mv: &pgn::Move<'_>) -> Control {
        self.log.on_move(ctx, mv)
    }
    fn on_nag(&mut self, ctx: &pgn::Context, nag: pgn::Nag, form: pgn::NagForm) -> Control {
        self.log.on_nag(ctx, nag, form)
    }
    fn on_comment(&mut self, ctx: &pgn::Context, comment: &pgn::Comment<'_>) -> Control {
        self.log.on_comment(ctx, comment)
    }
    fn on_result(&mut self, ctx: &pgn::Context, outcome: pgn::Outcome) -> Control {
        self.log.on_result(ctx, outcome)
    }
    fn on_error(&mut self, error: &pgn::Error<'_>) -> Control {
        self.log.on_error(error)
    }
}

struct KeepRuns;

impl kifu::par::Work for KeepRuns {
    type Input = ();
    type Pgn = Kept;
    type Sgf = kifu::sgf::EventLog;
    fn pgn(&self, _: &()) -> Kept {
        Kept::default()
    }
    fn sgf(&self, _: &()) -> kifu::sgf::EventLog {
        kifu::sgf::EventLog::default()
    }
    fn pgn_ahead(&self, v: &mut Kept, _: &pgn::Config, offset: u64, bytes: &Bytes) {
        v.runs.push((offset, bytes.clone()));
    }
}

/// The events of the game that starts at `events[0]` (an `on_tree` of the main line), up
/// to the next game's start.
fn one_game(events: &[pgn::Event]) -> &[pgn::Event] {
    let end = events[1..]
        .iter()
        .position(|e| matches!(e, pgn::Event::Tree(c) if c.depth == 0))
        .map_or(events.len(), |i| i + 1);
    &events[..end]
}

/// What `kifu::par::Work::pgn_ahead` hands a piece's visitor is what its parser reads, in order, from
/// the piece's first byte on; and a fresh parser placed at any of its games' start and fed
/// those bytes raises that game's events as the piece's parser did (what `kifu find`
/// relies on to read a game again instead of holding its events), at every piece size
/// and thread count, on damaged input.
#[test]
fn the_bytes_handed_ahead_read_again_give_the_same_games() {
    let mut input = Vec::new();
    for i in 0..60 {
        input.extend_from_slice(b"[Event \"e\"]\r\n[Site \"s\"]\n\n1. e4 {c} e5 ");
        if i % 3 == 0 {
            input.extend_from_slice(b"(1... c5 2. Nf3) junk ) 2. Nf3 $1 {a\n[Event \"x\"]}");
        }
        if i % 7 == 0 {
            input.extend_from_slice(b"\n%escaped\n; line\n");
        }
        input.extend_from_slice(if i % 5 == 0 { b" 1-0\n\n" } else { b" Nc6\n" });
    }
    input.extend_from_slice(b"1. d4 d5 2. c4");
    for (threads, size) in [(1, 1 << 20), (1, 50), (2, 33), (3, 7)] {
        let options = Options {
            threads,
            piece_size: size,
            read_size: 16,
        };
        let mut games = 0;
        let _ = kifu::par::scan::<_, (), _, _>(
            &options,
            &KeepRuns,
            |f| {
                f.pgn((), pgn::Config::default(), &input[..]);
            },
            |event| {
                let kifu::par::Event::Piece {
                    visited: kifu::par::Visited::Pgn(v),
                    info,
                    ..
                } = event
                else {
                    return Ok(());
                };
                let mut at = info.offset;
                for (offset, bytes) in &v.runs {
                    assert_eq!(*offset, at, "runs in order, end to end");
                    let o = *offset as usize;
                    assert_eq!(&bytes[..], &input[o..o + bytes.len()]);
                    at = offset + bytes.len() as u64;
                }
                assert_eq!(v.runs[0].0, info.offset);
                let events = &v.log.events;
                for (i, e) in events.iter().enumerate() {
                    let pgn::Event::Tree(ctx) = e else { continue };
                    if ctx.depth > 0 {
                        continue;
                    }
                    games += 1;
                    let mut again = pgn::EventLog::default();
                    let mut parser = pgn::Parser::new();
                    parser.start_at(ctx.pos, ctx.game);
                    for (offset, bytes) in &v.runs {
                        let from = ctx.pos.offset.saturating_sub(*offset) as usize;
                        if from < bytes.len() {
                            let _ = parser.feed(&bytes[from..], &mut again);
                        }
                    }
                    if info.last {
                        parser.finish(&mut again);
                    }
                    let live = one_game(&events[i..]);
                    let read = one_game(&again.events);
                    // (the last game of a piece that is not the input's last: up to
                    // where the piece's parser stopped)
                    assert_eq!(read[..live.len()], *live, "-j{threads} {size}");
                }
                Ok(())
            },
        );
        assert_eq!(games, 60, "-j{threads} {size}");
    }
}
