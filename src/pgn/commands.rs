//! Comment commands: the de facto `[%name args]` data inside PGN comments.

use alloc::borrow::Cow;
use alloc::string::String;
use core::time::Duration;

use super::san::Square;

/// One command of a comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    /// `[%clk h:mm:ss(.f)]`: the clock time left after the move.
    Clock(Duration),
    /// `[%emt h:mm:ss(.f)]` (or bare seconds): the time the move took.
    Elapsed(Duration),
    /// `[%eval …]`: an evaluation.
    Eval(Eval),
    /// `[%csl …]`: coloured squares.
    Squares(Squares<'a>),
    /// `[%cal …]`: coloured arrows.
    Arrows(Arrows<'a>),
    /// Any other command, or a known one whose arguments do not read, as written (`args`
    /// trimmed).
    Other {
        /// The name, without the `%`.
        name: &'a str,
        /// The arguments.
        args: &'a str,
    },
}

/// An evaluation, `[%eval 0.31]`, `[%eval #-3]`, `[%eval 0.31,20]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Eval {
    /// The score, from White's point of view.
    pub score: Score,
    /// The search depth, when written (`,20`).
    pub depth: Option<u32>,
}

/// A score: centipawns, or mate in N moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Hundredths of a pawn (`0.31` is 31; digits beyond the second decimal are dropped).
    Centipawns(i32),
    /// Mate in this many moves; negative when Black mates (`#-3`).
    Mate(i32),
}

/// A markup colour of `%csl` and `%cal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// `R`
    Red,
    /// `G`
    Green,
    /// `Y`
    Yellow,
    /// `B`
    Blue,
    /// Any other letter, as written.
    Other(u8),
}

impl Color {
    fn from_byte(b: u8) -> Color {
        match b {
            b'R' => Color::Red,
            b'G' => Color::Green,
            b'Y' => Color::Yellow,
            b'B' => Color::Blue,
            _ => Color::Other(b),
        }
    }
}

/// A coloured square of `%csl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Highlight {
    /// Its colour.
    pub color: Color,
    /// The square.
    pub square: Square,
}

/// A coloured arrow of `%cal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// Its colour.
    pub color: Color,
    /// Where it starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
}

/// The squares of a `%csl` command, read as they are iterated; items that do not read are
/// skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Squares<'a> {
    rest: &'a str,
}

/// The arrows of a `%cal` command, read as they are iterated; items that do not read are skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrows<'a> {
    rest: &'a str,
}

fn square(b: &[u8]) -> Option<Square> {
    match b {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square {
            file: f - b'a',
            rank: r - b'1',
        }),
        _ => None,
    }
}

/// The next comma-separated item of `rest`, trimmed.
fn next_item<'a>(rest: &mut &'a str) -> Option<&'a str> {
    while !rest.is_empty() {
        let (item, tail) = rest.split_once(',').unwrap_or((rest, ""));
        *rest = tail;
        let item = item.trim();
        if !item.is_empty() {
            return Some(item);
        }
    }
    None
}

fn highlight(item: &str) -> Option<Highlight> {
    match item.as_bytes() {
        [c, sq @ ..] => Some(Highlight {
            color: Color::from_byte(*c),
            square: square(sq)?,
        }),
        _ => None,
    }
}

fn arrow(item: &str) -> Option<Arrow> {
    match item.as_bytes() {
        [c, a, b, d, e] => Some(Arrow {
            color: Color::from_byte(*c),
            from: square(&[*a, *b])?,
            to: square(&[*d, *e])?,
        }),
        _ => None,
    }
}

impl Iterator for Squares<'_> {
    type Item = Highlight;
    fn next(&mut self) -> Option<Highlight> {
        loop {
            if let Some(h) = highlight(next_item(&mut self.rest)?) {
                return Some(h);
            }
        }
    }
}

impl Iterator for Arrows<'_> {
    type Item = Arrow;
    fn next(&mut self) -> Option<Arrow> {
        loop {
            if let Some(a) = arrow(next_item(&mut self.rest)?) {
                return Some(a);
            }
        }
    }
}

