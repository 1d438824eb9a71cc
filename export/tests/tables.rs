//! The tables' values, column by column, on small games whose answers are known.

mod common;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Float64Type, Int16Type, Int32Type, Int64Type, Time64MicrosecondType,
};
use arrow_array::{Array, RecordBatch};
use common::{pgn_batch, sgf_batch};
use kifu_export::{Builder, Charset, PushError, Shift, Table, TableOptions, rebase, schema};

fn strs(batch: &RecordBatch, name: &str) -> Vec<Option<String>> {
    let a = batch.column_by_name(name).unwrap().as_string::<i32>();
    (0..a.len())
        .map(|i| a.is_valid(i).then(|| a.value(i).to_string()))
        .collect()
}

fn i64s(batch: &RecordBatch, name: &str) -> Vec<i64> {
    batch
        .column_by_name(name)
        .unwrap()
        .as_primitive::<Int64Type>()
        .values()
        .to_vec()
}

fn i32s(batch: &RecordBatch, name: &str) -> Vec<Option<i32>> {
    let a = batch
        .column_by_name(name)
        .unwrap()
        .as_primitive::<Int32Type>();
    (0..a.len())
        .map(|i| a.is_valid(i).then(|| a.value(i)))
        .collect()
}

/// The map column's entries of row `row`.
fn map_row(batch: &RecordBatch, name: &str, row: usize) -> Vec<(String, String)> {
    let m = batch.column_by_name(name).unwrap().as_map();
    let e = m.value(row);
    let (k, v) = (
        e.column(0).as_string::<i32>(),
        e.column(1).as_string::<i32>(),
    );
    (0..e.len())
        .map(|i| (k.value(i).to_string(), v.value(i).to_string()))
        .collect()
}

fn list_strs(batch: &RecordBatch, name: &str, row: usize) -> Vec<Option<String>> {
    let l = batch
        .column_by_name(name)
        .unwrap()
        .as_list::<i32>()
        .value(row);
    let s = l.as_string::<i32>();
    (0..s.len())
        .map(|i| s.is_valid(i).then(|| s.value(i).to_string()))
        .collect()
}

const LICHESS: &[u8] = b"[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/abc\"]\n\
[Date \"2024.01.31\"]\n[White \"alice\"]\n[Black \"bob\"]\n[Result \"1-0\"]\n\
[UTCDate \"2024.01.31\"]\n[UTCTime \"23:59:01\"]\n[WhiteElo \"1500\"]\n[BlackElo \"?\"]\n\
[WhiteRatingDiff \"+7\"]\n[BlackRatingDiff \"-7\"]\n[WhiteTitle \"FM\"]\n[ECO \"C20\"]\n\
[Opening \"King's Pawn Game\"]\n[TimeControl \"180+2\"]\n[Termination \"Normal\"]\n\
[Annotator \"x\"]\n[Foo \"bar\"]\n[Foo \"baz\"]\n[ECO \"C21\"]\n\n\
1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%eval #-3] [%clk 0:02:58.5] } \
2. Qh5?! { [%clk 0:02:59] } 1-0\n\n\
[Event \"?\"]\n[Date \"1851.??.??\"]\n\n1. d4 oh? d5 *\n";

#[test]
fn games_tags_typed_and_raw() {
    let b = pgn_batch(Table::PgnGames, &TableOptions::default(), "x.pgn", LICHESS);
    assert_eq!(b.num_rows(), 2);
    assert_eq!(
        strs(&b, "file"),
        [Some("x.pgn".into()), Some("x.pgn".into())]
    );
    assert_eq!(i64s(&b, "game_index"), [0, 1]);
    assert_eq!(strs(&b, "Event")[0].as_deref(), Some("Rated Blitz game"));
    assert_eq!(strs(&b, "Event")[1].as_deref(), Some("?"));
    assert_eq!(strs(&b, "Round"), [None, None]);
    let elo = b
        .column_by_name("WhiteElo")
        .unwrap()
        .as_primitive::<Int16Type>();
    assert_eq!((elo.value(0), elo.is_null(1)), (1500, true));
    let belo = b
        .column_by_name("BlackElo")
        .unwrap()
        .as_primitive::<Int16Type>();
    assert!(belo.is_null(0));
    let diff = b
        .column_by_name("WhiteRatingDiff")
        .unwrap()
        .as_primitive::<Int16Type>();
    assert_eq!(diff.value(0), 7);
    let date = b
        .column_by_name("UTCDate")
        .unwrap()
        .as_primitive::<Date32Type>();
    assert_eq!(date.value(0), 19753);
    let time = b
        .column_by_name("UTCTime")
        .unwrap()
        .as_primitive::<Time64MicrosecondType>();
    assert_eq!(time.value(0), 86_341_000_000);
    let d = b
        .column_by_name("Date")
        .unwrap()
        .as_primitive::<Date32Type>();
    assert_eq!((d.value(0), d.is_null(1)), (19753, true));
    // the raw text of what did not read, the other tags, the duplicates: all in the map
    let mut m = map_row(&b, "tags", 0);
    m.sort();
    assert_eq!(
        m,
        [
            ("BlackElo".into(), "?".into()),
            ("ECO".into(), "C21".into()),
            ("Foo".into(), "bar\nbaz".into()),
        ]
    );
    assert_eq!(
        map_row(&b, "tags", 1),
        [("Date".into(), "1851.??.??".into())]
    );
    assert_eq!(strs(&b, "Annotator")[0].as_deref(), Some("x"));
}

