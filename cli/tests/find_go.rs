//! `kifu find --go-pattern` and `kifu explore --go-pattern` on a few hand-made Go games: the
//! anchors, the colour swap, `-w`, the move numbers, the next moves counted by hand (also per
//! value of a key, `--by`), the same output at every thread count, and the errors of a bad
//! pattern.

mod common;
use common::{Files, code, err, kifu, out};

/// Three games: a black 4-4 stone approached at the 3-4 point (Black won), a white 4-4 stone
/// whose corner Black invades at 3-3 (White won, a 1k Black), a 9-stone handicap game.
const GAMES: &[u8] = b"(;GM[1]SZ[19]BR[5d]RE[B+R];B[pd];W[qf];B[dd])\n\
(;GM[1]SZ[19]BR[1k]RE[W+2.5];B[qq];W[dd];B[cc])\n\
(;GM[1]SZ[19]BR[3d]HA[9]RE[0];AB[dd][jd][pd][dj][jj][pj][dp][jp][pp];W[qc])\n";

/// A lone black 4-4 stone in an empty corner (the first row and column: anything).
const PATTERN: &[u8] = b"# a lone 4-4 stone\n?????\n?....\n?....\n?..X.\n?....\n";

fn lines(s: &str) -> Vec<serde_json::Value> {
    s.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn find_counts_and_move_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.file("g.sgf", GAMES);
    let pattern = dir.file("44.txt", PATTERN);
    let (g, p) = (games.to_str().unwrap(), pattern.to_str().unwrap());
    let count = |extra: &[&str]| {
        let mut args = vec!["find", "--go-pattern", p, "--anchor", "corner", "-c", g];
        args.extend_from_slice(extra);
        let o = kifu(&args, None);
        assert_eq!(code(&o), 0, "{}", err(&o));
        out(&o).trim().to_string()
    };
    // game 1 (black pd), game 3 (the handicap stones: four corners at move 0)
    assert_eq!(count(&[]), "2");
    // with colours swapped, game 2's white 4-4 too
    assert_eq!(count(&["--swap-colors"]), "3");
    assert_eq!(count(&["--swap-colors", "-w", "BR>=3d"]), "2");
    // along an edge: the same stones (the empty area's top row on the edge, anywhere along it)
    let o = kifu(
        &["find", "--go-pattern", p, "--anchor", "edge", "-c", g],
        None,
    );
    assert_eq!((code(&o), out(&o).trim()), (0, "2"), "{}", err(&o));
    // no game: exit status 1
    let o = kifu(&["find", "--go-pattern", p, "-c", "-w", "BR>=9d", g], None);
    assert_eq!((code(&o), out(&o).trim()), (1, "0"), "{}", err(&o));
    // the move numbers: game 1 from its first move to its end (W qf stays outside the area),
    // game 3 at the start and after W qc (the other three corners)
    let o = kifu(
        &[
            "find",
            "--go-pattern",
            p,
            "--anchor",
            "corner",
            "--to",
            "jsonl",
            g,
        ],
        None,
    );
    let found = lines(&out(&o));
    assert_eq!(found.len(), 2);
    assert_eq!(found[0]["matched_plies"], serde_json::json!([1, 2, 3]));
    assert_eq!(found[1]["matched_plies"], serde_json::json!([0, 1]));
}

