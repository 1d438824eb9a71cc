//! SGF acceptance: the seed fixture, SGFC's test inputs, and very deep nesting.

use std::collections::BTreeMap;

use kifu::sgf::{self, Config, ErrorKind, Event, EventLog, Parser};
use kifu::{Control, Status};

fn log(input: &[u8]) -> EventLog {
    let mut log = EventLog::default();
    let _ = sgf::parse(input, &mut log);
    log
}

#[test]
fn seed_takemiya_cho() {
    let input = kifu_testkit::data_file("seed-takemiya-cho-meijin-1996.sgf");
    let log = log(&input);
    assert_eq!(
        log.errors().count(),
        0,
        "{:?}",
        log.errors().collect::<Vec<_>>()
    );
    assert_eq!(log.games(), 1);
    let nodes = log
        .events
        .iter()
        .filter(|e| matches!(e, Event::Node(_)))
        .count();
    assert_eq!(nodes, 142);
    // variations branching off: trees that are not their parent's first child
    let branches = log
        .events
        .iter()
        .filter(|e| matches!(e, Event::Tree(c) if c.depth > 0 && c.variation > 0))
        .count();
    assert_eq!(branches, 6);
    // root properties, in file order
    let root: Vec<(String, String)> = log
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Value { ctx, name, raw, .. } if ctx.depth == 0 && ctx.node == 0 => Some((
                String::from_utf8_lossy(name).into_owned(),
                String::from_utf8_lossy(raw).into_owned(),
            )),
            _ => None,
        })
        .collect();
    let names: Vec<&str> = root.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "FF", "GM", "SZ", "FG", "PM", "PB", "BR", "PW", "WR", "RE", "KM", "TM", "DT", "EV",
            "RO", "SO", "US"
        ]
    );
    let get = |n: &str| root.iter().find(|(k, _)| k == n).unwrap().1.clone();
    assert_eq!(get("KM"), "5.5");
    assert_eq!(get("RE"), "W+Resign");
    assert_eq!(get("DT"), "1996-10-18,19");
    assert_eq!(get("FG"), "257:Figure 1");
    // the main line
    let main: Vec<String> = log
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Move { ctx, raw, .. } if ctx.main_line => {
                Some(String::from_utf8_lossy(raw).into_owned())
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        &main[..12],
        [
            "pd", "dp", "pp", "dd", "pj", "nc", "oe", "qc", "pc", "qd", "qf", "rf"
        ]
    );
    // compose values and a compressed point list
    let value = |name: &[u8], raw: &[u8]| {
        log.events
            .iter()
            .any(|e| matches!(e, Event::Value { name: n, raw: r, .. } if n == name && r == raw))
    };
    assert!(value(b"LB", b"qq:a"));
    assert!(value(b"VW", b"ja:ss"));
    let (a, b) = sgf::RawValue(b"qq:a").compose().unwrap();
    assert_eq!((a.0, b.0), (&b"qq"[..], &b"a"[..]));
    assert_eq!(
        sgf::RawValue(b"ja:ss")
            .points(sgf::BoardSize::default())
            .unwrap()
            .count(),
        10 * 19
    );
}

/// SGFC's test.sgf: each line provokes the problem SGFC numbers as the line number. kifu
/// reports a problem on each of the lines listed here, with the code of the same number where
/// it has one. The other lines are described in `NOT_REPORTED`.
const REPORTED: &[(u64, &str)] = &[
    (1, "W06"),
    (2, "W06"),
    (3, "W06"),
    (4, "W06"),
    (5, "W06"),
    (6, "W06"),
    (7, "W06"),
    (8, "E08"),
    (11, "E11"),
    (12, "E12"),
    (13, "E13"),
    (14, "E14"),
    (15, "E14"),
    (16, "E16"),
    (17, "W17"),
    (18, "E18"),
    (19, "W19"),
    (20, "E20"),
    (21, "E21"),
    (22, "W22"),
    (23, "E23"),
    (24, "W24"),
    (25, "E14"),
    (28, "E28"),
    (30, "E30"),
    (31, "W31"),
    (32, "E32"),
    (35, "W35"),
    (36, "E36"),
    (37, "E37"),
    (40, "W40"),
    (41, "E41"),
    (42, "E41"),
    (43, "E43"),
    (44, "E44"),
    (46, "E18"),
    (47, "E18"),
    (50, "E18"),
    (52, "W17"),
    (54, "E54"),
    (59, "W40"),
    (65, "W65"),
    (66, "E66"),
    (67, "E36"),
    // SGFC's 9 (nesting incomplete) and 10 (unexpected end of file) happen at the end
    (76, "E10"),
    (76, "E09"),
];

