//! The output of the shortcuts (a comment written whole, characters counted as bytes when
//! ASCII, tag values copied in runs, numbers pushed digit by digit), pinned.
use super::*;
use crate::pgn::{Games, Node, Outcome};
use alloc::vec::Vec;

fn body(w: Writer, pgn: &str) -> String {
    let game = Games::new(pgn.as_bytes()).next().unwrap();
    let mut out = String::new();
    w.write_movetext(&game, &mut out);
    out
}

#[test]
fn usual_comments_whole_or_word_by_word() {
    let pgn = "1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:02:59] } 2. Nf3 { [%clk 0:02:58] } *";
    assert_eq!(
        body(Writer::new(), pgn),
        "1. e4 {[%clk 0:03:00]} 1... e5 {[%clk 0:02:59]} 2. Nf3 {[%clk 0:02:58]} *"
    );
    // where the comment does not fit, the line breaks before it: never inside the
    // command, and never past the width unless the command alone is wider
    assert_eq!(
        body(Writer::new().line_width(20), pgn),
        "1. e4\n{[%clk 0:03:00]}\n1... e5\n{[%clk 0:02:59]}\n2. Nf3\n{[%clk 0:02:58]} *"
    );
    assert_eq!(
        body(Writer::new().line_width(28), pgn),
        "1. e4 {[%clk 0:03:00]}\n1... e5 {[%clk 0:02:59]}\n2. Nf3 {[%clk 0:02:58]} *"
    );
    assert_eq!(
        body(Writer::new().line_width(10), pgn),
        "1. e4\n{[%clk 0:03:00]}\n1... e5\n{[%clk 0:02:59]}\n2. Nf3\n{[%clk 0:02:58]}\n*"
    );
    assert_eq!(
        body(Writer::new().line_width(12), pgn),
        "1. e4\n{[%clk 0:03:00]}\n1... e5\n{[%clk 0:02:59]}\n2. Nf3\n{[%clk 0:02:58]}\n*"
    );
    // a command among other words: the line breaks before the command where all of it
    // does not fit (its first word would), and words around it wrap as usual
    let mixed = "1. e4 {a fine move [%clk 0:03:00] and more} *";
    assert_eq!(
        body(Writer::new().line_width(25), mixed),
        "1. e4 {a fine move\n[%clk 0:03:00] and more}\n*"
    );
    assert_eq!(
        body(Writer::new().line_width(31), mixed),
        "1. e4 {a fine move\n[%clk 0:03:00] and more} *"
    );
    assert_eq!(
        body(Writer::new().line_width(33), mixed),
        "1. e4 {a fine move [%clk 0:03:00]\nand more} *"
    );
    // a command that ends the comment counts its `}`
    let last = "1. e4 {fine [%clk 0:03:00]} *";
    assert_eq!(
        body(Writer::new().line_width(26), last),
        "1. e4 {fine\n[%clk 0:03:00]} *"
    );
    assert_eq!(
        body(Writer::new().line_width(27), last),
        "1. e4 {fine [%clk 0:03:00]}\n*"
    );
    // a command wider than the line gets a line of its own, past the width
    assert_eq!(
        body(Writer::new().line_width(8), "1. e4 {[%clk 0:03:00]} *"),
        "1. e4\n{[%clk 0:03:00]}\n*"
    );
    assert_eq!(
        body(Writer::new().compact(true), pgn),
        "1. e4 {[%clk 0:03:00]} 1... e5 {[%clk 0:02:59]} 2. Nf3 {[%clk 0:02:58]} *"
    );
    // in a variation, the `(` counts on the line
    let var = "1. e4 ({ab cd} 1. d4 {ef}) *";
    assert_eq!(
        body(Writer::new().line_width(14), var),
        "1. e4 ({ab cd}\n1. d4 {ef}) *"
    );
    assert_eq!(
        body(Writer::new().line_width(13), var),
        "1. e4 ({ab\ncd} 1. d4\n{ef}) *"
    );
}

#[test]
fn white_space_in_comments() {
    // runs of white space become one space; the ends go
    assert_eq!(
        body(Writer::new(), "1. e4 {  a  b\tc\r\nd\x0Ce  } *"),
        "1. e4 {a b c d e} *"
    );
    // U+000B is no ASCII white space: part of a word
    assert_eq!(body(Writer::new(), "1. e4 {a\x0Bb} *"), "1. e4 {a\x0Bb} *");
    assert_eq!(body(Writer::new(), "1. e4 {   } *"), "1. e4 {} *");
    assert_eq!(
        body(Writer::new().line_width(7), "1. e4 {} *"),
        "1. e4\n{} *"
    );
}

