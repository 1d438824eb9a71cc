//! `kifu find` and `kifu explore` on a small hand-made set: each query form, `-c`, `-m`, `-w`,
//! the same output at every thread count, and the explorer's counts worked out by hand.

mod common;
use common::{code, err, kifu, out};

/// Five games: a Ruy Lopez (1-0), the same position by transposition (0-1), an Italian (draw),
/// a Sicilian whose variation reaches the open games' position, a queen trade.
fn games() -> Vec<u8> {
    let rows = [
        (
            "2020.01.01",
            "2000",
            "1900",
            "180+0",
            "1-0",
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0",
        ),
        (
            "2021.05.05",
            "2200",
            "2100",
            "60+0",
            "0-1",
            "1. Nf3 Nc6 2. e4 e5 3. Bb5 Nf6 0-1",
        ),
        (
            "2019.03.03",
            "1800",
            "1700",
            "600+0",
            "1/2-1/2",
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 1/2-1/2",
        ),
        (
            "2022.02.02",
            "2400",
            "2300",
            "180+0",
            "1-0",
            "1. e4 c5 (1... e5 2. Nf3 Nc6 3. d4) 2. Nf3 d6 1-0",
        ),
        (
            "2018.??.??",
            "1500",
            "1500",
            "180+0",
            "*",
            "1. e4 e5 2. d4 exd4 3. Qxd4 Nc6 4. Qd5 Nf6 5. Qb5 Qe7 6. Nc3 Qxe4+ 7. Qe2 Qxe2+ 8. Bxe2 *",
        ),
    ];
    let mut s = String::new();
    for (date, we, be, tc, result, moves) in rows {
        s.push_str(&format!(
            "[Event \"e\"]\n[Date \"{date}\"]\n[Result \"{result}\"]\n[WhiteElo \"{we}\"]\n\
             [BlackElo \"{be}\"]\n[TimeControl \"{tc}\"]\n\n{moves}\n\n"
        ));
    }
    s.into_bytes()
}

/// After 1. e4 e5 2. Nf3 Nc6 (counters and en passant as another game might write them).
const OPEN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

fn run(args: &[&str]) -> (i32, String) {
    let mut all = args.to_vec();
    all.extend(["-", "-q"]);
    let o = kifu(&all, Some(&games()));
    assert!(code(&o) <= 1, "{args:?}: {}", err(&o));
    (code(&o), out(&o))
}

fn find_count(args: &[&str]) -> u64 {
    let mut all = vec!["find", "-c"];
    all.extend(args);
    run(&all).1.trim().parse().unwrap()
}

/// The JSON lines of `kifu find --to jsonl`: (index, matched plies) per game.
fn found(args: &[&str]) -> Vec<(u64, Vec<u64>)> {
    let mut all = vec!["find", "--to", "jsonl"];
    all.extend(args);
    run(&all)
        .1
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let plies = v["matched_plies"].as_array().unwrap();
            (
                v["index"].as_u64().unwrap(),
                plies.iter().map(|p| p.as_u64().unwrap()).collect(),
            )
        })
        .collect()
}

#[test]
fn exact_positions_with_transpositions_and_variations() {
    assert_eq!(
        found(&["--fen", OPEN]),
        [(0, vec![4]), (1, vec![4]), (2, vec![4])]
    );
    // an EPD, with an operation, is the same position
    let epd = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5;";
    assert_eq!(find_count(&["--fen", epd]), 3);
    // the Sicilian reaches it in a variation only
    assert_eq!(find_count(&["--fen", OPEN, "--variations"]), 4);
    let o = run(&[
        "find",
        "--to",
        "jsonl",
        "--fen",
        OPEN,
        "--variations",
        "-m",
        "4",
    ])
    .1;
    let last: serde_json::Value = serde_json::from_str(o.lines().nth(3).unwrap()).unwrap();
    assert_eq!(last["matched_plies"], serde_json::json!([]));
    assert_eq!(last["matched_variation_plies"], serde_json::json!([4]));
    // castling rights are part of the position
    let no_castling = OPEN.replace("KQkq", "kq");
    let (c, _) = run(&["find", "-c", "--fen", &no_castling]);
    assert_eq!(c, 1, "no game matched");
    // the games are written whole, as PGN
    let pgn = run(&["find", "--fen", OPEN, "-m", "1"]).1;
    assert!(pgn.contains("3. Bb5 a6 1-0"), "{pgn}");
    assert_eq!(pgn.matches("[Event ").count(), 1);
}

