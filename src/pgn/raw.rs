//! Undecoded views of tag values and comments, borrowed from the input.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

/// A tag value as written between the quotes, escapes not yet resolved.
///
/// ```text
/// [White "Kasparov, \"Garry\""]
///         ------------------   RawTag
/// ```
///
/// ```
/// use kifu::pgn::RawTag;
/// let raw = RawTag(br#"Kasparov, \"Garry\""#);
/// assert_eq!(raw.decode().as_ref(), br#"Kasparov, "Garry""#);
/// assert!(matches!(RawTag(b"plain").decode(), std::borrow::Cow::Borrowed(_)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawTag<'a>(pub &'a [u8]);

impl<'a> RawTag<'a> {
    /// The bytes as written.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The value with `\"` and `\\` resolved. Borrows (allocates nothing) when there is no
    /// backslash; a backslash before any other byte is kept as written.
    pub fn decode(&self) -> Cow<'a, [u8]> {
        if memchr::memchr(b'\\', self.0).is_none() {
            return Cow::Borrowed(self.0);
        }
        let mut out = Vec::with_capacity(self.0.len());
        let mut i = 0;
        while i < self.0.len() {
            let b = self.0[i];
            if b == b'\\' && matches!(self.0.get(i + 1), Some(b'"') | Some(b'\\')) {
                out.push(self.0[i + 1]);
                i += 2;
            } else {
                out.push(b);
                i += 1;
            }
        }
        Cow::Owned(out)
    }

    /// [`decode`](Self::decode), then UTF-8 with each invalid sequence replaced by U+FFFD.
    /// Borrows when the value is valid UTF-8 without escapes.
    pub fn decode_utf8_lossy(&self) -> Cow<'a, str> {
        match self.decode() {
            Cow::Borrowed(b) => crate::utf8::lossy(b),
            Cow::Owned(v) => Cow::Owned(match String::from_utf8(v) {
                Ok(s) => s,
                Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
            }),
        }
    }
}

impl core::fmt::Debug for RawTag<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RawTag({:?})", String::from_utf8_lossy(self.0))
    }
}

/// A comment's text as written: between the braces of `{…}`, after the `;` or `%` of a line
/// comment. Not trimmed.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawComment<'a>(pub &'a [u8]);

impl<'a> RawComment<'a> {
    /// The bytes as written.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The text as UTF-8, each invalid sequence replaced by U+FFFD; borrows when valid.
    pub fn to_str_lossy(&self) -> Cow<'a, str> {
        crate::utf8::lossy(self.0)
    }
}

impl core::fmt::Debug for RawComment<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RawComment({:?})", String::from_utf8_lossy(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_escapes() {
        assert_eq!(RawTag(br#"a\\b\"c\x"#).decode().as_ref(), br#"a\b"c\x"#);
        assert_eq!(RawTag(br"trailing\").decode().as_ref(), br"trailing\");
        assert!(matches!(RawTag(b"no escapes").decode(), Cow::Borrowed(_)));
        assert_eq!(RawTag(b"caf\xe9").decode_utf8_lossy(), "caf\u{fffd}");
    }
}
