//! The `games` table built from the parser's events ([`GamesVisitor`]) is the table built from
//! the DOM ([`Builder`] over `pgn::Games`): the same record batch, value for value, and the same
//! Parquet bytes, for every PGN file of the corpus (ignored without `../shared`),
//! for awkward hand-made games, and for generated token soups and byte soups; in both movetext
//! layouts and with a game-size limit that cuts games. The table does not depend on how the
//! input is chunked, nor on the batch size; games over the limit and inputs that are not PGN
//! give the rows (and errors) the DOM path gives.

mod common;

use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{Array, RecordBatch};
use common::{TempDir, data_path, files, shared};
use kifu::pgn::{Config, GameBuilder, Games, Parser};
use kifu_export::{Builder, GamesVisitor, OutFormat, SinkOptions, Table, TableOptions};
use proptest::prelude::*;

/// The layouts and limits compared: one line (the default) and 79 columns; no limit worth
/// speaking of, and one that cuts long games.
fn cases() -> Vec<(TableOptions, usize)> {
    let one_line = TableOptions::default();
    let wrapped = TableOptions {
        movetext_width: Some(79),
        ..TableOptions::default()
    };
    vec![
        (one_line.clone(), GameBuilder::DEFAULT_MAX_GAME_BYTES),
        (wrapped, GameBuilder::DEFAULT_MAX_GAME_BYTES),
        (one_line, 3_000),
    ]
}

fn by_dom_with(pgn: &[u8], opts: &TableOptions, max: usize, cfg: Config) -> RecordBatch {
    let mut b = Builder::new(Table::PgnGames, opts);
    let builder = GameBuilder::new().with_max_game_bytes(max);
    for g in Games::with_builder(pgn, cfg, builder) {
        b.push_pgn("f.pgn", &g).unwrap();
    }
    b.finish()
}

fn by_dom(pgn: &[u8], opts: &TableOptions, max: usize) -> RecordBatch {
    by_dom_with(pgn, opts, max, Config::default())
}

fn visitor(opts: &TableOptions, max: usize, batch: usize) -> GamesVisitor {
    GamesVisitor::new("f.pgn", opts)
        .with_max_game_bytes(max)
        .with_batch_size(batch, usize::MAX)
}

fn concat(v: &mut GamesVisitor, batch: usize) -> RecordBatch {
    let batches = v.take_batches();
    assert!(batches.iter().all(|b| b.num_rows() <= batch));
    assert!(batches.iter().all(|b| b.num_rows() > 0), "no empty batch");
    arrow_select::concat::concat_batches(&v.schema(), &batches).unwrap()
}

fn by_events(pgn: &[u8], opts: &TableOptions, max: usize, batch: usize) -> RecordBatch {
    let mut v = visitor(opts, max, batch);
    kifu::pgn::parse(pgn, &mut v);
    concat(&mut v, batch)
}

/// The events of `pgn` fed in chunks of the sizes `sizes` (cycled), parsed with `cfg`.
fn by_chunks(pgn: &[u8], cfg: Config, sizes: &[usize], batch: usize) -> RecordBatch {
    let mut v = visitor(
        &TableOptions::default(),
        GameBuilder::DEFAULT_MAX_GAME_BYTES,
        batch,
    );
    let mut parser = Parser::with_config(cfg);
    let mut rest = pgn;
    for &n in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let n = n.clamp(1, rest.len());
        let status = parser.feed(&rest[..n], &mut v);
        assert_eq!(status, kifu::Status::NeedInput, "the visitor never stops");
        rest = &rest[n..];
    }
    parser.finish(&mut v);
    concat(&mut v, batch)
}

/// `a` and `b` are the same batch; on a difference, names the first column and row that differ.
fn assert_same(a: &RecordBatch, b: &RecordBatch, what: &str) {
    if a == b {
        return;
    }
    assert_eq!(a.schema(), b.schema(), "{what}");
    assert_eq!(a.num_rows(), b.num_rows(), "{what}: rows");
    for (k, field) in a.schema().fields().iter().enumerate() {
        let (x, y) = (a.column(k), b.column(k));
        if x == y {
            continue;
        }
        for row in 0..a.num_rows() {
            let (x, y) = (x.slice(row, 1), y.slice(row, 1));
            assert!(
                x.to_data() == y.to_data(),
                "{what}: column {} row {row}:\n DOM:    {x:?}\n events: {y:?}",
                field.name()
            );
        }
        panic!("{what}: column {} differs", field.name());
    }
}

