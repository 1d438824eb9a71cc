//! The table and the rule: transpositions, castling rights and en passant in positions, short
//! games, games from a FEN or of another variant, moves that cannot be replayed, the limits, and
//! the three ways in (DOM, events, the Replayer's positions) agreeing.

use kifu::Control;
use kifu::pgn::{self, Context, Games};

use super::*;
use crate::chess::{ReplayVisitor, Replayer, Variant};

fn game(pgn: &str) -> Game {
    Games::new(pgn.as_bytes()).next().expect(pgn)
}

/// The opening of a PGN text's first game, as `(eco, name, ply)`.
fn named(pgn: &str) -> Option<(&'static str, &'static str, u32)> {
    classify(&game(pgn)).map(|o| (o.eco, o.name, o.ply))
}

/// The position after the moves of `pgn`, from the start.
fn after(pgn: &str) -> Position {
    let mut pos = Position::startpos();
    for node in &game(pgn).moves {
        let Ok(Resolved::Move(mv)) = pos.resolve(node.san) else {
            panic!("{pgn}: {}", node.text)
        };
        pos.play(mv);
    }
    pos
}

#[test]
fn the_table_is_whole_and_each_line_names_its_own_position() {
    let t = table();
    assert_eq!(t.skipped, 0, "lines that could not be read");
    assert_eq!(t.lines().len(), 3_807);
    // no two lines name one position (the data set's lint refuses that), so every line's
    // position is named by that very line
    assert_eq!(t.shadowed, 0);
    assert_eq!(t.len(), 3_807);
    assert_eq!(t.deepest_ply(), 36);
    let mut eco = "";
    for e in t.lines() {
        assert!(e.eco.len() == 3 && e.eco >= eco, "{e:?}");
        eco = e.eco;
        let pos = after(e.pgn);
        assert_eq!(t.get(&pos), Some(e));
        assert_eq!(pos.ply(), e.plies, "{e:?}");
        // every named position can name a game: within 40 plies and 20 pieces
        assert!(e.plies <= MAX_PLY && pos.board().occupied().len() >= MIN_PIECES);
        // named by its line, a game of just that line is named after it
        let o = classify(&game(e.pgn)).unwrap();
        assert_eq!((o.eco, o.name, o.ply), (e.eco, e.name, e.plies));
    }
    assert!(t.get(&Position::startpos()).is_none());
    // their Debug is short: not the table's 388 KB
    assert!(format!("{t:?}").len() < 100, "{t:?}");
    assert!(format!("{:?}", Classifier::new()).len() < 100);
}

#[test]
fn a_rebuilt_table_equals_the_shared_one() {
    let a = Openings::build();
    let b = table();
    assert!(a.lines().eq(b.lines()));
    assert_eq!(
        (&a.keys, &a.names, &a.buckets),
        (&b.keys, &b.names, &b.buckets)
    );
}

#[test]
fn transpositions_classify_alike() {
    let qgd = Some(("D35", "Queen's Gambit Declined: Normal Defense", 6));
    assert_eq!(named("1. d4 d5 2. c4 e6 3. Nc3 Nf6 *"), qgd);
    assert_eq!(named("1. c4 e6 2. Nc3 Nf6 3. d4 d5 *"), qgd);
    assert_eq!(named("1. d4 e6 2. c4 Nf6 3. Nc3 d5 *"), qgd);
    // a move order that loses tempi reaches a named position later than its line does
    assert_eq!(
        named("1. e4 e5 2. Nf3 Nf6 3. Ng1 Ng8 *"),
        Some(("C20", "King's Pawn Game", 6))
    );
    // and the last named position counts, not the deepest one
    assert_eq!(
        named("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 *"),
        Some((
            "B90",
            "Sicilian Defense: Najdorf Variation, English Attack",
            11
        ))
    );
}

#[test]
fn castling_rights_are_part_of_the_position() {
    // the kings walk back: the pieces stand as after 1. e4 e5, without castling rights
    let walk = named("1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 *").unwrap();
    assert_eq!(walk, named("1. e4 e5 2. Ke2 Ke7 *").unwrap());
    assert!(walk.2 <= 4, "{walk:?}");
    // castling written every way a record writes it
    let ruy =
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. {} Be7 6. Re1 b5 7. Bb3 d6 8. c3 {} 9. h3 *";
    let closed = Some(("C92", "Ruy Lopez: Closed", 17));
    for (w, b) in [
        ("O-O", "O-O"),
        ("0-0", "0-0"),
        ("e1g1", "e8g8"),
        ("e1h1", "O-O"),
    ] {
        let pgn = ruy.replacen("{}", w, 1).replacen("{}", b, 1);
        assert_eq!(named(&pgn), closed, "{pgn}");
    }
}

