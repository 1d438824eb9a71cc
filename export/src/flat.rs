//! One PGN game held flat while its events arrive: every text in one reused string, the move
//! tree as nodes linked by index in reused vectors. It has the shape of the library's
//! [`kifu::pgn::Game`] (the same tags, nodes, NAGs, comments, variations and errors, placed by
//! the same rules as `GameBuilder` places them), without an allocation per game once the
//! vectors have grown: the `games` table's visitor builds one, writes its row, and clears it.

use kifu::pgn::{MoveRef, Nag, Outcome, San};

/// No item: the end of a linked list, or a line without moves.
pub(crate) const NONE: usize = usize::MAX;

/// A text of the game: a byte range of [`Flat::text`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// A linked list of items (NAGs, comments, variations) by index, kept in input order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct List {
    pub(crate) head: usize,
    tail: usize,
}

impl List {
    pub(crate) const EMPTY: List = List {
        head: NONE,
        tail: NONE,
    };

    pub(crate) fn is_empty(&self) -> bool {
        self.head == NONE
    }
}

/// An item of a list: a value and the index of the next item.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Item<T> {
    pub(crate) value: T,
    pub(crate) next: usize,
}

/// Appends `value` to `list`, its items kept in `items`.
fn push<T>(items: &mut Vec<Item<T>>, list: &mut List, value: T) {
    let k = items.len();
    items.push(Item { value, next: NONE });
    if list.tail == NONE {
        list.head = k;
    } else {
        items[list.tail].next = k;
    }
    list.tail = k;
}

/// Moves the items of `from` to the end of `to` (`from` is left empty).
fn append<T>(items: &mut [Item<T>], to: &mut List, from: &mut List) {
    if from.is_empty() {
        return;
    }
    if to.tail == NONE {
        to.head = from.head;
    } else {
        items[to.tail].next = from.head;
    }
    to.tail = from.tail;
    *from = List::EMPTY;
}

/// A move of the tree (the library's `Node`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FNode {
    pub(crate) san: San,
    /// The move as written (U+FFFD for bytes that are not UTF-8).
    pub(crate) text: Span,
    pub(crate) nags: List,
    /// Comments before the move (the first move of a variation only).
    pub(crate) before: List,
    pub(crate) comments: List,
    /// The variations that replace it.
    pub(crate) vars: List,
    /// The next move of its line.
    pub(crate) next: usize,
}

/// A variation: its first move (or [`NONE`]) and, for one without moves, its comments.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FVar {
    pub(crate) first: usize,
    pub(crate) comments: List,
}

/// A problem of the game (the library's `GameError`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FError {
    pub(crate) kind: kifu::pgn::ErrorKind,
    pub(crate) severity: kifu::Severity,
    pub(crate) text: Span,
    pub(crate) pos: kifu::Position,
    pub(crate) at: Option<MoveRef>,
}

/// A line being read: the main line, or an open variation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpenLine {
    pub(crate) first: usize,
    pub(crate) last: usize,
    /// Comments before its first move.
    pub(crate) before: List,
}

impl OpenLine {
    const EMPTY: OpenLine = OpenLine {
        first: NONE,
        last: NONE,
        before: List::EMPTY,
    };
}

/// The game (or, between games, the problems waiting for the next one).
#[derive(Debug, Default)]
pub(crate) struct Flat {
    /// Every text of the game, one after the other.
    pub(crate) text: String,
    /// Tag pairs `(name, value)`, in input order.
    pub(crate) tags: Vec<(Span, Span)>,
    pub(crate) nodes: Vec<FNode>,
    pub(crate) nags: Vec<Item<Nag>>,
    pub(crate) comments: Vec<Item<Span>>,
    pub(crate) vars: Vec<Item<FVar>>,
    pub(crate) errors: Vec<FError>,
    /// The open lines: the main line, then one per open variation.
    pub(crate) lines: Vec<OpenLine>,
    /// After the game's end: the main line's first move and the game comment.
    pub(crate) main: Option<OpenLine>,
    pub(crate) result: Option<Outcome>,
}