#[test]
fn sub_fen_material_and_sequences() {
    // a black knight on c6 with White to move
    assert_eq!(
        found(&["--subfen", "8/8/2n5/8/8/8/8/8 w"]),
        [
            (0, vec![4, 6]),
            (1, vec![2, 4, 6]),
            (2, vec![4, 6]),
            (4, vec![6, 8, 10, 12, 14])
        ]
    );
    // ... and e5 empty (`_`): game 1 before 2... e5, game 4 once 2... exd4 left it
    assert_eq!(
        found(&["--subfen", "8/8/2n5/4_3/8/8/8/8 w"]),
        [(1, vec![2]), (4, vec![6, 8, 10, 12, 14])]
    );
    // a white bishop on b5 and a black knight on c6
    assert_eq!(find_count(&["--subfen", "8/8/2n5/1B6/8/8/8/8"]), 2);
    // no queens
    assert_eq!(found(&["--material", "Q=0 q=0"]), [(4, vec![15])]);
    let all = ["--material", "KQR2B2N2P8 kqr2b2n2p8", "--min-ply", "6"];
    assert_eq!(find_count(&all), 3, "no capture in 6 plies");
    assert_eq!(find_count(&["--material", "[BN]2+ q=0"]), 1);
    assert_eq!(
        find_count(&["--material", "KQR2B2N2 kqr2b2n2"]),
        0,
        "exact: no pawns"
    );
    assert_eq!(find_count(&["--material", "p=7"]), 1);
    // the open position, then a bishop on b5 within one ply
    let seq = [
        "--fen",
        OPEN,
        "--then",
        "subfen:8/8/8/1B6/8/8/8/8",
        "--within",
        "1",
    ];
    assert_eq!(found(&seq), [(0, vec![5]), (1, vec![5])]);
    // ... then a black knight on f6 within two plies
    let mut seq3 = seq.to_vec();
    seq3.extend(["--then", "subfen:8/8/5n2/8/8/8/8/8 & material:P=8"]);
    assert_eq!(found(&seq3), [(1, vec![6])]);
    // ply ranges
    assert_eq!(
        find_count(&["--subfen", "8/8/2n5/8/8/8/8/8", "--max-ply", "3"]),
        1
    );
    assert_eq!(
        find_count(&["--subfen", "8/8/2n5/8/8/8/8/8", "--min-ply", "7"]),
        1
    );
    assert_eq!(
        find_count(&["--subfen", "8/8/2n5/8/8/8/8/8", "--min-ply", "16"]),
        0
    );
}

#[test]
fn filter_reaches_is_find_fen() {
    for fen in [
        OPEN,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    ] {
        let filter: u64 = run(&["filter", "-c", "--reaches", fen])
            .1
            .trim()
            .parse()
            .unwrap();
        assert_eq!(filter, find_count(&["--fen", fen]), "{fen}");
    }
    // a FEN without its castling field: read as python-chess reads it, said on stderr
    let o = kifu(
        &[
            "filter",
            "-c",
            "--reaches",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b",
            "-",
        ],
        Some(&games()),
    );
    assert!(
        err(&o).contains("note: --reaches") && err(&o).contains("KQkq -"),
        "{}",
        err(&o)
    );
    let o = kifu(
        &["filter", "--reaches", "8/8/8 w", "-", "-q"],
        Some(&games()),
    );
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("--reaches"), "{}", err(&o));
}

/// `filter --reaches` searches on the parser's events as `find --fen` does: the same games
/// written, at every thread count; `-v` keeps the others; the other tests still apply.
#[test]
fn filter_reaches_writes_what_find_fen_writes() {
    let mut twice = games();
    twice.extend(games());
    let written = |args: &[&str]| {
        let o = kifu(args, Some(&twice));
        assert!(code(&o) <= 1, "{args:?}: {}", err(&o));
        out(&o)
    };
    let find = written(&["find", "--fen", OPEN, "-", "-q", "-j1"]);
    assert_eq!(find.matches("[Event ").count(), 6, "{find}");
    for j in ["-j1", "-j2"] {
        let filter = written(&[
            "filter",
            "--reaches",
            OPEN,
            "-",
            "-q",
            j,
            "--piece-size",
            "64",
        ]);
        assert_eq!(filter, find, "{j}");
        let others = written(&["filter", "-v", "--reaches", OPEN, "-", "-q", j]);
        assert_eq!(others.matches("[Event ").count(), 4, "{j}: {others}");
        let rated = written(&[
            "filter",
            "--reaches",
            OPEN,
            "-w",
            "WhiteElo>=2100",
            "-",
            "-q",
            j,
        ]);
        assert_eq!(rated.matches("[Event ").count(), 2, "{j}: {rated}");
        assert!(rated.contains("\"2200\""), "{rated}");
    }
}