fn i16s(batch: &RecordBatch, name: &str) -> Vec<Option<i16>> {
    let a = batch
        .column_by_name(name)
        .unwrap()
        .as_primitive::<Int16Type>();
    (0..a.len())
        .map(|i| a.is_valid(i).then(|| a.value(i)))
        .collect()
}

fn f64s(batch: &RecordBatch, name: &str) -> Vec<Option<f64>> {
    let a = batch
        .column_by_name(name)
        .unwrap()
        .as_primitive::<Float64Type>();
    (0..a.len())
        .map(|i| a.is_valid(i).then(|| a.value(i)))
        .collect()
}

#[test]
fn games_time_controls_and_speeds() {
    let mut pgn = String::new();
    for tc in [
        "180+2",
        "15+0",
        "60",
        "1800+30",
        "40/9000:300",
        "*60",
        "-",
        "?",
        "720+1.2",
        "15 min",
    ] {
        pgn.push_str(&format!("[TimeControl \"{tc}\"]\n\n1. e4 *\n\n"));
    }
    pgn.push_str("1. d4 *\n");
    let b = pgn_batch(
        Table::PgnGames,
        &TableOptions::default(),
        "t.pgn",
        pgn.as_bytes(),
    );
    let names: Vec<String> = b
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    let at = |n: &str| names.iter().position(|x| x == n).unwrap();
    assert_eq!(
        (at("tc_base"), at("tc_increment"), at("speed")),
        (at("BlackTeam") + 1, at("BlackTeam") + 2, at("tags") - 3)
    );
    // the game keys `year` and `month` follow, read from the tags too
    assert_eq!((at("year"), at("month")), (at("speed") + 1, at("tags") - 1));
    let n = None;
    assert_eq!(
        i32s(&b, "tc_base"),
        [
            Some(180),
            Some(15),
            Some(60),
            Some(1800),
            n,
            n,
            n,
            n,
            Some(720),
            n,
            n
        ]
    );
    assert_eq!(
        i32s(&b, "tc_increment"),
        [Some(2), Some(0), Some(0), Some(30), n, n, n, n, n, n, n]
    );
    let speed: Vec<Option<&str>> = ["blitz", "ultraBullet", "bullet", "classical", "classical"]
        .into_iter()
        .map(Some)
        .chain([
            Some("bullet"),
            Some("correspondence"),
            None,
            Some("rapid"),
            None,
            None,
        ])
        .collect();
    assert_eq!(
        strs(&b, "speed"),
        speed
            .iter()
            .map(|s| s.map(String::from))
            .collect::<Vec<_>>()
    );
    // the tag keeps its text, and nothing goes to the map
    assert_eq!(strs(&b, "TimeControl")[4].as_deref(), Some("40/9000:300"));
    assert_eq!(strs(&b, "TimeControl")[9].as_deref(), Some("15 min"));
    assert!(map_row(&b, "tags", 9).is_empty());
    // projected alone, as from the tags only
    let mut only = Builder::new(Table::PgnGames, &TableOptions::default())
        .project(&["speed", "tc_increment"])
        .unwrap();
    for g in kifu::pgn::Games::new(pgn.as_bytes()) {
        only.push_pgn("t.pgn", &g).unwrap();
    }
    let o = only.finish();
    assert_eq!(o.num_columns(), 2);
    assert_eq!(strs(&o, "speed"), strs(&b, "speed"));
}