impl Flat {
    /// Empties the game (the vectors keep their room).
    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.tags.clear();
        self.nodes.clear();
        self.nags.clear();
        self.comments.clear();
        self.vars.clear();
        self.errors.clear();
        self.lines.clear();
        self.main = None;
        self.result = None;
    }

    /// The text of `s`.
    pub(crate) fn str(&self, s: Span) -> &str {
        &self.text[s.start..s.end]
    }

    /// Adds a text.
    pub(crate) fn add(&mut self, s: &str) -> Span {
        let start = self.text.len();
        self.text.push_str(s);
        Span {
            start,
            end: self.text.len(),
        }
    }

    /// The line being read (made when there is none, as the library's builder does).
    pub(crate) fn line(&mut self) -> &mut OpenLine {
        if self.lines.is_empty() {
            self.lines.push(OpenLine::EMPTY);
        }
        let n = self.lines.len();
        &mut self.lines[n - 1]
    }

    /// Opens a line (the game's main line, or a variation).
    pub(crate) fn open_line(&mut self) {
        self.lines.push(OpenLine::EMPTY);
    }

    /// Whether the line being read has a move.
    pub(crate) fn line_has_move(&mut self) -> bool {
        self.line().last != NONE
    }

    /// Adds a move to the line being read; the comments before the first move of a variation
    /// become that move's.
    pub(crate) fn push_move(&mut self, san: San, text: Span, in_variation: bool) {
        let k = self.nodes.len();
        let line = self.line();
        let mut before = List::EMPTY;
        if in_variation && line.last == NONE {
            before = core::mem::replace(&mut line.before, List::EMPTY);
        }
        let prev = line.last;
        line.last = k;
        if prev == NONE {
            line.first = k;
        }
        self.nodes.push(FNode {
            san,
            text,
            nags: List::EMPTY,
            before,
            comments: List::EMPTY,
            vars: List::EMPTY,
            next: NONE,
        });
        if prev != NONE {
            self.nodes[prev].next = k;
        }
    }

    /// Adds a NAG to the last move of the line being read (which has one).
    pub(crate) fn push_nag(&mut self, nag: Nag) {
        let last = self.line().last;
        let node = &mut self.nodes[last];
        push(&mut self.nags, &mut node.nags, nag);
    }

    /// Adds a comment after the last move of the line being read, or before its first.
    pub(crate) fn push_comment(&mut self, text: Span) {
        let line = self.line();
        let last = line.last;
        if last == NONE {
            let mut before = line.before;
            push(&mut self.comments, &mut before, text);
            self.line().before = before;
        } else {
            let node = &mut self.nodes[last];
            push(&mut self.comments, &mut node.comments, text);
        }
    }

    /// Makes `line`, a variation just closed, a variation of the last move of the line being
    /// read (which has one).
    pub(crate) fn attach_variation(&mut self, mut line: OpenLine) {
        let mut comments = List::EMPTY;
        if line.first == NONE {
            append(&mut self.comments, &mut comments, &mut line.before);
        }
        let var = FVar {
            first: line.first,
            comments,
        };
        let parent = self.line().last;
        let node = &mut self.nodes[parent];
        push(&mut self.vars, &mut node.vars, var);
    }

    /// Ends the game: its main line is kept as [`Flat::main`].
    pub(crate) fn end(&mut self) {
        self.main = Some(self.lines.first().copied().unwrap_or(OpenLine::EMPTY));
        self.lines.clear();
    }

    /// The main line's moves, in order.
    pub(crate) fn main_line(&self) -> impl Iterator<Item = &FNode> + '_ {
        let mut k = self.main.map_or(NONE, |m| m.first);
        core::iter::from_fn(move || {
            let node = self.nodes.get(k)?;
            k = node.next;
            Some(node)
        })
    }

    /// The texts of a list of comments.
    pub(crate) fn comment_texts(&self, list: List) -> impl Iterator<Item = &str> + '_ {
        let mut k = list.head;
        core::iter::from_fn(move || {
            let item = self.comments.get(k)?;
            k = item.next;
            Some(self.str(item.value))
        })
    }

    /// The items of a list of `items`.
    pub(crate) fn items<T: Copy>(items: &[Item<T>], list: List) -> impl Iterator<Item = T> + '_ {
        let mut k = list.head;
        core::iter::from_fn(move || {
            let item = items.get(k)?;
            k = item.next;
            Some(item.value)
        })
    }

    /// The value of the first tag named `name`.
    pub(crate) fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| self.str(*n) == name)
            .map(|(_, v)| self.str(*v))
    }

    /// The result: the movetext's termination marker, else the `Result` tag when it holds one,
    /// else `*` (the library's `Game::termination`).
    pub(crate) fn termination(&self) -> Outcome {
        self.result
            .or_else(|| {
                self.tag("Result")
                    .and_then(|r| Outcome::parse(r.as_bytes()))
            })
            .unwrap_or(Outcome::Unknown)
    }

    /// The ply before the first move, from the `FEN` tag (the library's `Game::starting_ply`).
    pub(crate) fn starting_ply(&self) -> u32 {
        let Some(fen) = self.tag("FEN") else { return 0 };
        let mut fields = fen.split_ascii_whitespace();
        let black = fields.nth(1) == Some("b");
        let number = fields
            .nth(3)
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| (1..1 << 20).contains(n))
            .unwrap_or(1);
        2 * (number - 1) + u32::from(black)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn san(s: &str) -> San {
        San::parse(s.as_bytes()).expect("a move")
    }

    /// `1. e4 {a} {b} (1. d4 {c}) ({only}) e5`, built as the visitor builds it.
    fn game() -> Flat {
        let mut f = Flat::default();
        f.open_line();
        let t = f.add("e4");
        f.push_move(san("e4"), t, false);
        let a = f.add("a");
        f.push_comment(a);
        let b = f.add("b");
        f.push_comment(b);
        f.open_line();
        let t = f.add("d4");
        f.push_move(san("d4"), t, true);
        let c = f.add("c");
        f.push_comment(c);
        let var = f.lines.pop().unwrap();
        f.attach_variation(var);
        f.open_line();
        let only = f.add("only");
        f.push_comment(only);
        let var = f.lines.pop().unwrap();
        f.attach_variation(var);
        let t = f.add("e5");
        f.push_move(san("e5"), t, false);
        f.push_nag(Nag(1));
        f.end();
        f
    }

    #[test]
    fn lines_lists_and_texts() {
        let f = game();
        let main: Vec<&str> = f.main_line().map(|n| f.str(n.text)).collect();
        assert_eq!(main, ["e4", "e5"]);
        let e4 = f.main_line().next().unwrap();
        assert_eq!(f.comment_texts(e4.comments).collect::<Vec<_>>(), ["a", "b"]);
        let vars: Vec<FVar> = Flat::items(&f.vars, e4.vars).collect();
        assert_eq!(vars.len(), 2);
        assert_eq!(f.str(f.nodes[vars[0].first].text), "d4");
        assert_eq!(vars[1].first, NONE);
        assert_eq!(
            f.comment_texts(vars[1].comments).collect::<Vec<_>>(),
            ["only"]
        );
        let e5 = f.main_line().nth(1).unwrap();
        assert_eq!(Flat::items(&f.nags, e5.nags).collect::<Vec<_>>(), [Nag(1)]);
    }

    #[test]
    fn clear_keeps_nothing() {
        let mut f = game();
        f.clear();
        assert!(f.text.is_empty() && f.nodes.is_empty() && f.comments.is_empty());
        assert_eq!(f.main_line().count(), 0);
        assert_eq!(f.termination(), Outcome::Unknown);
    }

    #[test]
    fn result_and_start() {
        let mut f = Flat::default();
        let (n, v) = (f.add("Result"), f.add("0-1"));
        f.tags.push((n, v));
        assert_eq!(f.termination(), Outcome::BlackWins);
        f.result = Some(Outcome::Draw);
        assert_eq!(f.termination(), Outcome::Draw);
        assert_eq!(f.starting_ply(), 0);
        let (n, v) = (f.add("FEN"), f.add("8/8/8/8/8/8/8/k6K b - - 0 14"));
        f.tags.push((n, v));
        assert_eq!(f.starting_ply(), 27);
    }
}