/// `h:mm:ss(.fff)`, `mm:ss`, or bare seconds, with an optional fraction.
fn duration(s: &str) -> Option<Duration> {
    // one pass over the bytes (every move of a lichess game has a clock): `H:MM:SS`, `M:SS`
    // or `S`, each part digits, then `.` and fractional digits
    let b = s.as_bytes();
    let (mut secs, mut part, mut digits, mut colons) = (0u64, 0u64, 0usize, 0);
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => {
                part = part.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
                digits += 1;
            }
            b':' if digits > 0 && colons < 2 => {
                secs = secs.checked_mul(60)?.checked_add(part)?;
                (part, digits) = (0, 0);
                colons += 1;
            }
            b'.' => break,
            _ => return None,
        }
        i += 1;
    }
    if digits == 0 {
        return None;
    }
    let secs = secs.checked_mul(60)?.checked_add(part)?;
    let mut nanos = 0u32;
    if let Some(f) = b.get(i + 1..) {
        if f.is_empty() || !f.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let mut scale = 100_000_000;
        for d in f.iter().take(9) {
            nanos += u32::from(d - b'0') * scale;
            scale /= 10;
        }
    }
    Some(Duration::new(secs, nanos))
}

fn eval(s: &str) -> Option<Eval> {
    let (score, depth) = match s.split_once(',') {
        Some((a, d)) => (a.trim(), Some(d.trim().parse::<u32>().ok()?)),
        None => (s, None),
    };
    let score = if let Some(m) = score.strip_prefix('#') {
        Score::Mate(m.parse::<i32>().ok()?)
    } else {
        let (neg, digits) = match score.as_bytes().first()? {
            b'-' => (true, &score[1..]),
            b'+' => (false, &score[1..]),
            _ => (false, score),
        };
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if (int.is_empty() && frac.is_empty())
            || !int.bytes().all(|b| b.is_ascii_digit())
            || !frac.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let int: i32 = if int.is_empty() { 0 } else { int.parse().ok()? };
        let mut f = frac.bytes().chain(core::iter::repeat(b'0')).take(2);
        let hundredths = i32::from(f.next()? - b'0') * 10 + i32::from(f.next()? - b'0');
        let cp = int.checked_mul(100)?.checked_add(hundredths)?;
        Score::Centipawns(if neg { -cp } else { cp })
    };
    Some(Eval { score, depth })
}

impl<'a> Command<'a> {
    /// Reads one command from its name (without `%`) and arguments.
    pub fn parse(name: &'a str, args: &'a str) -> Command<'a> {
        let args = args.trim();
        let known = match name {
            "clk" => duration(args).map(Command::Clock),
            "emt" => duration(args).map(Command::Elapsed),
            "eval" => eval(args).map(Command::Eval),
            "csl" => Some(Command::Squares(Squares { rest: args })),
            "cal" => Some(Command::Arrows(Arrows { rest: args })),
            _ => None,
        };
        known.unwrap_or(Command::Other { name, args })
    }
}