#[test]
fn games_openings_named_from_the_moves() {
    let pgn = concat!(
        // the Najdorf by its usual order, and by a transposition (2... d6 3. Nf3): the same name
        "[ECO \"A00\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be2 e5 *\n\n",
        "1. e4 c5 2. Nc3 d6 3. Nf3 Nf6 4. d4 cxd4 5. Nxd4 a6 *\n\n",
        // no move; a set-up position; a game cut by an illegal move after 1. e4
        "*\n\n",
        "[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n1. Kb1 *\n\n",
        "1. e4 Ke6 2. d4 *\n",
    );
    let b = pgn_batch(
        Table::PgnGames,
        &TableOptions::default(),
        "o.pgn",
        pgn.as_bytes(),
    );
    let eco = strs(&b, "opening_eco");
    let name = strs(&b, "opening_name");
    let ply = i32s(&b, "opening_ply");
    assert_eq!(
        eco[0].as_deref(),
        Some("B92"),
        "the tags say A00: the moves decide"
    );
    assert_eq!(
        name[0].as_deref(),
        Some("Sicilian Defense: Najdorf Variation, Opocensky Variation")
    );
    assert_eq!(ply[0], Some(11));
    assert_eq!(eco[1].as_deref(), Some("B90"));
    assert_eq!(
        name[1].as_deref(),
        Some("Sicilian Defense: Najdorf Variation")
    );
    assert_eq!(ply[1], Some(10));
    assert_eq!((eco[2].as_deref(), ply[2]), (None, None), "no move");
    assert_eq!(
        (eco[3].as_deref(), name[3].as_deref()),
        (None, None),
        "from a FEN"
    );
    assert_eq!(
        eco[4].as_deref(),
        Some("B00"),
        "1. e4, named before the illegal move"
    );
    assert_eq!(ply[4], Some(1));
    // asked for alone, the columns are the same
    let mut only = Builder::new(Table::PgnGames, &TableOptions::default())
        .project(&["opening_eco", "opening_ply"])
        .unwrap();
    for g in kifu::pgn::Games::new(pgn.as_bytes()) {
        only.push_pgn("o.pgn", &g).unwrap();
    }
    let only = only.finish();
    assert_eq!(only.num_columns(), 2);
    assert_eq!(
        (strs(&only, "opening_eco"), i32s(&only, "opening_ply")),
        (eco, ply)
    );
}

#[test]
fn games_moves_clocks_evals() {
    let b = pgn_batch(Table::PgnGames, &TableOptions::default(), "x.pgn", LICHESS);
    assert_eq!(
        strs(&b, "movetext")[0].as_deref(),
        Some(
            "1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%eval #-3] [%clk 0:02:58.5] } 2. Qh5 $6 { [%clk 0:02:59] } 1-0"
        )
    );
    assert_eq!(strs(&b, "movetext")[1].as_deref(), Some("1. d4 d5 *"));
    assert_eq!(
        list_strs(&b, "moves", 0),
        [Some("e4".into()), Some("e5".into()), Some("Qh5".into())]
    );
    let clocks = b.column_by_name("clocks").unwrap().as_list::<i32>();
    let c0 = clocks.value(0);
    assert_eq!(
        c0.as_primitive::<Float64Type>().values().to_vec(),
        [180.0, 178.5, 179.0]
    );
    assert!(
        clocks.is_null(1),
        "no clock in the game: null, not a list of nulls"
    );
    let evals = b.column_by_name("evals").unwrap().as_list::<i32>();
    let e0 = evals.value(0);
    let e0 = e0.as_struct();
    let cp = e0.column(0).as_primitive::<Int32Type>();
    let mate = e0.column(1).as_primitive::<Int32Type>();
    assert_eq!((cp.value(0), mate.is_null(0)), (20, true));
    assert_eq!((cp.is_null(1), mate.value(1)), (true, -3));
    assert!(e0.is_null(2), "the third move has no eval");
    assert_eq!(i32s(&b, "plies"), [Some(3), Some(2)]);
    assert_eq!(strs(&b, "outcome"), [Some("1-0".into()), Some("*".into())]);
    assert_eq!(i32s(&b, "error_count"), [Some(0), Some(1)]);
    let errors = b.column_by_name("errors").unwrap().as_list::<i32>();
    let e1 = errors.value(1);
    let e1 = e1.as_struct();
    let col = |n: &str| {
        e1.column_by_name(n)
            .unwrap()
            .as_string::<i32>()
            .value(0)
            .to_string()
    };
    assert_eq!(col("kind"), "unexpected_text");
    assert_eq!(col("text"), "oh?");
    assert_eq!(col("move"), "1w");
    assert_eq!(col("severity"), "error");
    let line = e1
        .column_by_name("line")
        .unwrap()
        .as_primitive::<Int64Type>()
        .value(0);
    assert_eq!(line, 28);
}

#[test]
fn movetext_wrapped_on_request() {
    let opts = TableOptions {
        movetext_width: Some(20),
        ..TableOptions::default()
    };
    let b = pgn_batch(
        Table::PgnGames,
        &opts,
        "x",
        b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *",
    );
    let text = strs(&b, "movetext")[0].clone().unwrap();
    assert!(
        text.contains('\n') && text.lines().all(|l| l.len() <= 20),
        "{text}"
    );
}

