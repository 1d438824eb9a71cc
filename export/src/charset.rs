//! The charset of SGF text, chosen per game tree as `kifu json` chooses it.

use std::borrow::Cow;

use kifu::encoding::{self, Encoding};
use kifu::sgf;

/// How the text of SGF values is decoded to the tables' UTF-8 strings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Charset {
    /// Per game tree: the charset `CA` names when it decodes the text, else UTF-8 when the
    /// text is valid UTF-8, else a guess from the text (`kifu::encoding::Charset`), as `kifu
    /// json` does.
    #[default]
    Auto,
    /// Always this encoding.
    Fixed(&'static Encoding),
}

impl Charset {
    /// `auto`, or a charset label (`GB2312`, `Shift_JIS`, `UTF-8`, …); `None` for an unknown
    /// label.
    ///
    /// ```
    /// use kifu_export::Charset;
    /// assert_eq!(Charset::by_name("auto"), Some(Charset::Auto));
    /// assert!(matches!(Charset::by_name("gbk"), Some(Charset::Fixed(e)) if e.name() == "GBK"));
    /// assert_eq!(Charset::by_name("klingon"), None);
    /// ```
    pub fn by_name(name: &str) -> Option<Charset> {
        if name.eq_ignore_ascii_case("auto") {
            return Some(Charset::Auto);
        }
        encoding::for_charset(name.as_bytes()).map(Charset::Fixed)
    }

    /// The encoding of `tree`'s text.
    pub fn encoding_of(self, tree: &sgf::GameTree) -> &'static Encoding {
        let Charset::Auto = self else {
            let Charset::Fixed(e) = self else {
                unreachable!()
            };
            return e;
        };
        let mut charset = encoding::Charset::default();
        for (i, node) in tree.nodes().enumerate() {
            for prop in node.properties() {
                for value in prop.values() {
                    let text = value.decoded(prop.name());
                    if i == 0 && prop.name() == b"CA" {
                        charset.declare(&text);
                    }
                    charset.sample(&text);
                }
            }
        }
        charset.encoding()
    }
}

/// A value of property `name` as text: escapes resolved as its FF\[4\] type says, then decoded.
pub(crate) fn text<'a>(
    value: sgf::RawValue<'a>,
    name: &[u8],
    enc: &'static Encoding,
) -> Cow<'a, str> {
    match value.decoded(name) {
        Cow::Borrowed(b) => encoding::decode(b, enc),
        Cow::Owned(b) => Cow::Owned(encoding::decode(&b, enc).into_owned()),
    }
}