#[test]
fn en_passant_counts_only_when_the_capture_is_legal() {
    // after 2... e5 White can take en passant: the EPD has e6
    assert_eq!(
        named("1. d4 c5 2. d5 e5 *"),
        Some(("A44", "Benoni Defense: Old Benoni", 4))
    );
    // the same pieces, White to move, the e-pawn come in two steps (the queen loses a tempo
    // on a triangle): no en passant, another position
    assert_eq!(
        named("1. d4 c5 2. d5 e6 3. Nf3 Qe7 4. Ng1 Qf6 5. Nf3 Qd8 6. Ng1 e5 *"),
        Some(("A43", "Benoni Defense: Old Benoni", 3))
    );
    // the one line of the table with an en passant capture
    assert_eq!(
        named("1. e4 d5 2. exd5 e5 3. dxe6 Bxe6 *"),
        Some(("B01", "Scandinavian Defense: Boehnke Gambit", 6))
    );
    // a pawn beside the double step, pinned: Polyglot counts the file, EPD does not
    // (the d4 pawn is pinned by the rook on d1)
    let mut p = Position::from_fen("3k4/8/8/8/3p4/8/2P5/3RK3 w - - 0 1", false).unwrap();
    p.play(p.parse_uci("c2c4").unwrap());
    assert!(p.legal_en_passant().is_none());
    assert_ne!(p.key(), p.epd_key());
    let q = Position::from_fen("3k4/8/8/8/2Pp4/8/8/3RK3 b - - 0 1", false).unwrap();
    assert_eq!(q.epd_key(), p.epd_key());
    assert_eq!(q.key(), q.epd_key());
    // and where the capture is legal, both count it
    let mut p = Position::from_fen("4k3/8/8/8/3p4/8/2P5/4K3 w - - 0 1", false).unwrap();
    p.play(p.parse_uci("c2c4").unwrap());
    assert!(p.legal_en_passant().is_some());
    assert_eq!(p.key(), p.epd_key());
    assert_ne!(q.epd_key(), p.epd_key());
}

#[test]
fn games_shorter_than_any_line() {
    // the start position has no name: a game without moves has no opening
    assert_eq!(named("*"), None);
    assert_eq!(named("[White \"A\"]\n\n1-0"), None);
    // every first move of White has a name of its own in the table
    let start = Position::startpos();
    let mut firsts = 0;
    start.board().generate_moves(|moves| {
        for mv in moves {
            let mut p = start.clone();
            p.play(mv);
            let e = table().get(&p).unwrap_or_else(|| panic!("{mv}"));
            assert_eq!(e.plies, 1);
            firsts += 1;
        }
        false
    });
    assert_eq!(firsts, 20);
    assert_eq!(named("1. e4 *"), Some(("B00", "King's Pawn Game", 1)));
    // a reply with no name of its own: 1. e4 names the game
    assert_eq!(named("1. e4 Ke7 *"), Some(("B00", "King's Pawn Game", 1)));
}

#[test]
fn games_from_a_fen_or_another_variant_have_no_opening() {
    let moves = "1. e4 c5 *";
    let sicilian = Some(("B20", "Sicilian Defense", 2));
    assert_eq!(named(moves), sicilian);
    for (tags, expected) in [
        ("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]", None),
        (
            "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]",
            None,
        ),
        ("[FEN \"not a FEN\"]", None),
        // the standard start written in a FEN tag (with any clocks) is the standard start
        (
            "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]",
            sicilian,
        ),
        (
            "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5 9\"]",
            sicilian,
        ),
        // the start position without castling rights is another position
        (
            "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"]",
            None,
        ),
        ("[Variant \"Standard\"]", sicilian),
        ("[Variant \"Chess960\"]", None),
        (
            "[Variant \"Chess960\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]",
            None,
        ),
        ("[Variant \"Crazyhouse\"]", None),
        ("[Variant \"King of the Hill\"]", None),
    ] {
        assert_eq!(named(&format!("{tags}\n\n{moves}")), expected, "{tags}");
    }
}

