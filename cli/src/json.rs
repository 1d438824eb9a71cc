//! `kifu json` and `kifu check`: visitors that write as the events come.

use std::io::{self, Write};

use kifu::pgn::{Comment, CommentKind, Context, Error, Move, Nag, NagForm, Outcome, Tag, Visitor};
use kifu::{Control, sgf};

/// Appends `s` as a JSON string.
fn push_str(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(&mut *out, s).expect("writing to a Vec cannot fail");
}

fn push_bytes(out: &mut Vec<u8>, b: &[u8]) {
    push_str(out, &String::from_utf8_lossy(b));
}

/// A move whose annotations may still come.
#[derive(Default)]
struct PendingMove {
    san: Vec<u8>,
    nags: Vec<u8>,
    comments: Vec<Vec<u8>>,
    variations: Vec<Vec<u8>>,
    comments_before: Vec<Vec<u8>>,
}

/// One line of moves (the main line or a variation) being written.
#[derive(Default)]
struct Line {
    /// Finished moves, as JSON objects separated by commas.
    moves: Vec<u8>,
    pending: Option<PendingMove>,
    /// Comments before the line's first move.
    before: Vec<Vec<u8>>,
}

impl Line {
    fn flush(&mut self) {
        if let Some(m) = self.pending.take() {
            if !self.moves.is_empty() {
                self.moves.push(b',');
            }
            let o = &mut self.moves;
            o.extend_from_slice(b"{\"san\":");
            push_bytes(o, &m.san);
            o.extend_from_slice(b",\"nags\":[");
            o.extend_from_slice(&m.nags);
            o.extend_from_slice(b"],\"comments\":[");
            join(o, &m.comments);
            o.extend_from_slice(b"],\"variations\":[");
            join(o, &m.variations);
            o.push(b']');
            if !m.comments_before.is_empty() {
                o.extend_from_slice(b",\"comments_before\":[");
                join(o, &m.comments_before);
                o.push(b']');
            }
            o.push(b'}');
        }
    }

    fn finish(mut self) -> Vec<u8> {
        self.flush();
        let mut out = Vec::with_capacity(self.moves.len() + 2);
        out.push(b'[');
        out.extend_from_slice(&self.moves);
        out.push(b']');
        out
    }
}

fn join(out: &mut Vec<u8>, items: &[Vec<u8>]) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(item);
    }
}

/// Writes one JSON object per game.
pub struct JsonGames<'w, W: Write> {
    out: &'w mut W,
    file: String,
    failed: Option<io::Error>,
    index: u64,
    offset: u64,
    tags: Vec<u8>,
    lines: Vec<Line>,
    result: Option<Outcome>,
    errors: Vec<u8>,
    /// Problems left out of `errors` (past the limit), written as `errors_dropped`.
    dropped: u64,
    /// Problems in `errors`, not yet written with a game.
    unwritten: u64,
    /// The comment being assembled from pieces.
    comment: Vec<u8>,
    /// Bytes held for the game being read, and whether they reached [`MAX_GAME_BYTES`] (the
    /// rest of the game is then skipped).
    held: usize,
    too_large: bool,
    /// The limit (`--max-game-bytes`).
    max_game_bytes: usize,
}

/// The most a game may hold before the rest of it is skipped with `game_too_large`: the DOM's
/// default (`pgn::GameBuilder::DEFAULT_MAX_GAME_BYTES`), so that hostile input cannot exhaust
/// memory.
const MAX_GAME_BYTES: usize = kifu::pgn::GameBuilder::DEFAULT_MAX_GAME_BYTES;

impl<'w, W: Write> JsonGames<'w, W> {
    pub fn new(out: &'w mut W, file: String) -> Self {
        JsonGames {
            out,
            file,
            failed: None,
            index: 0,
            offset: 0,
            tags: Vec::new(),
            lines: Vec::new(),
            result: None,
            errors: Vec::new(),
            dropped: 0,
            unwritten: 0,
            comment: Vec::new(),
            held: 0,
            too_large: false,
            max_game_bytes: MAX_GAME_BYTES,
        }
    }

    /// Sets the most a game may hold (default: the DOM's, 64 MiB).
    pub fn with_max_game_bytes(mut self, max: usize) -> Self {
        self.max_game_bytes = max;
        self
    }