/// Lines of test.sgf on which kifu deliberately reports nothing, and why.
#[allow(dead_code)]
const NOT_REPORTED: &[(u64, &str)] = &[
    (
        9,
        "its problem (missing `)`) is at the end of the file: E09 on line 76",
    ),
    (
        10,
        "its problem (value not closed) is at the end of the file: E10 on line 76",
    ),
    (26, "SGFC I/O error named in a comment"),
    (27, "SGFC I/O error named in a comment"),
    (
        33,
        "game-info formats (RE, DT) are not checked: the core keeps them as written",
    ),
    (34, "SGFC's 'not saved' message"),
    (38, "points repeated in a list are not checked"),
    (
        39,
        "stones that change nothing need a board: not the parser's job",
    ),
    (45, "different FF in one file: the spec allows it"),
    (48, "SGFC command-line error named in a comment"),
    (49, "SGFC command-line error named in a comment"),
    (51, "rectangular board in FF[1]: accepted"),
    (53, "a comment referring to line 19"),
    (55, "an empty node is legal (SGFC reports it only with -n)"),
    (56, "sibling-style variations are legal (SGFC -v)"),
    (57, "sibling-style variations are legal (SGFC -v)"),
    (58, "a move on an occupied point needs a board"),
    (60, "several game trees are legal (SGFC -r)"),
    (61, "handicap vs setup stones (SGFC -r)"),
    (62, "setup in the main line (SGFC -r)"),
    (63, "two moves of one colour in a row are legal (SGFC -r)"),
    (64, "many variations: no limit"),
    (68, "SGFC command-line error named in a comment"),
    (69, "SGFC command-line error named in a comment"),
    (70, "iconv error named in a comment"),
    (
        71,
        "bytes are kept; decoding by CA is left to the encoding layer",
    ),
    (72, "CA is not interpreted by the core"),
    (73, "encoding detection: the encoding layer"),
    (74, "encodings: the encoding layer"),
    (75, "encodings: the encoding layer"),
];

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn sgfc_test_sgf_line_by_line() {
    let input = kifu_testkit::shared_file("corpus/sgf/small/sgfc/test.sgf");
    let mut found: BTreeMap<u64, Vec<&'static str>> = BTreeMap::new();
    for e in log(&input).errors() {
        if let Event::Error { kind, pos, .. } = e {
            found.entry(pos.line).or_default().push(kind.code());
        }
    }
    for &(line, code) in REPORTED {
        let codes = found.get(&line).cloned().unwrap_or_default();
        assert!(
            codes.contains(&code),
            "line {line}: expected {code}, got {codes:?}"
        );
    }
    for &(line, why) in NOT_REPORTED {
        assert!(
            !found.contains_key(&line),
            "line {line} ({why}): {:?}",
            found[&line]
        );
    }
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn sgfc_results_read_without_errors() {
    let dir = kifu_testkit::shared().join("corpus/sgf/small/sgfc");
    let mut n = 0;
    for path in kifu_testkit::files_with_ext(&dir, "sgf") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with("-result.sgf") {
            continue;
        }
        let log = log(&std::fs::read(&path).unwrap());
        // SGFC keeps what it only warns about (a move in the root, `LONGID`, unknown `XX`, obsolete `SC`,
        // GM[19] in escaping-result.sgf): warnings of those kinds may remain, errors may not
        let errors: Vec<_> = log
            .errors()
            .filter(|e| match e {
                Event::Error { kind, severity, .. } => {
                    *severity != kifu::Severity::Warning
                        || !matches!(
                            kind,
                            ErrorKind::NotGo
                                | ErrorKind::MoveInRoot
                                | ErrorKind::LongIdent
                                | ErrorKind::UnknownProperty
                                | ErrorKind::ObsoleteProperty
                        )
                }
                _ => false,
            })
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        assert!(log.games() > 0, "{name}");
        n += 1;
    }
    assert!(n >= 5, "only {n} result files");
}

/// `(;B[aa](;W[bb](;B[aa]…` a million levels deep, built on the fly and fed in chunks: the
/// parser's memory is bounded by `max_depth`, deeper trees are skipped and reported once, and
/// every `on_tree` gets its `on_tree_end`.
#[test]
fn million_levels_deep() {
    const DEPTH: usize = 1_000_000;
    #[derive(Default)]
    struct Count {
        open: i64,
        max_depth: u32,
        moves: u64,
        too_deep: u32,
        errors: u32,
        games: u32,
    }
    impl sgf::Visitor for Count {
        fn on_tree(&mut self, ctx: &sgf::Context) -> Control {
            self.open += 1;
            self.max_depth = self.max_depth.max(ctx.depth);
            Control::Continue
        }
        fn on_tree_end(&mut self, ctx: &sgf::Context) -> Control {
            self.open -= 1;
            if ctx.depth == 0 {
                self.games += 1;
            }
            Control::Continue
        }
        fn on_move(&mut self, _: &sgf::Context, _: &sgf::Move<'_>) -> Control {
            self.moves += 1;
            Control::Continue
        }
        fn on_error(&mut self, e: &sgf::Error<'_>) -> Control {
            self.errors += 1;
            if e.kind == ErrorKind::TooDeep {
                self.too_deep += 1;
            }
            Control::Continue
        }
    }
    let mut p = Parser::new();
    let mut c = Count::default();
    assert_eq!(p.feed(b"(;GM[1]", &mut c), Status::NeedInput);
    let chunk_open: Vec<u8> = b"(;B[aa](;W[bb]".repeat(1000);
    for _ in 0..DEPTH / 2000 {
        assert_eq!(p.feed(&chunk_open, &mut c), Status::NeedInput);
    }
    let closing = vec![b')'; 10_000];
    for _ in 0..DEPTH / 10_000 {
        assert_eq!(p.feed(&closing, &mut c), Status::NeedInput);
    }
    assert_eq!(p.feed(b")(;GM[1];B[cc])", &mut c), Status::NeedInput);
    p.finish(&mut c);
    let max = Config::default().max_depth;
    assert_eq!(c.open, 0);
    assert_eq!(c.games, 2);
    assert_eq!(c.max_depth, max);
    assert_eq!(c.moves, u64::from(max) + 1);
    assert_eq!((c.too_deep, c.errors), (1, 1));
}
