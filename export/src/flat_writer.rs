//! The movetext of a [`Flat`] game in the PGN export format: the layout of the library's
//! `pgn::Writer` (the movetext it writes after the tags), token for token, on the flat game.
//! `tests/events.rs` checks on the corpus that both give the same text.

use crate::flat::{Flat, List, NONE};

/// Which layout: the library writer's `compact(true).wrap_comments(false)`, or
/// `line_width(w)` (comments wrapped).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    /// The longest line; `usize::MAX` for one line.
    width: usize,
    /// Comments laid out word by word over lines.
    wrap: bool,
}

impl Layout {
    /// The layout of `TableOptions::movetext_width`.
    pub(crate) fn new(width: Option<usize>) -> Layout {
        match width {
            None => Layout {
                width: usize::MAX,
                wrap: false,
            },
            Some(w) => Layout {
                width: w.max(1),
                wrap: true,
            },
        }
    }
}

/// The writer's buffers, kept from game to game so that writing a movetext allocates nothing
/// once they have grown.
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    stack: Vec<Frame>,
    word: String,
}

/// Writes the movetext of `game` (as the library's writer does after the tags' empty line,
/// without the line breaks after the result) to `out`, which is cleared first.
pub(crate) fn movetext(layout: Layout, game: &Flat, out: &mut String, bufs: &mut Buffers) {
    out.clear();
    let mut m = Movetext {
        out,
        line: 0,
        width: layout.width,
        wrap: layout.wrap,
        open: 0,
        game,
        word: std::mem::take(&mut bufs.word),
    };
    let main = game.main.expect("a finished game");
    m.comments(main.before);
    m.lines(main.first, game.starting_ply(), &mut bufs.stack);
    m.token(&[game.termination().as_str()]);
    bufs.word = m.word;
}

/// One line of moves being written.
#[derive(Debug)]
struct Frame {
    /// The next move to write ([`NONE`] at the line's end).
    node: usize,
    /// Its index in the line.
    i: u32,
    /// The ply before the line's first move.
    start: u32,
    /// The next variation of `node` to write, once that move is written (`Some(NONE)`: none
    /// left).
    var: Option<usize>,
    /// The next move needs its number even if Black plays it.
    number: bool,
}

struct Movetext<'a> {
    out: &'a mut String,
    /// Characters on the current line (only whether it is 0 matters on one line).
    line: usize,
    width: usize,
    wrap: bool,
    /// `(` waiting to be glued to the next token.
    open: usize,
    game: &'a Flat,
    /// A word of a wrapped comment.
    word: String,
}

/// Characters in `parts`.
fn chars(parts: &[&str]) -> usize {
    parts.iter().map(|p| p.chars().count()).sum()
}

