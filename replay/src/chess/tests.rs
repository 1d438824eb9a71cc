//! The chess replay: the move generator as used (perft through `Position::play`, SAN resolution
//! against the generator), FEN and castling, errors and their places, variations.

use kifu::Control;
use kifu::pgn::{self, CastlingSide, Check, Context, Move, Piece as P, San, SanKind, Square as S};

use super::*;
use cozy::{Board, Piece};

// ---- the move generator as used -------------------------------------------------------------

fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    pos.board().generate_moves(|moves| {
        for mv in moves {
            let mut p = pos.clone();
            p.play(mv);
            n += perft(&p, depth - 1);
        }
        false
    });
    n
}

fn fen(s: &str) -> Position {
    Position::from_fen(s, false).unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn perft_startpos() {
    let p = Position::startpos();
    assert_eq!(perft(&p, 1), 20);
    assert_eq!(perft(&p, 2), 400);
    assert_eq!(perft(&p, 3), 8_902);
    assert_eq!(perft(&p, 4), 197_281);
}

#[test]
fn perft_kiwipete() {
    let p = fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    assert_eq!(perft(&p, 1), 48);
    assert_eq!(perft(&p, 2), 2_039);
    assert_eq!(perft(&p, 3), 97_862);
}

#[test]
fn perft_position_3_and_chess960() {
    // chessprogramming.org "Position 3" (en passant, checks, no castling)
    let p = fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
    assert_eq!(perft(&p, 3), 2_812);
    assert_eq!(perft(&p, 4), 43_238);
    // a Chess960 position (Shredder-FEN castling), from the Chess960 perft suite
    let p = fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert!(p.chess960());
    assert_eq!(perft(&p, 1), 21);
    assert_eq!(perft(&p, 2), 528);
    assert_eq!(perft(&p, 3), 12_189);
}

fn pgn_square(sq: cozy::Square) -> S {
    S {
        file: sq.file() as u8,
        rank: sq.rank() as u8,
    }
}

fn pgn_piece(p: Piece) -> P {
    [P::Pawn, P::Knight, P::Bishop, P::Rook, P::Queen, P::King][p as usize]
}

/// Every legal move of `pos`, written without hints, with a file, with a rank and with both
/// (and as castling), resolves to itself, or is ambiguous exactly when another legal move of
/// the same piece reaches the same square.
fn check_resolution(pos: &Position) {
    let b = pos.board();
    let mut legal = Vec::new();
    b.generate_moves(|ms| {
        legal.extend(ms);
        false
    });
    for &mv in &legal {
        let piece = b.piece_on(mv.from).unwrap();
        if b.colors(b.side_to_move()).has(mv.to) {
            let side = if mv.from.file() < mv.to.file() {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            };
            let san = San::new(
                SanKind::Castle(side),
                P::King,
                None,
                None,
                false,
                None,
                None,
                Check::None,
            );
            assert_eq!(pos.resolve(san), Ok(Resolved::Move(mv)), "{}", pos.fen());
            continue;
        }
        let pawn_capture = piece == Piece::Pawn && mv.from.file() != mv.to.file();
        let rivals = legal
            .iter()
            .filter(|m| {
                m.to == mv.to && m.promotion == mv.promotion && b.piece_on(m.from) == Some(piece)
            })
            .filter(|m| !pawn_capture || m.from.file() == mv.from.file())
            .count();
        let f = Some(mv.from.file() as u8);
        let r = Some(mv.from.rank() as u8);
        let promo = mv.promotion.map(pgn_piece);
        let to = Some(pgn_square(mv.to));
        let capture = b.occupied().has(mv.to);
        let mk = |ff, fr| {
            San::new(
                SanKind::Normal,
                pgn_piece(piece),
                ff,
                fr,
                capture,
                to,
                promo,
                Check::None,
            )
        };
        // pawns: a push has no file, a capture its from-file, as SAN writes them
        let plain = if pawn_capture {
            mk(f, None)
        } else {
            mk(None, None)
        };
        let expect = if rivals == 1 {
            Ok(Resolved::Move(mv))
        } else {
            Err(Unplayable::Ambiguous)
        };
        assert_eq!(pos.resolve(plain), expect, "{:?} in {}", plain, pos.fen());
        if piece != Piece::Pawn {
            let same_file = legal
                .iter()
                .filter(|m| {
                    m.to == mv.to
                        && b.piece_on(m.from) == Some(piece)
                        && m.from.file() == mv.from.file()
                })
                .count();
            let by_file = if same_file == 1 {
                Ok(Resolved::Move(mv))
            } else {
                Err(Unplayable::Ambiguous)
            };
            assert_eq!(pos.resolve(mk(f, None)), by_file, "{}", pos.fen());
        }
        assert_eq!(
            pos.resolve(mk(f, r)),
            Ok(Resolved::Move(mv)),
            "{}",
            pos.fen()
        );
    }
}

fn walk_resolution(pos: &Position, depth: u32) {
    check_resolution(pos);
    if depth == 0 {
        return;
    }
    pos.board().generate_moves(|moves| {
        for mv in moves {
            let mut p = pos.clone();
            p.play(mv);
            walk_resolution(&p, depth - 1);
        }
        false
    });
}

#[test]
fn san_resolution_agrees_with_the_generator() {
    walk_resolution(&Position::startpos(), 2);
    walk_resolution(
        &fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        1,
    );
    // promotions with captures, several knights and rooks to one square
    check_resolution(&fen("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"));
    check_resolution(&fen("4k3/8/8/2N1N3/8/2N1N3/8/R3K2R w KQ - 0 1"));
    walk_resolution(
        &fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
        1,
    );
}

// ---- SAN, UCI, FEN -----------------------------------------------------------------------------

fn san(s: &str) -> San {
    San::parse(s.as_bytes()).unwrap_or_else(|| panic!("{s} is SAN"))
}

fn uci_of(pos: &Position, s: &str) -> Result<String, Unplayable> {
    match pos.resolve(san(s))? {
        Resolved::Move(m) => Ok(pos.uci(m).to_string()),
        Resolved::Null => Ok("0000".into()),
    }
}

#[test]
fn disambiguation() {
    // knights on b1 and f3 both reach d2
    let p = fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    assert_eq!(uci_of(&p, "Nd2"), Err(Unplayable::Ambiguous));
    assert_eq!(uci_of(&p, "Nbd2").unwrap(), "b1d2");
    assert_eq!(uci_of(&p, "N1d2").unwrap(), "b1d2");
    assert_eq!(uci_of(&p, "Nfd2").unwrap(), "f3d2");
    assert_eq!(uci_of(&p, "Nf3d2").unwrap(), "f3d2");
    assert_eq!(uci_of(&p, "Ncd2"), Err(Unplayable::Illegal));
    // a pinned knight does not count: Nd2 is then unambiguous (python-chess agrees)
    let p = fen("4k3/8/8/8/8/5N2/8/rN2K3 w - - 0 1");
    assert_eq!(uci_of(&p, "Nd2").unwrap(), "f3d2");
    // over-specified hints are accepted
    assert_eq!(uci_of(&Position::startpos(), "Ng1f3").unwrap(), "g1f3");
    // a pawn move without a file never captures
    let p = fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(uci_of(&p, "d5"), Err(Unplayable::Illegal));
    assert_eq!(uci_of(&p, "exd5").unwrap(), "e4d5");
}

#[test]
fn uci_and_long_algebraic_in_movetext() {
    let p = Position::startpos();
    assert_eq!(uci_of(&p, "e2e4").unwrap(), "e2e4");
    assert_eq!(uci_of(&p, "g1f3").unwrap(), "g1f3");
    assert_eq!(uci_of(&p, "Ng1-f3").unwrap(), "g1f3");
    assert_eq!(uci_of(&p, "e2-e4").unwrap(), "e2e4");
    let p = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(uci_of(&p, "e1g1").unwrap(), "e1g1"); // UCI castling
    assert_eq!(uci_of(&p, "e1h1").unwrap(), "e1g1"); // king takes rook
    assert_eq!(uci_of(&p, "O-O-O").unwrap(), "e1c1");
    let p = fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(uci_of(&p, "b7b8q").unwrap(), "b7b8q");
    assert_eq!(uci_of(&p, "b8=N").unwrap(), "b7b8n");
    assert_eq!(uci_of(&p, "b8N").unwrap(), "b7b8n");
    assert_eq!(uci_of(&p, "b8"), Err(Unplayable::Illegal)); // the promotion must be named
    assert_eq!(uci_of(&p, "b7b8"), Err(Unplayable::Illegal));
}

#[test]
fn en_passant_and_promotion_from_fen() {
    let mut p = fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(p.fen().to_string(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    let Ok(Resolved::Move(m)) = p.resolve(san("exd6")) else {
        panic!()
    };
    p.play(m);
    assert_eq!(p.fen().to_string(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
    // en passant not allowed: the pawn is pinned along the rank
    let p = fen("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2");
    assert_eq!(p.fen().to_string(), "8/8/8/K2pP2r/8/8/8/4k3 w - - 0 2");
    assert_eq!(uci_of(&p, "exd6"), Err(Unplayable::Illegal));
    let mut p = fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let Ok(Resolved::Move(m)) = p.resolve(san("axb8=Q+")) else {
        panic!()
    };
    p.play(m);
    assert_eq!(p.fen().to_string(), "1Q2k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert!(p.is_check());
}

#[test]
fn chess960_castling_xfen_and_shredder() {
    // Shredder-FEN: king on b, rooks on a and e
    let mut p = fen("rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1");
    assert!(p.chess960());
    assert_eq!(
        p.fen().to_string(),
        "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1"
    );
    assert_eq!(uci_of(&p, "O-O").unwrap(), "b1e1");
    assert_eq!(uci_of(&p, "O-O-O").unwrap(), "b1a1");
    assert_eq!(uci_of(&p, "b1e1").unwrap(), "b1e1"); // king takes rook, as UCI_Chess960 writes it
    let Ok(Resolved::Move(m)) = p.resolve(san("O-O")) else {
        panic!()
    };
    p.play(m);
    assert_eq!(
        p.fen().to_string(),
        "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1"
    );
    // castling blocked by the other rook (f1) or by pieces on the way
    let p = fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_eq!(uci_of(&p, "O-O"), Err(Unplayable::Illegal));
    assert_eq!(uci_of(&p, "O-O-O"), Err(Unplayable::Illegal));
    // X-FEN: K and Q name the outermost rooks; with a second rook outside, the file letter
    let p = Position::from_fen("rkr5/pppppppp/8/8/8/8/PPPPPPPP/RK1R3R w KQkq - 0 1", true).unwrap();
    assert_eq!(
        p.fen().to_string(),
        "rkr5/pppppppp/8/8/8/8/PPPPPPPP/RK1R3R w KQkq - 0 1"
    );
    let p = Position::from_fen("rkr5/pppppppp/8/8/8/8/PPPPPPPP/RK1R3R w DQkq - 0 1", true).unwrap();
    assert_eq!(
        p.fen().to_string(),
        "rkr5/pppppppp/8/8/8/8/PPPPPPPP/RK1R3R w DQkq - 0 1"
    );
    assert_eq!(uci_of(&p, "O-O").unwrap(), "b1d1");
    // castling rights standard chess cannot have make the game Chess960
    let p = fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1");
    assert!(p.chess960());
    assert_eq!(
        p.fen().to_string(),
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1"
    );
}

#[test]
fn keys_equal_for_the_same_position_by_other_moves() {
    let play = |moves: &[&str]| {
        let mut p = Position::startpos();
        for m in moves {
            let Ok(Resolved::Move(mv)) = p.resolve(san(m)) else {
                panic!("{m}")
            };
            p.play(mv);
        }
        p
    };
    let a = play(&["Nf3", "Nf6", "Nc3", "Nc6"]);
    let b = play(&["Nc3", "Nc6", "Nf3", "Nf6"]);
    assert_eq!(a.key(), b.key());
    assert_ne!(a.fen().to_string(), Position::startpos().fen().to_string());
    let c = play(&["Nf3", "Nf6", "Ng1", "Ng8"]);
    assert_eq!(c.key(), Position::startpos().key());
    assert_eq!(position_key(&a.fen().to_string()), Ok(a.key()));
    // a cozy board and ours agree on the position
    assert_eq!(
        a.board(),
        &"r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 4 3"
            .parse::<Board>()
            .unwrap()
    );
}

// ---- the adapter ------------------------------------------------------------------------------

#[derive(Default)]
struct Log {
    depth: u32,
    /// (depth, uci, fen) per replayed move
    moves: Vec<(u32, String, String)>,
    not: Vec<(u32, String, NotReplayed)>,
    errors: Vec<String>,
    games: Vec<(Option<String>, u64, u32, Option<u128>)>,
    mates: u32,
}

impl pgn::Visitor for Log {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        self.depth = ctx.depth;
        Control::Continue
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        self.depth = ctx.depth.saturating_sub(1);
        Control::Continue
    }
}

impl ReplayVisitor for Log {
    fn on_replayed(&mut self, ctx: &Context, _: &Move<'_>, r: &Replayed<'_>) -> Control {
        self.moves
            .push((ctx.depth, r.uci().to_string(), r.after.fen().to_string()));
        self.mates += u32::from(r.mate);
        Control::Continue
    }
    fn on_not_replayed(&mut self, ctx: &Context, mv: &Move<'_>, why: NotReplayed) -> Control {
        self.not.push((
            ctx.depth,
            String::from_utf8_lossy(mv.text).into_owned(),
            why,
        ));
        Control::Continue
    }
    fn on_replay_error(&mut self, e: &Error<'_>) -> Control {
        self.errors.push(format!("game.pgn:{e}"));
        Control::Continue
    }
    fn on_game_replayed(&mut self, _: &Context, g: &GameReplayed<'_>) -> Control {
        self.games.push((
            g.end.map(|p| p.fen().to_string()),
            g.not_replayed,
            g.errors,
            g.main_line_key,
        ));
        Control::Continue
    }
}

fn run(pgn_text: &str) -> Log {
    let mut v = Replayer::new(Log::default());
    pgn::parse(pgn_text.as_bytes(), &mut v);
    v.into_inner()
}

fn ucis(log: &Log, depth: u32) -> Vec<&str> {
    log.moves
        .iter()
        .filter(|m| m.0 == depth)
        .map(|m| m.1.as_str())
        .collect()
}

#[test]
fn illegal_and_ambiguous_moves_are_located() {
    let log = run("[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 Bb4 4. Ke3 a6 5. Nc3 *\n");
    assert_eq!(
        log.errors,
        ["game.pgn:4:15: error: illegal move: `Ke3` (game 1, move 4w)"]
    );
    assert_eq!(
        ucis(&log, 0),
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "f8b4"]
    );
    // the moves after it on its line: not replayed, counted
    assert_eq!(
        log.not
            .iter()
            .map(|n| (n.1.as_str(), n.2))
            .collect::<Vec<_>>(),
        [
            ("a6", NotReplayed::AfterError),
            ("Nc3", NotReplayed::AfterError)
        ]
    );
    assert_eq!(log.games[0].0, None);
    assert_eq!((log.games[0].1, log.games[0].2), (2, 1));
    assert_eq!(log.games[0].3, None);

    let log = run("1. Nf3 d5 2. d3 e5 3. Nd2 *\n\n1. d4 *");
    assert_eq!(
        log.errors,
        ["game.pgn:1:23: error: ambiguous move: `Nd2` (game 1, move 3w)"]
    );
    // the next game is replayed as usual
    assert_eq!(log.games.len(), 2);
    assert_eq!(
        log.games[1].0.as_deref(),
        Some("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1")
    );
}

#[test]
fn variations_replay_from_their_branch_point() {
    let log = run("1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6 (2... e6)) 2... d6) (1... e6) 2. Nf3 *");
    assert_eq!(ucis(&log, 0), ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(ucis(&log, 1), ["c7c5", "g1f3", "d7d6", "e7e6"]);
    assert_eq!(ucis(&log, 2), ["b1c3", "b8c6"]);
    assert_eq!(ucis(&log, 3), ["e7e6"]);
    let e6 = &log.moves.iter().find(|m| m.0 == 3).unwrap().2;
    assert_eq!(
        e6,
        "rnbqkbnr/pp1p1ppp/4p3/2p5/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 3"
    );
    assert!(log.errors.is_empty());
    let main_end = log.games[0].0.as_deref().unwrap();
    assert_eq!(
        main_end,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
}

#[test]
fn after_an_error_variations_of_the_failed_move_still_replay() {
    // 2. Ke3 is illegal; the variation replacing it starts from the known position before it;
    // the one after 2... Nc6 (not replayed) branches from an unknown position
    let log = run("1. e4 e5 2. Ke3 (2. Nf3 Nc6) 2... Nc6 (2... d6) 3. Bc4 *");
    assert_eq!(log.errors.len(), 1);
    assert_eq!(ucis(&log, 1), ["g1f3", "b8c6"]);
    assert_eq!(
        log.not
            .iter()
            .map(|n| (n.0, n.1.as_str(), n.2))
            .collect::<Vec<_>>(),
        [
            (0, "Nc6", NotReplayed::AfterError),
            (1, "d6", NotReplayed::UnknownStart),
            (0, "Bc4", NotReplayed::AfterError)
        ]
    );
    // an error inside a variation leaves the main line alone
    let log = run("1. e4 e5 (1... Ke7 2. d4) 2. Nf3 *");
    assert_eq!(
        log.errors,
        ["game.pgn:1:16: error: illegal move: `Ke7` (game 1, move 1b)"]
    );
    assert_eq!(ucis(&log, 0), ["e2e4", "e7e5", "g1f3"]);
    assert!(log.games[0].0.is_some());
}

#[test]
fn fen_tag_variant_tag_and_their_errors() {
    let log = run("[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. N@f3 *\n\n1. e4 *\n");
    assert_eq!(
        log.errors,
        ["game.pgn:1:1: error: unsupported variant: moves not replayed: `Crazyhouse` (game 1)"]
    );
    assert_eq!(log.not.len(), 3);
    assert!(log.not.iter().all(|n| n.2 == NotReplayed::GameNotReplayed));
    assert_eq!(
        log.games[1].0.as_deref(),
        Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    );

    let log = run("[SetUp \"1\"]\n[FEN \"8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n");
    assert_eq!(
        log.errors,
        ["game.pgn:2:1: error: bad FEN: bad piece placement: `8/8/8/8 w - - 0 1` (game 1)"]
    );

    let log = run("[FEN \"4k3/8/4K3/8/8/8/8/7R w - - 10 40\"]\n\n40. Rh8# 1-0\n");
    assert!(log.errors.is_empty());
    assert_eq!(log.mates, 1);
    assert_eq!(log.moves[0].2, "4k2R/8/4K3/8/8/8/8/8 b - - 11 40");

    // Chess960 from the Variant tag, castling written king-takes-rook in UCI
    let log = run(
        "[Variant \"fischerandom\"]\n[FEN \"rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1\"]\n\n1. O-O O-O-O *\n",
    );
    assert_eq!(ucis(&log, 0), ["b1e1", "b8a8"]);
    // the same FEN in standard chess: its rights (a1 and e1 are no corner rooks for the e-file
    // king... the king is on b1) make it Chess960 all the same
    let log = run("[FEN \"rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1\"]\n\n1. O-O *\n");
    assert_eq!(ucis(&log, 0), ["b1e1"]);
}

#[test]
fn null_moves() {
    let log = run("1. e4 -- 2. d4 *");
    assert_eq!(ucis(&log, 0), ["e2e4", "0000", "d2d4"]);
    assert_eq!(
        log.moves[1].2,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"
    );
}

#[test]
fn the_dom_helper_agrees_with_the_adapter() {
    let text = "[Event \"x\"]\n\n1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) d6) 2. Nf3 Nc6 3. Bb5 a6 4. Ke3 Nf6 *\n\n\
                [FEN \"4k3/8/4K3/8/8/8/8/7R w - - 10 40\"]\n\n40. Rh8# 1-0\n";
    let log = run(text);
    let mut all = Vec::new();
    let mut errors = Vec::new();
    for game in pgn::Games::new(text.as_bytes()) {
        let r = replay_game(&game, &DomOptions::default());
        all.extend(
            r.nodes
                .iter()
                .filter(|n| n.uci.is_some())
                .map(|n| (n.depth, n.uci.unwrap().to_string(), n.fen.clone().unwrap())),
        );
        errors.extend(r.errors.iter().map(|e| e.to_string()));
        let g = &log.games[game.index as usize];
        assert_eq!(r.end_fen(), g.0);
        assert_eq!(r.main_line_key, g.3);
    }
    assert_eq!(all, log.moves);
    assert_eq!(errors, ["error: illegal move: `Ke3` (move 4w)"]);
}

#[test]
fn main_line_keys_for_dedup() {
    let key = |t: &str| run(t).games[0].3;
    let a = key("1. Nf3 Nf6 2. g3 *");
    assert!(a.is_some());
    assert_eq!(
        a,
        key("[Event \"other\"]\n1. Ng1f3 {a comment} Ng8f6 2. g2g3 1-0")
    );
    assert_ne!(a, key("1. g3 Nf6 2. Nf3 *")); // the same position by other moves
    assert_ne!(a, key("1. Nf3 Nf6 *"));
}

#[test]
fn options_main_line_only() {
    let mut v = Replayer::with_options(Log::default(), Options::main_line());
    pgn::parse(b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *", &mut v);
    let log = v.into_inner();
    assert_eq!(ucis(&log, 0), ["e2e4", "e7e5", "g1f3"]);
    assert!(ucis(&log, 1).is_empty());
}
