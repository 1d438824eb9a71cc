//! The writer's layout, round trips and options.

use super::*;
use crate::pgn::{Games, Node, Outcome, Variation};
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

fn movetext(w: Writer, pgn: &str) -> String {
    let game = Games::new(pgn.as_bytes()).next().unwrap();
    let s = w.to_string(&game);
    let body = s.split("\n\n").nth(1).unwrap().to_string();
    let mut alone = String::from("kept ");
    w.write_movetext(&game, &mut alone);
    assert_eq!(alone, alloc::format!("kept {body}"));
    // the round trip
    let again = Games::new(s.as_bytes()).next().unwrap();
    assert!(game.same_content(&again), "{s}");
    assert_eq!(w.to_string(&again), s);
    body
}

#[test]
fn numbers() {
    let w = Writer::new();
    assert_eq!(
        movetext(
            w,
            "1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) {x} 2. Nf3 $1 Nc6 *"
        ),
        "1. e4 e5 {x} (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3 $1 Nc6 *"
    );
    assert_eq!(
        movetext(
            w,
            "[FEN \"8/8/8/8/8/8/8/k6K b - - 0 14\"] 14... Ka2 15. Kh2 (15. Kg1 Kb1) *"
        ),
        "14... Ka2 15. Kh2 (15. Kg1 Kb1) *"
    );
    assert_eq!(
        movetext(w, "1. e4 ({a} 1. d4) ( ) ({b}) *"),
        "1. e4 ({a} 1. d4) () ({b}) *"
    );
}

#[test]
fn wraps_at_79() {
    let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O \
               {a rather long comment that will have to be broken over several lines of text, \
               which is fine} 9. h3 *";
    let body = movetext(Writer::new(), pgn);
    assert!(
        body.lines()
            .all(|l| l.chars().count() <= 79 && !l.ends_with(' '))
    );
    assert!(body.lines().count() >= 3);
    let one = movetext(Writer::new().compact(true), pgn);
    assert_eq!(one.trim_end().lines().count(), 1);
}

#[test]
fn tag_like_words() {
    assert!(tag_like("[Event", "\"x\"]"));
    assert!(tag_like("[Event", ""));
    assert!(tag_like("[", "Event"));
    assert!(!tag_like("[%clk", "0:01:00]"));
    assert!(!tag_like("[1", "2]"));
    assert!(!tag_like("Event", "\"x\"]"));
    // longer than the stack buffer
    let long = "[".to_string() + &"N".repeat(100);
    assert!(tag_like(&long, "\"x\""));
    assert!(!tag_like(&long, "x"));
    let wrapped = Writer::new().line_width(20);
    assert_eq!(
        movetext(
            wrapped,
            "1. e4 {aaaa bbbb cccc dddd [Event \"x\"] [%clk 0:01:00]} *"
        ),
        "1. e4 {aaaa bbbb\ncccc dddd [Event\n\"x\"] [%clk 0:01:00]}\n*"
    );
}

#[test]
fn decimals() {
    for (n, s) in [(0, "0"), (7, "7"), (255, "255"), (u32::MAX, "4294967295")] {
        let d = Digits::new(n);
        let mut out = String::from("x");
        d.push_to(&mut out);
        assert_eq!(out, alloc::format!("x{s}"));
        assert_eq!(d.len(), s.len());
    }
}

#[test]
fn awkward_comments() {
    let mut game = Game::new();
    let mut e4 = Node::parse("e4").unwrap();
    e4.comments.push("a } b".into());
    e4.comments.push("c }\nd".into());
    e4.comments.push("line\n[Event \"x\"]".into());
    let mut d4 = Node::parse("d4").unwrap();
    d4.comments_before.push("before".into());
    e4.variations.push(Variation::from_moves(vec![d4]));
    game.moves.push(e4);
    game.moves.push(Node::parse("e5").unwrap());
    game.result = Some(Outcome::Draw);
    for w in [Writer::new(), Writer::new().wrap_comments(false)] {
        let s = w.to_string(&game);
        let again = Games::new(s.as_bytes()).collect::<Vec<_>>();
        assert_eq!(again.len(), 1, "{s}");
        let c = &again[0].moves[0].comments;
        assert_eq!(c[0], "a } b", "{s}");
        assert_eq!(c[1].split_whitespace().collect::<Vec<_>>(), ["c", ")", "d"]);
        assert_eq!(
            again[0].moves[0].variations[0].moves[0].comments_before,
            ["before"]
        );
        assert_eq!(w.to_string(&again[0]), s);
    }
}