impl Movetext<'_> {
    /// Appends a token (made of `parts`, holding no line break) after a space or a line break.
    fn token(&mut self, parts: &[&str]) {
        self.token_at(parts, true);
    }

    fn token_at(&mut self, parts: &[&str], may_break: bool) {
        // on one line only whether a line is empty matters: a token is never empty
        let len = if self.width == usize::MAX {
            1
        } else {
            chars(parts) + self.open
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

    fn comments(&mut self, list: List) {
        let game = self.game;
        for c in game.comment_texts(list) {
            self.comment(c);
        }
    }

    fn comment(&mut self, text: &str) {
        let b = text.as_bytes();
        let Some(p) = memchr::memchr3(b'}', b'\n', b'\r', b) else {
            // the usual comment: in braces, as it is
            if self.wrap {
                self.wrapped(text);
            } else {
                self.token(&["{", text, "}"]);
            }
            return;
        };
        let brace = b[p] == b'}' || memchr::memchr(b'}', &b[p..]).is_some();
        if brace {
            if memchr::memchr2(b'\n', b'\r', b).is_none() {
                self.token(&[";", text]);
                self.out.push('\n');
                self.line = 0;
                return;
            }
            self.braced(&text.replace('}', ")"));
        } else {
            self.braced(text);
        }
    }

    fn braced(&mut self, text: &str) {
        if self.wrap {
            self.wrapped(text);
            return;
        }
        // exactly as it is
        let b = text.as_bytes();
        match memchr::memchr2(b'\n', b'\r', b) {
            None => self.token(&["{", text, "}"]),
            Some(first) => {
                self.token(&["{", &text[..first]]);
                self.out.push_str(&text[first..]);
                self.out.push('}');
                let last = memchr::memrchr2(b'\n', b'\r', b).expect("a line break");
                self.line = text[last + 1..].chars().count() + 1;
            }
        }
    }

    /// A comment laid out word by word (the writer's `wrap_comments`).
    fn wrapped(&mut self, text: &str) {
        let mut words = text.split_ascii_whitespace().peekable();
        if words.peek().is_none() {
            self.token(&["{}"]);
            return;
        }
        let mut first = true;
        let mut in_command = false;
        let mut tok = std::mem::take(&mut self.word);
        while let Some(word) = words.next() {
            tok.clear();
            if first {
                tok.push('{');
            }
            tok.push_str(word);
            if words.peek().is_none() {
                tok.push('}');
            }
            // a line starting with `[Name` inside a comment could read as the next game's tags
            let starts_tag = word.starts_with('[') && {
                let next = words.peek().copied().unwrap_or("");
                tag_like(word, next)
            };
            // a command (`[%clk 0:01:00]`) stays on one line
            self.token_at(&[&tok], first || !(starts_tag || in_command));
            if let Some(p) = word.rfind("[%") {
                in_command = !word[p..].contains(']');
            } else if word.contains(']') {
                in_command = false;
            }
            first = false;
        }
        self.word = tok;
    }

    /// Writes the move tree from an explicit stack.
    fn lines(&mut self, first: usize, start: u32, stack: &mut Vec<Frame>) {
        let game = self.game;
        stack.clear();
        stack.push(Frame {
            node: first,
            i: 0,
            start,
            var: None,
            number: true,
        });
        let mut number_buf = [0u8; 16];
        let mut nag_buf = [0u8; 4];
        while let Some(top) = stack.last_mut() {
            if let Some(v) = top.var {
                if v != NONE {
                    let item = game.vars[v];
                    top.var = Some(item.next);
                    top.number = true;
                    let ply = top.start.wrapping_add(top.i);
                    self.open += 1;
                    self.comments(item.value.comments);
                    stack.push(Frame {
                        node: item.value.first,
                        i: 0,
                        start: ply,
                        var: None,
                        number: true,
                    });
                    continue;
                }
                top.var = None;
                top.node = game.nodes[top.node].next;
                top.i = top.i.wrapping_add(1);
                continue;
            }
            if top.node == NONE {
                stack.pop();
                if !stack.is_empty() {
                    self.close();
                }
                continue;
            }
            let node = game.nodes[top.node];
            let ply = top.start.wrapping_add(top.i).wrapping_add(1);
            if !node.before.is_empty() {
                self.comments(node.before);
                let top = stack.last_mut().expect("the frame");
                top.number = true;
            }
            let top = stack.last_mut().expect("the frame");
            let number = ply.div_ceil(2);
            let prefix = if ply % 2 == 1 {
                decimal(number, b". ", &mut number_buf)
            } else if top.number {
                decimal(number, b"... ", &mut number_buf)
            } else {
                ""
            };
            let text = game.str(node.text);
            if text.is_empty() {
                let san = san_text(node.san);
                self.token(&[prefix, &san]);
            } else {
                self.token(&[prefix, text]);
            }
            let top = stack.last_mut().expect("the frame");
            top.number = false;
            for nag in Flat::items(&game.nags, node.nags) {
                let n = decimal(u32::from(nag.0), b"", &mut nag_buf[..3]);
                self.token(&["$", n]);
            }
            if !node.comments.is_empty() {
                self.comments(node.comments);
                let top = stack.last_mut().expect("the frame");
                top.number = true;
            }
            let top = stack.last_mut().expect("the frame");
            top.var = Some(node.vars.head);
        }
    }
}

/// `n` in decimal followed by `suffix`, in `buf` (long enough).
fn decimal<'b>(mut n: u32, suffix: &[u8], buf: &'b mut [u8]) -> &'b str {
    let end = buf.len();
    let mut i = end - suffix.len();
    buf[i..].copy_from_slice(suffix);
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[i..]).expect("ASCII digits")
}

/// Whether `word next` starts with a tag pair's beginning, `[Name "` (or may: the text ends too
/// soon to say), as the library's writer decides it.
fn tag_like(word: &str, next: &str) -> bool {
    let s = format!("{word} {next}");
    let s = s.as_bytes();
    s.first() == Some(&b'[') && is_tag_start(s) != Some(false)
}

/// Bytes that may appear in a tag name (the library lexer's set).
fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'#' | b'=' | b':' | b'-')
}

/// Whether a tag pair starts at `s[0] == b'['`: `[`, optional blanks, a name starting with a
/// letter, optional blanks, `"`; `None` when `s` ends before this can be decided (the library
/// lexer's rule).
fn is_tag_start(s: &[u8]) -> Option<bool> {
    let blank = |b: u8| b == b' ' || b == b'\t';
    let mut j = 1;
    while j < s.len() && blank(s[j]) {
        j += 1;
    }
    match s.get(j) {
        None => return None,
        Some(b) if b.is_ascii_alphabetic() => {}
        Some(_) => return Some(false),
    }
    while j < s.len() && is_name_byte(s[j]) {
        j += 1;
    }
    while j < s.len() && blank(s[j]) {
        j += 1;
    }
    match s.get(j) {
        None => None,
        Some(b'"') => Some(true),
        Some(_) => Some(false),
    }
}

/// Standard SAN for a move read without text (the library's `Node::new`).
fn san_text(san: kifu::pgn::San) -> String {
    kifu::pgn::Node::new(san).text.as_str().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals() {
        let mut b = [0u8; 16];
        assert_eq!(decimal(0, b". ", &mut b), "0. ");
        assert_eq!(decimal(4_294_967_295, b"... ", &mut b), "4294967295... ");
        let mut n = [0u8; 3];
        assert_eq!(decimal(255, b"", &mut n), "255");
        assert_eq!(decimal(7, b"", &mut n), "7");
    }

    #[test]
    fn tag_starts() {
        assert!(tag_like("[Event", "\"x\"]"));
        assert!(tag_like("[Event", ""));
        assert!(!tag_like("[%clk", "0:01:00]"));
        assert!(!tag_like("[1", "2]"));
    }
}