#[test]
fn explore_next_moves() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.file("g.sgf", GAMES);
    let pattern = dir.file("44.txt", PATTERN);
    let (g, p) = (games.to_str().unwrap(), pattern.to_str().unwrap());
    let run = |j: &str| {
        let o = kifu(
            &[
                "explore",
                "--go-pattern",
                p,
                "--anchor",
                "corner",
                "--json",
                "-j",
                j,
                g,
            ],
            None,
        );
        assert_eq!(code(&o), 0, "{}", err(&o));
        out(&o)
    };
    let rows = lines(&run("1"));
    assert_eq!(run("2"), run("1"));
    let row = |m: &str| {
        rows.iter()
            .find(|r| r["move"] == m)
            .unwrap_or_else(|| panic!("{m}: {rows:?}"))
    };
    // game 1: W qf after B pd: (16, 5) from the upper right corner is the pattern's (2, 5),
    // the mirror of (5, 2) in this diagonal-symmetric pattern: one move, given as 5,2
    let qf = row("O 5,2");
    assert_eq!(
        (qf["kind"].as_str(), qf["x"].as_i64(), qf["y"].as_i64()),
        (Some("point"), Some(5), Some(2))
    );
    assert_eq!(
        (qf["positions"].as_u64(), qf["x_wins"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        (qf["game"].as_u64(), qf["ply"].as_u64()),
        (Some(1), Some(1))
    );
    // game 3: W qc (16, 2): the pattern's 3-3 point (2, 2) of the upper right corner, a draw
    let qc = row("O 2,2");
    assert_eq!(
        (
            qc["positions"].as_u64(),
            qc["other"].as_u64(),
            qc["game"].as_u64()
        ),
        (Some(1), Some(1), Some(3))
    );
    // the ends of games 1 and 3, and game 1's B dd (far): tenuki
    assert_eq!(row("end")["positions"].as_u64(), Some(2));
    assert_eq!(row("end")["games"].as_u64(), Some(2));
    assert_eq!(qf["games"].as_u64(), Some(1));
    assert_eq!(row("X tenuki")["positions"].as_u64(), Some(1));
    // a table on a terminal-less stdout
    let o = kifu(
        &["explore", "--go-pattern", p, "--anchor", "corner", g],
        None,
    );
    assert!(out(&o).contains("O 5,2"), "{}", out(&o));
    assert!(
        err(&o).contains("kifu explore: 2 games matched, at 5 positions\n"),
        "{}",
        err(&o)
    );
    // one game, at one position (B pd, then the end): the singular
    let one = dir.file("one.sgf", b"(;GM[1]SZ[19]RE[B+R];B[pd])\n");
    let o = kifu(
        &[
            "explore",
            "--go-pattern",
            p,
            "--anchor",
            "corner",
            one.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(out(&o).contains("  end  "), "{}", out(&o));
    assert!(
        err(&o).contains("kifu explore: 1 game matched, at 1 position\n"),
        "{}",
        err(&o)
    );
}

/// A pattern file in GNU Go's own format (a `Pattern NAME` header, the board's edge drawn
/// with `+`, `-` and `|`, a `:` line and what follows it) is read: the edge drawn is its
/// anchor, so it finds what the plain pattern finds with `--anchor corner`. A pattern larger
/// than a 19x19 board is said on stderr.
#[test]
fn gnugo_pattern_files_and_patterns_larger_than_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.file("g.sgf", GAMES);
    let g = games.to_str().unwrap();
    // PATTERN (its first row and column: anything), in the lower-left corner as GNU Go
    // draws one
    let gnugo = dir.file(
        "44.db",
        b"# from a GNU Go file\nPattern Hoshi1\n\n|?....   a lone 4-4 stone\n|?..X.\n|?....\n\
|?....\n|?????\n+-----\n\n:8,J\n\n|?....\n|?..a.\n;lib(a)>3\n",
    );
    let plain = dir.file("44.txt", PATTERN);
    let count = |args: &[&str]| {
        let o = kifu(args, None);
        assert_eq!(code(&o), 0, "{args:?}: {}", err(&o));
        out(&o).trim().to_string()
    };
    let p = gnugo.to_str().unwrap();
    let want = count(&[
        "find",
        "-c",
        "--go-pattern",
        plain.to_str().unwrap(),
        "--anchor",
        "corner",
        g,
    ]);
    assert_eq!(count(&["find", "-c", "--go-pattern", p, g]), want);
    assert_eq!(
        count(&["find", "-c", "--go-pattern", p, "--anchor", "corner", g]),
        want
    );
    // another anchor than the one drawn is refused
    let o = kifu(
        &["find", "-c", "--go-pattern", p, "--anchor", "edge", g],
        None,
    );
    assert_eq!(code(&o), 2, "{}", err(&o));
    assert!(
        err(&o).contains("draws the board's edge (corner)"),
        "{}",
        err(&o)
    );
    // a GNU Go point kifu has no equivalent for is named
    let odd = dir.file("odd.db", b"Pattern A\n\n.,X\n:8\n");
    let o = kifu(
        &["find", "-c", "--go-pattern", odd.to_str().unwrap(), g],
        None,
    );
    assert_eq!(code(&o), 2, "{}", err(&o));
    assert!(
        err(&o).contains("`,` is a GNU Go pattern point with no equivalent"),
        "{}",
        err(&o)
    );
    // 20 points wide: no game of 19x19 holds it, and stderr says so
    let wide = dir.file("wide.txt", &[b'.'; 20]);
    let o = kifu(
        &["find", "-c", "--go-pattern", wide.to_str().unwrap(), g],
        None,
    );
    assert_eq!((code(&o), out(&o).trim()), (1, "0"), "{}", err(&o));
    assert!(
        err(&o).contains("warning: the Go pattern is 20x1 points, larger than a 19x19 board"),
        "{}",
        err(&o)
    );
}

#[test]
fn bad_patterns_and_flags() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.file("g.sgf", GAMES);
    let bad = dir.file("bad.txt", b"X.\n.Z\n");
    let g = games.to_str().unwrap();
    let o = kifu(&["find", "--go-pattern", bad.to_str().unwrap(), g], None);
    assert_eq!(code(&o), 2);
    assert!(
        err(&o).contains("line 2, column 2: `Z` is no pattern point"),
        "{}",
        err(&o)
    );
    let o = kifu(&["find", "--anchor", "corner", g], None);
    assert_eq!(code(&o), 2);
    let pattern = dir.file("p.txt", b"X\n");
    let o = kifu(
        &[
            "find",
            "--go-pattern",
            pattern.to_str().unwrap(),
            "--fen",
            "8/8/8/8/8/8/8/8 w - -",
            g,
        ],
        None,
    );
    assert_eq!(code(&o), 2, "{}", err(&o));
    // a pattern file is read up to a bound: /dev/zero ends, a bigger file is refused
    let big = dir.file("big.txt", &vec![b'.'; (1 << 20) + 1]);
    for path in [big.to_str().unwrap(), "/dev/zero"] {
        if !std::path::Path::new(path).exists() {
            continue;
        }
        let o = kifu(&["find", "-c", "--go-pattern", path, g], None);
        assert_eq!(code(&o), 2, "{path}: {}", err(&o));
        assert!(err(&o).contains("more than 1048576 bytes"), "{}", err(&o));
    }
    // an SGF pattern whose SZ is no board size: refused, named (not read as 19x19)
    let sz53 = dir.file("sz53.sgf", b"(;GM[1]SZ[53];B[aa])");
    let o = kifu(&["find", "--go-pattern", sz53.to_str().unwrap(), g], None);
    assert_eq!(code(&o), 2, "{}", err(&o));
    assert!(err(&o).contains("SZ[53]"), "{}", err(&o));
    // --anchor, --swap-colors: --go-pattern named
    let o = kifu(&["find", "--swap-colors", g], None);
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("--go-pattern"), "{}", err(&o));
    // rating bands are chess's Elo: refused, the ranks named
    let o = kifu(
        &[
            "explore",
            "--go-pattern",
            pattern.to_str().unwrap(),
            "--by",
            "rating:200",
            g,
        ],
        None,
    );
    assert_eq!(code(&o), 2, "{}", err(&o));
    assert!(err(&o).contains("--by black_rank"), "{}", err(&o));
}