/// Both ways give the same batch, in every case of [`cases`].
fn same(pgn: &[u8], what: &str) {
    for (opts, max) in cases() {
        let dom = by_dom(pgn, &opts, max);
        let events = by_events(pgn, &opts, max, 1000);
        let what = format!("{what} ({:?}, limit {max})", opts.movetext_width);
        assert_same(&dom, &events, &what);
    }
}

/// The bytes of `batch` written as a Parquet file with the default sink options.
fn parquet_bytes(dir: &TempDir, name: &str, batch: &RecordBatch) -> Vec<u8> {
    let out = dir.path(name);
    let opts = SinkOptions {
        force: true,
        sync: false,
        ..SinkOptions::default()
    };
    let mut sink = kifu_export::create(&out, OutFormat::Parquet, batch.schema(), &opts).unwrap();
    sink.write(batch).unwrap();
    sink.finish().unwrap();
    std::fs::read(&out).unwrap()
}

const AWKWARD: &[&[u8]] = &[
    b"",
    b"junk before\n\n[Event \"a\"]\n\n1. e4 *",
    b"1. e4 {a} $1 {b} $2 (1. d4 {c} d5 $3) {after} $4 (1. c4) e5 1-0",
    b"1. e4 ( {before} 1. d4 ) ( ) ({only}) (1. c4 (1. Nf3) {x}) e5 *",
    b"1. e4 {with } brace}; line comment }\n e5 {multi\nline\r\ncomment} *",
    b"{game comment} [Event \"x\"] {between}\n\n{first} 1. e4 e5 *",
    b"1. e4 { [%clk 0:03:00] [%eval 0.31] } e5 {[%eval #-3]} 2. Nf3 {[%clk 1:x]} *",
    b"[FEN \"8/8/8/8/8/8/8/k6K b - - 0 14\"]\n\n14... Ka2 15. Kh2 (15. Kg1 Kb1) *",
    b"[Result \"0-1\"]\n\n1. e4 e5",
    b"[Date \"1851.??.??\"][Date \"1852.01.01\"][WhiteElo \"?\"][WhiteElo \"20\"][Foo \"a\"][Foo \"b\"]\n1. e4 *",
    b"[White \"caf\xe9\"]\n\n1. e4 {caf\xe9} e\xe95 *",
    b"1. e4 $300 $ oh? ) ( 2. Nf3 *\n\n%escape line\n1. d4 ((((1. c4 *",
    b"1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) {x} 2. Nf3 $1 Nc6 *",
    b"1. e4 {[Event \"x\"] looks like a tag} e5 {[%clk 0:01:00] [%clk 0:00:59]} *",
    b"1.e4!? e5?? 2.Nf3!! Nc6 ! 3.Bb5 \xc2\xb1 *",
    b"1. e4 e5 2. Qh5#1-0\n\n[Event \"next\"]\n1. d4 *",
    b"1. e4 {unterminated comment\n\n[Event \"b\"]\n1. d4 *",
];

#[test]
fn awkward_games() {
    for (k, g) in AWKWARD.iter().enumerate() {
        same(g, &format!("game {k}: {}", String::from_utf8_lossy(g)));
    }
    // long comments (in pieces) and a game that outgrows a small limit
    let mut long = b"[Event \"long\"]\n\n1. e4 {".to_vec();
    long.extend(std::iter::repeat_n(b'x', 300_000));
    long.extend_from_slice(b"} e5 ");
    for _ in 0..2000 {
        long.extend_from_slice(b"Nf3 {[%clk 0:01:00]} Nf6 (Nc6 $1) Ng1 Ng8 ");
    }
    long.extend_from_slice(b"*\n\n1. d4 *\n");
    same(&long, "long");
    same(
        &std::fs::read(data_path("seed-kasparov-kramnik-2001.pgn")).unwrap(),
        "seed",
    );
}

/// Games of every kind, one after the other: the hand-made ones and the seed game.
fn mixed() -> Vec<u8> {
    let mut pgn = Vec::new();
    for g in AWKWARD {
        pgn.extend_from_slice(g);
        pgn.extend_from_slice(b"\n\n");
    }
    pgn.extend(std::fs::read(data_path("seed-kasparov-kramnik-2001.pgn")).unwrap());
    pgn
}

