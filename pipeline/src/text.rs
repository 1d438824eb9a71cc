//! Text from an input made safe to print.

use std::borrow::Cow;

/// Text from an input (a name, a member name, a message quoting it) made safe for a terminal:
/// control characters (C0, DEL, C1: escape sequences, newlines, carriage returns) written as
/// `\n`, `\x1b`, `\u{9b}`, so that no input can move the cursor, recolour the screen or forge a
/// line.
///
/// ```
/// assert_eq!(kifu_pipeline::shown("a\x1b[2Jb\n"), "a\\x1b[2Jb\\n");
/// assert_eq!(kifu_pipeline::shown("plain.pgn"), "plain.pgn");
/// ```
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x80 && c.is_control() => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}