#[test]
fn count_max_count_and_where() {
    assert_eq!(find_count(&["--fen", OPEN, "-m", "2"]), 2);
    assert_eq!(found(&["--fen", OPEN, "-m", "1"]).len(), 1);
    assert_eq!(find_count(&["--fen", OPEN, "-w", "WhiteElo>=2100"]), 1);
    assert_eq!(find_count(&["--fen", OPEN, "-w", "speed=blitz"]), 1);
    assert_eq!(find_count(&["--fen", OPEN, "-w", "year<2021"]), 2);
}

/// A `--fen` without its castling field is read as python-chess reads it (no castling right),
/// with a note on stderr that says how to write the rights and points to `--subfen`; `-q`
/// quiets it.
#[test]
fn a_fen_without_castling_is_read_as_python_chess_reads_it_with_a_note() {
    let board = OPEN.split(' ').next().unwrap();
    for (cmd, fen) in [
        ("find", board.to_string()),
        ("find", format!("{board} w")),
        ("explore", format!("{board} w")),
    ] {
        let o = kifu(&[cmd, "--fen", &fen, "-"], Some(&games()));
        assert_eq!(
            code(&o),
            1,
            "{cmd} {fen}: no game has it without castling rights"
        );
        let e = err(&o);
        assert!(
            e.contains(&format!("kifu {cmd}: note: --fen `{fen}` has no")),
            "{e}"
        );
        assert!(e.contains(&format!("`{board} w KQkq -`")), "{e}");
        assert!(e.contains(&format!("--subfen {board}")), "{e}");
        let o = kifu(&[cmd, "--fen", &fen, "-", "-q"], Some(&games()));
        assert!(!err(&o).contains("note:"), "{}", err(&o));
    }
    // with its fields, no note
    let o = kifu(
        &["find", "-c", "--fen", &format!("{board} w KQkq"), "-"],
        Some(&games()),
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(!err(&o).contains("note:"), "{}", err(&o));
}

/// Each `--within` bounds the step of the `--then` before it; a step without one may come at
/// any later ply (game 1: the open position at ply 4, Bb5 at 5, Nf6 at 6).
#[test]
fn each_within_bounds_the_step_before_it() {
    let b5 = "subfen:8/8/8/1B6/8/8/8/8";
    let f6 = "subfen:8/8/5n2/8/8/8/8/8";
    assert!(found(&["--fen", OPEN, "--then", f6, "--within", "1"]).is_empty());
    assert_eq!(
        found(&["--fen", OPEN, "--then", f6, "--within", "2"]),
        [(1, vec![6])]
    );
    // the bound is the second step's only: Nf6 two plies after the open position
    let seq = ["--fen", OPEN, "--then", b5, "--then", f6, "--within", "1"];
    assert_eq!(found(&seq), [(1, vec![6])]);
    let seq = ["--fen", OPEN, "--then", b5, "--within", "1", "--then", f6];
    assert_eq!(found(&seq), [(1, vec![6])]);
    // ... where one bound for every step would have been too tight
    assert!(found(&["--fen", OPEN, "--then", f6, "--within", "1", "--then", b5]).is_empty());
    let refused = |args: &[&str], says: &str| {
        let mut all = vec!["find", "-c"];
        all.extend(args);
        all.extend(["-", "-q"]);
        let o = kifu(&all, Some(&games()));
        assert_eq!(code(&o), 2, "{args:?}: {}", err(&o));
        assert!(err(&o).contains(says), "{args:?}: {}", err(&o));
    };
    refused(
        &["--fen", OPEN, "--within", "2", "--then", f6],
        "--within 2 comes before any --then",
    );
    refused(
        &[
            "--fen", OPEN, "--then", f6, "--within", "2", "--within", "3",
        ],
        "--within 2 and --within 3 after one --then",
    );
}

/// `KQkq` on a position whose kings have castled is the position without rights, as
/// python-chess reads it; an impossible en passant square, fields after the counters and a
/// material no position has are refused with the reason.
#[test]
fn fen_and_material_queries_are_read_as_python_chess_reads_them() {
    let game = b"1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O *\n";
    let board = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1";
    for rights in ["-", "KQkq", "Kk"] {
        let fen = format!("{board} w {rights} - 0 1");
        let o = kifu(&["find", "-c", "--fen", &fen, "-", "-q"], Some(game));
        assert_eq!(out(&o).trim(), "1", "{rights}: {}", err(&o));
    }
    let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq";
    for (query, says) in [
        (
            vec!["--fen".to_string(), format!("{e4} d3")],
            "the en passant square d3 is impossible: no white pawn stands on d4",
        ),
        (
            vec!["--fen".to_string(), format!("{e4} - 0 1 extra")],
            "`extra` after the move counters",
        ),
        (
            vec!["--material".to_string(), "Q+ Q=0".to_string()],
            "no position has this material",
        ),
        (
            vec!["--material".to_string(), "K2".to_string()],
            "each side has one king",
        ),
    ] {
        let mut args = vec!["find", "-c"];
        args.extend(query.iter().map(String::as_str));
        args.extend(["-", "-q"]);
        let o = kifu(&args, Some(&games()));
        assert_eq!(code(&o), 2, "{query:?}");
        assert!(err(&o).contains(says), "{query:?}: {}", err(&o));
    }
    // an en passant square a double step left is taken (no capture: the position without it)
    let o = kifu(
        &["find", "-c", "--fen", &format!("{e4} e3 0 1"), "-", "-q"],
        Some(&games()),
    );
    assert_eq!(out(&o).trim(), "4", "{}", err(&o));
}

#[test]
fn queries_that_cannot_be_read_are_refused() {
    for bad in [
        vec!["find"],
        vec!["find", "--fen", "8/8/8 w"],
        vec!["find", "--subfen", "8/8/8/8/8/8/8/9"],
        vec!["find", "--material", "KX"],
        vec!["find", "--fen", OPEN, "--then", "8/8/8/8/8/8/8/8"],
        vec!["explore", "--fen", OPEN, "--by", "rating:0"],
        vec![
            "find",
            "--fen",
            OPEN,
            "--then",
            "material:Q",
            "--within",
            "0",
        ],
    ] {
        let mut args = bad.clone();
        args.extend(["-", "-q"]);
        let o = kifu(&args, Some(&games()));
        assert_eq!(code(&o), 2, "{bad:?}");
        assert!(!err(&o).is_empty(), "{bad:?}");
    }
}

/// A `--by` key games may lack but one they have is near: a warning naming it, as `-w` and
/// `stats --by` give (the key is kept: PGN allows any tag); a misspelt subfen is refused with
/// the reason.
#[test]
fn explore_warns_of_a_misspelt_group_key() {
    let o = kifu(
        &["explore", "--fen", OPEN, "--by", "Evnet", "-"],
        Some(&games()),
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(err(&o).contains("did you mean `Event`?"), "{}", err(&o));
    let o = kifu(
        &["explore", "--fen", OPEN, "--by", "Evnet", "-", "-q"],
        Some(&games()),
    );
    assert!(!err(&o).contains("did you mean"), "{}", err(&o));
    let o = kifu(
        &["find", "-c", "--subfen", "K7/K7/8/8/8/8/8/8", "-"],
        Some(&games()),
    );
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("White has 2 kings"), "{}", err(&o));
}

/// A query over inputs that hold no game of its format (a Go pattern over PGN games, a chess
/// query over SGF games) matches nothing, and says why on stderr (not with `-q`).
#[test]
fn a_query_over_games_of_the_other_format_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let pattern = dir.path().join("44.txt");
    std::fs::write(&pattern, "?????\n?....\n?....\n?..X.\n?....\n").unwrap();
    let pattern = pattern.to_str().unwrap();
    for cmd in [&["find", "-c"][..], &["find"], &["explore"]] {
        let mut args = cmd.to_vec();
        args.extend(["--go-pattern", pattern, "--anchor", "corner", "-"]);
        let o = kifu(&args, Some(&games()));
        assert_eq!(code(&o), 1, "{args:?}");
        assert!(
            err(&o).contains("a Go pattern searches SGF games: the inputs held"),
            "{args:?}: {}",
            err(&o)
        );
        let mut chess = cmd.to_vec();
        chess.extend(["--fen", OPEN, "-"]);
        let o = kifu(&chess, Some(b"(;SZ[9];B[ee])"));
        assert!(
            err(&o).contains(
                "a chess query searches PGN games: the inputs held 1 game, none of them PGN"
            ),
            "{chess:?}: {}",
            err(&o)
        );
        chess.push("-q");
        let o = kifu(&chess, Some(b"(;SZ[9];B[ee])"));
        assert!(!err(&o).contains("searches PGN games"), "{}", err(&o));
    }
}

