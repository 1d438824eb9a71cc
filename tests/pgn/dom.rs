//! The PGN DOM: the seed as a [`Game`], and the round trip read → write → read over the whole
//! shared corpus (`../shared/corpus/pgn`, when present).

use std::time::Instant;

use kifu::Control;
use kifu::pgn::{
    self, Command, Config, Context, ErrorKind, Game, GameBuilder, Games, Nag, Outcome, ReadGames,
    Scope, Visitor, Writer,
};

#[test]
fn seed_as_a_game() {
    let input = kifu_testkit::data_file("seed-kasparov-kramnik-2001.pgn");
    let games: Vec<Game> = Games::new(&input).collect();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!((g.index, g.offset), (0, 0));
    assert_eq!(g.event(), Some("Botvinnik Memorial"));
    assert_eq!(g.site(), Some("Moscow"));
    assert_eq!(g.date(), Some("2001.12.05"));
    assert_eq!(g.round(), Some("4"));
    assert_eq!(g.white(), Some("Kasparov, Garry"));
    assert_eq!(g.black(), Some("Kramnik, Vladimir"));
    assert_eq!(g.result_tag(), Some("1/2-1/2"));
    assert_eq!(g.tag("ECO"), Some("C80"));
    assert_eq!(g.tags.len(), 12);
    assert_eq!((g.fen(), g.set_up()), (None, false));
    assert_eq!(g.result, Some(Outcome::Draw));

    let main: Vec<&str> = g.moves.iter().map(|n| n.text.as_str()).collect();
    assert_eq!(main.len(), 37);
    assert_eq!(main[..6], ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(main[36], "Nxe6");

    let a6 = &g.moves[5];
    assert_eq!(a6.nags[..], [Nag(1)]);
    assert_eq!(a6.comments, ["first comment"]);
    assert_eq!(g.moves[9].comments, ["second comment"]);
    assert_eq!(
        g.moves[10].comments,
        [" comment starting with \";\" up to EOL "]
    );
    assert_eq!(g.moves[16].comments, ["third comment"]);
    assert_eq!(g.moves[27].comments, ["wrong "]);

    // 11... Nb4 (11... Bxe3 … 14... Nd8 $1 15. Nd4 c6 $14 (15... Nb7 16. Qc6 $1 $16))
    let nb4 = &g.moves[21];
    assert_eq!(nb4.text, "Nb4");
    let v = &nb4.variations[0].moves;
    assert_eq!(v.len(), 9);
    assert_eq!(v[0].text, "Bxe3");
    assert_eq!(v[6].nags[..], [Nag(1)]);
    assert_eq!(v[8].text, "c6");
    assert_eq!(v[8].nags[..], [Nag(14)]);
    let inner = &v[8].variations[0].moves;
    assert_eq!(inner.len(), 2);
    assert_eq!(inner[1].nags[..], [Nag(1), Nag(16)]);

    // 16. axb5 {yet another comment} (16. Nd4 {nested comment}) 16... axb5
    let axb5 = &g.moves[30];
    assert_eq!(axb5.comments, ["yet another \ncomment"]);
    assert_eq!(axb5.variations[0].moves[0].comments, ["nested comment"]);
    assert_eq!(g.moves[32].variations[0].moves.len(), 10);
    assert_eq!(g.count_moves(), 37 + 9 + 2 + 1 + 10);

    let errors: Vec<(ErrorKind, &str, String)> = g
        .errors
        .iter()
        .map(|e| (e.kind, e.text.as_str(), e.at.unwrap().to_string()))
        .collect();
    assert_eq!(
        errors,
        [
            (ErrorKind::StrayBrace, "comment}", "14b".to_string()),
            (ErrorKind::UnexpectedText, "oh?", "15b".to_string()),
            (ErrorKind::UnexpectedText, "the end", "19w".to_string()),
        ]
    );
    assert!(g.has_errors());

    // the round trip keeps everything but the text the parser could not read
    let text = Writer::new().to_string(g);
    let again = Games::new(text.as_bytes()).next().unwrap();
    assert!(again.errors.is_empty(), "{:?}", again.errors);
    assert!(g.same_content(&again));
    assert!(text.lines().all(|l| l.chars().count() <= 79));

    // headers only, main line only
    let h = Games::with_builder(&input, Config::default(), GameBuilder::headers_only())
        .next()
        .unwrap();
    assert_eq!((h.tags.len(), h.moves.len(), h.errors.len()), (12, 0, 0));
    let m = Games::with_builder(&input, Config::default(), GameBuilder::main_line_only())
        .next()
        .unwrap();
    assert_eq!(m.moves.len(), 37);
    assert!(m.moves.iter().all(|n| n.variations.is_empty()));
    assert_eq!(m.errors.len(), 3);
}

#[test]
fn commands_in_a_game() {
    let pgn = b"1. e4 { [%eval 0.18] [%clk 0:30:00] } 1... c5 {[%clk 0:29:58.5][%cal Gc7c5]} *";
    let g = Games::new(pgn).next().unwrap();
    assert_eq!(g.moves[0].clock().unwrap().as_secs(), 1800);
    assert_eq!(g.moves[1].clock().unwrap().as_millis(), 1_798_500);
    assert!(g.moves[0].eval().is_some() && g.moves[1].eval().is_none());
    assert!(matches!(
        g.moves[1].commands().nth(1),
        Some(Command::Arrows(_))
    ));
}

/// Counts games with the streaming parser.
#[derive(Default)]
struct CountGames(u64);

impl Visitor for CountGames {
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        if ctx.depth == 0 {
            self.0 += 1;
        }
        Control::Continue
    }
}

