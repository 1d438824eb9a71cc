use super::search::MAX_WAITING;
use super::*;

fn game(text: &str) -> Game {
    kifu::pgn::Games::new(text.as_bytes()).next().unwrap()
}

fn plies(g: &Game, q: &Query) -> Vec<(u32, u32)> {
    let mut s = Searcher::default();
    let mut out = Vec::new();
    s.search(g, q, |h| {
        out.push((h.ply, h.depth));
        true
    });
    out
}

const RUY: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *";

#[test]
fn exact_positions_and_transpositions() {
    let g = game(RUY);
    let after_nf3 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    assert_eq!(
        plies(&g, &Query::new(vec![Step::fen(after_nf3).unwrap()])),
        [(3, 0)]
    );
    let t = game("1. Nf3 Nc6 2. e4 e5 *");
    let after = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let q = Query::new(vec![Step::fen(after).unwrap()]);
    assert_eq!(plies(&t, &q), [(4, 0)]);
    assert_eq!(plies(&g, &q), [(4, 0)]);
    // the start matches at ply 0
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        plies(&g, &Query::new(vec![Step::fen(start).unwrap()])),
        [(0, 0)]
    );
    // castling rights differ: not the same position
    let no_castle = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b - - 1 2";
    assert!(plies(&g, &Query::new(vec![Step::fen(no_castle).unwrap()])).is_empty());
}

#[test]
fn the_replay_stops_when_the_position_cannot_come() {
    // a position with White's e-pawn at home: once e4 is played, nothing more is replayed
    let g = game(RUY);
    let q = Query::new(vec![
        Step::fen("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1").unwrap(),
    ]);
    let mut s = Searcher::default();
    assert!(!s.matches(&g, &q));
    assert_eq!(s.positions, 2, "the start and 1. e4");
    // castling rights lost
    let mut s = Searcher::default();
    let q = Query::new(vec![Step::fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap()]);
    assert!(!s.matches(&g, &q));
    assert_eq!(s.positions, 10, "stopped at O-O");
    // material: White's eight pawns, until one is taken
    let g = game("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qxd2+ 4. Qxd2 *");
    let mut s = Searcher::default();
    assert!(!s.matches(&g, &Query::new(vec![Step::material("Q q").unwrap()])));
    let mut s = Searcher::default();
    let q = Query::new(vec![Step::material("P8+").unwrap()]);
    let mut seen = Vec::new();
    s.search(&g, &q, |h| {
        seen.push(h.ply);
        true
    });
    assert_eq!(seen, [0, 1, 2, 3]);
    assert_eq!(s.positions, 5, "stopped at Qxd5");
}

/// The positions replayed and the plies matched of `q` on `g`, every match listed.
fn replayed(g: &Game, q: &Query) -> (u64, Vec<u32>) {
    let mut s = Searcher::default();
    let mut seen = Vec::new();
    s.search(g, q, |h| {
        seen.push(h.ply);
        true
    });
    (s.positions, seen)
}

#[test]
fn a_pawn_needed_somewhere_it_can_no_longer_get_to_ends_the_line() {
    // a white pawn on d3: the pawns of c2, d2 and e2 could get there; once all three went
    // past it, the line ends (eight pawns are still there: the count alone goes on)
    let q = Query::new(vec![Step::subfen("8/8/8/8/8/3P4/8/8").unwrap()]);
    let g = game("1. e4 e5 2. d4 d5 3. c4 c5 4. Nc3 Nc6 *");
    assert_eq!(replayed(&g, &q), (6, vec![]), "stopped at 3. c4");
    // a pawn changes its file as it takes: White's d-pawn gone from the d-file, the
    // e-pawn takes on d5 (a rule of "the pawn of the file" would have stopped at 2. dxe5)
    let q = Query::new(vec![Step::subfen("8/8/8/3P4/8/8/8/8").unwrap()]);
    let g = game("1. d4 e5 2. dxe5 d5 3. e4 Nf6 4. exd5 Nxd5 *");
    assert_eq!(
        replayed(&g, &q),
        (9, vec![7]),
        "4. exd5 (the c-pawn could still come)"
    );
    // en passant: the e-pawn gets to d6 by taking a pawn that is not on d6
    let q = Query::new(vec![Step::subfen("8/8/3P4/8/8/8/8/8").unwrap()]);
    let g = game("1. e4 a6 2. e5 d5 3. exd6 Nf6 *");
    assert_eq!(replayed(&g, &q), (7, vec![5, 6]));
    // Black's pawns go down the board: a black pawn on d6 from 1... d6 to 3... dxe5;
    // then the c-pawn could still come, until 4... c5
    let q = Query::new(vec![Step::subfen("8/8/3p4/8/8/8/8/8").unwrap()]);
    let g = game("1. e4 d6 2. d4 e5 3. dxe5 dxe5 4. Nf3 c5 5. Nc3 Nc6 *");
    assert_eq!(
        replayed(&g, &q),
        (9, vec![2, 3, 4, 5]),
        "stopped at 4... c5"
    );
    // a pawn on its last rank is no position: refused before any game is read
    assert!(Step::subfen("P7/8/8/8/8/8/8/8").is_err());
}