#[test]
fn moves_main_line() {
    let pgn = b"[FEN \"8/8/8/8/8/8/8/K6k b - - 0 14\"]\n\n14... Kg1 {hi [%clk 0:00:10]} 15. Kb1 $1 $14 (15. Ka2) *";
    let b = pgn_batch(Table::PgnMoves, &TableOptions::default(), "f", pgn);
    assert_eq!(b.num_rows(), 2);
    assert_eq!(i32s(&b, "ply"), [Some(28), Some(29)]);
    assert_eq!(i32s(&b, "move_number"), [Some(14), Some(15)]);
    // spelt as the SGF tables spell a colour
    assert_eq!(
        strs(&b, "color"),
        [Some("black".into()), Some("white".into())]
    );
    assert_eq!(strs(&b, "san"), [Some("Kg1".into()), Some("Kb1".into())]);
    assert_eq!(strs(&b, "comment"), [Some("hi".into()), None]);
    let clock = b
        .column_by_name("clock")
        .unwrap()
        .as_primitive::<Float64Type>();
    assert_eq!((clock.value(0), clock.is_null(1)), (10.0, true));
    let nags = b.column_by_name("nags").unwrap().as_list::<i32>();
    assert_eq!(
        nags.value(1).as_primitive::<Int16Type>().values().to_vec(),
        [1, 14]
    );
    assert!(b.schema().field_with_name("line").is_err());
}

#[test]
fn moves_with_variations_name_their_line() {
    let pgn = b"1. e4 e5 (1... c5 2. Nf3 (2. Nc3) d6) (1... e6) 2. Nf3 *";
    let opts = TableOptions {
        variations: true,
        ..TableOptions::default()
    };
    let mut builder = Builder::new(Table::PgnMoves, &opts);
    let game = kifu::pgn::Games::new(pgn).next().unwrap();
    builder.push_pgn("f", &game).unwrap();
    let b = builder.finish();
    let san: Vec<_> = strs(&b, "san").into_iter().map(Option::unwrap).collect();
    assert_eq!(san, ["e4", "e5", "Nf3", "c5", "Nf3", "d6", "Nc3", "e6"]);
    assert_eq!(
        i32s(&b, "line"),
        [0, 0, 0, 1, 1, 1, 2, 3].map(Some).to_vec()
    );
    assert_eq!(
        i32s(&b, "parent_line"),
        [
            None,
            None,
            None,
            Some(0),
            Some(0),
            Some(0),
            Some(1),
            Some(0)
        ]
    );
    assert_eq!(
        i32s(&b, "depth"),
        [0, 0, 0, 1, 1, 1, 2, 1].map(Some).to_vec()
    );
    assert_eq!(i32s(&b, "ply"), [1, 2, 3, 2, 3, 4, 3, 2].map(Some).to_vec());
}

#[test]
fn replayed_columns_follow_every_line() {
    let opts = TableOptions {
        variations: true,
        replay: true,
        ..TableOptions::default()
    };
    let mut builder = Builder::new(Table::PgnMoves, &opts);
    // the rows list the main line first, then each variation: the replay walks in text order
    let game = kifu::pgn::Games::new(b"1. e4 e5 (1... c5 2. Nf3 (2. Nc3)) 2. Nf3 Qxf2 *")
        .next()
        .unwrap();
    builder.push_pgn("f", &game).unwrap();
    let b = builder.finish();
    let names: Vec<_> = b
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names[names.len() - 3..], ["uci", "fen", "key"]);
    let uci = strs(&b, "uci");
    let san = strs(&b, "san");
    let by_san: Vec<_> = san
        .iter()
        .zip(&uci)
        .map(|(s, u)| (s.as_deref().unwrap(), u.as_deref()))
        .collect();
    assert_eq!(
        by_san,
        [
            ("e4", Some("e2e4")),
            ("e5", Some("e7e5")),
            ("Nf3", Some("g1f3")),
            ("Qxf2", None),
            ("c5", Some("c7c5")),
            ("Nf3", Some("g1f3")),
            ("Nc3", Some("b1c3")),
        ]
    );
    assert!(
        strs(&b, "fen")[4]
            .as_deref()
            .unwrap()
            .starts_with("rnbqkbnr/pp1ppppp/8/2p5/4P3")
    );
    // kept out of a projection, the replay is not done
    let kept = Builder::new(Table::PgnMoves, &opts)
        .project(&["san"])
        .unwrap();
    assert_eq!(kept.schema().fields().len(), 1);
}