#[test]
fn batches_of_any_size_make_the_same_table() {
    let pgn = mixed();
    let opts = TableOptions::default();
    let whole = by_events(&pgn, &opts, usize::MAX, usize::MAX);
    assert!(whole.num_rows() > 10, "{} rows", whole.num_rows());
    for batch in [1, 2, 3, 7] {
        assert_eq!(
            by_events(&pgn, &opts, usize::MAX, batch),
            whole,
            "batches of {batch}"
        );
    }
    // a batch also ends at its byte bound
    let mut v = GamesVisitor::new("f.pgn", &opts).with_batch_size(usize::MAX, 1);
    kifu::pgn::parse(&pgn, &mut v);
    let batches = v.take_batches();
    assert_eq!(batches.len(), whole.num_rows());
    assert_eq!(
        arrow_select::concat::concat_batches(&v.schema(), &batches).unwrap(),
        whole
    );
}

#[test]
fn chunks_of_any_size_make_the_same_table() {
    let pgn = mixed();
    let whole = by_events(&pgn, &TableOptions::default(), usize::MAX, usize::MAX);
    for sizes in [&[1][..], &[2, 3], &[7, 1, 64], &[4096]] {
        let chunked = by_chunks(&pgn, Config::default(), sizes, 5);
        assert_same(&whole, &chunked, &format!("chunks of {sizes:?}"));
    }
}

#[test]
fn comments_in_pieces() {
    // comments longer than a piece arrive in pieces: joined, they are the DOM's comments
    let cfg = Config {
        max_comment_piece: 8,
        ..Config::default()
    };
    let pgn = mixed();
    let dom = by_dom_with(&pgn, &TableOptions::default(), usize::MAX, cfg);
    assert_same(
        &dom,
        &by_chunks(&pgn, cfg, &[usize::MAX], 1000),
        "pieces of 8",
    );
    assert_same(
        &dom,
        &by_chunks(&pgn, cfg, &[3, 1, 16], 1000),
        "pieces of 8, chunks",
    );
}

#[test]
fn games_over_the_limit() {
    // the long game is cut where the DOM builder cuts it, says so, and the next game is whole
    let mut pgn = b"[Event \"long\"]\n\n".to_vec();
    for _ in 0..1000 {
        pgn.extend_from_slice(b"Nf3 {[%clk 0:01:00]} Nf6 (Nc6 Ng1) Ng1 Ng8 ");
    }
    pgn.extend_from_slice(b"1/2-1/2\n\n[Event \"next\"]\n\n1. e4 e5 *\n");
    for max in [0, 1, 200, 10_000, 100_000] {
        let opts = TableOptions::default();
        let events = by_events(&pgn, &opts, max, 1000);
        assert_same(&by_dom(&pgn, &opts, max), &events, &format!("limit {max}"));
        assert_eq!(events.num_rows(), 2);
        if max < 10_000 {
            continue; // the next game does not fit either
        }
        let plies = events
            .column_by_name("plies")
            .unwrap()
            .as_primitive::<Int32Type>();
        assert!(plies.value(0) < 4000, "limit {max}: cut");
        assert_eq!(plies.value(1), 2, "limit {max}: the next game whole");
        let errors = events.column_by_name("errors").unwrap().as_list::<i32>();
        let first = errors.value(0);
        let kinds = first
            .as_struct()
            .column_by_name("kind")
            .unwrap()
            .as_string::<i32>();
        assert!(
            kinds.iter().any(|k| k == Some("game_too_large")),
            "limit {max}: {kinds:?}"
        );
        let outcome = events.column_by_name("outcome").unwrap().as_string::<i32>();
        assert_eq!(outcome.value(1), "*");
    }
    // a comment that never ends is cut too, its pieces counted against the limit
    let mut endless = b"1. e4 {".to_vec();
    endless.extend(std::iter::repeat_n(b'x', 100_000));
    same(&endless, "endless comment");
    let events = by_events(&endless, &TableOptions::default(), 3_000, 10);
    let count = events
        .column_by_name("error_count")
        .unwrap()
        .as_primitive::<Int32Type>();
    assert!(count.value(0) >= 1);
}

#[test]
fn input_that_is_not_pgn() {
    // no game: no row, and nothing left open
    for junk in [
        &b""[..],
        b"\n\n",
        b"no game here\n",
        b"%only an escape line\n",
        b"}}}",
    ] {
        let events = by_events(junk, &TableOptions::default(), usize::MAX, 10);
        let dom = by_dom(junk, &TableOptions::default(), usize::MAX);
        assert_eq!(events.num_rows(), dom.num_rows(), "{junk:?}");
        assert_same(&dom, &events, &String::from_utf8_lossy(junk));
    }
    // problems before the first game go to it, within their own budget
    let mut pgn = Vec::new();
    for _ in 0..500 {
        pgn.extend_from_slice(b"oh? ) } $ \xff\n");
    }
    pgn.extend_from_slice(b"[Event \"e\"]\n\n1. e4 *\n");
    same(&pgn, "junk before the first game");
    for max in [100, 1_000] {
        let opts = TableOptions::default();
        assert_same(
            &by_dom(&pgn, &opts, max),
            &by_events(&pgn, &opts, max, 10),
            "budget",
        );
    }
    // bytes that are not UTF-8 anywhere
    same(
        b"[White \"\xff\xfe\"]\n\n1. e\xff4 {\xc3} e5 ;\xe2\x82\n *",
        "not UTF-8",
    );
}

