//! The chunking property under a fuzzer: whatever the chunk boundaries and the limits, the
//! events are the same; and a headers-only visitor (`Control::Skip` from `on_tags_end`) sees the
//! same games as a visitor that reads everything.
//!
//! Input layout (bytes past the end read as 0):
//!
//! | byte | meaning |
//! |---|---|
//! | 0 | bit 0 clear: `Config::default()`; set: small limits, `max_token_len = 32 + (b0 >> 1) % 33` (32..=64) |
//! | 1 | small limits: `max_comment_piece = 8 + b1 % 57` (8..=64) |
//! | 2 | small limits: `max_depth = 1 + b2 % 8` (1..=8), `comment_lookahead = 8 * (b2 >> 3)` (0..=248) |
//! | 3 | `k = 1 + b3 % 8`: how many chunk lengths follow |
//! | 4 .. 4+k | chunk lengths (0..=255, 0 feeds an empty chunk), used in turn, cycling; all zero means 1 |
//! | rest | the PGN text |
//!
//! So `b"\x00\x00\x00\x00\x01"` followed by PGN text feeds it byte by byte with the default
//! limits, and `b"\x01\x00\x00\x00\x01"` the same with the smallest limits.

#![no_main]

use kifu::pgn::{Config, Context, Event, EventLog, Parser, Tag, Visitor};
use kifu::{Control, Status};
use kifu_fuzz::{chunks, split_of};
use libfuzzer_sys::fuzz_target;

fn config_of(data: &[u8]) -> Config {
    let b = |i: usize| data.get(i).copied().unwrap_or(0) as usize;
    if b(0) & 1 == 0 {
        Config::default()
    } else {
        Config {
            max_token_len: 32 + (b(0) >> 1) % 33,
            max_comment_piece: 8 + b(1) % 57,
            max_depth: 1 + (b(2) % 8) as u32,
            comment_lookahead: 8 * (b(2) >> 3),
        }
    }
}

fn run<V: Visitor>(config: Config, pieces: &[&[u8]], v: &mut V) {
    let mut p = Parser::with_config(config);
    for (i, piece) in pieces.iter().enumerate() {
        // neither visitor ever stops, so every chunk is taken whole
        assert_eq!(p.feed(piece, v), Status::NeedInput, "feed of chunk {i}");
    }
    p.finish(v);
}

/// What a headers-only reader sees, with full contexts.
#[derive(Clone, Debug, PartialEq, Eq)]
enum H {
    Tree(Context),
    Property {
        ctx: Context,
        name: Vec<u8>,
        value: Vec<u8>,
    },
    TagsEnd(Context),
    TreeEnd(Context),
}

/// Reads the tags and skips every game's movetext.
#[derive(Default)]
struct HeadersOnly {
    games: usize,
    events: Vec<H>,
}

impl Visitor for HeadersOnly {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        self.events.push(H::Tree(*ctx));
        Control::Continue
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0 {
            self.games += 1;
        }
        self.events.push(H::TreeEnd(*ctx));
        Control::Continue
    }
    fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
        self.events.push(H::Property {
            ctx: *ctx,
            name: tag.name.to_vec(),
            value: tag.value.0.to_vec(),
        });
        Control::Continue
    }
    fn on_tags_end(&mut self, ctx: &Context) -> Control {
        self.events.push(H::TagsEnd(*ctx));
        Control::Skip
    }
}

/// The part of a stream's events that a headers-only reader must see too: games (by index),
/// their tags and the end of their tag sections, with game index and position (not `ply`,
/// which a skipped movetext does not advance).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Head {
    Tree(u64, kifu::Position),
    Property(u64, kifu::Position, Vec<u8>, Vec<u8>),
    TagsEnd(u64, kifu::Position),
    TreeEnd(u64),
}

fn heads_of_log(log: &EventLog) -> Vec<Head> {
    log.events
        .iter()
        .filter_map(|e| match e {
            Event::Tree(c) if c.depth == 0 => Some(Head::Tree(c.game, c.pos)),
            Event::Property { ctx, name, value } => Some(Head::Property(
                ctx.game,
                ctx.pos,
                name.clone(),
                value.clone(),
            )),
            Event::TagsEnd(c) => Some(Head::TagsEnd(c.game, c.pos)),
            Event::TreeEnd(c) if c.depth == 0 => Some(Head::TreeEnd(c.game)),
            _ => None,
        })
        .collect()
}

fn heads_of_headers(h: &HeadersOnly) -> Vec<Head> {
    h.events
        .iter()
        .filter_map(|e| match e {
            H::Tree(c) if c.depth == 0 => Some(Head::Tree(c.game, c.pos)),
            H::Property { ctx, name, value } => Some(Head::Property(
                ctx.game,
                ctx.pos,
                name.clone(),
                value.clone(),
            )),
            H::TagsEnd(c) => Some(Head::TagsEnd(c.game, c.pos)),
            H::TreeEnd(c) if c.depth == 0 => Some(Head::TreeEnd(c.game)),
            _ => None,
        })
        .collect()
}

/// Panics with the first difference between two event sequences and a few events around it.
fn assert_same<T: PartialEq + core::fmt::Debug>(what: &str, got: &[T], want: &[T], input: &[u8]) {
    if got == want {
        return;
    }
    let i = got
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(want.len()));
    let from = i.saturating_sub(2);
    let show = |events: &[T]| {
        let mut s = String::new();
        for (k, e) in events.iter().enumerate().skip(from).take(i + 3 - from) {
            s.push_str(&format!("\n  [{k}] {e:?}"));
        }
        s
    };
    panic!(
        "{what}: first difference at event {i} (got {} events, want {})\n\
         input: {:?}\n\
         got:{}\n\
         want:{}",
        got.len(),
        want.len(),
        String::from_utf8_lossy(input),
        show(got),
        show(want),
    );
}

fuzz_target!(|data: &[u8]| {
    let config = config_of(data);
    let (lens, start) = split_of(data);
    let input = &data[start..];
    let pieces = chunks(input, &lens);

    // 1. the whole input at once vs. in chunks
    let mut whole = EventLog::default();
    run(config, &[input], &mut whole);
    let mut chunked = EventLog::default();
    run(config, &pieces, &mut chunked);
    assert_same(
        "chunked events differ from whole-input events",
        &chunked.events,
        &whole.events,
        input,
    );

    // 2. headers only: the same number of games as the full reading
    let mut headers = HeadersOnly::default();
    run(config, &[input], &mut headers);
    assert_eq!(
        headers.games,
        whole.games(),
        "headers-only visitor counts {} games, the full EventLog {}; input {:?}",
        headers.games,
        whole.games(),
        String::from_utf8_lossy(input)
    );

    // 3. headers only, chunked: the same events as headers only, whole
    let mut headers_chunked = HeadersOnly::default();
    run(config, &pieces, &mut headers_chunked);
    assert_same(
        "headers-only events differ between chunked and whole input",
        &headers_chunked.events,
        &headers.events,
        input,
    );

    // 4. headers only sees the same games, tags and tag ends as the full reading
    assert_same(
        "headers-only games/tags differ from the full reading",
        &heads_of_headers(&headers),
        &heads_of_log(&whole),
        input,
    );
});
