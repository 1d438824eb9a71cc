//! [`Writer`]: a [`Game`] in the PGN export format.

use alloc::string::String;

use smallvec::SmallVec;

use super::dom::{Game, Node, san_text};
use super::{Nag, San};

mod events;
pub use events::EventWriter;

/// Writes [`Game`]s in the PGN export format (standard §8.1 and §8.2).
///
/// A `Writer` is a small set of options (cheap to copy); it writes to a [`String`]
/// ([`write_to_string`](Writer::write_to_string)) or to any [`std::io::Write`]
/// ([`write`](Writer::write), feature `std`).
///
/// # Layout
///
/// - Tags: the Seven Tag Roster first, in its order, a missing one written with its default
///   (`?`, `????.??.??` for `Date`, the game's [termination](Game::termination) for `Result`),
///   then the other tags in file order (see [`Game::export_tags`]); one per line, values with
///   `"` and `\` escaped (a line break or tab inside a value, which PGN cannot hold, is written as
///   a space). Then an empty line.
/// - Movetext: tokens separated by one space on lines of at most [`line_width`](Writer::line_width)
///   characters (79 by default: the standard asks for fewer than 80), or on one line
///   ([`compact`](Writer::compact)). White's moves get `N.`, Black's get `N...` when they start
///   the game or a variation, or follow a comment or a variation. Numbers follow the `FEN` tag's
///   move number and side to move. NAGs as `$n`, variations in `( … )`, then the result and an
///   empty line.
///
/// # Comments
///
/// A comment is written in braces. By default ([`wrap_comments`](Writer::wrap_comments)) its
/// words are laid out like other tokens, so a long comment is broken over lines at its white
/// space, never inside a `[%…]` command (the line breaks before a command that does not fit
/// on it; only a command longer than the width makes a longer line): the words stay, white space between them may change
/// (a space may become a line break, runs of white space become one, leading and trailing white
/// space goes). That is why
/// [`Game::same_content`] compares comments up to white space. With `wrap_comments(false)` the
/// text is written exactly as it is (a line may then be longer than the width), and a game read
/// back is `==`-equal in its tags, moves and comments.
///
/// A comment holding `}` cannot be written in braces: when it has no line break it is written as
/// a `;` comment, to the end of its line, which keeps it exactly; otherwise each `}` becomes `)`.
/// A wrapped comment never starts a line with what looks like a tag pair (`[Name "`), which a
/// lenient reader may take for the tags of a next game; an exact comment is written as it is
/// (the standard ends a comment at its `}` only, and kifu reads such a line as comment text
/// when the `}` comes within [`Config::comment_lookahead`](super::Config::comment_lookahead)).
///
/// The writer never recurses: variations are written from an explicit stack.
///
/// ```
/// use kifu::pgn::{Games, Writer};
///
/// let pgn = b"[White \"Tal\"]\n1.e4 {good} e5 2.Nf3!? (2.f4) Nc6 1-0";
/// let game = Games::new(pgn).next().unwrap();
/// assert_eq!(
///     Writer::new().to_string(&game),
///     "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Tal\"]\n\
///      [Black \"?\"]\n[Result \"1-0\"]\n\n1. e4 {good} 1... e5 2. Nf3 $5 (2. f4) 2... Nc6 1-0\n\n"
/// );
/// ```
///
/// # Options
///
/// ```
/// use kifu::pgn::{Games, Writer};
/// let game = Games::new(b"1. e4 {best} (1. d4 $1) e5 *").next().unwrap();
/// let w = Writer::new().compact(true).comments(false).variations(false);
/// assert!(w.to_string(&game).ends_with("\n\n1. e4 e5 *\n\n"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Writer {
    line_width: usize,
    compact: bool,
    comments: bool,
    variations: bool,
    nags: bool,
    wrap_comments: bool,
}

impl Default for Writer {
    fn default() -> Self {
        Writer::new()
    }
}

impl Writer {
    /// The export format: lines of at most 79 characters, comments, variations and NAGs kept,
    /// long comments wrapped.
    pub const fn new() -> Writer {
        Writer {
            line_width: 79,
            compact: false,
            comments: true,
            variations: true,
            nags: true,
            wrap_comments: true,
        }
    }

