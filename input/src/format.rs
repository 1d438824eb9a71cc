//! What a stream holds: PGN or SGF, the library's one [`Format`] (its first bytes tell it:
//! [`Format::sniff`]; a name's extension: [`Format::from_extension`]).

pub use kifu::Format;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff_like_the_cli() {
        assert_eq!(Format::sniff(b"  \r\n(;"), Format::Sgf);
        assert_eq!(Format::sniff(b"\xFE\xFF\0("), Format::Sgf);
        assert_eq!(Format::sniff(b"\xEF\xBB\xBF[Event"), Format::Pgn);
        assert_eq!(Format::sniff(b"\0\0\0"), Format::Pgn);
        assert_eq!(Format::sniff(b"x("), Format::Pgn);
    }
}
