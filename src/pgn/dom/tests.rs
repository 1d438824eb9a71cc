//! The DOM's own tests: building, comparing and writing games.

use super::*;
use crate::pgn;
use alloc::format;

fn one(pgn: &[u8]) -> Game {
    let mut games = Games::new(pgn);
    let g = games.next().expect("a game");
    assert!(games.next().is_none());
    g
}

#[test]
fn comments_go_where_kifu_json_puts_them() {
    let g = one(b"{pre} [Event \"x\"] {between}\n\n{first} 1. e4 $1 {after} (1. d4 {d} $2) {late} e5 ({v} 1... c5) ( {only} ) *");
    assert_eq!(g.comments, ["pre", "between", "first"]);
    assert_eq!(g.moves[0].comments, ["after", "late"]);
    assert_eq!(g.moves[0].nags[..], [Nag(1)]);
    assert_eq!(g.moves[0].variations[0].moves[0].comments, ["d"]);
    assert_eq!(g.moves[0].variations[0].moves[0].nags[..], [Nag(2)]);
    let e5 = &g.moves[1];
    assert_eq!(e5.variations[0].moves[0].comments_before, ["v"]);
    assert!(e5.variations[1].moves.is_empty());
    assert_eq!(e5.variations[1].comments, ["only"]);
    assert_eq!(g.result, Some(Outcome::Unknown));
}

#[test]
fn long_comments_are_joined() {
    let text = "word ".repeat(3000);
    let pgn = format!("1. e4 {{{text}}} *");
    assert_eq!(one(pgn.as_bytes()).moves[0].comments, [text]);
}

#[test]
fn builder_variants() {
    let pgn = b"[Event \"e\"]\n\n1. e4 (1. d4 oh (1. c4)) e5 ?? 1-0\n\n1. Nf3 *";
    let mut b = GameBuilder::main_line_only();
    pgn::parse(pgn, &mut b);
    let games = b.take_games();
    assert_eq!(games.len(), 2);
    assert!(games[0].moves[0].variations.is_empty());
    assert!(games[0].errors.is_empty());
    let mut b = GameBuilder::headers_only();
    pgn::parse(pgn, &mut b);
    let games = b.take_games();
    assert_eq!(games[0].event(), Some("e"));
    assert!(games[0].moves.is_empty() && games[0].result.is_none());
}

#[test]
fn iterator_resumes_exactly() {
    // a game ending at a tag, at a movetext token, and at the end of input
    let pgn = b"[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 1-0 1. c4 0-1";
    let games: Vec<Game> = Games::new(pgn).collect();
    assert_eq!(games.len(), 3);
    assert_eq!(games[2].moves[0].text, "c4");
    assert_eq!(games[1].index, 1);
    assert_eq!(games[1].offset, 20);
    let mut log = pgn::EventLog::default();
    pgn::parse(pgn, &mut log);
    assert_eq!(log.games(), 3);
}

#[test]
fn deep_trees_drop_and_compare_without_recursion() {
    let mut line = vec![Node::parse("e4").unwrap()];
    for _ in 0..200_000 {
        let mut n = Node::parse("e4").unwrap();
        n.variations.push(Variation::from_moves(line));
        line = vec![n];
    }
    let game = Game {
        moves: line,
        ..Game::new()
    };
    assert!(game.same_content(&game));
    assert_eq!(game.count_moves(), 200_001);
    drop(game);
}

#[test]
fn san_texts() {
    for s in [
        "e4", "exd8=Q+", "Nbd7", "R1a3", "Qh4xe1#", "O-O-O", "--", "N@f3",
    ] {
        assert_eq!(san_text(San::parse(s.as_bytes()).unwrap()), s);
    }
}

/// Builds with `limit`; checks the builder's count against `Game::estimated_bytes`.
fn limited(pgn: &[u8], limit: usize) -> Vec<Game> {
    let mut b = GameBuilder::new().with_max_game_bytes(limit);
    let mut parser = pgn::Parser::new();
    let mut games = Vec::new();
    let mut rest = pgn;
    loop {
        let status = parser.feed(rest, &mut b);
        while let Some(g) = b.pop() {
            games.push(g);
        }
        match status {
            Status::Stopped { consumed } => rest = &rest[consumed..],
            Status::NeedInput => break,
        }
    }
    parser.finish(&mut b);
    games.extend(b.take_games());
    games
}

