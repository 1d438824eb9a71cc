//! [`Writer`]: a [`Game`] in the PGN export format.

use alloc::string::String;

use smallvec::SmallVec;

use super::dom::{Game, Node, san_text};

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
/// space (never inside a `[%…]` command): the words stay, white space between them may change
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
        for (name, value) in game.export_tags() {
            out.push('[');
            out.push_str(name);
            out.push_str(" \"");
            for c in value.chars() {
                match c {
                    '"' | '\\' => {
                        out.push('\\');
                        out.push(c);
                    }
                    '\n' | '\r' | '\t' => out.push(' '),
                    _ => out.push(c),
                }
            }
            out.push_str("\"]\n");
        }
        out.push('\n');
        self.write_movetext(game, out);
        out.push_str("\n\n");
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
        let mut m = Movetext {
            out,
            line: 0,
            width: if self.compact {
                usize::MAX
            } else {
                self.line_width.max(1)
            },
            open: 0,
            w: *self,
        };
        if self.comments {
            for c in &game.comments {
                m.comment(c);
            }
        }
        m.lines(&game.moves, game.starting_ply());
        m.token(&[game.termination().as_str()]);
    }

    /// Writes the game in PGN to `out`, ending with an empty line (feature `std`). The game is
    /// laid out in memory first, then written with one `write_all`.
    ///
    /// # Errors
    ///
    /// The errors of `out`.
    #[cfg(feature = "std")]
    pub fn write<W: std::io::Write>(&self, game: &Game, out: &mut W) -> std::io::Result<()> {
        out.write_all(self.to_string(game).as_bytes())
    }
}