#[test]
fn a_bishop_keeps_the_colour_of_its_squares_but_a_promotion_makes_either() {
    // a white bishop on b5 (a light square); White has a dark-squared bishop and a pawn
    let q = Query::new(vec![Step::subfen("8/8/8/1B6/8/8/8/8").unwrap()]);
    let start = "[FEN \"r3k3/1P6/8/8/8/8/8/4K1B1 w - - 0 1\"]\n\n";
    // the pawn becomes a bishop on b8, a dark square: no light-squared bishop can come
    let g = game(&format!("{start}1. b8=B Kd7 2. Ba7 Kc6 *"));
    assert_eq!(replayed(&g, &q), (2, vec![]), "stopped at 1. b8=B");
    // it becomes one on a8, a light square, and gets to b5 (before, the light-squared
    // bishop White does not have was counted as the pawn's promotion)
    let g = game(&format!("{start}1. bxa8=B Kd8 2. Bc6 Kc7 3. Bb5 Kd6 *"));
    assert_eq!(replayed(&g, &q), (7, vec![5, 6]));
}

#[test]
fn castling_moves_the_king_and_the_rook_at_once() {
    // a pattern of both: met by castling, which neither a king move nor a rook move makes
    let q = Query::new(vec![Step::subfen("8/8/8/8/8/8/8/5RK1 b").unwrap()]);
    assert_eq!(replayed(&game(RUY), &q), (11, vec![9]));
    // long castling, Black: a king on c8 and a rook on d8, and Black may no longer castle
    // (an exact position would need its right kept: the other side's is kept here)
    let g = game("1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. e3 O-O-O 6. Bd3 *");
    let q = Query::new(vec![Step::subfen("2kr4/8/8/8/8/8/8/8 w").unwrap()]);
    assert_eq!(replayed(&g, &q).1, [10]);
    let q = Query::new(vec![
        Step::fen("2kr1bnr/pppqpppp/2n5/3p1b2/3P1B2/2N1P3/PPPQ1PPP/R3KBNR w KQ - 1 6").unwrap(),
    ]);
    assert_eq!(replayed(&g, &q), (12, vec![10]));
    // White's rights, needed by the exact position, go with 6. O-O-O
    let g = game("1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O e6 6. e3 *");
    assert_eq!(replayed(&g, &q), (10, vec![]), "stopped at 5. O-O-O");
}