/// The commands of a comment's text, in order. Allocates nothing.
///
/// Clocks, evaluations and board markup travel inside comments
/// (`{[%clk 0:09:59.9] [%eval 0.31] a good move}`), as the PGN Specification Supplement (2001)
/// describes and lichess, chess.com and ChessBase write them. [`Commands`] reads them from a
/// comment's text without allocating: each [`Command`] borrows from the text, and the square and
/// arrow lists of `%csl` / `%cal` are iterators over it.
///
/// | command | meaning | yields |
/// |---|---|---|
/// | `[%clk 1:02:03.4]` | clock time left after the move | [`Command::Clock`] |
/// | `[%emt 0:00:07]` | time the move took | [`Command::Elapsed`] |
/// | `[%eval 0.31]`, `[%eval #-3]`, `[%eval 0.31,20]` | evaluation (pawns or mate in N, optional depth) | [`Command::Eval`] |
/// | `[%csl Ra1,Gb2]` | coloured squares | [`Command::Squares`] |
/// | `[%cal Ge2e4,Rd8d1]` | coloured arrows | [`Command::Arrows`] |
/// | anything else, or a known command whose arguments do not read | | [`Command::Other`] |
///
/// ```
/// use kifu::pgn::{Command, Commands, Eval, Score, strip_commands};
///
/// let text = "[%clk 0:09:59.9][%eval #-3] White is toast [%cal Ge2e4,Rd8d1] [%timestamp 1]";
/// let mut cmds = Commands::new(text);
/// assert!(matches!(cmds.next(), Some(Command::Clock(d)) if d.as_millis() == 599_900));
/// assert_eq!(cmds.next(), Some(Command::Eval(Eval { score: Score::Mate(-3), depth: None })));
/// let Some(Command::Arrows(arrows)) = cmds.next() else { panic!() };
/// let arrows: Vec<String> = arrows.map(|a| format!("{:?} {}{}", a.color, a.from, a.to)).collect();
/// assert_eq!(arrows, ["Green e2e4", "Red d8d1"]);
/// assert_eq!(cmds.next(), Some(Command::Other { name: "timestamp", args: "1" }));
/// assert_eq!(cmds.next(), None);
/// assert_eq!(strip_commands(text), "White is toast");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Commands<'a> {
    rest: &'a str,
}

impl<'a> Commands<'a> {
    /// The commands of `text`.
    pub fn new(text: &'a str) -> Commands<'a> {
        Commands { rest: text }
    }
}

/// The next `[%…]` of `s`: (start, end, name, args); `end` is just after the `]`.
fn find(s: &str) -> Option<(usize, usize, &str, &str)> {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(p) = memchr::memchr(b'[', &b[from..]) {
        let start = from + p;
        if b.get(start + 1) == Some(&b'%') {
            if let Some(q) = memchr::memchr(b']', &b[start..]) {
                let inner = &s[start + 2..start + q];
                // (an ASCII byte always starts a character: the index is a boundary)
                let (name, args) = match inner.bytes().position(|c| c.is_ascii_whitespace()) {
                    Some(k) => (&inner[..k], &inner[k..]),
                    None => (inner, ""),
                };
                if !name.is_empty() && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
                {
                    return Some((start, start + q + 1, name, args));
                }
            } else {
                return None;
            }
        }
        from = start + 1;
    }
    None
}

impl<'a> Iterator for Commands<'a> {
    type Item = Command<'a>;
    fn next(&mut self) -> Option<Command<'a>> {
        let (_, end, name, args) = find(self.rest)?;
        self.rest = &self.rest[end..];
        Some(Command::parse(name, args))
    }
}