/// lichess's comments (`{ [%eval 0.17] [%clk 0:05:00] }` after every move) in the export
/// format: no line past 79 characters, the line breaking before a command that does not fit
/// (never inside one), and the games read back the same.
fn check_commands_within_the_width(input: &[u8]) -> usize {
    let mut games = 0;
    for g in Games::new(input) {
        games += 1;
        let text = Writer::new().to_string(&g);
        // (a tag pair is one line, however long)
        let (_, movetext) = text.split_once("\n\n").expect("tags, then the movetext");
        let long: Vec<&str> = movetext
            .lines()
            .filter(|l| l.chars().count() > 79)
            .collect();
        assert!(
            long.is_empty(),
            "game {}: lines past 79: {long:#?}",
            g.index
        );
        for line in movetext.lines() {
            // a command is whole on its line
            assert_eq!(
                line.matches("[%").count(),
                line.matches(']').count(),
                "a command cut: {line:?}"
            );
        }
        let back: Vec<Game> = Games::new(text.as_bytes()).collect();
        assert!(back.len() == 1 && back[0].errors.is_empty() && g.same_content(&back[0]));
    }
    games
}

#[test]
fn commands_stay_within_the_width() {
    // every offset of a command on the line: move numbers of 1 to 3 digits, clocks and
    // evaluations of several lengths
    let mut pgn = String::new();
    for game in 0..40 {
        pgn.push_str("[Event \"x\"]\n\n");
        let sans = [
            "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
        ];
        for ply in 0..(2 * 110) {
            if ply % 2 == 0 {
                pgn.push_str(&format!("{}. ", ply / 2 + 1));
            }
            // (a game of legal moves is not needed: the writer lays out what it is given)
            pgn.push_str(sans[(ply + game) % sans.len()]);
            match (ply * 7 + game) % 4 {
                0 => pgn.push_str(" { [%clk 0:05:00] } "),
                1 => pgn.push_str(&format!(
                    " {{ [%eval {}.{}] [%clk 0:0{}:0{}] }} ",
                    game,
                    ply,
                    game % 10,
                    ply % 10
                )),
                2 => pgn.push_str(" { [%eval #-3] } "),
                _ => pgn.push_str(" { a word or two [%clk 1:00:00] after } "),
            }
        }
        pgn.push_str("*\n\n");
    }
    assert_eq!(check_commands_within_the_width(pgn.as_bytes()), 40);
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn lichess_commands_stay_within_the_width() {
    let input = kifu_testkit::shared_file("corpus/pgn/small/shakmaty-benches/lichess_db_1000k.pgn");
    assert!(check_commands_within_the_width(&input) > 400);
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn corpus_round_trip() {
    let root = kifu_testkit::shared().join("corpus").join("pgn");
    let started = Instant::now();
    let files = kifu_testkit::files_with_ext(&root, "pgn");
    let exact = Writer::new().wrap_comments(false);
    let (mut games, mut tripped, mut failures) = (0u64, 0u64, Vec::new());
    for path in &files {
        let rel = path.strip_prefix(&root).unwrap().display().to_string();
        let data = std::fs::read(path).unwrap();

        // the iterators hand out as many games as the streaming parser sees
        let mut count = CountGames::default();
        pgn::parse(&data, &mut count);
        let mut n = 0u64;
        let mut text = String::new();
        let mut exact_text = String::new();
        for g in Games::new(&data) {
            n += 1;
            if g.has_errors() {
                continue;
            }
            tripped += 1;
            text.clear();
            Writer::new().write_to_string(&g, &mut text);
            let back: Vec<Game> = Games::new(text.as_bytes()).collect();
            let ok = back.len() == 1
                && back[0].errors.is_empty()
                && g.same_content(&back[0])
                && Writer::new().to_string(&back[0]) == text;
            // written exactly, comments come back byte for byte
            exact_text.clear();
            exact.write_to_string(&g, &mut exact_text);
            let exact_back: Vec<Game> = Games::new(exact_text.as_bytes()).collect();
            let exact_ok = exact_back.len() == 1
                && exact_back[0].moves == g.moves
                && exact_back[0].comments == g.comments
                && exact.to_string(&exact_back[0]) == exact_text;
            if (!ok || !exact_ok) && failures.len() < 10 {
                failures.push(format!(
                    "{rel}: game {} does not survive the round trip:\n{}",
                    g.index,
                    if ok { &exact_text } else { &text }
                ));
            }
        }
        if n != count.0 {
            failures.push(format!("{rel}: {n} DOM games, {} streamed", count.0));
        }
        games += n;

        // games built in the room of the games before them (`recycle`) are the same games
        let mut fresh = Games::new(&data);
        let mut recycling = Games::new(&data);
        while let Some(g) = recycling.next() {
            if fresh.next().as_ref() != Some(&g) {
                failures.push(format!("{rel}: game {} differs when recycling", g.index));
                break;
            }
            recycling.recycle(g);
        }

        // the Read iterator with a small buffer gives the same games, in pieces of 1000 bytes
        if data.len() < 300_000 {
            let from_read: Vec<Game> = ReadGames::with_config(
                &data[..],
                1000,
                Config::default(),
                GameBuilder::with_scope(Scope::Full),
            )
            .map(Result::unwrap)
            .collect();
            if !from_read
                .iter()
                .eq(Games::new(&data).collect::<Vec<_>>().iter())
            {
                failures.push(format!("{rel}: ReadGames and Games differ"));
            }
        }
    }
    eprintln!(
        "DOM round trip: {} files, {games} games, {tripped} without errors written and read back, {:.1} s",
        files.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(tripped > 0);
}

/// A "game" of megabytes of movetext without tags or result, then the seed: the builder's limit
/// cuts the first (`game_too_large`), the parser skips the rest of it, and the seed is read whole.
#[test]
fn an_endless_game_stays_within_the_limit() {
    let seed = kifu_testkit::data_file("seed-kasparov-kramnik-2001.pgn");
    let mut input = Vec::new();
    for i in 0..50_000 {
        input.extend_from_slice(format!("{i}. Nf3 {{wait}} Nf6 $1 (Nc6) 2. Ng1 Ng8 ").as_bytes());
    }
    input.extend_from_slice(b"\n\n");
    input.extend_from_slice(&seed);
    let limit = 256 << 10;
    let builder = GameBuilder::new().with_max_game_bytes(limit);
    let games: Vec<Game> = ReadGames::with_config(&input[..], 1 << 16, Config::default(), builder)
        .map(Result::unwrap)
        .collect();
    assert_eq!(games.len(), 2);
    let cut = &games[0];
    assert!(
        cut.estimated_bytes() <= limit + 200,
        "{}",
        cut.estimated_bytes()
    );
    let cuts: Vec<_> = cut
        .errors
        .iter()
        .filter(|e| e.kind == ErrorKind::GameTooLarge)
        .collect();
    assert_eq!(cuts.len(), 1);
    assert!(cuts[0].pos.offset < input.len() as u64 / 10);
    let alone = Games::new(&seed).next().unwrap();
    assert!(games[1].same_content(&alone));
    assert_eq!(games[1].errors.len(), alone.errors.len());
    let unbounded: Vec<Game> = Games::new(&input).collect();
    assert!(unbounded[0].estimated_bytes() > 10 * limit);
    eprintln!(
        "endless game ({} bytes): cut at {} bytes estimated (unbounded: {})",
        input.len(),
        cut.estimated_bytes(),
        unbounded[0].estimated_bytes()
    );
}