    /// The longest movetext line, in characters (default 79). A single token longer than that
    /// (a long word of a comment, a `;` comment) gets a line of its own.
    pub const fn line_width(mut self, width: usize) -> Writer {
        self.line_width = width;
        self
    }

    /// Whether to write the movetext on one line (default: no). `;` comments still end their
    /// line.
    pub const fn compact(mut self, yes: bool) -> Writer {
        self.compact = yes;
        self
    }

    /// Whether to write comments (default: yes).
    pub const fn comments(mut self, yes: bool) -> Writer {
        self.comments = yes;
        self
    }

    /// Whether to write variations (default: yes).
    pub const fn variations(mut self, yes: bool) -> Writer {
        self.variations = yes;
        self
    }

    /// Whether to write NAGs (default: yes).
    pub const fn nags(mut self, yes: bool) -> Writer {
        self.nags = yes;
        self
    }

    /// Whether to lay long comments out over lines at their white space (default: yes); without
    /// it comments are written exactly. See [Comments](Writer#comments).
    pub const fn wrap_comments(mut self, yes: bool) -> Writer {
        self.wrap_comments = yes;
        self
    }

    /// The game in PGN, ending with an empty line.
    pub fn to_string(&self, game: &Game) -> String {
        let mut out = String::new();
        self.write_to_string(game, &mut out);
        out
    }

    /// Appends the game in PGN to `out`, ending with an empty line.
    pub fn write_to_string(&self, game: &Game, out: &mut String) {
        write_tags(game, out);
        out.push('\n');
        self.write_movetext(game, out);
        out.push_str("\n\n");
    }

    /// The layout of a movetext appended to `out`, its line empty.
    fn movetext<'a>(&self, out: &'a mut String) -> Movetext<'a> {
        Movetext {
            out,
            line: 0,
            width: if self.compact {
                usize::MAX
            } else {
                self.line_width.max(1)
            },
            open: 0,
            w: *self,
        }
    }

    /// Appends the game's movetext to `out`: what [`write_to_string`](Writer::write_to_string)
    /// writes after the tags and their empty line, from the game comment to the result, without
    /// the line breaks after it (for a column or a field that holds the moves alone).
    ///
    /// It allocates nothing besides the growth of `out`, so that a string reused from game to
    /// game makes writing free of allocations once it has grown; only what is rare costs one
    /// (variations nested more than 16 deep, a move without its text, a comment holding both
    /// `}` and a line break).
    ///
    /// ```
    /// use kifu::pgn::{Games, Writer};
    /// let game = Games::new(b"[White \"Tal\"]\n\n1.e4 {good} e5 (1...c5) 1-0").next().unwrap();
    /// let mut out = String::new();
    /// Writer::new().write_movetext(&game, &mut out);
    /// assert_eq!(out, "1. e4 {good} 1... e5 (1... c5) 1-0");
    /// ```
    pub fn write_movetext(&self, game: &Game, out: &mut String) {
        let mut m = self.movetext(out);
        if self.comments {
            for c in &game.comments {
                m.comment(c);
            }
        }
        m.lines(&game.moves, game.starting_ply());
        m.token(&[game.termination().as_str()]);
    }

    /// Writes the game in PGN to `out`, ending with an empty line (feature `std`). The game is
    /// laid out in memory first, then written with one `write_all`; the memory is the thread's,
    /// kept from game to game (up to 256 KiB), so that writing game after game allocates
    /// nothing once it has grown.
    ///
    /// # Errors
    ///
    /// The errors of `out`.
    #[cfg(feature = "std")]
    pub fn write<W: std::io::Write>(&self, game: &Game, out: &mut W) -> std::io::Result<()> {
        /// The most a thread keeps between games.
        const KEEP: usize = 256 << 10;
        std::thread_local! {
            static LAYOUT: core::cell::RefCell<String> = const {
                core::cell::RefCell::new(String::new())
            };
        }
        LAYOUT.with(|layout| match layout.try_borrow_mut() {
            Ok(mut s) => {
                s.clear();
                self.write_to_string(game, &mut s);
                let written = out.write_all(s.as_bytes());
                if s.capacity() > KEEP {
                    *s = String::new();
                }
                written
            }
            // called again from inside `out` on this thread
            Err(_) => out.write_all(self.to_string(game).as_bytes()),
        })
    }
}