#[test]
fn sgf_trees_root_properties() {
    let sgf = "(;GM[1]FF[4]CA[UTF-8]SZ[19:13]PB[Shūsaku]PW[Gennan]KM[6.5]HA[x]RE[B+2]\
        AB[aa][bb]XX[1];B[pd]C[first];W[tt];B[dp](;W[dd])(;W[cc]))(;SZ[9];B[ee])";
    let b = sgf_batch(
        Table::SgfTrees,
        &TableOptions::default(),
        "g.sgf",
        sgf.as_bytes(),
    );
    assert_eq!(b.num_rows(), 2);
    assert_eq!(strs(&b, "PB")[0].as_deref(), Some("Shūsaku"));
    assert_eq!(i32s(&b, "SZ"), [None, Some(9)]);
    assert_eq!(i32s(&b, "board_cols"), [Some(19), Some(9)]);
    assert_eq!(i32s(&b, "board_rows"), [Some(13), Some(9)]);
    assert_eq!(i32s(&b, "HA"), [None, None]);
    let km = b
        .column_by_name("KM")
        .unwrap()
        .as_primitive::<Float64Type>();
    assert_eq!(km.value(0), 6.5);
    // other properties, and the raw text of what did not read, in the map of lists
    let m = b.column_by_name("props").unwrap().as_map();
    let e = m.value(0);
    let keys = e.column(0).as_string::<i32>();
    let vals = e.column(1).as_list::<i32>();
    let entries: Vec<(String, Vec<String>)> = (0..e.len())
        .map(|i| {
            let v = vals.value(i);
            let v = v.as_string::<i32>();
            (
                keys.value(i).to_string(),
                (0..v.len()).map(|k| v.value(k).to_string()).collect(),
            )
        })
        .collect();
    assert_eq!(
        entries,
        [
            ("SZ".to_string(), vec!["19:13".to_string()]),
            ("HA".into(), vec!["x".into()]),
            ("AB".into(), vec!["aa".into(), "bb".into()]),
            ("XX".into(), vec!["1".into()]),
        ]
    );
    // on 19x13, W[tt] is a pass (null) and B[dp] (row 16) is off the board: no move
    assert_eq!(
        list_strs(&b, "moves", 0),
        [Some("pd".into()), None, Some("dd".into())]
    );
    assert_eq!(strs(&b, "colors")[0].as_deref(), Some("BWW"));
    assert_eq!(i32s(&b, "plies"), [Some(3), Some(1)]);
    assert_eq!(i64s(&b, "nodes"), [6, 2]);
    assert_eq!(i64s(&b, "variations"), [1, 0]);
    assert_eq!(strs(&b, "charset")[0].as_deref(), Some("UTF-8"));
}

#[test]
fn sgf_trees_ranks_and_results() {
    let mut sgf = String::new();
    for (br, wr, re) in [
        ("7d", "3k", "B+R"),
        ("9p", "1d*", "W+3.5"),
        ("P9段", "2级", "W+T"),
        ("9 dan", "30k?", "B+F"),
        ("?", "NR", "0"),
        ("-", "", "Void"),
        ("Pro 1 dan", "5단", "?"),
        ("1500*", "6D", "B+"),
        ("3段", "9-dan", "John wins"),
    ] {
        sgf.push_str(&format!("(;GM[1]BR[{br}]WR[{wr}]RE[{re}];B[pd])"));
    }
    sgf.push_str("(;GM[1];B[pd])");
    let b = sgf_batch(
        Table::SgfTrees,
        &TableOptions::default(),
        "r.sgf",
        sgf.as_bytes(),
    );
    let names: Vec<String> = b
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    let after_board: Vec<&str> = names
        .iter()
        .skip_while(|n| *n != "board_rows")
        .skip(1)
        .take(9)
        .map(String::as_str)
        .collect();
    assert_eq!(
        after_board,
        [
            "black_rank",
            "white_rank",
            "year",
            "month",
            "outcome",
            "winner",
            "win_by",
            "margin",
            "props"
        ]
    );
    assert_eq!(
        after_board[..8],
        kifu_export::SGF_GAME_INFO_COLUMNS,
        "the constant names the columns"
    );
    let n = None;
    assert_eq!(
        i16s(&b, "black_rank"),
        [
            Some(7),
            Some(18),
            Some(18),
            Some(9),
            n,
            n,
            Some(10),
            n,
            Some(3),
            n
        ]
    );
    assert_eq!(
        i16s(&b, "white_rank"),
        [
            Some(-3),
            Some(1),
            Some(-2),
            Some(-30),
            n,
            n,
            Some(5),
            Some(6),
            Some(9),
            n
        ]
    );
    let s = |v: &[Option<&str>]| v.iter().map(|s| s.map(String::from)).collect::<Vec<_>>();
    let (b_, w_, n) = (Some("black"), Some("white"), None);
    assert_eq!(strs(&b, "winner"), s(&[b_, w_, w_, b_, n, n, n, b_, n, n]));
    assert_eq!(
        strs(&b, "win_by"),
        s(&[
            Some("resign"),
            Some("points"),
            Some("time"),
            Some("forfeit"),
            Some("draw"),
            Some("void"),
            n,
            n,
            n,
            n
        ])
    );
    let n = None;
    assert_eq!(f64s(&b, "margin"), [n, Some(3.5), n, n, n, n, n, n, n, n]);
    // beside the raw text
    assert_eq!(strs(&b, "BR")[2].as_deref(), Some("P9段"));
    assert_eq!(strs(&b, "RE")[8].as_deref(), Some("John wins"));
}

