//! The PGN visitors that `benches/pgn.rs` and `examples/pgn_throughput.rs` time: kifu and
//! pgn-reader doing the same work, every token visited (`KifuAll`, `ReaderAll`: every tag,
//! move with its target square, NAG, comment, variation and result counted) or the tags only
//! (`KifuHeaders`, `ReaderHeaders`: the movetext skipped).

use std::ops::ControlFlow;

use kifu::Control;
use kifu::pgn as k;

#[derive(Default, Debug, PartialEq, Eq)]
pub struct Counts {
    pub games: u64,
    pub tags: u64,
    pub moves: u64,
    pub nags: u64,
    pub comments: u64,
    pub variations: u64,
    pub outcomes: u64,
    pub bytes: u64,
}

// ---- kifu visitors ----

#[derive(Default)]
pub struct KifuAll(pub Counts);

impl k::Visitor for KifuAll {
    #[inline]
    fn on_tree(&mut self, ctx: &k::Context) -> Control {
        if ctx.in_variation() {
            self.0.variations += 1;
        }
        Control::Continue
    }
    #[inline]
    fn on_tree_end(&mut self, ctx: &k::Context) -> Control {
        if ctx.is_main_line() {
            self.0.games += 1;
        }
        Control::Continue
    }
    #[inline]
    fn on_property(&mut self, _: &k::Context, tag: &k::Tag<'_>) -> Control {
        self.0.tags += 1;
        self.0.bytes += (tag.name.len() + tag.value.0.len()) as u64;
        Control::Continue
    }
    #[inline]
    fn on_move(&mut self, _: &k::Context, mv: &k::Move<'_>) -> Control {
        self.0.moves += 1;
        self.0.bytes += mv.san.to().map_or(0, |s| s.file as u64);
        Control::Continue
    }
    #[inline]
    fn on_nag(&mut self, _: &k::Context, _: k::Nag, _: k::NagForm) -> Control {
        self.0.nags += 1;
        Control::Continue
    }
    #[inline]
    fn on_comment(&mut self, _: &k::Context, c: &k::Comment<'_>) -> Control {
        if c.first && c.kind == k::CommentKind::Brace {
            self.0.comments += 1;
        }
        self.0.bytes += c.text.0.len() as u64;
        Control::Continue
    }
    #[inline]
    fn on_result(&mut self, _: &k::Context, _: k::Outcome) -> Control {
        self.0.outcomes += 1;
        Control::Continue
    }
}

#[derive(Default)]
pub struct KifuHeaders(pub Counts);

impl k::Visitor for KifuHeaders {
    #[inline]
    fn on_tree_end(&mut self, ctx: &k::Context) -> Control {
        if ctx.is_main_line() {
            self.0.games += 1;
        }
        Control::Continue
    }
    #[inline]
    fn on_property(&mut self, _: &k::Context, tag: &k::Tag<'_>) -> Control {
        self.0.tags += 1;
        self.0.bytes += (tag.name.len() + tag.value.0.len()) as u64;
        Control::Continue
    }
    #[inline]
    fn on_tags_end(&mut self, _: &k::Context) -> Control {
        Control::Skip
    }
}

// ---- pgn-reader visitors ----

#[derive(Default)]
pub struct ReaderAll(pub Counts);

impl pgn_reader::Visitor for ReaderAll {
    type Tags = ();
    type Movetext = ();
    type Output = ();
    #[inline]
    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    #[inline]
    fn tag(&mut self, _: &mut (), name: &[u8], value: pgn_reader::RawTag<'_>) -> ControlFlow<()> {
        self.0.tags += 1;
        self.0.bytes += (name.len() + value.as_bytes().len()) as u64;
        ControlFlow::Continue(())
    }
    #[inline]
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    #[inline]
    fn san(&mut self, _: &mut (), san: pgn_reader::SanPlus) -> ControlFlow<()> {
        self.0.moves += 1;
        if let shakmaty::san::San::Normal { to, .. } = san.san {
            self.0.bytes += u64::from(to.file() as u8);
        }
        ControlFlow::Continue(())
    }
    #[inline]
    fn nag(&mut self, _: &mut (), _: pgn_reader::Nag) -> ControlFlow<()> {
        self.0.nags += 1;
        ControlFlow::Continue(())
    }
    #[inline]
    fn partial_comment(&mut self, _: &mut (), c: pgn_reader::RawComment<'_>) -> ControlFlow<()> {
        self.0.bytes += c.as_bytes().len() as u64;
        ControlFlow::Continue(())
    }
    #[inline]
    fn comment(&mut self, _: &mut (), c: pgn_reader::RawComment<'_>) -> ControlFlow<()> {
        self.0.comments += 1;
        self.0.bytes += c.as_bytes().len() as u64;
        ControlFlow::Continue(())
    }
    #[inline]
    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<(), pgn_reader::Skip> {
        self.0.variations += 1;
        ControlFlow::Continue(pgn_reader::Skip(false))
    }
    #[inline]
    fn outcome(&mut self, _: &mut (), _: pgn_reader::Outcome) -> ControlFlow<()> {
        self.0.outcomes += 1;
        ControlFlow::Continue(())
    }
    #[inline]
    fn end_game(&mut self, _: ()) {
        self.0.games += 1;
    }
}

#[derive(Default)]
pub struct ReaderHeaders(pub Counts);

impl pgn_reader::Visitor for ReaderHeaders {
    type Tags = ();
    type Movetext = ();
    type Output = ();
    #[inline]
    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    #[inline]
    fn tag(&mut self, _: &mut (), name: &[u8], value: pgn_reader::RawTag<'_>) -> ControlFlow<()> {
        self.0.tags += 1;
        self.0.bytes += (name.len() + value.as_bytes().len()) as u64;
        ControlFlow::Continue(())
    }
    #[inline]
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        // Break skips the movetext; end_game is then not called, so count the game here
        self.0.games += 1;
        ControlFlow::Break(())
    }
    #[inline]
    fn end_game(&mut self, _: ()) {}
}

macro_rules! into_counts {
    ($($t:ty),*) => {$(
        impl From<$t> for Counts {
            fn from(v: $t) -> Counts {
                v.0
            }
        }
    )*};
}
into_counts!(KifuAll, KifuHeaders, ReaderAll, ReaderHeaders);