#[test]
fn sub_fen_and_material() {
    let g = game(RUY);
    // a white bishop on a4 and a black pawn on a6
    let q = Query::new(vec![Step::subfen("8/8/p7/8/B7/8/8/8").unwrap()]);
    assert_eq!(plies(&g, &q), [(7, 0), (8, 0), (9, 0), (10, 0)]);
    let q = Query::new(vec![Step::subfen("8/8/p7/8/B7/8/8/8 w").unwrap()]);
    assert_eq!(plies(&g, &q), [(8, 0), (10, 0)]);
    // `_`: a square that must be empty. b5 is, once the bishop went back to a4
    let q = Query::new(vec![Step::subfen("8/8/p7/1_6/B7/8/8/8").unwrap()]);
    assert_eq!(plies(&g, &q), [(7, 0), (8, 0), (9, 0), (10, 0)]);
    // e4 holds White's pawn from ply 1 on
    let q = Query::new(vec![Step::subfen("8/8/p7/8/B3_3/8/8/8").unwrap()]);
    assert_eq!(plies(&g, &q), []);
    // f6 until 4... Nf6 (ply 8)
    let q = Query::new(vec![Step::subfen("8/8/p4_2/8/B7/8/8/8").unwrap()]);
    assert_eq!(plies(&g, &q), [(7, 0)]);
    // empty squares alone: e4 and e5, only the start
    let q = Query::new(vec![Step::subfen("8/8/8/4_3/4_3/8/8/8").unwrap()]);
    assert_eq!(plies(&g, &q), [(0, 0)]);
    assert!(SubFen::parse("8/8/8/8/8/8/8/8_").is_err());
    assert!(SubFen::parse("8/8/8/8/8/8/8/______").is_err());
    assert!(SubFen::parse("8/8/8").is_err());
    assert!(SubFen::parse("8/8/8/8/8/8/8/9").is_err());
    assert!(SubFen::parse("8/8/8/8/8/8/8/7X").is_err());
    assert!(SubFen::parse("8/8/8/8/8/8/8/8 w KQkq - 0 1").is_err());
    // placements no game has: refused with the reason
    for (bad, why) in [
        ("K7/K7/8/8/8/8/8/8", "White has 2 kings"),
        ("P7/8/8/8/8/8/8/8", "white pawn on the first or last rank"),
        ("8/8/8/8/8/8/8/7p", "black pawn on the first or last rank"),
        ("8/8/8/8/8/NNN5/PPPPPPPP/8", "more than its 8 pawns"),
        ("8/8/8/8/8/8/8/Kk6", "side by side"),
        ("8/8/8/8/8/8/1k6/K7", "side by side"),
    ] {
        let e = SubFen::parse(bad).unwrap_err().to_string();
        assert!(
            e.contains(why) && e.contains("no game has it"),
            "{bad}: {e}"
        );
    }
    assert!(SubFen::parse("8/8/8/8/8/NN6/PPPPPPPP/8").is_ok());
    assert!(SubFen::parse("8/8/8/8/8/8/2k5/K7").is_ok());
    let e = Exact::parse("8/8/8/8/8/8/8/Kk6 w - -")
        .unwrap_err()
        .to_string();
    assert!(e.contains("side by side"), "{e}");
    let m = |s: &str| Material::parse(s).unwrap();
    let start = Position::startpos();
    assert!(m("KQRRBBNNPPPPPPPPkqrrbbnnpppppppp").matches(&start));
    assert!(m("KQR2B2N2P8 kqr2b2n2p8").matches(&start));
    assert!(m("[BN]=4").matches(&start));
    assert!(!m("[BN]4").matches(&start), "exact: nothing else");
    assert!(m("[B,N]2+ P>=8 q<=1").matches(&start));
    assert!(!m("[BN]5+").matches(&start));
    assert!(!m("Q2+").matches(&start));
    assert!(m("Q2-").matches(&start));
    assert!(m("q<2 r>1 p=8").matches(&start));
    for bad in ["", "X", "[Bn]", "[B", "Q>=", "Q<0", "Q99", "[]"] {
        assert!(Material::parse(bad).is_err(), "{bad}");
    }
    let e = Material::parse("KRx").unwrap_err().to_string();
    assert!(e.ends_with("\n    ^"), "{e}");
}

/// The EPD kifu writes of a Chess960 position (X-FEN: `KQkq` for the outermost rooks, as
/// python-chess writes it) finds that position in a Chess960 game: its rights are read in the
/// variant of the game compared, standard chess's rules for a standard game.
#[test]
fn chess960_rights_are_read_in_the_games_variant() {
    let board = "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w";
    // a Chess960 game's start, its rights with their files (Shredder-FEN)
    let start = Position::from_fen(&format!("{board} GDgd - 0 1"), false).unwrap();
    assert!(start.chess960());
    let written = start.fen().to_string();
    assert!(written.contains(" KQkq "), "{written}");
    let q = Exact::parse(&written).unwrap();
    assert!(q.matches(&start));
    assert!(
        Exact::parse(&format!("{board} GDgd -"))
            .unwrap()
            .matches(&start)
    );
    // the same board without the rights is another position, in either variant
    let lost = Position::from_fen(&format!("{board} - - 0 1"), true).unwrap();
    assert!(lost.chess960());
    assert!(!q.matches(&lost));
    assert!(
        Exact::parse(&format!("{board} - -"))
            .unwrap()
            .matches(&lost)
    );
    // and in the search of a Chess960 game
    let g = game(&format!(
        "[Variant \"Chess960\"]\n[FEN \"{board} KQkq - 0 1\"]\n\n1. g3 g6 *"
    ));
    let after = Query::new(vec![
        Step::fen("nbbrknrq/pppppp1p/6p1/8/8/6P1/PPPPPP1P/NBBRKNRQ w KQkq -").unwrap(),
    ]);
    assert_eq!(plies(&g, &after), [(2, 0)]);
}

