//! [`EventWriter`]: the export format written straight from the parser's events.

use alloc::string::String;
use alloc::vec::Vec;

use smallvec::SmallVec;

use super::Writer;
use crate::Control;
use crate::pgn::{
    Comment, CommentKind, Context, Error, Game, Move, Nag, NagForm, Outcome, San, Tag, Visitor,
};

/// Writes games in the PGN export format from the parser's events, without building them: the
/// text [`Writer`] writes for the [`Game`] a [`GameBuilder`](crate::pgn::GameBuilder) builds
/// from the same events, byte for byte, for every game it takes that stays within the builder's
/// limit of bytes ([`GameBuilder::with_max_game_bytes`](crate::pgn::GameBuilder::with_max_game_bytes):
/// past it the builder leaves out what does not fit, with no event to say so; a caller with a
/// limit counts the game against it, as `kifu find` does).
///
/// It takes a game's main line: its tags, moves, NAGs, comments and result. A game with a
/// variation or a problem met inside it (an [`on_error`](Visitor::on_error) event after its
/// start; the builder gives the problems met before a game to that game, which the caller
/// then reads from the builder) is not taken:
/// [`finish`](EventWriter::finish) gives `None` for it, and the caller builds that game to
/// write it (a variation moves the comments after it before it, and a problem may change what
/// the builder keeps). The writer holds one move at a time, its NAGs and comments, which the
/// export format writes in that order whatever their order in the input; its memory is the
/// game's text, kept from game to game.
///
/// ```
/// use kifu::pgn::{self, EventWriter, Games, Writer};
///
/// let pgn = b"[White \"Tal\"]\n\n1. e4 {best} $1 e5 2. Nf3 1-0\n";
/// let mut w = EventWriter::new(Writer::new());
/// pgn::parse(pgn, &mut w);
/// let game = Games::new(pgn).next().unwrap();
/// assert_eq!(w.finish(), Some(Writer::new().to_string(&game).as_str()));
///
/// // a variation: the game is built instead
/// pgn::parse(b"1. e4 (1. d4) e5 *", &mut w);
/// assert_eq!(w.finish(), None);
/// ```
#[derive(Debug)]
pub struct EventWriter {
    w: Writer,
    /// The open game's tags and result (no moves: those are written as they come).
    head: Game,
    /// The tag pairs of the games before, their strings reused.
    pairs: Vec<(String, String)>,
    /// The movetext laid out so far.
    movetext: String,
    /// The last game, whole.
    text: String,
    /// The characters on the movetext's current line.
    line: usize,
    /// The move waiting for its NAGs and comments (when its `san` is some).
    mv: Pending,
    /// The ply before the game's first move ([`Game::starting_ply`]).
    start: u32,
    /// Moves of the main line written.
    moves: u32,
    /// The next move needs its number.
    number: bool,
    /// The pieces of a comment so far.
    comment: Vec<u8>,
    /// The game can be written from its events (no variation, no problem).
    whole: bool,
    /// The game ended and was written.
    done: bool,
}

/// A move waiting for what follows it.
#[derive(Debug, Default)]
struct Pending {
    /// The move's SAN; `None` once written (or before the first move).
    san: Option<San>,
    /// Its text (U+FFFD for what is not UTF-8).
    text: String,
    nags: SmallVec<[Nag; 2]>,
    /// Its comments, one after another, and where each ends.
    comments: String,
    ends: SmallVec<[usize; 2]>,
}

impl EventWriter {
    /// A writer laying games out as `w` does.
    pub fn new(w: Writer) -> EventWriter {
        EventWriter {
            w,
            head: Game::new(),
            pairs: Vec::new(),
            movetext: String::new(),
            text: String::new(),
            line: 0,
            mv: Pending::default(),
            start: 0,
            moves: 0,
            number: true,
            comment: Vec::new(),
            whole: false,
            done: false,
        }
    }

    /// The last game in PGN, ending with an empty line, once its end was read; `None` while it
    /// is open, or when it was not taken (a variation, a problem). The text stays until the
    /// next game starts.
    pub fn finish(&self) -> Option<&str> {
        (self.done && self.whole).then_some(self.text.as_str())
    }

    /// Whether the open (or last) game can still be written from its events: it started, and
    /// no variation nor problem came so far.
    pub fn is_whole(&self) -> bool {
        self.whole
    }

    /// Forgets the open game: nothing is written until the next game starts.
    pub fn reset(&mut self) {
        self.whole = false;
        self.done = false;
    }

