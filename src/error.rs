//! Diagnostics shared by both formats: severity and the located problem report.

use crate::position::Position;

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The input breaks a rule of the standard, but nothing was lost or guessed
    /// (for example bytes that are not UTF-8 in a tag value: they are kept as they are).
    Warning,
    /// Text that is not part of the format was met and skipped, or a structure was repaired
    /// (an unclosed variation closed, a comment cut at end of input).
    Error,
    /// The rest of the input could not be read (only I/O failures are fatal).
    Fatal,
}

impl Severity {
    /// `"warning"`, `"error"` or `"fatal"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
            Severity::Fatal => "fatal",
        }
    }
}

impl core::fmt::Display for Severity {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A located problem, as delivered to a visitor's `on_error`.
///
/// `K` is the format's error kind ([`crate::pgn::ErrorKind`], [`crate::sgf::ErrorKind`]), `A`
/// where in the game it happened (the last move played, [`crate::pgn::MoveRef`], for PGN; the
/// node, [`crate::sgf::NodeRef`], for SGF). The offending text is borrowed from the parser and
/// bounded: at most [`Diagnostic::TEXT_MAX`] bytes are kept, `truncated` says if more were seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagnostic<'a, K, A> {
    /// What went wrong.
    pub kind: K,
    /// How bad it is.
    pub severity: Severity,
    /// The offending input text, bounded (possibly empty, for example at end of input).
    pub text: &'a [u8],
    /// Whether `text` was cut to [`Diagnostic::TEXT_MAX`] bytes.
    pub truncated: bool,
    /// Where the offending text starts.
    pub pos: Position,
    /// Index of the game (0-based) in the stream.
    pub game: u64,
    /// Where in the game: for PGN the last move played before the problem, if any.
    pub at: A,
}

const TEXT_MAX: usize = 64;

impl<K, A> Diagnostic<'_, K, A> {
    /// The longest offending text a diagnostic carries.
    pub const TEXT_MAX: usize = TEXT_MAX;
}

/// A bounded copy of offending text, collected word by word for one diagnostic: at most
/// [`Diagnostic::TEXT_MAX`] bytes, and whether more were seen.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Excerpt {
    buf: [u8; TEXT_MAX],
    len: usize,
    /// More text was seen than kept.
    pub(crate) truncated: bool,
}

impl Excerpt {
    pub(crate) const EMPTY: Excerpt = Excerpt {
        buf: [0; TEXT_MAX],
        len: 0,
        truncated: false,
    };

    /// Appends `bytes`, as much as fits.
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        let n = bytes.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&bytes[..n]);
        self.len += n;
        if n < bytes.len() {
            self.truncated = true;
        }
    }

    /// The text kept.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

/// Writes the diagnostic's common part: `LINE:COLUMN: SEVERITY: KIND: `text`…`.
/// The one line every diagnostic of both formats is shown as (its `Display`, the DOMs' owned
/// errors, `kifu check`): `LINE:COLUMN: SEVERITY[ CODE]: MESSAGE[: `text`]`, then where in the
/// game (see the `Display` impls).
pub(crate) fn write_common<K: core::fmt::Display>(
    f: &mut core::fmt::Formatter<'_>,
    pos: Position,
    severity: Severity,
    code: Option<&str>,
    kind: &K,
    text: &[u8],
    truncated: bool,
) -> core::fmt::Result {
    write!(f, "{pos}: {severity}")?;
    if let Some(code) = code {
        write!(f, " {code}")?;
    }
    write!(f, ": {kind}")?;
    if !text.is_empty() || truncated {
        f.write_str(": `")?;
        for c in alloc::string::String::from_utf8_lossy(text).chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_debug())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        f.write_str(if truncated { "`…" } else { "`" })?;
    }
    Ok(())
}