#[test]
fn sgf_pass_is_null_and_moves_rows() {
    let sgf = b"(;SZ[19];B[pd]C[a \\] b];W[tt];B[]C[x][y])";
    let t = sgf_batch(Table::SgfTrees, &TableOptions::default(), "g", sgf);
    assert_eq!(list_strs(&t, "moves", 0), [Some("pd".into()), None, None]);
    let b = sgf_batch(Table::SgfMoves, &TableOptions::default(), "g", sgf);
    assert_eq!(b.num_rows(), 3);
    assert_eq!(strs(&b, "point"), [Some("pd".into()), None, None]);
    assert_eq!(
        strs(&b, "color"),
        [
            Some("black".into()),
            Some("white".into()),
            Some("black".into())
        ]
    );
    assert_eq!(i32s(&b, "ply"), [Some(1), Some(2), Some(3)]);
    assert_eq!(i32s(&b, "node"), [Some(1), Some(2), Some(3)]);
    let x = b.column_by_name("x").unwrap().as_primitive::<Int16Type>();
    assert_eq!((x.value(0), x.is_null(1)), (15, true));
    assert_eq!(
        strs(&b, "comment"),
        [Some("a ] b".into()), None, Some("x\ny".into())]
    );
}

#[test]
fn sgf_trees_errors_have_kind_and_code() {
    let b = sgf_batch(
        Table::SgfTrees,
        &TableOptions::default(),
        "g",
        b"(;SZ[9];B[zz])",
    );
    assert_eq!(i32s(&b, "error_count"), [Some(1)]);
    let errors = b.column_by_name("errors").unwrap().as_list::<i32>();
    let e0 = errors.value(0);
    let e0 = e0.as_struct();
    let col = |n: &str| {
        e0.column_by_name(n)
            .unwrap()
            .as_string::<i32>()
            .value(0)
            .to_string()
    };
    assert_eq!(
        (col("kind"), col("code"), col("severity"), col("text")),
        (
            "illegal_point".into(),
            "E14".into(),
            "error".into(),
            "zz".into()
        )
    );
}

#[test]
fn sgf_charset_from_ca_and_fixed() {
    let mut sgf = b"(;CA[GB2312]PB[".to_vec();
    sgf.extend_from_slice(b"\xb9\xc5\xc1\xa6");
    sgf.extend_from_slice(b"];B[aa])");
    let b = sgf_batch(Table::SgfTrees, &TableOptions::default(), "g", &sgf);
    assert_eq!(strs(&b, "PB")[0].as_deref(), Some("古力"));
    assert_eq!(strs(&b, "charset")[0].as_deref(), Some("GBK"));
    let latin = TableOptions {
        charset: Charset::by_name("latin1").unwrap(),
        ..TableOptions::default()
    };
    let b = sgf_batch(Table::SgfTrees, &latin, "g", &sgf);
    assert_eq!(strs(&b, "charset")[0].as_deref(), Some("windows-1252"));
}

#[test]
fn json_rows_are_kifu_json_objects() {
    let b = pgn_batch(Table::PgnJson, &TableOptions::default(), "x.pgn", LICHESS);
    let games: Vec<_> = kifu::pgn::Games::new(LICHESS).collect();
    for (i, g) in games.iter().enumerate() {
        let mut whole: serde_json::Value = serde_json::to_value(g).unwrap();
        let row: serde_json::Value =
            serde_json::from_str(strs(&b, "json")[i].as_deref().unwrap()).unwrap();
        let obj = whole.as_object_mut().unwrap();
        obj.remove("index");
        obj.remove("offset");
        assert_eq!(&row, &whole);
    }
    assert_eq!(i64s(&b, "byte_offset"), [0, games[1].offset as i64]);
}

#[test]
fn wrong_format_is_refused() {
    let mut b = Builder::new(Table::SgfTrees, &TableOptions::default());
    let g = kifu::pgn::Games::new(b"1. e4 *").next().unwrap();
    assert!(matches!(
        b.push_pgn("f", &g),
        Err(PushError::WrongFormat { .. })
    ));
    assert_eq!(b.rows(), 0);
}