#[test]
fn explore_by_key() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.file("g.sgf", GAMES);
    let pattern = dir.file("44.txt", PATTERN);
    let (g, p) = (games.to_str().unwrap(), pattern.to_str().unwrap());
    let run = |extra: &[&str], j: &str| {
        let mut args = vec!["explore", "--go-pattern", p, "--anchor", "corner", "-j", j];
        args.extend_from_slice(extra);
        args.push(g);
        let o = kifu(&args, None);
        assert_eq!(code(&o), 0, "{}", err(&o));
        (out(&o), err(&o))
    };
    let json = |by: &str| {
        let (o, _) = run(&["--by", by, "--json"], "1");
        assert_eq!(run(&["--by", by, "--json"], "2").0, o, "--by {by} at -j2");
        lines(&o)
            .into_iter()
            .map(|r| {
                (
                    r["group"].as_str().map(String::from),
                    r["move"].as_str().unwrap().to_string(),
                    r["positions"].as_u64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let row = |g: Option<&str>, m: &str| (g.map(String::from), m.to_string(), 1);
    // game 3 (a 3 dan Black): the handicap stones, then W qc at the 3-3 point, then the end;
    // game 1 (5 dan): W qf, B dd far away, the end; ranks in order, as numbers
    assert_eq!(
        json("black_rank"),
        [
            row(Some("3"), "O 2,2"),
            row(Some("3"), "end"),
            row(Some("5"), "O 5,2"),
            row(Some("5"), "X tenuki"),
            row(Some("5"), "end"),
        ]
    );
    // a key some games lack: theirs last, group null
    assert_eq!(
        json("HA"),
        [
            row(Some("9"), "O 2,2"),
            row(Some("9"), "end"),
            row(None, "O 5,2"),
            row(None, "X tenuki"),
            row(None, "end"),
        ]
    );
    // with -w: only the games that pass, grouped
    let (o, _) = run(&["--by", "BR", "-w", "BR>=4d", "--json"], "1");
    let groups: Vec<_> = lines(&o).iter().map(|r| r["group"].to_string()).collect();
    assert_eq!(groups, ["\"5d\""; 3]);
    // the table: a heading per group, a rank's number shown as the rank
    let (table, _) = run(&["--by", "black_rank"], "1");
    let heads: Vec<_> = table.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(heads[1..], ["", "3d (3)", "", "5d (5)"], "{table}");
    // bounded: the rows past --max-entries are counted, not kept
    let (o, e) = run(&["--by", "black_rank", "--max-entries", "2", "--json"], "2");
    assert_eq!(lines(&o).len(), 2);
    assert!(
        e.contains("3 plays of moves past --max-entries 2 not counted"),
        "{e}"
    );
}

/// Five games whose root properties differ in komi, handicap and date, each named by its `GN`.
/// The first four show the lone 4-4 stone of [`PATTERN`]; `nomatch` (3-3 points only) passes the same
/// tests as `komi65`: a game kept by its keys alone, without the pattern, would be seen.
const KEYED: &[u8] =
    b"(;GM[1]SZ[19]GN[komi65]KM[6.5]HA[0]DT[2021-03-05]RE[B+R];B[pd];W[qf];B[dd])\n\
(;GM[1]SZ[19]GN[ha2]KM[0.5]HA[2]DT[2019-11-20]RE[W+3.5]AB[pd][dp];W[qf];B[qd])\n\
(;GM[1]SZ[19]GN[komi75]KM[7.50]DT[2021-07-10,11]RE[W+R];B[qp];W[dd];B[pd])\n\
(;GM[1]SZ[19]GN[bare]RE[B+0.5];B[dp];W[pp])\n\
(;GM[1]SZ[19]GN[nomatch]KM[6.5]HA[0]DT[2021-03-06]RE[B+R];B[cc];W[qq])\n";

/// Each game's matched plies, found at `-j1` and `-j2`: what [`KEYED`]'s games hold.
const KEYED_PLIES: &[(&str, &[u64])] = &[
    ("komi65", &[1, 2, 3]),
    // the handicap stones stand from the start (two 4-4 corners); B qd beside pd spoils that
    // corner, dp's stays
    ("ha2", &[0, 1, 2]),
    // B qp is a 3-4 point and W dd is White's: the last move, B pd, is the first black 4-4
    ("komi75", &[3]),
    ("bare", &[1, 2]),
];

/// The matched plies of the [`KEYED`] game named `name`.
fn keyed_plies(name: &str) -> &'static [u64] {
    KEYED_PLIES.iter().find(|(n, _)| *n == name).unwrap().1
}

/// `-w` tests on the komi (`KM`, a number), the handicap (`HA`, an integer) and the date
/// (`DT`, a date; `year` and `month` derived from it), each with the games of [`KEYED`] that
/// `find` keeps: those that pass the test and show the pattern.
const KEY_TESTS: &[(&[&str], &[&str])] = &[
    (&[], &["komi65", "ha2", "komi75", "bare"]),
    // `nomatch` has KM 6.5 too, but no 4-4 stone
    (&["KM=6.5"], &["komi65"]),
    // `7.50` is the number 7.5
    (&["KM>=6.5"], &["komi65", "komi75"]),
    (&["KM=7.5"], &["komi75"]),
    (&["KM<1"], &["ha2"]),
    // a game without KM passes `!=` (and no other operator)
    (&["KM!=6.5"], &["ha2", "komi75", "bare"]),
    (&["HA=2"], &["ha2"]),
    (&["HA>=1"], &["ha2"]),
    // `bare` has no HA: not 0
    (&["HA=0"], &["komi65"]),
    (&["HA!=2"], &["komi65", "komi75", "bare"]),
    // a date on the parts the test gives, with `.` or `-` between them
    (&["DT=2021"], &["komi65", "komi75"]),
    (&["DT=2021.03"], &["komi65"]),
    (&["DT=2021-03"], &["komi65"]),
    (&["DT<2021.06"], &["komi65", "ha2"]),
    (&["DT>=2021.07"], &["komi75"]),
    // `2021-07-10,11` (two days) is compared on its first date, as `filter` compares it
    (&["DT=2021.07.10"], &["komi75"]),
    (&["DT=2021.07.11"], &[]),
    (&["DT~2021"], &["komi65", "komi75"]),
    (&["year>=2021"], &["komi65", "komi75"]),
    (&["year=2019"], &["ha2"]),
    (&["month=2021-03"], &["komi65"]),
    (&["month=2021-07"], &["komi75"]),
    // several `-w`: all hold; `or` within one: either
    (&["KM=6.5", "HA=0", "year=2021"], &["komi65"]),
    (&["KM>=7 or HA>=2"], &["ha2", "komi75"]),
    (&["HA=2", "year=2021"], &[]),
];

/// The `-w` arguments of a test's list.
fn where_args<'a>(tests: &[&'a str]) -> Vec<&'a str> {
    tests.iter().flat_map(|t| ["-w", t]).collect()
}

