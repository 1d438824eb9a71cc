//! The SGF chunking property under a fuzzer: whatever the chunk boundaries and the limits, the
//! events are the same; a root-only reader (`Control::SkipGame` after the root node) sees the
//! same game trees as a full reading; every `on_tree` is closed by one `on_tree_end`.
//!
//! Input layout (bytes past the end read as 0):
//!
//! | byte | meaning |
//! |---|---|
//! | 0 | bit 0 clear: `Config::default()`; set: small limits, `max_ident_len = 1 + (b0 >> 1) % 8` |
//! | 1 | small limits: `max_value_piece = 4 + b1 % 61` (4..=64), `max_value_len = 4 * max_value_piece` |
//! | 2 | small limits: `max_depth = 1 + b2 % 8` (1..=8) |
//! | 3 | `k = 1 + b3 % 8`: how many chunk lengths follow |
//! | 4 .. 4+k | chunk lengths (0..=255, 0 feeds an empty chunk), used in turn, cycling; all zero means 1 |
//! | rest | the SGF text |

#![no_main]

use kifu::sgf::{Config, Context, Event, EventLog, Parser, Visitor};
use kifu::{Control, Status};
use kifu_fuzz::{chunks, split_of};
use libfuzzer_sys::fuzz_target;

fn config_of(data: &[u8]) -> Config {
    let b = |i: usize| data.get(i).copied().unwrap_or(0) as usize;
    if b(0) & 1 == 0 {
        Config::default()
    } else {
        let piece = 4 + b(1) % 61;
        let mut c = Config::default();
        c.max_ident_len = 1 + (b(0) >> 1) % 8;
        c.max_value_piece = piece;
        c.max_value_len = 4 * piece as u64;
        c.max_depth = 1 + (b(2) % 8) as u32;
        c
    }
}

fn run<V: Visitor>(config: Config, pieces: &[&[u8]], v: &mut V) {
    let mut p = Parser::with_config(config);
    for (i, piece) in pieces.iter().enumerate() {
        assert_eq!(p.feed(piece, v), Status::NeedInput, "feed of chunk {i}");
    }
    p.finish(v);
}

/// Reads the root node of each game tree and skips the rest.
#[derive(Default)]
struct GameInfo {
    starts: Vec<u64>,
    ends: Vec<u64>,
}

impl Visitor for GameInfo {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0 {
            self.starts.push(ctx.game);
        }
        Control::Continue
    }
    fn on_node_end(&mut self, _: &Context) -> Control {
        Control::SkipGame
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0 {
            self.ends.push(ctx.game);
        }
        Control::Continue
    }
}

fuzz_target!(|data: &[u8]| {
    let config = config_of(data);
    let (lens, start) = split_of(data);
    let input = &data[start..];
    let pieces = chunks(input, &lens);

    let mut whole = EventLog::default();
    run(config, &[input], &mut whole);
    let mut chunked = EventLog::default();
    run(config, &pieces, &mut chunked);
    if chunked.events != whole.events {
        let i = chunked
            .events
            .iter()
            .zip(&whole.events)
            .position(|(a, b)| a != b)
            .unwrap_or(chunked.events.len().min(whole.events.len()));
        panic!(
            "chunked events differ at {i}: got {:?}, want {:?}; input {:?}",
            chunked.events.get(i),
            whole.events.get(i),
            String::from_utf8_lossy(input)
        );
    }

    // every tree opened is closed, at the same depth, innermost first
    let mut open: Vec<(u64, u32)> = Vec::new();
    for e in &whole.events {
        match e {
            Event::Tree(c) => open.push((c.game, c.depth)),
            Event::TreeEnd(c) => assert_eq!(open.pop(), Some((c.game, c.depth))),
            _ => {}
        }
    }
    assert!(open.is_empty(), "trees left open: {open:?}");

    // root only: the same game trees as the full reading, whole and chunked
    let games: Vec<u64> = whole
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Tree(c) if c.depth == 0 => Some(c.game),
            _ => None,
        })
        .collect();
    for pieces in [&[input][..], &pieces[..]] {
        let mut root = GameInfo::default();
        run(config, pieces, &mut root);
        assert_eq!(
            root.starts,
            games,
            "root-only game trees; input {:?}",
            String::from_utf8_lossy(input)
        );
        assert_eq!(root.ends, games, "root-only tree ends");
    }
});