    /// Starts a game (what [`on_tree`](Visitor::on_tree) does for a game's main line).
    fn begin(&mut self) {
        self.pairs.append(&mut self.head.tags);
        self.head.result = None;
        self.movetext.clear();
        self.text.clear();
        self.line = 0;
        self.mv.san = None;
        self.moves = 0;
        self.number = true;
        self.comment.clear();
        self.whole = true;
        self.done = false;
    }

    /// Writes the move waiting, its NAGs and comments.
    fn flush(&mut self) {
        let Some(san) = self.mv.san.take() else {
            return;
        };
        if self.moves == 0 {
            self.start = self.head.starting_ply();
        }
        self.moves += 1;
        let p = &self.mv;
        let mut m = self.w.movetext(&mut self.movetext);
        m.line = self.line;
        let mut from = 0;
        let comments = p.ends.iter().map(|&end| {
            let c = &p.comments[from..end];
            from = end;
            c
        });
        self.number = m.node(
            self.start + self.moves,
            self.number,
            (san, &p.text),
            &p.nags,
            comments,
        );
        self.line = m.line;
    }

    /// A comment whole (its pieces joined), kept as the builder keeps it: after the move
    /// waiting, or before the first move (the game's comments, written at once).
    fn take_comment(&mut self, text: &[u8]) {
        let text = crate::utf8::lossy(text);
        if self.mv.san.is_some() {
            let p = &mut self.mv;
            p.comments.push_str(&text);
            p.ends.push(p.comments.len());
        } else if self.moves == 0 && self.w.comments {
            let mut m = self.w.movetext(&mut self.movetext);
            m.line = self.line;
            m.comment(&text);
            self.line = m.line;
        }
    }

    /// Ends the game: the tags, then the movetext and the result.
    fn end(&mut self) {
        self.flush();
        let term = self.head.termination();
        let mut m = self.w.movetext(&mut self.movetext);
        m.line = self.line;
        m.token(&[term.as_str()]);
        super::write_tags(&self.head, &mut self.text);
        self.text.push('\n');
        self.text.push_str(&self.movetext);
        self.text.push_str("\n\n");
        self.done = true;
    }
}

impl Visitor for EventWriter {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.is_main_line() {
            self.begin();
        } else {
            self.whole = false;
        }
        Control::Continue
    }

    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.is_main_line() && self.whole {
            self.end();
        }
        Control::Continue
    }

    fn on_property(&mut self, _: &Context, tag: &Tag<'_>) -> Control {
        if self.whole {
            let (mut name, mut value) = self.pairs.pop().unwrap_or_default();
            name.clear();
            name.push_str(&crate::utf8::lossy(tag.name));
            value.clear();
            value.push_str(&tag.value.decode_utf8_lossy());
            self.head.tags.push((name, value));
        }
        Control::Continue
    }

    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        if !self.whole || !ctx.is_main_line() {
            self.whole = false;
            return Control::Continue;
        }
        self.flush();
        let p = &mut self.mv;
        p.san = Some(mv.san);
        p.text.clear();
        p.text.push_str(&crate::utf8::lossy(mv.text));
        p.nags.clear();
        p.comments.clear();
        p.ends.clear();
        Control::Continue
    }

    fn on_nag(&mut self, _: &Context, nag: Nag, _: NagForm) -> Control {
        // (a NAG before the first move is not kept, as the builder does not keep it)
        if self.whole && self.mv.san.is_some() {
            self.mv.nags.push(nag);
        }
        Control::Continue
    }

    fn on_comment(&mut self, _: &Context, c: &Comment<'_>) -> Control {
        if !self.whole || c.kind == CommentKind::Escape {
            return Control::Continue;
        }
        let piece = c.text.as_bytes();
        if c.first && c.last {
            self.take_comment(piece);
            return Control::Continue;
        }
        if c.first {
            self.comment.clear();
        }
        self.comment.extend_from_slice(piece);
        if c.last {
            let whole = core::mem::take(&mut self.comment);
            self.take_comment(&whole);
            self.comment = whole;
        }
        Control::Continue
    }

    fn on_result(&mut self, ctx: &Context, outcome: Outcome) -> Control {
        if ctx.is_main_line() {
            self.head.result = Some(outcome);
        }
        Control::Continue
    }

    fn on_error(&mut self, _: &Error<'_>) -> Control {
        self.whole = false;
        Control::Continue
    }
}