fn too_large(g: &Game) -> usize {
    g.errors
        .iter()
        .filter(|e| e.kind == ErrorKind::GameTooLarge)
        .count()
}

#[test]
fn the_builder_counts_what_estimated_bytes_counts() {
    for pgn in [
        &b"[Event \"x\"]\n[White \"\xff\"]\n\n{pre} 1. e4 $1 {after} (1. d4 {d} $2 (1. c4 c5) {\xfe}) e5 ({v} 1... c5) ( {only} ) oh 2. Nf3!? *"[..],
        b"1. e4 *",
        b"junk ) } before\n[Event \"x\"]\n1. e4 (1. d4",
        b"",
    ] {
        let mut b = GameBuilder::new();
        crate::pgn::parse(pgn, &mut b);
        let game = b.take_games().pop().unwrap_or_default();
        assert_eq!(b.bytes + b.before, game.estimated_bytes(), "{pgn:?}");
    }
}

#[test]
fn a_game_past_the_limit_is_cut_and_the_next_ones_are_read() {
    let mut pgn = b"[Event \"a\"]\n\n".to_vec();
    for i in 1..=500 {
        pgn.extend_from_slice(format!("{i}. Nf3 {{c}} Nf6 $1 ({i}... e5) ").as_bytes());
    }
    pgn.extend_from_slice(b"1-0\n\n[Event \"b\"]\n\n1. e4 *\n\n[Event \"c\"]\n\n1. d4 *\n");
    let all = limited(&pgn, usize::MAX);
    assert_eq!(all[0].moves.len(), 1000);
    let limit = all[0].estimated_bytes() / 3;
    let games = limited(&pgn, limit);
    assert_eq!(games.len(), 3);
    let cut = &games[0];
    assert!(cut.moves.len() > 100 && cut.moves.len() < 1000);
    assert!(cut.estimated_bytes() <= limit + ERROR_BYTES);
    assert_eq!(too_large(cut), 1);
    let e = &cut.errors[0];
    assert_eq!(
        (e.kind.code(), e.severity),
        ("game_too_large", Severity::Error)
    );
    assert!(e.pos.offset > 0 && e.at.is_some());
    assert_eq!(cut.result, None);
    assert_eq!(games[1..], all[1..]);
    // the same through the iterators
    let b = GameBuilder::new().with_max_game_bytes(limit);
    assert_eq!(
        Games::with_builder(&pgn, Config::default(), b).collect::<Vec<_>>(),
        games
    );
}

#[test]
fn cut_inside_a_variation_and_inside_a_comment() {
    // the variations open when the game is cut are kept, as far as they were read
    let mut pgn = b"1. e4 (1. d4 ".to_vec();
    for _ in 0..200 {
        pgn.extend_from_slice(b"Nf3 Nf6 Ng1 Ng8 ");
    }
    pgn.extend_from_slice(b") e5 *\n1. c4 *");
    let games = limited(&pgn, 5_000);
    assert_eq!(games.len(), 2);
    let v = &games[0].moves[0].variations[0].moves;
    assert!(v.len() > 10 && v.len() < 800, "{}", v.len());
    assert_eq!(games[0].moves.len(), 1);
    assert_eq!(games[1].moves[0].text, "c4");
    // an endless comment: its pieces count
    let mut pgn = b"1. e4 {".to_vec();
    pgn.extend_from_slice(&b"word ".repeat(100_000));
    pgn.extend_from_slice(b"} e5 *\n1. c4 *");
    let games = limited(&pgn, 10_000);
    assert_eq!(games.len(), 2);
    assert!(games[0].moves[0].comments.is_empty());
    assert_eq!(too_large(&games[0]), 1);
    assert!(games[0].estimated_bytes() <= 10_000 + ERROR_BYTES);
}

#[test]
fn problems_before_the_first_game_go_to_it() {
    let games = limited(
        b"junk\n) }\n[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *",
        usize::MAX,
    );
    assert_eq!(games.len(), 2);
    let kinds: Vec<_> = games[0]
        .errors
        .iter()
        .map(|e| (e.kind, e.pos.line))
        .collect();
    assert_eq!(
        kinds,
        [
            (ErrorKind::UnexpectedText, 1),
            (ErrorKind::StrayParen, 2),
            (ErrorKind::StrayBrace, 2)
        ]
    );
    assert!(games[1].errors.is_empty());
    // bounded by a budget of their own: the game keeps its content
    let mut pgn = b"junk\n".repeat(1000);
    pgn.extend_from_slice(b"1. e4 e5 *");
    let games = limited(&pgn, 20 * (ERROR_BYTES + 4));
    assert_eq!(games[0].moves.len(), 2);
    assert_eq!(games[0].errors.len(), 21);
    assert_eq!(games[0].errors[20].kind, ErrorKind::GameTooLarge);
    // and counted
    assert_eq!(games[0].errors_dropped + 20, 1000);
    // no game: none carries them
    assert!(limited(b"junk\n)", usize::MAX).is_empty());
}