#[test]
fn a_move_that_cannot_be_replayed_keeps_the_name_so_far() {
    // 3. Ke3 is illegal: the name is that of 2... d6, whatever follows
    let so_far = Some(("B50", "Sicilian Defense: Modern Variations", 4));
    assert_eq!(named("1. e4 c5 2. Nf3 d6 *"), so_far);
    assert_eq!(named("1. e4 c5 2. Nf3 d6 3. Ke3 Nf6 4. d4 cxd4 *"), so_far);
    // ambiguous: two knights can go to d2
    assert_eq!(
        named("1. d4 Nf6 2. Nf3 e6 3. Nd2 *"),
        named("1. d4 Nf6 2. Nf3 e6 *")
    );
    // a null move stops the search too (lichess cannot read one)
    assert_eq!(
        named("1. e4 c5 2. -- d6 3. Nf3 *"),
        Some(("B20", "Sicilian Defense", 2))
    );
    // an illegal first move: nothing was named
    assert_eq!(named("1. e5 c5 *"), None);
}

#[test]
fn the_search_stops_at_ply_40_and_below_20_pieces() {
    // back to 1. e4 e5 every four plies (2, 6, …, 42), by way of the Petrov (4, 8, …, 40)
    let mut pgn = String::from("1. e4 e5");
    for i in 0..10 {
        pgn.push_str(&format!(" {}. Nf3 Nf6 {}. Ng1 Ng8", 2 + 2 * i, 3 + 2 * i));
    }
    assert_eq!(named(&pgn), Some(("C42", "Petrov's Defense", 40)));
    let short = pgn.rsplit_once(" 20.").unwrap().0;
    assert_eq!(named(short), Some(("C20", "King's Pawn Game", 38)));
    let mut c = Classifier::new();
    let g = game(&pgn);
    let mut fed = 0;
    for node in &g.moves {
        fed += 1;
        if !c.play(node.san) {
            break;
        }
    }
    assert_eq!(fed, MAX_PLY);
    assert!(!c.wants_more());
    // fewer than 20 pieces: nothing after counts
    let mut c = Classifier::new();
    c.start();
    assert!(c.push(&after("1. e4")));
    assert!(c.push(&after("1. e4 e5")));
    let bare = Position::from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", false).unwrap();
    assert_eq!(bare.board().occupied().len(), 18);
    assert!(!c.push(&bare));
    assert!(!c.push(&after("1. e4 e5")));
    assert_eq!(c.opening().map(|o| o.ply), Some(2));
}

/// A Replayer's visitor that names each game from the positions the adapter gives.
#[derive(Default)]
struct ByReplayer {
    c: Classifier,
    out: Vec<Option<Opening>>,
}

impl pgn::Visitor for ByReplayer {}

impl ReplayVisitor for ByReplayer {
    fn on_replay_start(&mut self, _: &Context, start: Option<&Position>) -> Control {
        self.c.start_from(start);
        Control::Continue
    }
    fn on_replayed(&mut self, ctx: &Context, _: &pgn::Move<'_>, r: &Replayed<'_>) -> Control {
        if ctx.is_main_line() {
            self.c.push_replayed(r);
        }
        Control::Continue
    }
    fn on_not_replayed(
        &mut self,
        ctx: &Context,
        _: &pgn::Move<'_>,
        _: crate::chess::NotReplayed,
    ) -> Control {
        if ctx.is_main_line() {
            self.c.stop();
        }
        Control::Continue
    }
    fn on_game_replayed(&mut self, _: &Context, _: &crate::chess::GameReplayed<'_>) -> Control {
        self.out.push(self.c.opening());
        Control::Continue
    }
}

/// A plain visitor that names each game from its SAN.
#[derive(Default)]
struct BySan {
    c: Classifier,
    out: Vec<Option<Opening>>,
}

impl pgn::Visitor for BySan {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0 {
            self.c.start();
        }
        Control::Continue
    }
    fn on_property(&mut self, ctx: &Context, tag: &pgn::Tag<'_>) -> Control {
        if ctx.depth == 0 {
            self.c.tag(tag.name, &tag.value.decode());
        }
        Control::Continue
    }
    fn on_move(&mut self, ctx: &Context, mv: &pgn::Move<'_>) -> Control {
        if ctx.is_main_line() {
            self.c.play(mv.san);
        }
        Control::Continue
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0 {
            self.out.push(self.c.opening());
        }
        Control::Continue
    }
}

