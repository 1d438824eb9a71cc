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

impl<K: core::fmt::Display, A> Diagnostic<'_, K, Option<A>> {
    /// Writes the whole line of a format's `Display`: the common part, then
    /// ` (game N[, AT_PREFIX AT])`, the game counted from 1; `code` is the format's code of the
    /// kind, if it has codes. The formats' `Display` impls call this.
    pub(crate) fn write_line(
        &self,
        f: &mut core::fmt::Formatter<'_>,
        code: Option<&str>,
        at_prefix: &str,
    ) -> core::fmt::Result
    where
        A: core::fmt::Display,
    {
        write_common(
            f,
            self.pos,
            self.severity,
            code,
            &self.kind,
            self.text,
            self.truncated,
        )?;
        write!(f, " (game {}", self.game + 1)?;
        if let Some(at) = &self.at {
            write!(f, ", {at_prefix}{at}")?;
        }
        f.write_str(")")
    }
}