#[test]
fn schemas_are_what_the_builders_make() {
    for table in Table::ALL {
        for variations in [false, true] {
            let opts = TableOptions {
                variations,
                ..TableOptions::default()
            };
            let mut b = Builder::new(table, &opts);
            if table.is_sgf() {
                for t in kifu::sgf::game_trees(b"(;GM[1]SZ[9];B[aa]C[x])") {
                    b.push_sgf("f", &t).unwrap();
                }
            } else {
                for g in kifu::pgn::Games::new(LICHESS) {
                    b.push_pgn("f", &g).unwrap();
                }
            }
            let batch = b.finish();
            assert_eq!(batch.schema(), schema(table, &opts), "{table:?}");
            assert!(batch.num_rows() > 0);
            // an empty batch too
            assert_eq!(b.finish().num_rows(), 0);
        }
    }
}

#[test]
fn rebase_shifts_keys_and_error_positions() {
    let b = pgn_batch(Table::PgnGames, &TableOptions::default(), "x", LICHESS);
    let s = rebase(
        &b,
        Shift {
            index: 5,
            offset: 100,
            line: 10,
        },
    )
    .unwrap();
    assert_eq!(i64s(&s, "game_index"), [5, 6]);
    assert_eq!(i64s(&s, "byte_offset")[0], 100);
    let errors = s
        .column_by_name("errors")
        .unwrap()
        .as_list::<i32>()
        .value(1);
    let line = errors
        .as_struct()
        .column_by_name("line")
        .unwrap()
        .as_primitive::<Int64Type>()
        .value(0);
    assert_eq!(line, 38);
    let byte_offset = |batch: &RecordBatch| {
        let errors = batch
            .column_by_name("errors")
            .unwrap()
            .as_list::<i32>()
            .value(1);
        errors
            .as_struct()
            .column_by_name("byte_offset")
            .unwrap()
            .as_primitive::<Int64Type>()
            .value(0)
    };
    assert_eq!(byte_offset(&s), byte_offset(&b) + 100);
    let m = pgn_batch(Table::PgnMoves, &TableOptions::default(), "x", LICHESS);
    let s = rebase(
        &m,
        Shift {
            index: 7,
            ..Shift::default()
        },
    )
    .unwrap();
    assert_eq!(i64s(&s, "game_index"), [7, 7, 7, 8, 8]);
    assert_eq!(rebase(&m, Shift::default()).unwrap(), m);
}

/// DuckDB's reserved words (`SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category
/// = 'reserved'`, DuckDB 2.0.0): a column named so must be quoted in every query.
const RESERVED: &[&str] = &[
    "all",
    "analyse",
    "analyze",
    "and",
    "any",
    "array",
    "as",
    "asc",
    "asymmetric",
    "both",
    "case",
    "cast",
    "check",
    "collate",
    "column",
    "constraint",
    "create",
    "default",
    "deferrable",
    "desc",
    "describe",
    "distinct",
    "do",
    "else",
    "end",
    "except",
    "false",
    "fetch",
    "for",
    "foreign",
    "from",
    "group",
    "having",
    "in",
    "initially",
    "intersect",
    "into",
    "lambda",
    "lateral",
    "leading",
    "limit",
    "not",
    "null",
    "offset",
    "on",
    "only",
    "or",
    "order",
    "pivot",
    "pivot_longer",
    "pivot_wider",
    "placing",
    "primary",
    "qualify",
    "references",
    "returning",
    "select",
    "show",
    "some",
    "summarize",
    "symmetric",
    "table",
    "then",
    "to",
    "trailing",
    "true",
    "union",
    "unique",
    "unpivot",
    "using",
    "variadic",
    "when",
    "where",
    "window",
    "with",
];

/// Every field of `fields` and of their structs, lists and maps, as `table.path`.
fn names(prefix: &str, fields: &arrow_schema::Fields, out: &mut Vec<(String, String)>) {
    use arrow_schema::DataType;
    for f in fields {
        out.push((format!("{prefix}{}", f.name()), f.name().clone()));
        let mut dt = f.data_type();
        while let DataType::List(item) = dt {
            dt = item.data_type();
        }
        if let DataType::Struct(inner) = dt {
            names(&format!("{prefix}{}.", f.name()), inner, out);
        }
    }
}

#[test]
fn no_column_is_a_reserved_word_of_sql() {
    let opts = TableOptions {
        variations: true,
        ..TableOptions::default()
    };
    for table in Table::ALL {
        let mut all = Vec::new();
        names("", schema(table, &opts).fields(), &mut all);
        for (path, name) in all {
            let lower = name.to_ascii_lowercase();
            assert!(
                !RESERVED.contains(&lower.as_str()),
                "{table:?}: {path} is a reserved word of SQL"
            );
        }
    }
}

