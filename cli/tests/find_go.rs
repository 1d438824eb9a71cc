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
    assert_eq!(row("X tenuki")["positions"].as_u64(), Some(1));
    // a table on a terminal-less stdout
    let o = kifu(
        &["explore", "--go-pattern", p, "--anchor", "corner", g],
        None,
    );
    assert!(out(&o).contains("O 5,2"), "{}", out(&o));
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
    // the table: a heading per group
    let (table, _) = run(&["--by", "black_rank"], "1");
    let heads: Vec<_> = table.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(heads[1..], ["", "3", "", "5"], "{table}");
    // bounded: the rows past --max-entries are counted, not kept
    let (o, e) = run(&["--by", "black_rank", "--max-entries", "2", "--json"], "2");
    assert_eq!(lines(&o).len(), 2);
    assert!(
        e.contains("3 plays of moves past --max-entries 2 not counted"),
        "{e}"
    );
}