#[test]
fn the_default_limit() {
    assert_eq!(GameBuilder::new().max_game_bytes(), 64 << 20);
    assert_eq!(
        GameBuilder::headers_only().max_game_bytes(),
        GameBuilder::DEFAULT_MAX_GAME_BYTES
    );
}

#[test]
fn starting_ply() {
    let mut g = Game::new();
    assert_eq!(g.starting_ply(), 0);
    g.set_tag("FEN", "8/8/8/8/8/8/8/k6K b - - 0 14");
    assert_eq!(g.starting_ply(), 27);
}

/// Every game of `pgn` built with `builder`, each handed back once compared: the same games as
/// built fresh.
fn same_when_recycled(pgn: &[u8], make: impl Fn() -> GameBuilder) {
    let fresh = {
        let mut b = make();
        pgn::parse(pgn, &mut b);
        b.take_games()
    };
    let mut b = make();
    let mut parser = pgn::Parser::new();
    let mut k = 0;
    for chunk in pgn.chunks(7) {
        let _ = parser.feed(chunk, &mut b);
        while let Some(g) = b.pop() {
            assert_eq!(Some(&g), fresh.get(k), "{pgn:?}: game {k}");
            b.recycle(g);
            k += 1;
        }
    }
    parser.finish(&mut b);
    while let Some(g) = b.pop() {
        assert_eq!(Some(&g), fresh.get(k), "{pgn:?}: game {k}");
        b.recycle(g);
        k += 1;
    }
    assert_eq!(k, fresh.len());
}

#[test]
fn recycled_games_are_the_same() {
    let mut all = Vec::new();
    for pgn in [
        &b"junk ) } before\n[Event \"x\"]\n[White \"\xff\"]\n\n{pre} 1. e4 $1 {after} (1. d4 {d} $2 (1. c4 c5) {\xfe}) e5 ({v} 1... c5) ( {only} ) oh 2. Nf3!? *"[..],
        b"[Event \"y\"]\n\n1. e4 {a} {b} e5 (1... c5 {c} (1... e6 {e} 2. d4) 2. Nf3) 2. Nf3 1-0",
        b"1. e4 *",
        b"{only a comment} *",
        b"1. d4 ((((1. c4 *",
        b"",
    ] {
        all.extend_from_slice(pgn);
        all.extend_from_slice(b"\n\n");
    }
    for _ in 0..3 {
        all.extend_from_slice(
            b"[Event \"z\"]\n\n1. e4 e5 2. Nf3 {long comment} Nc6 (2... d6 $1) 3. Bb5 *\n\n",
        );
    }
    for limit in [usize::MAX, 100, 300, 1000] {
        same_when_recycled(&all, || GameBuilder::new().with_max_game_bytes(limit));
    }
    same_when_recycled(&all, GameBuilder::main_line_only);
    same_when_recycled(&all, GameBuilder::headers_only);
}

#[test]
fn a_recycled_game_is_built_in_its_room() {
    let pgn = b"[Event \"a\"]\n\n1. e4 {x} e5 (1... c5 {y}) 2. Nf3 *";
    let mut b = GameBuilder::new();
    pgn::parse(pgn, &mut b);
    let first = b.pop().unwrap();
    let (moves, event) = (first.moves.as_ptr(), first.tags[0].1.as_ptr());
    b.recycle(first);
    pgn::parse(pgn, &mut b);
    let again = b.pop().unwrap();
    assert_eq!(
        (again.moves.as_ptr(), again.tags[0].1.as_ptr()),
        (moves, event)
    );
    assert_eq!(again.tags, [("Event".to_string(), "a".to_string())]);
    assert_eq!(again.moves[0].comments, ["x"]);
    assert_eq!(again.moves[1].variations[0].moves[0].comments, ["y"]);
}