/// A type as SQL sees it: nullability aside (a PGN game's moves are never null, an SGF pass
/// is).
fn shape(dt: &arrow_schema::DataType) -> String {
    use arrow_schema::DataType;
    match dt {
        DataType::List(item) => format!("list<{}>", shape(item.data_type())),
        DataType::Struct(fields) => {
            let inner: Vec<String> = fields
                .iter()
                .map(|f| format!("{}: {}", f.name(), shape(f.data_type())))
                .collect();
            format!("struct<{}>", inner.join(", "))
        }
        DataType::Map(entries, _) => format!("map<{}>", shape(entries.data_type())),
        other => other.to_string(),
    }
}

#[test]
fn one_name_one_type_in_every_table() {
    let opts = TableOptions {
        variations: true,
        ..TableOptions::default()
    };
    // a column of one name has one type, whichever table has it (the errors struct aside:
    // PGN's names a move, SGF's a node; their common fields are compared below)
    let mut seen: std::collections::HashMap<String, (Table, arrow_schema::DataType)> =
        Default::default();
    for table in Table::ALL {
        for f in schema(table, &opts).fields() {
            if f.name() == "errors" {
                continue;
            }
            let (first, dt) = seen
                .entry(f.name().clone())
                .or_insert((table, f.data_type().clone()));
            assert_eq!(
                shape(dt),
                shape(f.data_type()),
                "{}: {table:?} and {first:?} differ",
                f.name()
            );
        }
    }
    let errors = |table: Table| {
        let s = schema(table, &opts);
        let f = s.field_with_name("errors").unwrap().clone();
        let arrow_schema::DataType::List(item) = f.data_type() else {
            panic!("a list")
        };
        let arrow_schema::DataType::Struct(fields) = item.data_type() else {
            panic!("a struct")
        };
        fields.clone()
    };
    let (pgn, sgf) = (errors(Table::PgnGames), errors(Table::SgfTrees));
    // one vocabulary, in one order: `kind` (a word) first, SGF's `code` (SGFC's) after it
    let names = |f: &arrow_schema::Fields| f.iter().map(|f| f.name().clone()).collect::<Vec<_>>();
    let common = ["severity", "message", "text", "byte_offset", "line", "col"];
    assert_eq!(names(&pgn), [&["kind"][..], &common, &["move"]].concat());
    assert_eq!(
        names(&sgf),
        [&["kind", "code"][..], &common, &["node", "depth"]].concat()
    );
    for name in [
        "kind",
        "severity",
        "message",
        "text",
        "byte_offset",
        "line",
        "col",
    ] {
        let (a, b) = (pgn.find(name).unwrap().1, sgf.find(name).unwrap().1);
        assert_eq!(a.data_type(), b.data_type(), "errors.{name}");
    }
    // the board is named alike in trees and positions, and the ranks are numbers in both
    for name in ["board_cols", "board_rows", "black_rank", "white_rank"] {
        assert!(seen.contains_key(name), "{name}");
    }
}

#[test]
fn positions_read_ranks_and_board_as_trees_do() {
    let sgf = "(;GM[1]SZ[9:7]BR[3d]WR[P9段]RE[W+R]ON[san-ren-sei];B[aa];W[bb])".as_bytes();
    let t = sgf_batch(Table::SgfTrees, &TableOptions::default(), "g", sgf);
    let p = sgf_batch(Table::SgfPositions, &TableOptions::default(), "g", sgf);
    assert_eq!(p.num_rows(), 2);
    assert_eq!(i32s(&p, "board_cols"), [Some(9), Some(9)]);
    assert_eq!(i32s(&p, "board_rows"), [Some(7), Some(7)]);
    assert_eq!(i32s(&t, "board_cols"), [Some(9)]);
    assert_eq!(i16s(&p, "black_rank"), [Some(3), Some(3)]);
    assert_eq!(i16s(&p, "white_rank"), [Some(18), Some(18)]);
    assert_eq!(i16s(&t, "black_rank"), [Some(3)]);
    assert_eq!(i16s(&t, "white_rank"), [Some(18)]);
    // a rank in another charset, decoded as the trees table decodes it
    let mut gb = b"(;GM[1]CA[GB2312]PB[\xb9\xc5\xc1\xa6]BR[9".to_vec();
    gb.extend_from_slice(b"\xb6\xce];B[aa])");
    let t = sgf_batch(Table::SgfTrees, &TableOptions::default(), "g", &gb);
    let p = sgf_batch(Table::SgfPositions, &TableOptions::default(), "g", &gb);
    assert_eq!(strs(&t, "BR")[0].as_deref(), Some("9段"));
    assert_eq!(i16s(&t, "black_rank"), [Some(9)]);
    assert_eq!(i16s(&p, "black_rank"), [Some(9)]);
    // ON, a reserved word of SQL, is the column `opening`
    let t = sgf_batch(Table::SgfTrees, &TableOptions::default(), "g", sgf);
    assert_eq!(strs(&t, "opening")[0].as_deref(), Some("san-ren-sei"));
    assert!(t.column_by_name("ON").is_none());
}
