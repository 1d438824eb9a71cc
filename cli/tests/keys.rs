//! One definition of a game's keys (kifu-pipeline's `keys`): every key works in `filter -w`,
//! `stats --by`, `split --by` and `export --partition-by`, compares the same way everywhere, is
//! refused with the close matches when misspelt, and long values are never merged.

mod common;
use common::{Files, code, entries, err, kifu, out};

/// Games of 2014, 2015 (three, one of them `2015.??.??`), 2016 and 2021, with Elos, time
/// controls and players.
fn games() -> Vec<u8> {
    let mut s = String::new();
    let rows = [
        ("2014.12.31", "2400", "60+0", "Carlsen", "Anand", "1-0"),
        ("2015.03.02", "2500", "180+2", "Anand", "Carlsen", "0-1"),
        (
            "2015.??.??",
            "2500.0",
            "180+0",
            "Tal",
            "Petrosian",
            "1/2-1/2",
        ),
        ("2015.11.30", "2600", "600+5", "Kasparov", "Karpov", "1-0"),
        ("2016.01.01", "?", "180+2", "Karpov", "Kasparov", "0-1"),
        ("2021.06.01", "2850", "60+1", "Nepo", "Carlsen", "1-0"),
    ];
    for (date, elo, tc, white, black, result) in rows {
        s.push_str(&format!(
            "[Event \"e\"]\n[Date \"{date}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n[WhiteElo \"{elo}\"]\n[TimeControl \"{tc}\"]\n\n1. e4 e5 {result}\n\n"
        ));
    }
    s.into_bytes()
}

/// How many games `kifu filter -w …` keeps.
fn count(tests: &[&str]) -> u64 {
    let mut args = vec!["filter", "-", "-c", "-q"];
    for t in tests {
        args.extend(["-w", t]);
    }
    let o = kifu(&args, Some(&games()));
    assert!(code(&o) <= 1, "{tests:?}: {}", err(&o));
    out(&o).trim().parse().unwrap()
}

#[test]
fn dates_match_on_the_parts_given_and_agree_with_the_orderings() {
    assert_eq!(count(&["Date=2015"]), 3);
    assert_eq!(count(&["Date<=2015"]), 4);
    assert_eq!(count(&["Date>=2015"]), 5);
    // `=` holds exactly where both `<=` and `>=` do
    assert_eq!(count(&["Date<=2015", "Date>=2015"]), count(&["Date=2015"]));
    assert_eq!(count(&["Date=2015.03"]), 1);
    assert_eq!(count(&["Date!=2015"]), 3);
    assert_eq!(count(&["year=2015"]), 3);
    assert_eq!(count(&["year>=2021"]), 1);
    assert_eq!(count(&["month=2015-11"]), 1);
}

#[test]
fn numbers_compare_as_numbers() {
    assert_eq!(count(&["WhiteElo=2500.0"]), 2);
    assert_eq!(count(&["WhiteElo=2500"]), 2);
    assert_eq!(count(&["WhiteElo<=2500", "WhiteElo>=2500"]), 2);
    assert_eq!(
        count(&["WhiteElo=?"]),
        1,
        "a value that is no number: as text"
    );
    assert_eq!(count(&["tc_base=180"]), 3);
    assert_eq!(count(&["plies=2", "speed<=blitz"]), 5);
}

#[test]
fn either_player_and_or() {
    assert_eq!(count(&["Player=Carlsen"]), 3);
    assert_eq!(count(&["Player!=Carlsen"]), 3);
    assert_eq!(count(&["White=Carlsen or Black=Carlsen"]), 3);
    assert_eq!(count(&["White=Tal or White=Nepo"]), 2);
    // `or` within one -w, the -ws all hold
    assert_eq!(count(&["Player=Carlsen or Player=Karpov", "year>=2016"]), 2);
    assert_eq!(count(&["Event=\"a or b\" or White=Tal"]), 1, "quoted");
}