/// Whether `word next` (two words of a comment) starts with a tag pair's beginning, `[Name "` (a
/// reader meeting it at the start of a line inside a comment takes the comment for unclosed), or
/// may (the text ends too soon to say).
fn tag_like(word: &str, next: &str) -> bool {
    if !word.starts_with('[') {
        return false;
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

/// `n` in decimal followed by `suffix`, at the end of `buf` (long enough).
fn decimal<'b>(mut n: u32, suffix: &str, buf: &'b mut [u8]) -> &'b str {
    let mut i = buf.len() - suffix.len();
    buf[i..].copy_from_slice(suffix.as_bytes());
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    core::str::from_utf8(&buf[i..]).unwrap_or("")
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
        self.token_at(parts, true);
    }

    fn token_at(&mut self, parts: &[&str], may_break: bool) {
        // on one line only whether the line is empty matters (a token never is): the characters
        // are not counted
        let len = if self.width == usize::MAX {
            1
        } else {
            parts.iter().map(|p| p.chars().count()).sum::<usize>() + self.open
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
        for p in parts {
            self.out.push_str(p);
        }
        self.line += len;
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
                self.line = text[last + 1..].chars().count() + 1;
            }
            None => self.token(&["{", text, "}"]),
        }
    }

    /// A comment laid out word by word over lines ([`Writer::wrap_comments`]).
    fn wrapped(&mut self, text: &str) {
        let mut words = text.split_ascii_whitespace().peekable();
        if words.peek().is_none() {
            self.token(&["{}"]);
            return;
        }
        let mut first = true;
        let mut in_command = false;
        while let Some(word) = words.next() {
            let next = words.peek().copied();
            let open = if first { "{" } else { "" };
            let close = if next.is_none() { "}" } else { "" };
            // a line starting with `[Name` inside a comment could read as the next game's tags
            let starts_tag = tag_like(word, next.unwrap_or(""));
            // a command (`[%clk 0:01:00]`) stays on one line
            self.token_at(&[open, word, close], first || !(starts_tag || in_command));
            if let Some(p) = word.rfind("[%") {
                in_command = !word[p..].contains(']');
            } else if word.contains(']') {
                in_command = false;
            }
            first = false;
        }
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
        let mut number = [0u8; 16];
        let mut nag = [0u8; 3];
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
            let n = ply.div_ceil(2);
            let prefix = if ply % 2 == 1 {
                decimal(n, ". ", &mut number)
            } else if top.number {
                decimal(n, "... ", &mut number)
            } else {
                ""
            };
            let text = node.text.as_str();
            if text.is_empty() {
                self.token(&[prefix, &san_text(node.san)]);
            } else {
                self.token(&[prefix, text]);
            }
            top.number = false;
            if self.w.nags {
                for n in &node.nags {
                    self.token(&["$", decimal(u32::from(n.0), "", &mut nag)]);
                }
            }
            if self.w.comments && !node.comments.is_empty() {
                for c in &node.comments {
                    self.comment(c);
                }
                top.number = true;
            }
            if self.w.variations && !node.variations.is_empty() {
                top.var = Some(0);
            } else {
                top.i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::{Games, Node, Outcome, Variation};
    use alloc::string::ToString;
    use alloc::vec;
    use alloc::vec::Vec;

    fn movetext(w: Writer, pgn: &str) -> String {
        let game = Games::new(pgn.as_bytes()).next().unwrap();
        let s = w.to_string(&game);
        let body = s.split("\n\n").nth(1).unwrap().to_string();
        let mut alone = String::from("kept ");
        w.write_movetext(&game, &mut alone);
        assert_eq!(alone, alloc::format!("kept {body}"));
        // the round trip
        let again = Games::new(s.as_bytes()).next().unwrap();
        assert!(game.same_content(&again), "{s}");
        assert_eq!(w.to_string(&again), s);
        body
    }

    #[test]
    fn numbers() {
        let w = Writer::new();
        assert_eq!(
            movetext(
                w,
                "1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) {x} 2. Nf3 $1 Nc6 *"
            ),
            "1. e4 e5 {x} (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3 $1 Nc6 *"
        );
        assert_eq!(
            movetext(
                w,
                "[FEN \"8/8/8/8/8/8/8/k6K b - - 0 14\"] 14... Ka2 15. Kh2 (15. Kg1 Kb1) *"
            ),
            "14... Ka2 15. Kh2 (15. Kg1 Kb1) *"
        );
        assert_eq!(
            movetext(w, "1. e4 ({a} 1. d4) ( ) ({b}) *"),
            "1. e4 ({a} 1. d4) () ({b}) *"
        );
    }

    #[test]
    fn wraps_at_79() {
        let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O \
                   {a rather long comment that will have to be broken over several lines of text, \
                   which is fine} 9. h3 *";
        let body = movetext(Writer::new(), pgn);
        assert!(
            body.lines()
                .all(|l| l.chars().count() <= 79 && !l.ends_with(' '))
        );
        assert!(body.lines().count() >= 3);
        let one = movetext(Writer::new().compact(true), pgn);
        assert_eq!(one.trim_end().lines().count(), 1);
    }

    #[test]
    fn tag_like_words() {
        assert!(tag_like("[Event", "\"x\"]"));
        assert!(tag_like("[Event", ""));
        assert!(tag_like("[", "Event"));
        assert!(!tag_like("[%clk", "0:01:00]"));
        assert!(!tag_like("[1", "2]"));
        assert!(!tag_like("Event", "\"x\"]"));
        // longer than the stack buffer
        let long = "[".to_string() + &"N".repeat(100);
        assert!(tag_like(&long, "\"x\""));
        assert!(!tag_like(&long, "x"));
        let wrapped = Writer::new().line_width(20);
        assert_eq!(
            movetext(
                wrapped,
                "1. e4 {aaaa bbbb cccc dddd [Event \"x\"] [%clk 0:01:00]} *"
            ),
            "1. e4 {aaaa bbbb\ncccc dddd [Event\n\"x\"] [%clk 0:01:00]}\n*"
        );
    }

    #[test]
    fn decimals() {
        let mut b = [0u8; 16];
        assert_eq!(decimal(0, ". ", &mut b), "0. ");
        assert_eq!(decimal(u32::MAX, "... ", &mut b), "4294967295... ");
        let mut n = [0u8; 3];
        assert_eq!(decimal(255, "", &mut n), "255");
    }

    #[test]
    fn awkward_comments() {
        let mut game = Game::new();
        let mut e4 = Node::parse("e4").unwrap();
        e4.comments.push("a } b".into());
        e4.comments.push("c }\nd".into());
        e4.comments.push("line\n[Event \"x\"]".into());
        let mut d4 = Node::parse("d4").unwrap();
        d4.comments_before.push("before".into());
        e4.variations.push(Variation::from_moves(vec![d4]));
        game.moves.push(e4);
        game.moves.push(Node::parse("e5").unwrap());
        game.result = Some(Outcome::Draw);
        for w in [Writer::new(), Writer::new().wrap_comments(false)] {
            let s = w.to_string(&game);
            let again = Games::new(s.as_bytes()).collect::<Vec<_>>();
            assert_eq!(again.len(), 1, "{s}");
            let c = &again[0].moves[0].comments;
            assert_eq!(c[0], "a } b", "{s}");
            assert_eq!(c[1].split_whitespace().collect::<Vec<_>>(), ["c", ")", "d"]);
            assert_eq!(
                again[0].moves[0].variations[0].moves[0].comments_before,
                ["before"]
            );
            assert_eq!(w.to_string(&again[0]), s);
        }
    }
}