#[test]
fn the_schema_is_the_tables() {
    let opts = TableOptions::default();
    let v = GamesVisitor::new("f", &opts);
    assert_eq!(v.schema(), kifu_export::schema(Table::PgnGames, &opts));
    assert_eq!(v.schema(), Builder::new(Table::PgnGames, &opts).schema());
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn corpus_same_table_both_ways() {
    let shared = shared();
    let mut n = 0;
    for path in files(&shared.join("corpus/pgn/small"), "pgn") {
        let data = std::fs::read(&path).unwrap();
        same(&data, &path.display().to_string());
        n += 1;
    }
    // the large collections in every layout: their first megabyte (a cut game at the end
    // included); whole, in the default layout, in the next test
    for path in files(&shared.join("corpus/pgn/large"), "pgn") {
        let data = std::fs::read(&path).unwrap();
        same(
            &data[..data.len().min(1 << 20)],
            &path.display().to_string(),
        );
        n += 1;
    }
    assert!(n > 100, "{n} files");
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn corpus_same_parquet_both_ways() {
    let shared = shared();
    let dir = TempDir::new("events-parquet");
    let opts = TableOptions::default();
    let max = GameBuilder::DEFAULT_MAX_GAME_BYTES;
    let mut n = 0;
    let mut rows = 0;
    for path in files(&shared.join("corpus/pgn"), "pgn") {
        let data = std::fs::read(&path).unwrap();
        let what = path.display().to_string();
        let dom = by_dom(&data, &opts, max);
        let events = by_events(&data, &opts, max, GamesVisitor::DEFAULT_BATCH_ROWS);
        assert_same(&dom, &events, &what);
        let a = parquet_bytes(&dir, "dom.parquet", &dom);
        let b = parquet_bytes(&dir, "events.parquet", &events);
        assert!(a == b, "{what}: the Parquet files differ");
        n += 1;
        rows += events.num_rows();
    }
    assert!(n > 300 && rows > 250_000, "{n} files, {rows} rows");
}

/// PGN-ish tokens, in any order.
fn token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "1.",
        "1...",
        "e4",
        "e5",
        "Nf3",
        "Nc6+",
        "O-O",
        "exd8=Q#",
        "--",
        "Z0",
        "e4!?",
        "$1",
        "$255",
        "$256",
        "!",
        "±",
        "(",
        ")",
        "{c}",
        "{[%clk 0:01:00]}",
        "{[%eval -0.5,12]}",
        "{a}b}",
        "{\n}",
        "{",
        "}",
        ";line\n",
        "\n%esc\n",
        "1-0",
        "*",
        "1/2-1/2",
        "[Event \"e\"]",
        "[FEN \"8/8/8/8/8/8/8/k6K b - - 0 14\"]",
        "[Result \"1-0\"]",
        "[WhiteElo \"x\"]",
        "\n\n",
        " ",
        "oh?",
        "\u{e9}",
        "[",
        "\"",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    #[test]
    fn token_soups_same_table(tokens in prop::collection::vec(token(), 0..60)) {
        let pgn = tokens.join(" ");
        same(pgn.as_bytes(), &pgn);
    }

    #[test]
    fn token_soups_in_chunks(tokens in prop::collection::vec(token(), 0..60), sizes in prop::collection::vec(1usize..40, 1..8)) {
        let pgn = tokens.join(" ");
        let whole = by_events(pgn.as_bytes(), &TableOptions::default(), usize::MAX, usize::MAX);
        let cfg = Config { max_comment_piece: 8, ..Config::default() };
        let dom = by_dom_with(pgn.as_bytes(), &TableOptions::default(), usize::MAX, cfg);
        assert_same(&whole, &by_chunks(pgn.as_bytes(), Config::default(), &sizes, 3), &pgn);
        assert_same(&dom, &by_chunks(pgn.as_bytes(), cfg, &sizes, 3), &pgn);
    }

    #[test]
    fn byte_soups_same_table(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        same(&bytes, &String::from_utf8_lossy(&bytes));
    }
}
