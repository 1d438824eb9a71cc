//! What a visitor tells the parser after each event.

/// The answer of every visitor callback.
///
/// | value | effect |
/// |---|---|
/// | [`Continue`](Control::Continue) | go on with the next event |
/// | [`Skip`](Control::Skip) | skip the rest of the current variation (PGN `( … )`, SGF `( … )` below the game tree); at game level, the rest of the game |
/// | [`SkipGame`](Control::SkipGame) | skip the rest of the current game, whatever the depth |
/// | [`Stop`](Control::Stop) | return from `feed` now; the caller may resume by feeding the unconsumed rest |
///
/// A skipped part is still read (to find where it ends and to keep positions exact) but raises
/// no events, except the closing `on_tree_end` of every tree the visitor saw open, so that
/// `on_tree` / `on_tree_end` always pair up.
#[must_use = "the parser needs to know whether to go on, skip or stop"]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Control {
    /// Go on.
    #[default]
    Continue,
    /// Skip the rest of the current variation (or, at game level, of the game).
    Skip,
    /// Skip the rest of the current game.
    SkipGame,
    /// Stop: `feed` returns [`Status::Stopped`] as soon as the current token's events are out.
    Stop,
}

/// What a call to `feed` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The whole chunk was taken (an unfinished token at its end is kept inside the parser,
    /// bounded by the configured limits); feed the next chunk, or call `finish`.
    NeedInput,
    /// A visitor returned [`Control::Stop`]. `consumed` bytes of the chunk were taken; feed the
    /// rest (`&chunk[consumed..]`) to resume exactly where the parser stopped.
    Stopped {
        /// How many bytes of the chunk were taken.
        consumed: usize,
    },
}