#[test]
fn usage_errors_name_what_is_missing() {
    let refused = |args: &[&str], says: &str| {
        let mut all = args.to_vec();
        all.extend(["-", "-q"]);
        let o = kifu(&all, Some(&games()));
        assert_eq!(code(&o), 2, "{args:?}: {}", err(&o));
        assert!(err(&o).contains(says), "{args:?}: {}", err(&o));
    };
    refused(&["find"], "--go-pattern FILE");
    // --anchor and --swap-colors without --go-pattern, even beside a chess query
    refused(
        &["find", "--anchor", "corner", "--material", "KQk"],
        "--go-pattern",
    );
    refused(
        &["find", "--swap-colors", "--material", "KQk"],
        "--go-pattern",
    );
    refused(
        &["explore", "--anchor", "corner", "--fen", OPEN],
        "--go-pattern",
    );
    refused(&["find", "--anchor", "edge"], "--go-pattern");
    // no ply is between them
    let past = "--min-ply 5 is past --max-ply 2";
    refused(
        &[
            "find",
            "--material",
            "Q=0",
            "--min-ply",
            "5",
            "--max-ply",
            "2",
        ],
        past,
    );
    refused(
        &[
            "find",
            "-c",
            "--fen",
            OPEN,
            "--min-ply",
            "5",
            "--max-ply",
            "2",
        ],
        past,
    );
    refused(
        &["explore", "--fen", OPEN, "--min-ply", "5", "--max-ply", "2"],
        past,
    );
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("p.csv");
    let csv = csv.to_str().unwrap();
    let export = ["export", "--table", "positions", "-o", csv];
    refused(
        &[&export[..], &["--min-ply", "5", "--max-ply", "2"]].concat(),
        past,
    );
    assert!(!dir.path().join("p.csv").exists());
    // a ply range of one ply is one
    assert_eq!(
        find_count(&["--fen", OPEN, "--min-ply", "4", "--max-ply", "4"]),
        3
    );
}

