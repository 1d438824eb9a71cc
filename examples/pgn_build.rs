//! Builds a game from scratch with the public DOM API and writes it in PGN.
//!
//! Run: `cargo run --example pgn_build`

use kifu::pgn::{Game, Nag, Node, Outcome, Variation, Writer};

fn mv(text: &str) -> Node {
    Node::parse(text).unwrap_or_else(|| panic!("{text} is no SAN move"))
}

fn main() {
    let mut game = Game::new();
    game.set_tag("Event", "Casual game");
    game.set_tag("Site", "London ENG");
    game.set_tag("Date", "1851.06.21");
    game.set_tag("White", "Anderssen, Adolf");
    game.set_tag("Black", "Kieseritzky, Lionel");
    game.set_tag("ECO", "C33");
    game.comments.push("The Immortal Game".into());

    for text in ["e4", "e5", "f4", "exf4", "Bc4", "Qh4+", "Kf1", "b5"] {
        game.moves.push(mv(text));
    }
    // 4... b5 is dubious; give it a comment and an alternative
    let b5 = game.moves.last_mut().unwrap();
    b5.nags.push(Nag::DUBIOUS_MOVE);
    b5.comments
        .push("[%clk 0:42:00] Bryan's Counter-Gambit".into());
    let mut alt = Variation::from_moves(vec![mv("d5"), mv("Bxd5")]);
    alt.moves[0].comments_before.push("more solid".into());
    b5.variations.push(alt);
    game.moves.push(mv("Bxb5"));
    game.result = Some(Outcome::WhiteWins);

    print!("{}", Writer::new().to_string(&game));
}