#[test]
fn characters_not_bytes() {
    // 16 characters, 18 bytes: the line fits in 16
    assert_eq!(
        body(Writer::new().line_width(16), "1. e4 {été très} *"),
        "1. e4 {été très}\n*"
    );
    assert_eq!(
        body(Writer::new().line_width(15), "1. e4 {été très} *"),
        "1. e4 {été\ntrès} *"
    );
    // written exactly, the last line of a comment counts its characters
    let exact = Writer::new().wrap_comments(false).line_width(13);
    assert_eq!(
        body(exact, "1. e4 {x\nété} e5 *"),
        "1. e4 {x\nété} 1... e5\n*"
    );
    assert_eq!(
        body(exact, "1. e4 {éééééééééééé} *"),
        "1. e4\n{éééééééééééé}\n*"
    );
}

#[test]
fn braces_in_comments() {
    let mut game = Game::new();
    let mut e4 = Node::parse("e4").unwrap();
    e4.comments.push("a } b".into());
    e4.comments.push("c }\nd".into());
    e4.comments.push("x}".into());
    game.moves.push(e4);
    game.moves.push(Node::parse("e5").unwrap());
    game.result = Some(Outcome::Draw);
    let mut out = String::new();
    Writer::new().write_movetext(&game, &mut out);
    assert_eq!(out, "1. e4 ;a } b\n{c ) d} ;x}\n1... e5 1/2-1/2");
    out.clear();
    Writer::new()
        .wrap_comments(false)
        .write_movetext(&game, &mut out);
    assert_eq!(out, "1. e4 ;a } b\n{c )\nd} ;x}\n1... e5 1/2-1/2");
}

#[test]
fn tag_values_escaped() {
    let mut game = Game::new();
    game.set_tag("White", "a\"b\\c\td\ne\rfé\"");
    game.set_tag("Black", "plain");
    let s = Writer::new().to_string(&game);
    assert!(
        s.contains("[White \"a\\\"b\\\\c d e fé\\\"\"]\n[Black \"plain\"]\n"),
        "{s}"
    );
}

#[test]
fn numbers_and_nags() {
    assert_eq!(
        body(
            Writer::new(),
            "[FEN \"8/8/8/8/8/8/8/k6K b - - 0 99\"] 99... Ka2 $255 100. Kh2 $1 $0 Kb1 *"
        ),
        "99... Ka2 $255 100. Kh2 $1 $0 Kb1 *"
    );
    assert_eq!(
        body(
            Writer::new().line_width(10),
            "[FEN \"8/8/8/8/8/8/8/k6K w - - 0 1009\"] 1009. Kh2 Ka2 *"
        ),
        "1009. Kh2\nKa2 *"
    );
}

#[cfg(feature = "std")]
#[test]
fn write_reuses_the_thread_layout() {
    use std::io::Write;
    let games: Vec<_> =
        Games::new("1. e4 {a} e5 *\n\n[White \"x\"]\n\n1. d4 *\n\n".as_bytes()).collect();
    let w = Writer::new();
    let mut out = Vec::new();
    for g in &games {
        w.write(g, &mut out).unwrap();
    }
    let expected: String = games.iter().map(|g| w.to_string(g)).collect();
    assert_eq!(String::from_utf8(out).unwrap(), expected);

    // a sink that writes a game itself while it is given one (the layout is in use)
    struct Nested<'g>(&'g Game, Vec<u8>);
    impl Write for Nested<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let mut inner = Vec::new();
            Writer::new().compact(true).write(self.0, &mut inner)?;
            self.1.extend_from_slice(&inner);
            self.1.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut nested = Nested(&games[1], Vec::new());
    w.write(&games[0], &mut nested).unwrap();
    let inner = Writer::new().compact(true).to_string(&games[1]);
    assert_eq!(
        String::from_utf8(nested.1).unwrap(),
        inner + &w.to_string(&games[0])
    );
}

#[test]
fn helpers() {
    assert!(command_open(b"[%clk", false));
    assert!(!command_open(b"0:01:00]", true));
    assert!(command_open(b"x", true));
    assert!(!command_open(b"x", false));
    assert!(!command_open(b"[%a]", true));
    assert!(command_open(b"a][%b", false));
    assert!(command_open(b"[%", false));
    assert!(!command_open(b"%[", false));
    assert_eq!(single_spaced("[%clk 0:03:00]"), Some(14));
    assert_eq!(single_spaced(""), Some(0));
    assert_eq!(single_spaced("été x"), Some(5));
    assert_eq!(single_spaced("a  b"), None);
    assert_eq!(single_spaced("a\tb"), None);
    assert_eq!(single_spaced("a}"), None);
    assert_eq!(single_spaced("a\u{b}b"), Some(3));
    assert_eq!(chars("Nf3"), 3);
    assert_eq!(chars("é"), 1);
    let mut at = 0;
    let words: Vec<_> = core::iter::from_fn(|| next_word(b" a\t bc \x0C", &mut at)).collect();
    assert_eq!(words, [(1, 2), (4, 6)]);
    assert_eq!(at, 8);
}