#[test]
fn misspelt_keys_and_impossible_values_are_usage_errors_naming_close_matches() {
    for args in [
        &["filter", "-", "-w", "Whiteelo>=2500"][..],
        &["stats", "-", "--by", "Whiteelo"],
        &["split", "-", "-o", "never", "--by", "Whiteelo"],
    ] {
        let o = kifu(args, Some(&games()));
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(err(&o).contains("did you mean `WhiteElo`?"), "{}", err(&o));
    }
    let o = kifu(&["filter", "-", "-w", "speed=blits"], Some(&games()));
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("did you mean `blitz`?"), "{}", err(&o));
    let o = kifu(&["filter", "-", "-w", "yaer>=2021"], Some(&games()));
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("`year`"), "{}", err(&o));
    let o = kifu(&["stats", "-", "--by", "Player"], Some(&games()));
    assert_eq!(code(&o), 2, "{}", err(&o));
    // an arbitrary capitalised name is a tag, as PGN allows
    let o = kifu(&["filter", "-", "-c", "-w", "LichessId=x"], Some(&games()));
    assert_eq!((code(&o), out(&o).trim()), (1, "0"), "{}", err(&o));
    assert!(!err(&o).contains("warning"), "{}", err(&o));
    // one close to a tag kifu knows is a tag too, with a warning naming it (not with -q)
    for args in [
        &["filter", "-", "-c", "-w", "WhitElo>=2500"][..],
        &["stats", "-", "--by", "WhitElo"],
        &[
            "export",
            "-",
            "-o",
            "-",
            "--to",
            "csv",
            "-w",
            "WhitElo>=2500",
        ],
    ] {
        let o = kifu(args, Some(&games()));
        assert_ne!(code(&o), 2, "{args:?}: {}", err(&o));
        let warned = err(&o)
            .matches("kifu: warning: `WhitElo` is no tag")
            .count();
        assert_eq!(warned, 1, "{args:?}: {}", err(&o));
        assert!(err(&o).contains("`WhiteElo`"), "{}", err(&o));
        let mut quiet = args.to_vec();
        quiet.push("-q");
        assert!(!err(&kifu(&quiet, Some(&games()))).contains("warning"));
    }
}

/// A value that is no date or number is refused, naming the bad part, never read as a date of
/// fewer parts (`2015.13` as `2015`) or as a number nothing equals (`nan`); `?` parts stay.
#[test]
fn dates_and_numbers_that_are_none_are_usage_errors() {
    for (test, part) in [
        ("Date>=2015.13", "`13` is no month"),
        ("Date>=2015.99", "`99` is no month"),
        ("Date>=2015.xx", "`xx` is no month"),
        ("Date>=2015.00", "`00` is no month"),
        ("Date>=2015.06.45", "`45` is no day"),
        ("WhiteElo>=nan", "`nan`"),
        ("WhiteElo=inf", "`inf`"),
    ] {
        let o = kifu(&["filter", "-", "-c", "-w", test], Some(&games()));
        assert_eq!(code(&o), 2, "{test}: {}", err(&o));
        assert!(err(&o).contains(part), "{test}: {}", err(&o));
    }
    assert_eq!(count(&["Date=2015.??.??"]), count(&["Date=2015"]));
}