    /// How many problems no game object carries (an input without any game: text that is not
    /// PGN), or the output's error.
    pub fn into_result(self) -> io::Result<u64> {
        match self.failed {
            Some(e) => Err(e),
            None => Ok(self.unwritten + self.dropped),
        }
    }

    fn line(&mut self) -> &mut Line {
        if self.lines.is_empty() {
            self.lines.push(Line::default());
        }
        self.lines.last_mut().expect("a line is open")
    }

    fn write_game(&mut self) -> io::Result<()> {
        let main = self.lines.drain(..).next().unwrap_or_default();
        let before = main.before.clone();
        let moves = main.finish();
        let mut o = Vec::with_capacity(moves.len() + self.tags.len() + 256);
        o.extend_from_slice(b"{\"index\":");
        o.extend_from_slice(self.index.to_string().as_bytes());
        o.extend_from_slice(b",\"offset\":");
        o.extend_from_slice(self.offset.to_string().as_bytes());
        o.extend_from_slice(b",\"file\":");
        push_str(&mut o, &self.file);
        o.extend_from_slice(b",\"tags\":[");
        o.extend_from_slice(&self.tags);
        o.extend_from_slice(b"],\"comments\":[");
        join(&mut o, &before);
        o.extend_from_slice(b"],\"moves\":");
        o.extend_from_slice(&moves);
        o.extend_from_slice(b",\"result\":");
        match self.result {
            Some(r) => push_str(&mut o, r.as_str()),
            None => o.extend_from_slice(b"null"),
        }
        o.extend_from_slice(b",\"errors\":[");
        o.extend_from_slice(&self.errors);
        o.push(b']');
        if self.dropped > 0 {
            o.extend_from_slice(format!(",\"errors_dropped\":{}", self.dropped).as_bytes());
        }
        o.extend_from_slice(b"}\n");
        self.out.write_all(&o)
    }

    /// Counts `bytes` more for the game; past the limit, reports `game_too_large` at `ctx` once
    /// and asks the parser to skip the rest of the game.
    fn hold(&mut self, bytes: usize, ctx: &Context) -> Control {
        if self.too_large {
            return Control::SkipGame;
        }
        self.held += bytes;
        if self.held <= self.max_game_bytes {
            return Control::Continue;
        }
        self.too_large = true;
        let kind = kifu::pgn::ErrorKind::GameTooLarge;
        self.push_error(&serde_json::json!({
            "kind": kind.code(),
            "severity": kind.severity().as_str(),
            "message": kind.to_string(),
            "text": "",
            "offset": ctx.pos.offset,
            "line": ctx.pos.line,
            "column": ctx.pos.column,
            "move": ctx.last_move().map(|m| m.to_string()),
        }));
        Control::SkipGame
    }

    fn push_error(&mut self, v: &serde_json::Value) {
        if self.errors.len() > self.max_game_bytes {
            // a flood of problems: `kifu check` lists them all; the object says how many
            self.dropped += 1;
            return;
        }
        if !self.errors.is_empty() {
            self.errors.push(b',');
        }
        self.unwritten += 1;
        serde_json::to_writer(&mut self.errors, v).expect("writing to a Vec cannot fail");
    }

    fn fail(&mut self, r: io::Result<()>) -> Control {
        match r {
            Ok(()) => Control::Continue,
            Err(e) => {
                self.failed = Some(e);
                Control::Stop
            }
        }
    }
}