/// A FEN's castling rights the position cannot have are dropped, as python-chess's
/// `Board(fen)` drops them (`KQkq` after both sides castled is `-`, not a Chess960
/// position); an en passant square no double step can have left and fields after the move
/// counters are refused; EPD operations are not.
#[test]
fn fen_queries_read_as_python_chess_reads_them() {
    let castled = "r1bq1rk1/5pb1/1p1p2p1/1N1np2p/1p2P2P/5P2/PP1QN1P1/1K1R1B1R w";
    let none = Position::from_fen(&format!("{castled} - - 0 16"), false).unwrap();
    for rights in ["KQkq", "Kq", "kq", "K", "-"] {
        let q = Exact::parse(&format!("{castled} {rights} - 0 1")).unwrap();
        assert!(q.matches(&none), "{rights}");
        assert!(!q.position().chess960(), "{rights}");
    }
    // a right the position can have stays: not the position without it
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w";
    let kq = Exact::parse(&format!("{start} KQkq -")).unwrap();
    assert_ne!(kq, Exact::parse(&format!("{start} Qkq -")).unwrap());
    assert_eq!(kq, Exact::parse(&format!("{start} KQkq - bm e4;")).unwrap());
    // en passant: after 1. e4 e3 is possible (no capture: the same position as `-`)
    let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq";
    assert_eq!(
        Exact::parse(&format!("{e4} e3 0 1")).unwrap(),
        Exact::parse(&format!("{e4} -")).unwrap()
    );
    for (ep, why) in [
        ("d3", "no white pawn stands on d4"),
        ("e6", "not on the third rank"),
        ("a3", "no white pawn stands on a4"),
    ] {
        let e = Exact::parse(&format!("{e4} {ep}")).unwrap_err().to_string();
        assert!(e.contains("impossible") && e.contains(why), "{ep}: {e}");
    }
    let blocked = "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/R1BQKBNR b KQkq e3";
    assert!(
        Exact::parse(blocked)
            .unwrap_err()
            .to_string()
            .contains("not both empty")
    );
    // after the four fields: counters, or EPD operations
    assert!(Exact::parse(&format!("{e4} - 0 1")).is_ok());
    assert!(Exact::parse(&format!("{e4} - 0")).is_ok());
    assert!(Exact::parse(&format!("{e4} - bm e5; id \"x\";")).is_ok());
    for junk in ["0 1 extra", "0 1 2", "#", "0 x"] {
        let e = Exact::parse(&format!("{e4} - {junk}"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("after the"), "{junk}: {e}");
    }
}

#[test]
fn odd_queries_are_refused_not_panicked_on() {
    for t in [
        "",
        "é",
        "[",
        "[]",
        "[é]",
        "Q>=99999999999",
        "Q>",
        "Q=",
        "Qé",
        "q<0",
        "\u{0}",
        "[B,N",
        "[BN]>=",
        "P65",
        "Q+ Q=0",
        "K2",
        "k=0",
        "P9",
        "R2- R3+",
    ] {
        assert!(Material::parse(t).is_err(), "{t:?}");
    }
    assert!(
        Material::parse("Q+ Q=0")
            .unwrap_err()
            .to_string()
            .contains("no position has this material: `Q` asks for at least 1 and at most 0")
    );
    for t in ["K", "K=1 k", "Q2+ Q<=3", "P8", "[BN]2+ B=0", "k q0+"] {
        assert!(Material::parse(t).is_ok(), "{t:?}");
    }
    for t in [
        "",
        "é",
        "8/8/8/8/8/8/8/8/8",
        "44444444/8/8/8/8/8/8/8",
        "8/8/8/8/8/8/8/8 x",
        "8/8/8/8/8/8/8/0",
        "ééééééé/8/8/8/8/8/8/8",
    ] {
        assert!(SubFen::parse(t).is_err(), "{t:?}");
    }
    for t in [
        "",
        "é",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "x:y",
        "fen:",
        "material:",
        "subfen:",
        "material:Q=0 &",
        "& material:Q=0",
        "material:Q=0 && material:q=0",
    ] {
        assert!(Step::parse(t).is_err(), "{t:?}");
    }
    assert!(Exact::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").is_ok());
}

#[test]
fn step_parts_are_joined_by_an_ampersand_spaced_or_not() {
    let spaced = Step::parse("subfen:8/8/8/8/8/8/8/5RK1 & material:Q=0").unwrap();
    for t in [
        "subfen:8/8/8/8/8/8/8/5RK1&material:Q=0",
        "subfen:8/8/8/8/8/8/8/5RK1 &material:Q=0",
        "subfen:8/8/8/8/8/8/8/5RK1& material:Q=0",
        " subfen:8/8/8/8/8/8/8/5RK1\t&\tmaterial:Q=0 ",
    ] {
        assert_eq!(Step::parse(t).unwrap(), spaced, "{t:?}");
    }
    assert!(spaced.sub.is_some() && spaced.material.is_some());
    // an `&` in an EPD operation's string joins nothing
    let epd = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"A & B\";";
    let s = Step::parse(&format!("fen:{epd}&material:Q")).unwrap();
    assert!(s.exact.is_some() && s.material.is_some());
    let e = Step::parse("material:Q=0&").unwrap_err().to_string();
    assert!(e.contains("no part on one side"), "{e}");
}

#[test]
fn sequences_within_plies() {
    let g = game(RUY);
    // a knight on c6 and a pawn on a7 (plies 4, 5), then White castled (9, 10)
    let q = Query::new(vec![
        Step::subfen("8/p7/2n5/8/8/8/8/8").unwrap(),
        Step::subfen("8/8/8/8/8/8/8/5RK1").unwrap(),
    ]);
    assert_eq!(plies(&g, &q.clone().within(Some(6))), [(9, 0), (10, 0)]);
    assert_eq!(plies(&g, &q.clone().within(Some(4))), [(9, 0)]);
    assert!(plies(&g, &q.clone().within(Some(3))).is_empty());
    assert_eq!(plies(&g, &q), [(9, 0), (10, 0)]);
    // each step its own bound: Nc6 (ply 4), Bb5 within 1 ply (5), Be7 any time later (10)
    let q = Query::new(vec![
        Step::subfen("8/8/2n5/8/8/8/8/8").unwrap(),
        Step::subfen("8/8/8/1B6/8/8/8/8").unwrap(),
        Step::subfen("8/4b3/8/8/8/8/8/8").unwrap(),
    ]);
    assert_eq!(
        plies(&g, &q.clone().within_each(&[Some(1), None])),
        [(10, 0)]
    );
    assert_eq!(plies(&g, &q.clone().within_each(&[Some(1)])), [(10, 0)]);
    assert!(plies(&g, &q.clone().within(Some(1))).is_empty());
    assert!(plies(&g, &q.clone().within_each(&[None, Some(1)])).is_empty());
    assert_eq!(
        plies(&g, &q.clone().within_each(&[None, Some(4)])),
        [(10, 0)]
    );
    // one position is never two steps
    let q = Query::new(vec![
        Step::subfen("8/8/2n5/8/8/8/8/8").unwrap(),
        Step::subfen("8/8/2n5/8/8/8/8/8").unwrap(),
    ])
    .within(Some(1));
    assert_eq!(plies(&g, &q).first(), Some(&(5, 0)));
    assert!(Step::parse("fen:x").is_err());
    // a form with nothing after it: the step's text in the message
    for empty in ["fen:", "subfen: ", "material:"] {
        let e = Step::parse(empty).unwrap_err().to_string();
        assert!(
            e.contains("nothing after") && e.contains(empty.trim()),
            "{e}"
        );
    }
    assert!(Step::parse("subfen:8/8/8/8/8/8/8/8 w").is_ok());
}

#[test]
fn ply_ranges_and_variations() {
    let g = game("1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) Nc6) 2. Nf3 Nc6 *");
    let q = Query::new(vec![Step::subfen("8/8/2n5/8/8/8/8/8").unwrap()]);
    assert_eq!(plies(&g, &q), [(4, 0)]);
    let mut v = q.clone();
    v.variations = true;
    assert_eq!(plies(&g, &v), [(4, 2), (4, 1), (4, 0)]);
    v.max_ply = 3;
    assert!(plies(&g, &v).is_empty());
    let mut r = Query::new(vec![Step::material("P8 p8 KQRRBBNN kqrrbbnn").unwrap()]);
    r.min_ply = 1;
    assert_eq!(plies(&g, &r), [(1, 0), (2, 0), (3, 0), (4, 0)]);
    // a game that cannot be replayed matches nothing
    let bad = game("[FEN \"x\"]\n\n1. e4 *");
    assert!(plies(&bad, &Query::new(vec![Step::default()])).is_empty());
    // an illegal move ends the line
    let ill = game("1. e4 e5 2. Ke3 Nc6 *");
    assert_eq!(plies(&ill, &Query::new(vec![Step::default()])).len(), 3);
}

/// The main line searched on its moves (`LineSearch`, which skips the test of a material
/// signature after a move that took nothing and moved no pawn, and keeps no key for a
/// pattern) gives the first ply the DOM's `Searcher` gives.
#[test]
fn the_line_search_finds_what_the_searcher_finds() {
    let games = [
        RUY,
        "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qxd2+ 4. Qxd2 Nf6 5. Nf3 Nc6 6. Bb5 Bd7 7. Bxc6 Bxc6 \
         8. Qd8+ Rxd8 9. O-O e5 10. Nxe5 Bd6 11. Nxc6 bxc6 12. Re1+ Kd7 *",
        "[FEN \"4k3/P7/8/8/8/8/p7/4K3 w - - 0 1\"]\n\n1. a8=Q+ Kd7 2. -- a1=R+ 3. Ke2 Ra2+ \
         4. Kf3 Rxa8 5. Kg4 Rg8+ 6. Kf5 *",
        "1. d4 d5 2. c4 dxc4 3. e4 b5 4. a4 c6 5. axb5 cxb5 6. b3 cxb3 7. Bxb5+ Bd7 *",
        // an illegal move before the pieces a pattern waits for arrive
        "1. e4 e5 2. Ke3 Nc6 3. Bb5 *",
        // long algebraic: the piece is not written
        "1. e2e4 e7e5 2. g1f3 b8c6 3. f1b5 a7a6 4. e1g1 g8f6 *",
        // null moves, then the pieces
        "1. e4 -- 2. Bb5 Nc6 3. -- Nf6 4. Nf3 *",
        // a knight and a rook made by promotion, Black to move first
        "[FEN \"4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 1\"]\n\n1... g1=R+ 2. Ke2 Kd7 3. b8=N+ Kc7 4. Nd7 *",
    ];
    let steps = [
        "subfen:8/8/2n5/1B6/8/8/8/8",
        "subfen:8/8/2n5/1B6/8/8/8/8 b",
        "subfen:1N6/8/8/8/8/8/8/6r1",
        "subfen:8/3N4/8/8/8/8/8/8",
        "subfen:8/8/8/8/8/5N2/8/8 & material:q",
        "fen:r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "material:Q q",
        "material:KQRRBBNNPPPPPPPkqrrbbnnpppppppp",
        "material:P7- p7+",
        "material:Q=0 q=0",
        "material:R r",
        "material:R Q=0",
        "material:K k",
        "subfen:8/8/8/1B6/8/8/8/8",
        "subfen:8/8/8/8/8/8/8/5RK1",
        "subfen:8/8/8/8/8/8/8/8 b",
        "fen:rnbqkb1r/p1p1pppp/5n2/1P6/8/8/1P1P1PPP/RNBQKBNR b KQkq - 0 5",
    ];
    let mut found = 0;
    for text in games {
        let g = game(text);
        for step in steps {
            for (min, max) in [(0, u32::MAX), (3, u32::MAX), (0, 6), (9, 11)] {
                let mut q = Query::new(vec![Step::parse(step).unwrap()]);
                (q.min_ply, q.max_ply) = (min, max);
                let want = plies(&g, &q).first().map(|h| h.0);
                let mut s = LineSearch::default();
                s.begin();
                for (name, value) in &g.tags {
                    s.tag(name.as_bytes(), value);
                }
                let mut v = s.start(&q);
                let mut ply = 0;
                for node in &g.moves {
                    if v != Verdict::Continue {
                        break;
                    }
                    ply += 1;
                    v = s.play(&q, node.san);
                }
                let got = (v == Verdict::Matched).then_some(ply);
                assert_eq!(got, want, "{step} {min}..{max} in {text}");
                found += usize::from(got.is_some());
            }
        }
    }
    assert!(found >= 40, "{found}");
}

/// The first ply where `q` matches `g`'s main line, by `LineSearch`, and the positions it
/// replayed.
fn line_search(g: &Game, q: &Query) -> (Option<u32>, u64) {
    let mut s = LineSearch::default();
    s.begin();
    for (name, value) in &g.tags {
        s.tag(name.as_bytes(), value);
    }
    let mut v = s.start(q);
    let mut ply = 0;
    for node in &g.moves {
        if v != Verdict::Continue {
            break;
        }
        ply += 1;
        v = s.play(q, node.san);
    }
    ((v == Verdict::Matched).then_some(ply), s.positions)
}

/// A game whose moves never bring a pattern's piece to its square is not replayed, and
/// the moves held back meanwhile are bounded: past `MAX_WAITING` they are played and the
/// search goes on move by move, with the same answer.
#[test]
fn the_line_search_replays_only_once_the_pieces_can_be_there() {
    // (the wait reads a piece's kind from cozy-chess's order, which is `KINDS`')
    assert!(KINDS.iter().enumerate().all(|(i, &p)| p as usize == i));
    let b5 = Query::new(vec![Step::subfen("8/8/2n5/1B6/8/8/8/8").unwrap()]);
    let g = game("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d4 exd4 *");
    assert_eq!(line_search(&g, &b5), (None, 1));
    assert!(plies(&g, &b5).is_empty());
    let g = game(RUY);
    assert_eq!(line_search(&g, &b5), (Some(5), 6));
    // a sequence waits for its first step's pieces only
    let q = Query::new(vec![
        Step::subfen("8/8/2n5/1B6/8/8/8/8").unwrap(),
        Step::subfen("8/8/8/8/B7/8/8/8").unwrap(),
    ])
    .within(Some(2));
    assert_eq!(line_search(&g, &q).0, Some(7));
    assert_eq!(plies(&g, &q).first().map(|h| h.0), Some(7));
    // knights shuffled for longer than the moves held back, then the bishop: found
    let mut long = String::new();
    for i in 0..(MAX_WAITING / 4 + 8) {
        long += &format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * i + 1, 2 * i + 2);
    }
    let n = 2 * (MAX_WAITING / 4 + 8) + 1;
    long += &format!("{n}. e4 Nc6 {}. Bb5 *", n + 1);
    let g = game(&long);
    let want = plies(&g, &b5).first().map(|h| h.0);
    assert_eq!(want, Some(g.moves.len() as u32));
    let (got, replayed) = line_search(&g, &b5);
    assert_eq!(got, want);
    assert!(replayed > MAX_WAITING as u64, "{replayed}");
    // a ply range that ends before the pieces came: over, nothing replayed
    let mut q = b5.clone();
    q.max_ply = 4;
    assert_eq!(line_search(&game(RUY), &q), (None, 1));
    // and stays over, whatever comes after
    let mut s = LineSearch::default();
    s.begin();
    assert_eq!(s.start(&q), Verdict::Continue);
    let g = game(RUY);
    let verdicts: Vec<Verdict> = g.moves.iter().map(|n| s.play(&q, n.san)).collect();
    assert_eq!(verdicts[3..], [Verdict::Over; 7]);
}

#[test]
fn san_is_written_as_python_chess_writes_it() {
    let pos = Position::from_fen(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    )
    .unwrap();
    let s = |u: &str| san(&pos, pos.parse_uci(u).unwrap());
    assert_eq!(s("e1g1"), "O-O");
    assert_eq!(s("e1c1"), "O-O-O");
    assert_eq!(s("d5e6"), "dxe6");
    assert_eq!(s("e5f7"), "Nxf7");
    assert_eq!(s("c3b5"), "Nb5");
    assert_eq!(s("f3f6"), "Qxf6");
    let p = Position::from_fen("7k/P7/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
    assert_eq!(san(&p, p.parse_uci("a7a8q").unwrap()), "a8=Q+");
    let p = Position::from_fen("k7/8/1K6/8/8/8/8/1R5R w - - 0 1", false).unwrap();
    assert_eq!(san(&p, p.parse_uci("h1h8").unwrap()), "Rh8#");
    assert_eq!(san(&p, p.parse_uci("b1d1").unwrap()), "Rbd1");
    let p = Position::from_fen("7k/R7/8/8/8/4K3/8/R7 w - - 0 1", false).unwrap();
    assert_eq!(san(&p, p.parse_uci("a1b1").unwrap()), "Rb1");
    assert_eq!(san(&p, p.parse_uci("a1a4").unwrap()), "R1a4");
}