/// Appends the tags of `game` as the export format writes them ([`Game::export_tags`]), one
/// pair a line, values with `"` and `\\` escaped.
fn write_tags(game: &Game, out: &mut String) {
    for (name, value) in game.export_tags() {
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        // the runs between the bytes to change go in whole (those bytes are ASCII, so the
        // runs are whole characters)
        let mut from = 0;
        for (i, &c) in value.as_bytes().iter().enumerate() {
            let escaped = match c {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' | b'\r' | b'\t' => " ",
                _ => continue,
            };
            out.push_str(&value[from..i]);
            out.push_str(escaped);
            from = i + 1;
        }
        out.push_str(&value[from..]);
        out.push_str("\"]\n");
    }
}

/// Whether `word next` (two words of a comment) starts with a tag pair's beginning, `[Name "` (a
/// reader meeting it at the start of a line inside a comment takes the comment for unclosed), or
/// may (the text ends too soon to say).
fn tag_like(word: &str, next: &str) -> bool {
    let b = word.as_bytes();
    if b.first() != Some(&b'[') {
        return false;
    }
    // the usual case, a command (`[%clk`): the byte after `[` is no blank (which the reader
    // would skip) and no letter (which starts a name)
    if let Some(&c) = b.get(1) {
        if c != b' ' && c != b'\t' && !c.is_ascii_alphabetic() {
            return false;
        }
    }
    // the two words joined by a space, on the stack when they are short (they always are)
    let n = word.len() + 1 + next.len();
    let mut buf = [0u8; 64];
    if n <= buf.len() {
        buf[..word.len()].copy_from_slice(word.as_bytes());
        buf[word.len()] = b' ';
        buf[word.len() + 1..n].copy_from_slice(next.as_bytes());
        return super::lexer::is_tag_start(&buf[..n]) != Some(false);
    }
    super::lexer::is_tag_start(alloc::format!("{word} {next}").as_bytes()) != Some(false)
}

/// The decimal digits of `n`.
#[derive(Clone, Copy)]
struct Digits {
    buf: [u8; 10],
    /// Where the digits start in `buf`.
    start: usize,
}

