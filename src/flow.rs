//! How a visitor's answers steer a push parser, for both formats: what is being skipped (and
//! how many variations deep inside it), and whether a visitor asked to stop.
//!
//! Each parser keeps one [`Flow`] and applies every [`Control`] through [`Flow::apply`]; only
//! the game structure around it is the format's own (PGN's phases, SGF's tree levels). The
//! state is three plain fields and every method is a few inlined instructions, so the token
//! loops that test `skipping` or `stop` after each event pay nothing for the sharing.

use crate::control::Control;

/// What is being skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Skip {
    /// Nothing.
    No,
    /// The variation open at the current depth (PGN `( … )`, an SGF tree below the game tree),
    /// up to its `)`. `opened`: whether the visitor saw its `on_tree` (false for a variation
    /// beyond the depth limit), so that it gets `on_tree_end`.
    Variation { opened: bool },
    /// The rest of the game.
    Game,
}

/// What a `)` met while skipping closed: see [`Flow::close`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Closed {
    /// A variation opened inside the skipped part: the skip goes on.
    Inner,
    /// The skipped variation itself: the skip is over. `opened` as in [`Skip::Variation`].
    Variation { opened: bool },
    /// A variation of a skipped game (the skip goes on to the game's end).
    Game,
}

/// A parser's answer state: the skip, the variations opened inside it, the stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Flow {
    /// What is being skipped.
    pub(crate) skip: Skip,
    /// Variations opened inside the skipped part and not yet closed.
    pub(crate) nest: u64,
    /// A visitor returned [`Control::Stop`]: `feed` returns as soon as the current token's
    /// events are out.
    pub(crate) stop: bool,
}

impl Flow {
    /// Nothing skipped, no stop.
    pub(crate) const fn new() -> Flow {
        Flow {
            skip: Skip::No,
            nest: 0,
            stop: false,
        }
    }

    /// Something is being skipped (events are muted).
    #[inline(always)]
    pub(crate) fn skipping(&self) -> bool {
        self.skip != Skip::No
    }

    /// Applies a visitor's answer given at variation depth `depth` (the game is depth 0).
    /// `in_game`: there is a game part left to skip (for PGN, its tags or movetext; after the
    /// result or between games a `Skip` skips nothing).
    #[inline(always)]
    pub(crate) fn apply(&mut self, c: Control, depth: u32, in_game: bool) {
        match c {
            Control::Continue => {}
            Control::Stop => self.stop = true,
            Control::Skip if depth > 0 => self.start(Skip::Variation { opened: true }),
            Control::Skip | Control::SkipGame => {
                if in_game {
                    self.start(Skip::Game);
                }
            }
        }
    }

    /// Applies only a [`Control::Stop`]: for the answers to events after which nothing is left
    /// to skip (the end of a game or tree, an error).
    #[inline(always)]
    pub(crate) fn stop_on(&mut self, c: Control) {
        self.stop |= c == Control::Stop;
    }

    /// Starts skipping `skip` (a variation beyond the depth limit is skipped as
    /// `Skip::Variation { opened: false }`).
    #[inline(always)]
    pub(crate) fn start(&mut self, skip: Skip) {
        self.skip = skip;
        self.nest = 0;
    }

    /// Ends any skip (a game begins or ends).
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.start(Skip::No);
    }

    /// A `(` inside the skipped part.
    #[inline(always)]
    pub(crate) fn open(&mut self) {
        self.nest += 1;
    }

    /// A `)`: `None` when nothing is skipped (the parser closes the variation itself), else
    /// what it closed, the skip updated.
    #[inline(always)]
    pub(crate) fn close(&mut self) -> Option<Closed> {
        match self.skip {
            Skip::No => None,
            _ if self.nest > 0 => {
                self.nest -= 1;
                Some(Closed::Inner)
            }
            Skip::Variation { opened } => {
                self.skip = Skip::No;
                Some(Closed::Variation { opened })
            }
            Skip::Game => Some(Closed::Game),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_start_skips_where_there_is_something_to_skip() {
        let mut f = Flow::new();
        f.apply(Control::Continue, 0, true);
        assert_eq!(f, Flow::new());
        f.apply(Control::Skip, 2, true);
        assert_eq!(f.skip, Skip::Variation { opened: true });
        f.apply(Control::Skip, 0, true);
        assert_eq!(f.skip, Skip::Game);
        let mut f = Flow::new();
        f.apply(Control::SkipGame, 3, true);
        assert_eq!(f.skip, Skip::Game);
        let mut f = Flow::new();
        f.apply(Control::Skip, 0, false);
        f.apply(Control::SkipGame, 1, false);
        assert!(!f.skipping() && !f.stop);
        f.apply(Control::Stop, 0, false);
        assert!(f.stop && !f.skipping());
        let mut f = Flow::new();
        f.stop_on(Control::Skip);
        assert_eq!(f, Flow::new());
        f.stop_on(Control::Stop);
        assert!(f.stop);
    }

    #[test]
    fn close_counts_the_variations_opened_inside_a_skip() {
        let mut f = Flow::new();
        assert_eq!(f.close(), None);
        f.apply(Control::Skip, 1, true);
        f.open();
        f.open();
        assert_eq!(f.close(), Some(Closed::Inner));
        assert_eq!(f.close(), Some(Closed::Inner));
        assert_eq!(f.close(), Some(Closed::Variation { opened: true }));
        assert!(!f.skipping());
        f.start(Skip::Variation { opened: false });
        assert_eq!(f.close(), Some(Closed::Variation { opened: false }));
        f.apply(Control::SkipGame, 1, true);
        f.open();
        assert_eq!(f.close(), Some(Closed::Inner));
        assert_eq!(f.close(), Some(Closed::Game));
        assert_eq!(f.close(), Some(Closed::Game));
        f.open();
        f.clear();
        assert_eq!(f, Flow::new());
    }
}
