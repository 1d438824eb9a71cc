//! The parallel scan under a fuzzer: arbitrary bytes, cut into pieces of any size and read on
//! any number of threads (`kifu::par`), give exactly the events of one visitor reading them
//! whole, game indexes made absolute, for PGN and SGF; damaged input included.
//!
//! Input layout (bytes past the end read as 0):
//!
//! | byte | meaning |
//! |---|---|
//! | 0 | bit 0: PGN (clear) or SGF (set); bits 1-2: threads `1 + (b0 >> 1) % 4` (1..=4); bit 3: the text held in memory (clear) or read through a reader (set), `1 + (b0 >> 4) * 97` bytes a read (1..=1456: the cutter's buffers, their carry-over and their reuse) |
//! | 1, 2 | piece size `16 + u16::from_le_bytes([b1, b2]) % 4096` bytes |
//! | rest | the text |

#![no_main]

use bytes::Bytes;
use kifu::par::Options;
use kifu::{pgn, sgf};
use libfuzzer_sys::fuzz_target;

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

fn pgn_pieces(text: &[u8], options: &Options, read: bool) -> Vec<pgn::Event> {
    let mut all = Vec::new();
    let mut next = 0u64;
    let done = |log: pgn::EventLog, info: kifu::par::PieceInfo| {
        assert_eq!(info.first_game, next, "pieces in order, counted");
        let games = log
            .events
            .iter()
            .filter(|e| matches!(e, pgn::Event::TreeEnd(c) if c.depth == 0))
            .count() as u64;
        next += games;
        all.extend(
            log.events
                .into_iter()
                .map(|e| pgn_rebased(e, info.first_game)),
        );
    };
    if read {
        kifu::par::pgn(
            options,
            pgn::Config::default(),
            text,
            pgn::EventLog::default,
            done,
        )
        .expect("no read error in memory");
    } else {
        let data = Bytes::copy_from_slice(text);
        kifu::par::pgn_bytes(
            options,
            pgn::Config::default(),
            data,
            pgn::EventLog::default,
            done,
        );
    }
    all
}

fn pgn_alone(text: &[u8]) -> Vec<pgn::Event> {
    let mut log = pgn::EventLog::default();
    pgn::parse(text, &mut log);
    log.events
}

fn sgf_rebased(mut e: sgf::Event, base: u64) -> sgf::Event {
    use sgf::Event::*;
    match &mut e {
        Tree(c) | TreeEnd(c) | Node(c) | NodeEnd(c) => c.game += base,
        Property { ctx, .. } | Value { ctx, .. } | Move { ctx, .. } | Comment { ctx, .. } => {
            ctx.game += base
        }
        Error { game, .. } => *game += base,
    }
    e
}

fn sgf_pieces(text: &[u8], options: &Options, read: bool) -> Vec<sgf::Event> {
    let mut all = Vec::new();
    let done = |log: sgf::EventLog, info: kifu::par::PieceInfo| {
        all.extend(
            log.events
                .into_iter()
                .map(|e| sgf_rebased(e, info.first_game)),
        );
    };
    if read {
        kifu::par::sgf(
            options,
            sgf::Config::default(),
            text,
            sgf::EventLog::default,
            done,
        )
        .expect("no read error in memory");
    } else {
        let data = Bytes::copy_from_slice(text);
        kifu::par::sgf_bytes(
            options,
            sgf::Config::default(),
            data,
            sgf::EventLog::default,
            done,
        );
    }
    all
}

fn sgf_alone(text: &[u8]) -> Vec<sgf::Event> {
    let mut log = sgf::EventLog::default();
    sgf::parse(text, &mut log);
    log.events
}

fuzz_target!(|data: &[u8]| {
    let b = |i: usize| data.get(i).copied().unwrap_or(0);
    let threads = 1 + usize::from(b(0) >> 1) % 4;
    let piece_size = 16 + usize::from(u16::from_le_bytes([b(1), b(2)])) % 4096;
    let text = data.get(3..).unwrap_or(&[]);
    let read = b(0) & 8 != 0;
    let options = Options {
        threads,
        piece_size,
        read_size: 1 + usize::from(b(0) >> 4) * 97,
    };
    if b(0) & 1 == 0 {
        assert_eq!(pgn_pieces(text, &options, read), pgn_alone(text));
    } else {
        assert_eq!(sgf_pieces(text, &options, read), sgf_alone(text));
    }
});