impl Digits {
    fn new(mut n: u32) -> Digits {
        let mut buf = [0u8; 10];
        let mut start = buf.len();
        loop {
            start -= 1;
            buf[start] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        Digits { buf, start }
    }

    /// How many digits (ASCII: characters too).
    fn len(&self) -> usize {
        self.buf.len() - self.start
    }

    /// Appends the digits to `out` (byte by byte, as characters: no UTF-8 check of the buffer).
    fn push_to(&self, out: &mut String) {
        for &d in &self.buf[self.start..] {
            out.push(char::from(d));
        }
    }
}

/// The characters of `s` (what a line's width counts): its length when it is ASCII, as PGN
/// almost always is.
fn chars(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// What [`single_spaced`] needs to know of a byte: [`SPACE`], [`OTHER`] (ASCII white space but
/// a space, and `}`), [`HIGH`] (not ASCII), or 0.
const KIND: [u8; 256] = {
    let mut k = [0u8; 256];
    k[b' ' as usize] = SPACE;
    k[b'\t' as usize] = OTHER;
    k[b'\n' as usize] = OTHER;
    k[0x0C] = OTHER;
    k[b'\r' as usize] = OTHER;
    k[b'}' as usize] = OTHER;
    let mut i = 0x80;
    while i < k.len() {
        k[i] = HIGH;
        i += 1;
    }
    k
};
const SPACE: u8 = 1;
const OTHER: u8 = 2;
const HIGH: u8 = 4;

/// The characters of `text` if it is written the same in braces whether its words are laid out
/// one by one or not: no `}`, no ASCII white space but single spaces between words (the ends of
/// `text` trimmed already); `None` otherwise.
fn single_spaced(text: &str) -> Option<usize> {
    // one look at each byte, without a branch: two spaces in a row count as `OTHER`
    let mut seen = 0;
    let mut last = 0;
    for &c in text.as_bytes() {
        let k = KIND[usize::from(c)];
        seen |= k | ((k & last & SPACE) << 1);
        last = k;
    }
    if seen & OTHER != 0 {
        None
    } else if seen & HIGH == 0 {
        Some(text.len())
    } else {
        Some(text.chars().count())
    }
}

/// Whether `text` (trimmed) is one command, `[%…]`: its first `]` is its last byte, so that no
/// line may break inside it.
fn one_command(text: &str) -> bool {
    let b = text.as_bytes();
    b.starts_with(b"[%") && memchr::memchr(b']', b) == Some(b.len() - 1)
}

/// The next word of `text` from byte `at` on, as `split_ascii_whitespace` would give it (a
/// maximal run of bytes that are not ASCII white space), as its byte range; `at` moves past it.
fn next_word(text: &[u8], at: &mut usize) -> Option<(usize, usize)> {
    let mut i = *at;
    while i < text.len() && text[i].is_ascii_whitespace() {
        i += 1;
    }
    if i == text.len() {
        *at = i;
        return None;
    }
    let start = i;
    while i < text.len() && !text[i].is_ascii_whitespace() {
        i += 1;
    }
    *at = i;
    Some((start, i))
}

/// Whether a command (`[%…`) is still open after `word` of a comment, `open` being whether it
/// was before: the word's last `[%` opens one, its last `]` closes it, whichever comes later.
fn command_open(word: &[u8], open: bool) -> bool {
    let mut i = word.len();
    while i > 0 {
        i -= 1;
        match word[i] {
            b']' => return false,
            b'%' if i > 0 && word[i - 1] == b'[' => return true,
            _ => {}
        }
    }
    open
}

/// The characters of a command of a comment (`text`) from its first word `this` on to the
/// word that closes it (or the comment's end, then with its `}`), the words one space apart;
/// `next` is the word after `this`, and `at` where the word after `next` is looked for.
fn command_len(
    text: &str,
    this: &str,
    next: Option<(usize, usize)>,
    mut at: usize,
    ascii: bool,
) -> usize {
    let width = |w: &str| if ascii { w.len() } else { chars(w) };
    let mut len = width(this);
    let mut word = next;
    while let Some((s, e)) = word {
        let w = &text[s..e];
        len += 1 + width(w);
        word = next_word(text.as_bytes(), &mut at);
        if !command_open(w.as_bytes(), true) {
            // (the comment's `}` after its last word)
            return len + usize::from(word.is_none());
        }
    }
    // the comment ends inside the command
    len + 1
}

/// The number written before a move.
#[derive(Clone, Copy)]
enum Number {
    None,
    /// `N.`
    White(u32),
    /// `N...`
    Black(u32),
}

/// One line of moves being written.
struct Frame<'g> {
    moves: &'g [Node],
    /// The next move to write.
    i: usize,
    /// The ply before the line's first move.
    start: u32,
    /// The next variation of `moves[i]` to write, once that move is written.
    var: Option<usize>,
    /// The next move needs its number even if Black plays it.
    number: bool,
}

/// The movetext being laid out.
struct Movetext<'a> {
    out: &'a mut String,
    /// Characters on the current line (on one line, only whether it is 0 counts).
    line: usize,
    /// The longest line; `usize::MAX` for one line.
    width: usize,
    /// `(` waiting to be glued to the next token.
    open: usize,
    w: Writer,
}