#[test]
fn explore_json_groups_are_null_when_a_game_has_no_value() {
    // no game has an ECO tag: every row grouped, its group null
    let rows = explore(&["--fen", OPEN, "--by", "ECO"]);
    assert_eq!(rows.len(), 2, "{rows:?}");
    for r in &rows {
        let o = r.as_object().unwrap();
        assert_eq!(o.keys().next().map(String::as_str), Some("group"), "{r}");
        assert!(o["group"].is_null(), "{r}");
    }
    let rows = explore(&["--fen", OPEN, "--by", "speed"]);
    assert!(
        rows.iter()
            .all(|r| r["group"] == "blitz" || r["group"] == "bullet" || r["group"] == "rapid"),
        "{rows:?}"
    );
    // without --by: no group member
    let rows = explore(&["--fen", OPEN]);
    assert!(rows.iter().all(|r| r.get("group").is_none()), "{rows:?}");
}

#[test]
fn every_thread_count_writes_the_same() {
    let many = games().repeat(40);
    let run_j = |args: &[&str], j: &str| {
        let mut all = args.to_vec();
        all.extend(["-", "-q", "-j", j, "--piece-size", "300"]);
        let o = kifu(&all, Some(&many));
        assert_eq!(code(&o), 0, "{args:?}: {}", err(&o));
        o.stdout
    };
    for args in [
        &["find", "--fen", OPEN][..],
        &["find", "--subfen", "8/8/2n5/8/8/8/8/8 w", "--to", "jsonl"],
        &["find", "--material", "Q=0", "-c"],
        &["explore", "--fen", OPEN, "--json"],
        &[
            "explore",
            "--subfen",
            "8/8/2n5/8/8/8/8/8",
            "--json",
            "--by",
            "speed",
        ],
    ] {
        let one = run_j(args, "1");
        assert!(!one.is_empty());
        assert_eq!(one, run_j(args, "2"), "{args:?}");
        assert_eq!(one, run_j(args, "4"), "{args:?}");
    }
}