/// `kifu stats --by KEY --json` rows: (key, games).
fn rows(key: &str, input: &[u8], format: &str) -> Vec<(Option<String>, u64)> {
    let o = kifu(
        &[
            "stats", "-", "--format", format, "--by", key, "--json", "-j2",
        ],
        Some(input),
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    out(&o)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["key"].as_str().map(String::from),
                v["games"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_key_groups() {
    let some = |k: &str, n| (Some(k.to_string()), n);
    assert_eq!(
        rows("tc_base", &games(), "pgn"),
        [some("60", 2), some("180", 3), some("600", 1)]
    );
    assert_eq!(
        rows("year", &games(), "pgn"),
        [
            some("2014", 1),
            some("2015", 3),
            some("2016", 1),
            some("2021", 1)
        ]
    );
    assert_eq!(
        rows("speed", &games(), "pgn"),
        [some("bullet", 2), some("blitz", 3), some("rapid", 1)]
    );
    assert_eq!(
        rows("winner", &games(), "pgn"),
        [some("white", 3), some("black", 2), (None, 1)]
    );
    assert_eq!(
        rows("WhiteElo", &games(), "pgn")[..2],
        [some("2400", 1), some("2500", 1)]
    );
}

#[test]
fn long_values_are_never_merged() {
    // three players whose names differ only after 4,096 bytes, four games
    let base = "x".repeat(5000);
    let mut sgf = String::new();
    for end in ["a", "b", "c", "a"] {
        sgf.push_str(&format!("(;GM[1]SZ[19]PB[{base}{end}]PW[w];B[aa])\n"));
    }
    let r = rows("PB", sgf.as_bytes(), "sgf");
    assert_eq!(
        r.len(),
        3,
        "{:?}",
        r.iter().map(|r| r.1).collect::<Vec<_>>()
    );
    assert_eq!(r.iter().map(|r| r.1).sum::<u64>(), 4);
    let dir = tempfile::tempdir().unwrap();
    let split = dir.path().join("split");
    let o = kifu(
        &[
            "split",
            "-",
            "--format",
            "sgf",
            "-q",
            "--by",
            "PB",
            "-o",
            split.to_str().unwrap(),
        ],
        Some(sgf.as_bytes()),
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(entries(&split).len(), 3);

    // export --partition-by: values sharing their first 100 bytes get folders of their own
    let long = "W".repeat(120);
    let mut pgn = String::new();
    for end in ["a", "b", "a"] {
        pgn.push_str(&format!(
            "[White \"{long}{end}\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n"
        ));
    }
    let input = dir.file("long.pgn", pgn.as_bytes());
    let out_dir = dir.path().join("ds");
    let o = kifu(
        &[
            "export",
            input.to_str().unwrap(),
            "-q",
            "--partition-by",
            "White",
            "-o",
            out_dir.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    let folders: Vec<String> = entries(&out_dir)
        .into_iter()
        .filter(|e| e.starts_with("White="))
        .collect();
    assert_eq!(folders.len(), 2, "{folders:?}");
    assert!(folders.iter().all(|f| f.len() <= "White=".len() + 100));
    // a misspelt partition key: a small letter first is refused naming the column it may
    // have meant; a capital first is a tag (as in -w and --by), with a warning naming it
    let ds = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let o = kifu(
        &[
            "export",
            input.to_str().unwrap(),
            "--partition-by",
            "yaer",
            "-o",
            &ds("ds2"),
        ],
        None,
    );
    assert_eq!(code(&o), 2, "{}", err(&o));
    assert!(err(&o).contains("`year`"), "{}", err(&o));
    let o = kifu(
        &[
            "export",
            input.to_str().unwrap(),
            "--partition-by",
            "Whte",
            "-o",
            &ds("ds3"),
        ],
        None,
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(err(&o).contains("did you mean `White`?"), "{}", err(&o));
    assert_eq!(
        entries(&dir.path().join("ds3")),
        ["Whte=__HIVE_DEFAULT_PARTITION__", "_SUCCESS"]
    );
}

/// `--partition-by month` names its folders with the value `stats --by month` shows
/// (`2015-11`), not the month alone (which would merge the years).
#[test]
fn partition_by_month_shows_the_value_of_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.file(
        "d.pgn",
        b"[Date \"2012.06.01\"]\n\n1. e4 *\n\n[Date \"2013.06.02\"]\n\n1. d4 *\n\n\
[Date \"2015.??.??\"]\n\n1. c4 *\n\n[Date \"2016-07-01\"]\n\n1. c4 *\n\n\
[Date \"2017.13.01\"]\n\n1. c4 *\n\n",
    );
    let ds = dir.path().join("ds");
    let o = kifu(
        &[
            "export",
            input.to_str().unwrap(),
            "-q",
            "--partition-by",
            "year,month",
            "-o",
            ds.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    let mut folders = Vec::new();
    for year in entries(&ds).into_iter().filter(|e| e.contains('=')) {
        for month in entries(&ds.join(&year))
            .into_iter()
            .filter(|e| e.contains('='))
        {
            folders.push(format!("{year}/{month}"));
        }
    }
    folders.sort();
    assert_eq!(
        folders,
        [
            "year=2012/month=2012-06",
            "year=2013/month=2013-06",
            // the games table's `Date` is a date32, null for a date that is not whole: the
            // tag as written is read from `tags`, as -w and stats --by read it
            "year=2015/month=__HIVE_DEFAULT_PARTITION__",
            "year=2016/month=2016-07",
            "year=2017/month=__HIVE_DEFAULT_PARTITION__",
        ]
    );
    let o = kifu(&["stats", "--by", "month", input.to_str().unwrap()], None);
    assert!(
        out(&o).contains("2012-06") && out(&o).contains("2013-06"),
        "{}",
        out(&o)
    );
}

/// The game keys that are not columns of their table partition too, with the values of the
/// keys: a PGN game's `result` and `winner`, an SGF tree's `result` (its `RE` read as `1-0`,
/// `0-1`, …) and `winner`.
#[test]
fn derived_keys_partition_datasets() {
    let dir = tempfile::tempdir().unwrap();
    let mut pgn = String::new();
    for result in ["1-0", "0-1", "1/2-1/2", "1-0", "*"] {
        pgn.push_str(&format!(
            "[White \"a\"]\n[Black \"b\"]\n[Result \"{result}\"]\n\n1. e4 {result}\n\n"
        ));
    }
    let input = dir.file("r.pgn", pgn.as_bytes());
    let sgf = dir.file(
        "r.sgf",
        b"(;GM[1]SZ[19]RE[B+R];B[dd])(;GM[1]SZ[19]RE[W+0.5];B[dd])(;GM[1]SZ[19]RE[B+3];B[dd])",
    );
    for (input, key, want) in [
        (
            &input,
            "winner",
            vec![
                "winner=__HIVE_DEFAULT_PARTITION__",
                "winner=black",
                "winner=white",
            ],
        ),
        (
            &input,
            "result",
            vec!["result=0-1", "result=1%2F2-1%2F2", "result=1-0", "result=*"],
        ),
        (&sgf, "winner", vec!["winner=black", "winner=white"]),
        (&sgf, "result", vec!["result=0-1", "result=1-0"]),
    ] {
        let out = dir.path().join(format!(
            "ds-{key}-{}",
            input.extension().unwrap().to_str().unwrap()
        ));
        let o = kifu(
            &[
                "export",
                input.to_str().unwrap(),
                "-q",
                "--partition-by",
                key,
                "-o",
                out.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(code(&o), 0, "{}", err(&o));
        let mut folders: Vec<String> = entries(&out)
            .into_iter()
            .filter(|e| e.contains('='))
            .collect();
        folders.sort();
        let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(folders, want, "--partition-by {key} of {}", input.display());
    }
}

/// A game whose `Result` tag and termination marker disagree has one result everywhere: the
/// tag's (`kifu::pgn::Game::outcome`), in `-w`, `--partition-by` and the positions' `score`.
#[test]
fn a_game_has_one_result_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.file("d.pgn", b"[Result \"1-0\"]\n\n1. e4 0-1\n\n");
    let o = kifu(
        &["filter", "-c", "-w", "result=1-0", input.to_str().unwrap()],
        None,
    );
    assert_eq!(out(&o).trim(), "1", "{}", err(&o));
    for key in ["result", "winner"] {
        let ds = dir.path().join(format!("ds-{key}"));
        let o = kifu(
            &[
                "export",
                input.to_str().unwrap(),
                "-q",
                "--partition-by",
                key,
                "-o",
                ds.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(code(&o), 0, "{}", err(&o));
        let folders: Vec<String> = entries(&ds)
            .into_iter()
            .filter(|e| e.contains('='))
            .collect();
        let want = if key == "result" {
            "result=1-0"
        } else {
            "winner=white"
        };
        assert_eq!(folders, [want]);
    }
    let o = kifu(
        &[
            "export",
            input.to_str().unwrap(),
            "-q",
            "--table",
            "positions",
            "--to",
            "csv",
            "--columns",
            "ply,score",
            "-o",
            "-",
        ],
        None,
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(out(&o), "ply,score\n0,1\n1,-1\n");
}
