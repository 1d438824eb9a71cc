//! Arbitrary bytes through `kifu::pgn::parse` (default `Config`, whole input at once).
//!
//! Must never panic. Also checks the documented pairing invariant: every `on_tree` is closed by
//! exactly one `on_tree_end` of the same depth and game, innermost first, and each tree opens
//! one level below its parent (a game at depth 0).

#![no_main]

use kifu::pgn::{self, Event, EventLog};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut log = EventLog::default();
    let _ = pgn::parse(data, &mut log);

    let mut open: Vec<(u64, u32)> = Vec::new();
    for (i, event) in log.events.iter().enumerate() {
        match event {
            Event::Tree(ctx) => {
                assert_eq!(
                    ctx.depth as usize,
                    open.len(),
                    "event {i}: on_tree at depth {} with {} trees open",
                    ctx.depth,
                    open.len()
                );
                open.push((ctx.game, ctx.depth));
            }
            Event::TreeEnd(ctx) => {
                let top = open.pop();
                assert_eq!(
                    top,
                    Some((ctx.game, ctx.depth)),
                    "event {i}: on_tree_end (game {}, depth {}) does not close the open tree",
                    ctx.game,
                    ctx.depth
                );
            }
            _ => {}
        }
    }
    assert!(open.is_empty(), "trees left open at the end: {open:?}");
});