fn explore(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["explore", "--json"];
    all.extend(args);
    run(&all)
        .1
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn explore_counts_what_was_played_next() {
    let rows = explore(&["--fen", OPEN]);
    assert_eq!(rows.len(), 2, "{rows:?}");
    let bb5 = &rows[0];
    assert_eq!(bb5["san"], "Bb5");
    assert_eq!(bb5["uci"], "f1b5");
    assert_eq!(bb5["games"], 2);
    assert_eq!(
        (bb5["white"].as_u64(), bb5["black"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(bb5["white_share"], 0.5);
    assert_eq!(bb5["mean_elo"], 2100.0, "White moves: 2000 and 2200");
    assert_eq!(bb5["last_date"], "2021.05.05");
    assert_eq!(bb5["game"], 1, "the first game that played it, from 1");
    assert_eq!(
        bb5["fen"],
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -"
    );
    let bc4 = &rows[1];
    assert_eq!(
        (bc4["san"].as_str(), bc4["games"].as_u64()),
        (Some("Bc4"), Some(1))
    );
    assert_eq!(bc4["draw_share"], 1.0);
    // the variations add the Sicilian's 3. d4
    let rows = explore(&["--fen", OPEN, "--variations"]);
    assert_eq!(rows.len(), 3);
    let d4 = rows.iter().find(|r| r["san"] == "d4").unwrap();
    assert_eq!(
        (d4["games"].as_u64(), d4["game"].as_u64()),
        (Some(1), Some(4))
    );
    // Black's moves after 1. e4: the mover's rating is Black's
    let rows = explore(&[
        "--fen",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -",
    ]);
    let e5 = rows.iter().find(|r| r["san"] == "e5").unwrap();
    assert_eq!(e5["games"], 3);
    assert_eq!(e5["mean_elo"], (1900.0 + 1700.0 + 1500.0) / 3.0);
    assert_eq!(
        e5["white_share"], 0.5,
        "the unknown result counts in no share"
    );
    // grouped
    let rows = explore(&["--fen", OPEN, "--by", "speed"]);
    let groups: Vec<_> = rows
        .iter()
        .map(|r| (r["group"].as_str().unwrap(), r["san"].as_str().unwrap()))
        .collect();
    assert_eq!(
        groups,
        [("bullet", "Bb5"), ("blitz", "Bb5"), ("rapid", "Bc4")]
    );
    let rows = explore(&["--fen", OPEN, "--by", "year"]);
    let groups: Vec<_> = rows
        .iter()
        .map(|r| (r["group"].as_str().unwrap(), r["san"].as_str().unwrap()))
        .collect();
    assert_eq!(groups, [("2019", "Bc4"), ("2020", "Bb5"), ("2021", "Bb5")]);
    let rows = explore(&["--fen", OPEN, "--by", "rating:500"]);
    let groups: Vec<_> = rows.iter().map(|r| r["group"].as_str().unwrap()).collect();
    assert_eq!(groups, ["1500-1999", "2000-2499"]);
    // a pattern: every position with a black knight on c6 and White to move (9 moves played
    // from one, and the ends of games 1 to 3 after 3... a6, 3... Nf6, 3... Bc5)
    let rows = explore(&["--subfen", "8/8/2n5/8/8/8/8/8 w"]);
    let total: u64 = rows.iter().map(|r| r["games"].as_u64().unwrap()).sum();
    assert_eq!(total, 12, "{rows:?}");
    let ends: Vec<u64> = rows
        .iter()
        .filter(|r| r["san"] == "end")
        .map(|r| r["game"].as_u64().unwrap())
        .collect();
    assert_eq!(ends, [3, 2, 1], "{rows:?}");
    // at most one row kept: the rest counted on stderr
    let o = kifu(
        &[
            "explore",
            "--json",
            "--fen",
            OPEN,
            "--max-entries",
            "1",
            "-",
            "-q",
        ],
        Some(&games()),
    );
    assert_eq!(out(&o).lines().count(), 1);
    assert!(
        err(&o).contains("kifu explore: 1 play of moves past --max-entries 1 not counted"),
        "{}",
        err(&o)
    );
    // the table
    let table = run(&["explore", "--fen", OPEN]).1;
    assert!(
        table.starts_with("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -\n"),
        "{table}"
    );
    assert!(table.contains("Bb5"), "{table}");
}

/// Games whose main line ends at the position: an `end` row (`uci` null) counted like any
/// move, ordered by its games (after the moves of as many, as the Go explorer's `end`), and
/// the games matched on stderr as many as `find -c` counts.
#[test]
fn explore_counts_the_games_that_end_at_the_position() {
    let pgn = b"[Result \"0-1\"]\n[BlackElo \"1600\"]\n[Date \"2020.01.01\"]\n\n1. e4 e5 0-1\n\n\
        [Result \"1-0\"]\n[BlackElo \"1500\"]\n[Date \"2021.02.02\"]\n\n1. e4 1-0\n\n\
        [Result \"*\"]\n[BlackElo \"1700\"]\n[Date \"2022.03.03\"]\n\n1. e4 *\n\n\
        [Result \"1/2-1/2\"]\n\n1. e4 c5 1/2-1/2\n\n\
        [Result \"*\"]\n\n1. e4 c5 2. Nf3 *\n\n";
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
    let o = kifu(&["find", "-c", "--fen", after_e4, "-"], Some(pgn));
    assert_eq!(out(&o).trim(), "5", "{}", err(&o));
    let o = kifu(&["explore", "--json", "--fen", after_e4, "-"], Some(pgn));
    assert_eq!(code(&o), 0, "{}", err(&o));
    let rows: Vec<serde_json::Value> = out(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let moves: Vec<_> = rows
        .iter()
        .map(|r| (r["san"].as_str().unwrap(), r["games"].as_u64().unwrap()))
        .collect();
    assert_eq!(moves, [("c5", 2), ("end", 2), ("e5", 1)], "{rows:?}");
    let end = &rows[1];
    assert_eq!(end["uci"], serde_json::Value::Null);
    assert_eq!(end["fen"], after_e4);
    assert_eq!(
        (
            end["white"].as_u64(),
            end["draws"].as_u64(),
            end["black"].as_u64()
        ),
        (Some(1), Some(0), Some(0)),
        "the `*` game counts in no result"
    );
    assert_eq!(
        (&end["white_share"], &end["black_share"]),
        (&serde_json::json!(1.0), &serde_json::json!(0.0))
    );
    assert_eq!(end["mean_elo"], 1600.0, "Black to move: Black's ratings");
    assert_eq!(end["last_date"], "2022.03.03");
    assert_eq!(end["game"], 2, "the first game that ended there");
    // the table: an `end` line, the total of `find -c`
    let o = kifu(&["explore", "--fen", after_e4, "-"], Some(pgn));
    let table = out(&o);
    assert!(
        table.contains("\n  end             2  100.0%    0.0%    0.0%   1600 2022.03.03  -:2\n"),
        "{table}"
    );
    assert!(
        err(&o).contains("kifu explore: 5 games matched\n"),
        "{}",
        err(&o)
    );
    // the same count for the start: no game ends there
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let o = kifu(&["explore", "--fen", start, "-"], Some(pgn));
    assert!(!out(&o).contains("end"), "{}", out(&o));
    assert!(
        err(&o).contains("kifu explore: 5 games matched\n"),
        "{}",
        err(&o)
    );
}

/// A row none of whose games has a known result (`*`) has no shares: `-` in the table, `null`
/// in JSON, as the mean rating when no game has one; one game matched is said in the singular.
#[test]
fn explore_shares_of_unknown_results_and_one_game() {
    // after 1. e4 e5 2. d4: game 5 only, whose result is `*`
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq -";
    let rows = explore(&["--fen", fen]);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        (rows[0]["san"].as_str(), rows[0]["games"].as_u64()),
        (Some("exd4"), Some(1))
    );
    for share in ["white_share", "draw_share", "black_share"] {
        assert_eq!(rows[0][share], serde_json::Value::Null, "{share}: {rows:?}");
    }
    let o = kifu(&["explore", "--fen", fen, "-"], Some(&games()));
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(
        out(&o).contains("\n  exd4            1       -       -       -   1500 2018.??.??  -:5\n"),
        "{}",
        out(&o)
    );
    assert!(
        err(&o).contains("kifu explore: 1 game matched\n"),
        "{}",
        err(&o)
    );
    // two games: the plural
    let o = kifu(&["explore", "--fen", OPEN, "-"], Some(&games()));
    assert!(
        err(&o).contains("kifu explore: 3 games matched\n"),
        "{}",
        err(&o)
    );
}

/// Games that a reader must mend: text before the first game, problems inside games (a stray
/// `)`, a bad move number, a NAG out of range, an unclosed variation), a game without tags, one
/// with a `FEN` tag, one of a variant kifu does not replay, a result alone, escape lines,
/// comments before and after moves, a move that cannot be played, and a comment never closed
/// at the end.
fn damaged() -> Vec<u8> {
    let mut s = b"junk before any game ) }\n".to_vec();
    s.extend_from_slice(&games());
    s.extend_from_slice(
        b"[Event \"stray\"]\n\n1. e4 ) e5 2. Nf3 Nc6 $300 3. Bb5 {ok} 1-0\n\n\
          1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n\
          [Event \"numbers\"]\n\n1. e4 e5 7. Nf3 Nc6 (3... Nf6 4. d3 4. Bb5 *\n\n\
          [Event \"setup\"]\n[FEN \"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\"]\n\n\
          3. Bb5 a6 *\n\n\
          [Event \"variant\"]\n[Variant \"crazyhouse\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n\
          [Event \"result only\"]\n\n1-0\n\n\
          % an escape line\n[Event \"illegal\"]\n\n{before} 1. e4 e5 2. Ke3 Nc6 3. Nf3 *\n\n\
          [Event \"glued\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Qh5 Nf6 4. Qxf7#1-0\n\n\
          [Event \"open\"]\n\n1. e4 e5 2. Nf3 Nc6 {never closed\n",
    );
    s
}

/// `kifu` on `input` from stdin: exit status and output.
fn run_on(input: &[u8], args: &[&str]) -> (i32, Vec<u8>) {
    let mut all = args.to_vec();
    all.extend(["-", "-q"]);
    let o = kifu(&all, Some(input));
    assert!(code(&o) <= 1, "{args:?}: {}", err(&o));
    (code(&o), o.stdout)
}

/// The query forms the event search runs for, with the outputs that build games.
const SIEVED: &[&[&str]] = &[
    &["find", "--fen", OPEN],
    &["find", "--fen", OPEN, "--to", "jsonl"],
    &["find", "--subfen", "8/8/2n5/1B6/8/8/8/8", "--to", "jsonl"],
    &["find", "--material", "Q=0 q=0", "--to", "jsonl"],
    &[
        "find",
        "--subfen",
        "8/8/8/8/4P3/8/8/8",
        "--then",
        "material:Q=0",
        "--to",
        "jsonl",
    ],
    &["find", "--subfen", "8/8/8/8/3N4/8/8/8", "--max-ply", "8"],
    // games written from their events, and given to the builder where they outgrow a small
    // limit of bytes (the hold's span and room)
    &["find", "--fen", OPEN, "--max-game-bytes", "300"],
    &[
        "find",
        "--subfen",
        "8/8/2n5/1B6/8/8/8/8",
        "--max-game-bytes",
        "250",
    ],
    &["find", "-c", "--fen", OPEN, "-w", "year>=2019"],
    &["find", "--fen", OPEN, "-w", "speed=blitz"],
    &[
        "find",
        "--fen",
        OPEN,
        "--max-game-bytes",
        "300",
        "--to",
        "jsonl",
    ],
    &["explore", "--fen", OPEN, "--json"],
    &[
        "explore",
        "--subfen",
        "8/8/2n5/8/8/8/8/8 w",
        "--json",
        "--by",
        "speed",
    ],
    &["explore", "--fen", OPEN, "-w", "year>=2019", "--json"],
];

/// The search on the parser's events writes what the search of every game built writes.
#[test]
fn event_search_writes_what_the_dom_search_writes() {
    for input in [games(), damaged(), damaged().repeat(30)] {
        for args in SIEVED {
            let sieved = run_on(&input, args);
            let mut dom = args.to_vec();
            dom.push("--dom-search");
            assert_eq!(sieved, run_on(&input, &dom), "{args:?}");
            for j in ["1", "2"] {
                let mut cut = args.to_vec();
                cut.extend(["-j", j, "--piece-size", "200"]);
                assert_eq!(sieved, run_on(&input, &cut), "{args:?} -j{j}");
            }
        }
    }
    // the damaged games matched, with what their readers said about them
    let (_, out) = run_on(&damaged(), &["find", "--fen", OPEN, "--to", "jsonl"]);
    let lines: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let plies: Vec<_> = lines.iter().map(|g| g["matched_plies"].clone()).collect();
    assert_eq!(lines.len(), 9, "{plies:?}");
    assert!(
        lines[0]["errors"].to_string().contains("unexpected_text"),
        "{}",
        lines[0]
    );
    assert!(
        lines
            .iter()
            .any(|g| g["matched_plies"] == serde_json::json!([0])),
        "the game from the FEN tag: {plies:?}"
    );
    assert!(
        lines.last().unwrap()["errors"]
            .to_string()
            .contains("unterminated_comment"),
        "{}",
        lines.last().unwrap()
    );
}

/// `filter --reaches` alone writes its games from the parser's events: what the search of every
/// game built writes, damaged games included (those go to the builder), at every thread count.
#[test]
fn filter_reaches_writes_what_the_dom_search_writes() {
    for input in [games(), damaged(), damaged().repeat(30)] {
        let built = run_on(&input, &["find", "--fen", OPEN, "--dom-search"]);
        assert!(!built.1.is_empty());
        for j in ["1", "2"] {
            let args = ["filter", "--reaches", OPEN, "-j", j, "--piece-size", "200"];
            assert_eq!(run_on(&input, &args), built, "-j{j}");
        }
    }
}

/// The same on the corpus's small files (the readers' test files, damaged ones among them):
/// the games written and explored, both ways. (docs/figures.md § Finding positions: the same
/// on the whole PGN corpus, for every query form.)
#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn event_search_writes_what_the_dom_search_writes_on_the_corpus() {
    let corpus = kifu_testkit::shared()
        .join("corpus")
        .join("pgn")
        .join("small");
    let corpus = corpus.to_str().unwrap();
    for args in [
        &["find", "--fen", OPEN, "--to", "jsonl"][..],
        &["find", "--subfen", "8/8/2n5/1B6/8/8/8/8"],
        &["find", "--material", "KRPkr", "--to", "jsonl"],
        &[
            "find",
            "-c",
            "--subfen",
            "5rk1/8/8/8/8/8/8/5RK1",
            "-w",
            "year>=2000",
        ],
        &["explore", "--fen", OPEN, "--json"],
    ] {
        let go = |extra: &[&str]| {
            let mut all = args.to_vec();
            all.extend(extra);
            all.extend([corpus, "-q"]);
            let o = kifu(&all, None);
            assert!(code(&o) <= 2, "{args:?}: {}", err(&o));
            (code(&o), o.stdout)
        };
        let sieved = go(&["-j", "2"]);
        assert!(!sieved.1.is_empty(), "{args:?}");
        assert_eq!(sieved, go(&["-j", "2", "--dom-search"]), "{args:?}");
        assert_eq!(sieved, go(&["-j", "1"]), "{args:?}");
    }
}