#[test]
fn dom_events_and_replayer_agree() {
    let pgn = "\
1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 (3... Nf6 4. O-O) 4. Ba4 Nf6 1-0

[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]

1. e4 *

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 *

[Variant \"Chess960\"]

1. e4 e5 *

1. e4 c5 2. -- d6 *

1. e4 c5 2. Nf3 d6 3. Ke3 Nf6 *

*

1. c4 e6 2. Nc3 Nf6 3. d4 d5 (3... Bb4) 4. Qc2 Bb4 *
";
    let dom: Vec<_> = Games::new(pgn.as_bytes()).map(|g| classify(&g)).collect();
    assert_eq!(dom.len(), 8);
    let mut v = BySan::default();
    pgn::parse(pgn.as_bytes(), &mut v);
    assert_eq!(v.out, dom);
    let mut v = Replayer::new(ByReplayer::default());
    pgn::parse(pgn.as_bytes(), &mut v);
    assert_eq!(v.into_inner().out, dom);
    let names: Vec<_> = dom.iter().map(|o| o.map(|o| (o.eco, o.ply))).collect();
    assert_eq!(
        names,
        [
            Some(("C70", 6)),
            None,
            Some(("D58", 14)),
            None,
            Some(("B20", 2)),
            Some(("B50", 4)),
            None,
            Some(("E34", 8)),
        ]
    );
}

/// The rule, plainly: every position of the main line to ply 40 looked up, while 20 pieces stand,
/// up to the first move that cannot be replayed; the last name wins. No early stop.
fn reference(game: &Game) -> Option<(&'static str, &'static str, u32)> {
    let standard = game.fen().is_none_or(|fen| {
        Position::from_fen(fen, false)
            .is_ok_and(|p| p.board().same_position(Position::startpos().board()) && !p.chess960())
    }) && game
        .tag("Variant")
        .is_none_or(|v| Variant::from_tag(v.as_bytes()) == Variant::Standard);
    if !standard {
        return None;
    }
    let mut pos = Position::startpos();
    let mut found = None;
    for (ply, node) in (1..=MAX_PLY).zip(&game.moves) {
        let Ok(Resolved::Move(mv)) = pos.resolve(node.san) else {
            break;
        };
        pos.play(mv);
        if pos.board().occupied().len() < MIN_PIECES {
            break;
        }
        if let Some(e) = table().get(&pos) {
            found = Some((e.eco, e.name, ply));
        }
    }
    found
}

#[test]
fn stopping_early_changes_no_name() {
    let t = table();
    // with every pawn at home, any named position is still ahead: the one with the fewest pieces
    // bounds them
    let fewest = t
        .lines()
        .map(|e| after(e.pgn).board().occupied().len())
        .min();
    assert_eq!(Some(u32::from(t.reach[0xffff])), fewest);
    assert_eq!(t.reach[0], u8::MAX); // no named position has every pawn gone
    let mut stopped = 0;
    for e in t.lines() {
        let g = game(e.pgn);
        assert_eq!(named(e.pgn), reference(&g));
        // and each line followed by a pawn move from each side, or a capture
        for tail in [" a6", " h6", " a5 h4", " Nc6 Nf3", " e5 d4 exd4"] {
            let mut pgn = e.pgn.to_string();
            pgn.push_str(tail);
            let g = game(&pgn);
            let o = classify(&g).map(|o| (o.eco, o.name, o.ply));
            assert_eq!(o, reference(&g), "{pgn}");
            let mut c = Classifier::new();
            stopped += g.moves.iter().take_while(|n| c.play(n.san)).count();
        }
    }
    assert!(stopped > 0);
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn stopping_early_changes_no_name_on_the_corpus() {
    let Some(shared) = option_env!("KIFU_SHARED_DIR") else {
        panic!("this test needs the shared corpus (../shared)")
    };
    let (mut games, mut fed, mut plies) = (0usize, 0usize, 0usize);
    for f in [
        "small/shakmaty-benches/lichess_db_1000k.pgn",
        "small/shakmaty-benches/twic1599_1000k.pgn",
        "large/stockfish-books/2moves_v2.pgn",
    ] {
        let data = std::fs::read(format!("{shared}/corpus/pgn/{f}")).unwrap();
        for g in Games::new(&data) {
            let o = classify(&g).map(|o| (o.eco, o.name, o.ply));
            assert_eq!(
                o,
                reference(&g),
                "{f}: {:?}",
                g.moves.first().map(|n| &n.text)
            );
            let mut c = Classifier::new();
            for (k, v) in &g.tags {
                c.tag(k.as_bytes(), v.as_bytes());
            }
            for node in &g.moves {
                if !c.wants_more() {
                    break;
                }
                fed += 1;
                c.play(node.san);
            }
            plies += g.moves.len().min(MAX_PLY as usize);
            games += 1;
        }
    }
    assert!(games > 13_000, "{games}");
    // the early stop saves plies
    println!("{games} games: {fed} plies replayed, of {plies} in the first 40 of each");
    assert!(fed < plies, "{fed} of {plies}");
}