/// One line: `LINE:COLUMN: SEVERITY: MESSAGE: `text` (game N, move M)`, the game counted from
/// 1, the move where one was played before the problem; control characters of the text are
/// escaped. A tool prefixes its file name (`FILE:`) to get the usual `FILE:LINE:COLUMN:` form.
///
/// ```
/// use kifu::{Control, pgn::{self, Error, Visitor}};
/// struct Lines(Vec<String>);
/// impl Visitor for Lines {
///     fn on_error(&mut self, e: &Error<'_>) -> Control {
///         self.0.push(format!("game.pgn:{e}"));
///         Control::Continue
///     }
/// }
/// let mut v = Lines(Vec::new());
/// pgn::parse(b"1. e4 e5 2. Nf3 } 1-0", &mut v);
/// assert!(v.0[0].starts_with("game.pgn:1:17: "));
/// assert!(v.0[0].ends_with("(game 1, move 2w)"));
/// ```
impl<K: core::fmt::Display> core::fmt::Display for Diagnostic<'_, K, Option<crate::pgn::MoveRef>> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write_common(
            f,
            self.pos,
            self.severity,
            None,
            &self.kind,
            self.text,
            self.truncated,
        )?;
        write!(f, " (game {}", self.game + 1)?;
        if let Some(at) = self.at {
            write!(f, ", move {at}")?;
        }
        f.write_str(")")
    }
}

/// One line: `LINE:COLUMN: SEVERITY CODE: MESSAGE: `text` (game N, node K (depth D))`, the code
/// SGFC's (`W35`), the game counted from 1, the node where the problem is inside a game tree;
/// control characters of the text are escaped. A tool prefixes its file name (`FILE:`) to get
/// the usual `FILE:LINE:COLUMN:` form.
impl core::fmt::Display for Diagnostic<'_, crate::sgf::ErrorKind, Option<crate::sgf::NodeRef>> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write_common(
            f,
            self.pos,
            self.severity,
            Some(self.kind.code()),
            &self.kind,
            self.text,
            self.truncated,
        )?;
        write!(f, " (game {}", self.game + 1)?;
        if let Some(at) = self.at {
            write!(f, ", {at}")?;
        }
        f.write_str(")")
    }
}

#[cfg(feature = "std")]
impl<K: core::fmt::Debug + core::fmt::Display> std::error::Error
    for Diagnostic<'_, K, Option<crate::pgn::MoveRef>>
{
}

#[cfg(feature = "std")]
impl std::error::Error for Diagnostic<'_, crate::sgf::ErrorKind, Option<crate::sgf::NodeRef>> {}

#[cfg(test)]
mod display_tests {
    extern crate std;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    struct Lines(Vec<String>);
    impl crate::pgn::Visitor for Lines {
        fn on_error(&mut self, e: &crate::pgn::Error<'_>) -> crate::Control {
            self.0.push(e.to_string());
            crate::Control::Continue
        }
    }
    impl crate::sgf::Visitor for Lines {
        fn on_error(&mut self, e: &crate::sgf::Error<'_>) -> crate::Control {
            self.0.push(e.to_string());
            crate::Control::Continue
        }
    }

    #[test]
    fn pgn_lines() {
        let mut v = Lines(Vec::new());
        crate::pgn::parse(b"1. e4 e5 2. Nf3 } 1-0", &mut v);
        assert_eq!(v.0.len(), 1, "{:?}", v.0);
        let l = &v.0[0];
        assert!(l.starts_with("1:17: "), "{l}");
        assert!(l.ends_with("(game 1, move 2w)"), "{l}");
        assert!(l.contains("`}`"), "{l}");
        assert!(!l.contains('\n'));
    }

    #[test]
    fn sgf_lines() {
        let mut v = Lines(Vec::new());
        crate::sgf::parse(b"(;GM[1]\n;B[aa]ZZ\n[x])", &mut v);
        assert!(!v.0.is_empty());
        for l in &v.0 {
            assert!(l.contains("(game 1"), "{l}");
            assert!(!l.contains('\n'), "{l}");
        }
    }

    #[cfg(feature = "std")]
    #[test]
    fn is_an_error() {
        fn takes(_: &dyn std::error::Error) {}
        let mut seen = false;
        struct One<'a>(&'a mut bool);
        impl crate::pgn::Visitor for One<'_> {
            fn on_error(&mut self, e: &crate::pgn::Error<'_>) -> crate::Control {
                takes(e);
                *self.0 = true;
                crate::Control::Continue
            }
        }
        crate::pgn::parse(b"1. e4 }", &mut One(&mut seen));
        assert!(seen);
    }
}