impl Movetext<'_> {
    /// Appends a token (made of `parts`, holding no line break) after a space or a line break.
    fn token(&mut self, parts: &[&str]) {
        let len = if self.width == usize::MAX {
            0
        } else {
            parts.iter().map(|p| chars(p)).sum()
        };
        self.start(len, true);
        for p in parts {
            self.out.push_str(p);
        }
    }

    /// Starts a token of `len` characters (holding no line break), which the caller then
    /// appends: writes the space or the line break before it (a line break only if `may_break`)
    /// and the `(` waiting for it, and counts the token on the line. On one line `len` is not
    /// looked at (it may be 0).
    fn start(&mut self, len: usize, may_break: bool) {
        // on one line only whether the line is empty matters (a token never is): the characters
        // are not counted
        let len = if self.width == usize::MAX {
            1
        } else {
            len + self.open
        };
        if self.line > 0 {
            if may_break && self.line + 1 + len > self.width {
                self.out.push('\n');
                self.line = 0;
            } else {
                self.out.push(' ');
                self.line += 1;
            }
        }
        for _ in 0..self.open {
            self.out.push('(');
        }
        self.open = 0;
        self.line += len;
    }

    /// Breaks the line before a unit of `len` characters that no line break may cut (a
    /// command of a comment), unless it fits on the line or the line is empty; the unit's
    /// first token is then started as usual.
    fn start_unit(&mut self, len: usize) {
        if self.width != usize::MAX && self.line > 0 && self.line + 1 + self.open + len > self.width
        {
            self.out.push('\n');
            self.line = 0;
        }
    }

    /// A move: its number first if it has one (`N.` for White, `N...` for Black), then its
    /// text.
    fn move_token(&mut self, number: Number, text: &str) {
        let len = chars(text);
        match number {
            Number::None => self.start(len, true),
            Number::White(n) => {
                let digits = Digits::new(n);
                self.start(digits.len() + 2 + len, true);
                digits.push_to(self.out);
                self.out.push_str(". ");
            }
            Number::Black(n) => {
                let digits = Digits::new(n);
                self.start(digits.len() + 4 + len, true);
                digits.push_to(self.out);
                self.out.push_str("... ");
            }
        }
        self.out.push_str(text);
    }

    fn close(&mut self) {
        if self.open > 0 {
            // an empty variation
            self.open -= 1;
            self.token(&["()"]);
            return;
        }
        if self.line + 1 > self.width {
            self.out.push('\n');
            self.line = 0;
        }
        self.out.push(')');
        self.line += 1;
    }

    fn comment(&mut self, text: &str) {
        if self.w.wrap_comments {
            // the usual comment (`[%clk 0:03:00]`): without `}`, its words already one space
            // apart, and all of it fits on the line, so that no word of it would start a line:
            // it goes in whole, as `wrapped` would write it word by word
            // a comment that is one command (`[%clk 0:03:00]`) goes in whole too, after a
            // line break if it does not fit: a line never breaks inside a command
            let t = text.trim_ascii();
            if let Some(len) = single_spaced(t) {
                let len = len + 2;
                let room = if self.line > 0 { self.line + 1 } else { 0 };
                if self.width == usize::MAX
                    || room + self.open + len <= self.width
                    || one_command(t)
                {
                    self.start(len, true);
                    self.out.push('{');
                    self.out.push_str(t);
                    self.out.push('}');
                    return;
                }
            }
        }
        let b = text.as_bytes();
        let Some(p) = memchr::memchr3(b'}', b'\n', b'\r', b) else {
            // the usual comment: one line without `}`
            self.braced(text, false);
            return;
        };
        let breaks = b[p] != b'}' || memchr::memchr2(b'\n', b'\r', &b[p..]).is_some();
        let brace = b[p] == b'}' || memchr::memchr(b'}', &b[p..]).is_some();
        if !brace {
            self.braced(text, breaks);
        } else if !breaks {
            self.token(&[";", text]);
            self.out.push('\n');
            self.line = 0;
        } else {
            self.braced(&text.replace('}', ")"), breaks);
        }
    }

    /// A comment in braces (`text` holds no `}`); `breaks`: it holds a line break.
    fn braced(&mut self, text: &str, breaks: bool) {
        if self.w.wrap_comments {
            self.wrapped(text);
            return;
        }
        // exactly as it is: a line inside that looks like a tag pair is comment text to a reader
        // that follows the standard (kifu's, within `Config::comment_lookahead`)
        let b = text.as_bytes();
        let first = if breaks {
            memchr::memchr2(b'\n', b'\r', b)
        } else {
            None
        };
        match first {
            Some(first) => {
                self.token(&["{", &text[..first]]);
                self.out.push_str(&text[first..]);
                self.out.push('}');
                let last = memchr::memrchr2(b'\n', b'\r', b).unwrap_or(first);
                self.line = chars(&text[last + 1..]) + 1;
            }
            None => {
                self.start(chars(text) + 2, true);
                self.out.push('{');
                self.out.push_str(text);
                self.out.push('}');
            }
        }
    }

    /// A comment laid out word by word over lines ([`Writer::wrap_comments`]).
    fn wrapped(&mut self, text: &str) {
        let b = text.as_bytes();
        let mut at = 0;
        let Some(mut word) = next_word(b, &mut at) else {
            self.token(&["{}"]);
            return;
        };
        // an ASCII comment's words are as many characters as bytes
        let ascii = b.is_ascii();
        let mut first = true;
        let mut in_command = false;
        loop {
            let next = next_word(b, &mut at);
            let this = &text[word.0..word.1];
            let after = next.map_or("", |(s, e)| &text[s..e]);
            // a command (`[%clk 0:01:00]`) stays on one line; a line starting with `[Name`
            // inside a comment could read as the next game's tags
            let may_break = first || !(in_command || tag_like(this, after));
            let len = if ascii { this.len() } else { chars(this) };
            if may_break && !in_command && next.is_some() && command_open(this.as_bytes(), false) {
                // a command of several words opens: the line breaks before it unless all of
                // it fits, since no line breaks inside it
                let unit = command_len(text, this, next, at, ascii);
                self.start_unit(unit + usize::from(first));
            }
            self.start(
                len + usize::from(first) + usize::from(next.is_none()),
                may_break,
            );
            if first {
                self.out.push('{');
            }
            self.out.push_str(this);
            if next.is_none() {
                self.out.push('}');
            }
            in_command = command_open(this.as_bytes(), in_command);
            first = false;
            match next {
                Some(n) => word = n,
                None => return,
            }
        }
    }

    /// A move at `ply` (`number`: it needs its number even if Black plays it), as its text or,
    /// without one, its SAN; then its NAGs and the comments after it. Whether the next move
    /// needs its number (after a comment).
    fn node<'c>(
        &mut self,
        ply: u32,
        number: bool,
        (san, text): (San, &str),
        nags: &[Nag],
        comments: impl ExactSizeIterator<Item = &'c str>,
    ) -> bool {
        let n = ply.div_ceil(2);
        let number = if ply % 2 == 1 {
            Number::White(n)
        } else if number {
            Number::Black(n)
        } else {
            Number::None
        };
        if text.is_empty() {
            self.move_token(number, &san_text(san));
        } else {
            self.move_token(number, text);
        }
        if self.w.nags {
            for n in nags {
                let digits = Digits::new(u32::from(n.0));
                self.start(1 + digits.len(), true);
                self.out.push('$');
                digits.push_to(self.out);
            }
        }
        if self.w.comments && comments.len() > 0 {
            for c in comments {
                self.comment(c);
            }
            return true;
        }
        false
    }

    /// Writes the move tree from an explicit stack.
    fn lines(&mut self, moves: &[Node], start: u32) {
        // the line being written; the lines it branches from wait on `parents`
        let mut top = Frame {
            moves,
            i: 0,
            start,
            var: None,
            number: true,
        };
        let mut parents: SmallVec<[Frame<'_>; 16]> = SmallVec::new();
        loop {
            if let Some(v) = top.var {
                let node = &top.moves[top.i];
                if v < node.variations.len() {
                    top.var = Some(v + 1);
                    top.number = true;
                    let var = &node.variations[v];
                    let ply = top.start + top.i as u32;
                    self.open += 1;
                    if self.w.comments {
                        for c in &var.comments {
                            self.comment(c);
                        }
                    }
                    let line = Frame {
                        moves: &var.moves,
                        i: 0,
                        start: ply,
                        var: None,
                        number: true,
                    };
                    parents.push(core::mem::replace(&mut top, line));
                    continue;
                }
                top.var = None;
                top.i += 1;
                continue;
            }
            let Some(node) = top.moves.get(top.i) else {
                match parents.pop() {
                    Some(parent) => {
                        top = parent;
                        self.close();
                        continue;
                    }
                    None => return,
                }
            };
            let ply = top.start + top.i as u32 + 1;
            if self.w.comments && !node.comments_before.is_empty() {
                for c in &node.comments_before {
                    self.comment(c);
                }
                top.number = true;
            }
            top.number = self.node(
                ply,
                top.number,
                (node.san, node.text.as_str()),
                &node.nags,
                node.comments.iter().map(String::as_str),
            );
            if self.w.variations && !node.variations.is_empty() {
                top.var = Some(0);
            } else {
                top.i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fast_paths;