/// A found game's `GN`, read from its tree's root node.
fn game_name(found: &serde_json::Value) -> String {
    let props = found["tree"]["nodes"][0]["props"].as_array().unwrap();
    let gn = props.iter().find(|p| p[0] == "GN").expect("a GN");
    gn[1][0].as_str().unwrap().to_string()
}

/// `find --go-pattern` with `-w` on the komi, the handicap and the date keeps exactly the games
/// that pass the tests and show the pattern: the games written (`--to jsonl`, in input order,
/// their matched plies the same as without a test), their count (`-c`) and the exit status (1
/// when none), at one and two threads. `filter -w` keeps the same games among all five but
/// `nomatch`, so the Go search reads the same keys from its root properties as `filter` reads
/// from the whole tree.
#[test]
fn find_with_komi_handicap_and_date_keys() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.file("keyed.sgf", KEYED);
    let pattern = dir.file("44.txt", PATTERN);
    let (g, p) = (games.to_str().unwrap(), pattern.to_str().unwrap());
    for (tests, want) in KEY_TESTS {
        let w = where_args(tests);
        let status = if want.is_empty() { 1 } else { 0 };
        for j in ["1", "2"] {
            let run = |extra: &[&str]| {
                let mut args = vec!["find", "--go-pattern", p, "--anchor", "corner", "-j", j];
                args.extend_from_slice(extra);
                args.extend_from_slice(&w);
                args.push(g);
                let o = kifu(&args, None);
                assert_eq!(code(&o), status, "{args:?}: {}", err(&o));
                out(&o)
            };
            let found = lines(&run(&["--to", "jsonl"]));
            let names: Vec<String> = found.iter().map(game_name).collect();
            assert_eq!(names, *want, "-w {tests:?} -j{j}");
            for (name, f) in names.iter().zip(&found) {
                assert_eq!(
                    f["matched_plies"],
                    serde_json::json!(keyed_plies(name)),
                    "{name}"
                );
            }
            assert_eq!(
                run(&["-c"]).trim(),
                want.len().to_string(),
                "-w {tests:?} -j{j}"
            );
        }
        // `filter` with the same tests: the same games, and `nomatch` where it passes them
        let mut args = vec!["filter", "--to", "jsonl"];
        args.extend_from_slice(&w);
        args.push(g);
        let o = kifu(&args, None);
        let mut filtered: Vec<String> = lines(&out(&o)).iter().map(game_name).collect();
        filtered.retain(|n| n != "nomatch");
        assert_eq!(filtered, *want, "filter -w {tests:?}: {}", err(&o));
    }
}