impl<W: Write> Visitor for JsonGames<'_, W> {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.is_main_line() {
            self.index = ctx.game;
            self.offset = ctx.pos.offset;
            self.tags.clear();
            self.lines.clear();
            self.result = None;
            self.held = 0;
            self.too_large = false;
            // not `errors`: those met before the first game (the only problems the parser
            // reports outside a game) go to it, as in `pgn::Game::errors`
        }
        self.lines.push(Line::default());
        Control::Continue
    }

    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.is_main_line() {
            let r = self.write_game();
            self.errors.clear();
            self.dropped = 0;
            self.unwritten = 0;
            return self.fail(r);
        }
        if self.lines.len() > 1 {
            let line = self.lines.pop().expect("variation line");
            let before = line.before.clone();
            let mut json = line.finish();
            if json == b"[]" && !before.is_empty() {
                // a variation holding only comments: keep them
                json = b"[{\"san\":null,\"nags\":[],\"comments\":[".to_vec();
                join(&mut json, &before);
                json.extend_from_slice(b"],\"variations\":[]}]");
            }
            if let Some(m) = self.line().pending.as_mut() {
                m.variations.push(json);
            }
        }
        Control::Continue
    }

    fn on_property(&mut self, ctx: &Context, tag: &Tag<'_>) -> Control {
        if self.hold(tag.name.len() + tag.value.0.len() + 8, ctx) == Control::SkipGame {
            return Control::SkipGame;
        }
        if !self.tags.is_empty() {
            self.tags.push(b',');
        }
        self.tags.push(b'[');
        push_bytes(&mut self.tags, tag.name);
        self.tags.push(b',');
        push_str(&mut self.tags, &tag.value.decode_utf8_lossy());
        self.tags.push(b']');
        Control::Continue
    }

    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        if self.hold(mv.text.len() + 48, ctx) == Control::SkipGame {
            return Control::SkipGame;
        }
        let line = self.line();
        line.flush();
        let comments_before = if ctx.in_variation() && line.moves.is_empty() {
            std::mem::take(&mut line.before)
        } else {
            Vec::new()
        };
        line.pending = Some(PendingMove {
            san: mv.text.to_vec(),
            comments_before,
            ..Default::default()
        });
        Control::Continue
    }

    fn on_nag(&mut self, ctx: &Context, nag: Nag, _: NagForm) -> Control {
        if self.hold(4, ctx) == Control::SkipGame {
            return Control::SkipGame;
        }
        if let Some(m) = self.line().pending.as_mut() {
            if !m.nags.is_empty() {
                m.nags.push(b',');
            }
            m.nags.extend_from_slice(nag.0.to_string().as_bytes());
        }
        Control::Continue
    }

    fn on_comment(&mut self, ctx: &Context, c: &Comment<'_>) -> Control {
        if c.kind == CommentKind::Escape {
            return Control::Continue;
        }
        if self.hold(c.text.as_bytes().len() + 4, ctx) == Control::SkipGame {
            return Control::SkipGame;
        }
        if c.first {
            self.comment.clear();
        }
        self.comment.extend_from_slice(c.text.as_bytes());
        if c.last {
            let mut s = Vec::new();
            push_bytes(&mut s, &self.comment);
            let line = self.line();
            match line.pending.as_mut() {
                Some(m) => m.comments.push(s),
                None => line.before.push(s),
            }
        }
        Control::Continue
    }

    fn on_result(&mut self, ctx: &Context, outcome: Outcome) -> Control {
        if ctx.is_main_line() {
            self.result = Some(outcome);
        }
        Control::Continue
    }

    fn on_error(&mut self, e: &Error<'_>) -> Control {
        self.push_error(&serde_json::json!({
            "kind": e.kind.code(),
            "severity": e.severity.as_str(),
            "message": e.kind.to_string(),
            "text": String::from_utf8_lossy(e.text),
            "offset": e.pos.offset,
            "line": e.pos.line,
            "column": e.pos.column,
            "move": e.at.map(|m| m.to_string()),
        }));
        Control::Continue
    }
}

/// Writes every problem as `FILE:LINE:COLUMN: game N, move M: message`.
pub struct Check<'w, W: Write> {
    out: &'w mut W,
    file: String,
    found: u64,
    failed: Option<io::Error>,
}

impl<'w, W: Write> Check<'w, W> {
    pub fn new(out: &'w mut W, file: String) -> Self {
        Check {
            out,
            file,
            found: 0,
            failed: None,
        }
    }

    fn write_line(&mut self, line: &str) -> Control {
        self.found += 1;
        match writeln!(self.out, "{line}") {
            Ok(()) => Control::Continue,
            Err(err) => {
                self.failed = Some(err);
                Control::Stop
            }
        }
    }

    /// How many problems were found.
    pub fn into_result(self) -> io::Result<u64> {
        match self.failed {
            Some(e) => Err(e),
            None => Ok(self.found),
        }
    }
}

impl<W: Write> Visitor for Check<'_, W> {
    fn on_error(&mut self, e: &Error<'_>) -> Control {
        let line = format!("{}:{e}", self.file);
        self.write_line(&line)
    }
}

impl<W: Write> sgf::Visitor for Check<'_, W> {
    fn on_error(&mut self, e: &sgf::Error<'_>) -> Control {
        let line = format!("{}:{e}", self.file);
        self.write_line(&line)
    }
}