/// The comment text without its commands: the text between them, each piece trimmed, joined by
/// one space. Borrows when the text holds no command (trimmed then too).
///
/// ```
/// use kifu::pgn::strip_commands;
/// assert_eq!(strip_commands(" [%clk 0:01:00] good [%eval 1.2] move "), "good move");
/// assert_eq!(strip_commands("[%clk 0:01:00]"), "");
/// assert!(matches!(strip_commands(" plain "), std::borrow::Cow::Borrowed("plain")));
/// ```
pub fn strip_commands(text: &str) -> Cow<'_, str> {
    if find(text).is_none() {
        return Cow::Borrowed(text.trim());
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let (piece, next) = match find(rest) {
            Some((start, end, _, _)) => (&rest[..start], Some(end)),
            None => (rest, None),
        };
        let piece = piece.trim();
        if !piece.is_empty() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(piece);
        }
        match next {
            Some(end) => rest = &rest[end..],
            None => break,
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use alloc::format;

    /// The first implementation (split on `.` and `:`), the reference for the one-pass one.
    fn duration_split(s: &str) -> Option<Duration> {
        let (whole, frac) = match s.split_once('.') {
            Some((w, f)) => (w, Some(f)),
            None => (s, None),
        };
        let mut secs: u64 = 0;
        let mut parts = 0;
        for part in whole.split(':') {
            parts += 1;
            if parts > 3 || part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let v: u64 = part.parse().ok()?;
            secs = secs.checked_mul(60)?.checked_add(v)?;
        }
        let mut nanos = 0u32;
        if let Some(f) = frac {
            if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let mut scale = 100_000_000;
            for d in f.bytes().take(9) {
                nanos += u32::from(d - b'0') * scale;
                scale /= 10;
            }
        }
        Some(Duration::new(secs, nanos))
    }

    #[test]
    fn durations_read_as_the_split_reading() {
        let parts = [
            "",
            "0",
            "7",
            "09",
            "59",
            "123",
            "18446744073709551615",
            "99999999999999999999",
        ];
        let seps = ["", ":", ".", "::", ":.", "..", "x", " "];
        let mut n = 0;
        for a in parts {
            for s1 in seps {
                for b in parts {
                    for s2 in seps {
                        for c in ["", "0", "5", "123456789012", "1a"] {
                            let text = format!("{a}{s1}{b}{s2}{c}");
                            assert_eq!(duration(&text), duration_split(&text), "{text:?}");
                            n += 1;
                        }
                    }
                }
            }
        }
        assert!(n > 10_000);
        assert_eq!(
            duration("1:02:03.5"),
            Some(Duration::new(3723, 500_000_000))
        );
        assert_eq!(duration("0:03:00"), Some(Duration::new(180, 0)));
        assert_eq!(duration("1:2:3:4"), None);
    }
    use super::*;
    use alloc::vec::Vec;

    fn one(text: &str) -> Command<'_> {
        let mut c = Commands::new(text);
        let first = c.next().expect("a command");
        assert!(c.next().is_none());
        first
    }

    #[test]
    fn clocks() {
        let ms = |t| match one(t) {
            Command::Clock(d) | Command::Elapsed(d) => d.as_millis(),
            other => panic!("{other:?}"),
        };
        assert_eq!(ms("[%clk 1:02:03.4]"), 3_723_400);
        assert_eq!(ms("{[%clk 00:01:00]}"), 60_000);
        assert_eq!(ms("[%emt 0]"), 0);
        assert_eq!(ms("[%emt 0:00:07.25]"), 7_250);
        assert_eq!(
            one("[%clk 1:x]"),
            Command::Other {
                name: "clk",
                args: "1:x"
            }
        );
    }

    #[test]
    fn evals() {
        let e = |t| match one(t) {
            Command::Eval(e) => e,
            other => panic!("{other:?}"),
        };
        assert_eq!(e("[%eval 0.31]").score, Score::Centipawns(31));
        assert_eq!(e("[%eval -1.5]").score, Score::Centipawns(-150));
        assert_eq!(e("[%eval -0.05]").score, Score::Centipawns(-5));
        assert_eq!(e("[%eval .5]").score, Score::Centipawns(50));
        assert_eq!(e("[%eval +12]").score, Score::Centipawns(1200));
        assert_eq!(e("[%eval #-3]").score, Score::Mate(-3));
        assert_eq!(
            e("[%eval 0.31,20]"),
            Eval {
                score: Score::Centipawns(31),
                depth: Some(20)
            }
        );
        assert!(matches!(one("[%eval abc]"), Command::Other { .. }));
    }

    #[test]
    fn markup() {
        let Command::Squares(s) = one("[%csl Ra1, Gb2,bad,Yh8]") else {
            panic!()
        };
        let s: Vec<_> = s.map(|h| (h.color, h.square.file, h.square.rank)).collect();
        assert_eq!(
            s,
            [
                (Color::Red, 0, 0),
                (Color::Green, 1, 1),
                (Color::Yellow, 7, 7)
            ]
        );
        let Command::Arrows(a) = one("[%cal Ge2e4,Xa1h8]") else {
            panic!()
        };
        assert_eq!(a.count(), 2);
    }

    #[test]
    fn not_commands() {
        assert_eq!(Commands::new("[ %clk 1] [] [%] [%clk 1").count(), 0);
        assert_eq!(strip_commands("a [b] c"), "a [b] c");
    }
}