/// `explore --go-pattern` with the same tests counts the positions of the kept games only:
/// its rows' positions add up to the matched plies of the games `find` keeps, every row's
/// example game is one of them, and the table's count on stderr says as much; the same at
/// `-j2`. Two cases are checked row by row.
#[test]
fn explore_with_komi_handicap_and_date_keys() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.file("keyed.sgf", KEYED);
    let pattern = dir.file("44.txt", PATTERN);
    let (g, p) = (games.to_str().unwrap(), pattern.to_str().unwrap());
    // the game number (from 1) of each name, as explore shows it
    let number = |name: &str| {
        let at = KEYED_PLIES.iter().position(|(n, _)| *n == name).unwrap();
        at as u64 + 1
    };
    // JSON rows, or the table (which counts the games and positions on stderr)
    let explore = |tests: &[&str], j: &str, json: bool| {
        let mut args = vec!["explore", "--go-pattern", p, "--anchor", "corner", "-j", j];
        if json {
            args.push("--json");
        }
        args.extend_from_slice(&where_args(tests));
        args.push(g);
        kifu(&args, None)
    };
    for (tests, want) in KEY_TESTS {
        let o = explore(tests, "1", true);
        assert_eq!(
            code(&o),
            if want.is_empty() { 1 } else { 0 },
            "-w {tests:?}: {}",
            err(&o)
        );
        assert_eq!(
            out(&explore(tests, "2", true)),
            out(&o),
            "-w {tests:?} at -j2"
        );
        let rows = lines(&out(&o));
        let positions: u64 = rows.iter().map(|r| r["positions"].as_u64().unwrap()).sum();
        let plies: usize = want.iter().map(|n| keyed_plies(n).len()).sum();
        assert_eq!(positions, plies as u64, "-w {tests:?}: {rows:?}");
        let kept: Vec<u64> = want.iter().map(|n| number(n)).collect();
        for r in &rows {
            let game = r["game"].as_u64().unwrap();
            assert!(kept.contains(&game), "-w {tests:?}: row of game {game}");
        }
        let table = explore(tests, "1", false);
        assert!(
            err(&table).contains(&format!(
                "kifu explore: {} {} matched, at {plies} {}",
                want.len(),
                if want.len() == 1 { "game" } else { "games" },
                if plies == 1 { "position" } else { "positions" }
            )),
            "-w {tests:?}: {}",
            err(&table)
        );
    }
    let rows = |tests: &[&str]| {
        lines(&out(&explore(tests, "1", true)))
            .iter()
            .map(|r| {
                (
                    r["move"].as_str().unwrap().to_string(),
                    r["positions"].as_u64().unwrap(),
                    r["x_wins"].as_u64().unwrap(),
                    r["o_wins"].as_u64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let row = |m: &str, n, x, o| (m.to_string(), n, x, o);
    // the komi of 6.5: game `komi65` alone (a Black win): W qf next to the stone, B dd
    // elsewhere, the end; without the test, W qf was counted twice (`ha2` too)
    assert_eq!(
        rows(&["KM=6.5"]),
        [
            row("O 5,2", 1, 1, 0),
            row("X tenuki", 1, 1, 0),
            row("end", 1, 1, 0)
        ]
    );
    assert_eq!(rows(&[])[1], row("O 5,2", 2, 1, 1));
    // two handicap stones: game `ha2` alone (a White win): W qf at the start, B qd at the
    // 3-4 point of the 4-4 stone's corner, the end
    let mut ha2 = rows(&["HA=2"]);
    ha2.sort();
    assert_eq!(
        ha2,
        [
            row("O 5,2", 1, 0, 1),
            row("X 3,2", 1, 0, 1),
            row("end", 1, 0, 1)
        ]
    );
}
