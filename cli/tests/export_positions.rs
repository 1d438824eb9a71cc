//! `kifu export --table positions` with the filters of a training set (`-w`, `--min-ply`,
//! `--max-ply`, `--legal-only`, `--sample-rate`/`--seed`, `--distinct`): the rows kept equal a
//! straightforward computation over the unfiltered table, and `-j2` (small pieces) writes the
//! bytes of `-j1`.

use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{kifu, text};

/// The games of the test: `n` games, game `i` the pawns pushed file by file, White then Black,
/// each one or two squares by the bits of `i` (many games share their first positions, and
/// the later ones differ: thousands of distinct positions), then a game whose third move is
/// illegal. Game `i` has `WhiteElo` 1500 + i % 7 × 50.
fn games(dir: &Path, n: usize) -> (PathBuf, Vec<Vec<(String, String)>>) {
    let mut pgn = String::new();
    let mut tags = Vec::new();
    for i in 0..n {
        let t = vec![
            ("Event".to_string(), format!("game {i}")),
            ("WhiteElo".to_string(), format!("{}", 1500 + i % 7 * 50)),
        ];
        for (name, value) in &t {
            pgn.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        tags.push(t);
        pgn.push('\n');
        for (k, file) in (b'a'..=b'h').enumerate() {
            let file = char::from(file);
            let white = if i >> k & 1 == 0 { 3 } else { 4 };
            let black = if i >> (k + 8) & 1 == 0 { 6 } else { 5 };
            pgn.push_str(&format!("{}. {file}{white} {file}{black} ", k + 1));
        }
        pgn.push_str("*\n\n");
    }
    let t = vec![
        ("Event".to_string(), "illegal".to_string()),
        ("WhiteElo".to_string(), "2000".to_string()),
    ];
    pgn.push_str("[Event \"illegal\"]\n[WhiteElo \"2000\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n");
    tags.push(t);
    let p = dir.join("pawns.pgn");
    std::fs::write(&p, pgn).unwrap();
    (p, tags)
}

/// A row of the CSV written with `--columns game_index,ply,key,error`.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    game: usize,
    ply: u32,
    key: i64,
    error: bool,
}

fn export(input: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<OsString> = vec!["export".into(), input.into(), "-o".into(), out.into()];
    args.extend(["--table", "positions", "--force"].map(OsString::from));
    args.extend(extra.iter().map(OsString::from));
    kifu(&args, None)
}

/// The CSV of `extra` at -j1 and at -j2 with pieces of 2 KiB: the same bytes; the stderr of
/// -j1.
fn both(input: &Path, dir: &Path, extra: &[&str]) -> (String, String) {
    let (one, two) = (dir.join("one.csv"), dir.join("two.csv"));
    let o = export(input, &one, &[extra, &["-j1"]].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let t = export(
        input,
        &two,
        &[extra, &["-j2", "--piece-size", "2K"]].concat(),
    );
    assert!(t.status.success(), "{}", text(&t.stderr));
    let (a, b) = (
        std::fs::read_to_string(&one).unwrap(),
        std::fs::read_to_string(&two).unwrap(),
    );
    assert_eq!(a, b, "-j2 writes the bytes of -j1 ({extra:?})");
    (a, text(&o.stderr))
}

fn rows(csv: &str) -> Vec<Row> {
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("game_index,ply,key,error"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Row {
                game: f[0].parse().unwrap(),
                ply: f[1].parse().unwrap(),
                key: f[2].parse().unwrap(),
                error: !f[3].is_empty(),
            }
        })
        .collect()
}

const COLUMNS: [&str; 2] = ["--columns", "game_index,ply,key,error"];

#[test]
fn filters_keep_what_a_plain_computation_keeps() {
    let tmp = tempfile::tempdir().unwrap();
    let (input, _) = games(tmp.path(), 600);
    let (all, _) = both(&input, tmp.path(), &COLUMNS);
    let all = rows(&all);
    assert_eq!(all.len(), 600 * 17 + 3, "17 positions a game; 3 before Ke3");
    assert!(all.last().unwrap().error);
    let elo = |game: usize| {
        if game == 600 {
            2000
        } else {
            1500 + game % 7 * 50
        }
    };

    // -w, the ply bounds, --legal-only
    let extra = [
        &COLUMNS[..],
        &[
            "-w",
            "WhiteElo>=1600",
            "--min-ply",
            "1",
            "--max-ply",
            "12",
            "--legal-only",
        ],
    ]
    .concat();
    let (csv, _) = both(&input, tmp.path(), &extra);
    let want: Vec<Row> = all
        .iter()
        .filter(|r| elo(r.game) >= 1600 && (1..=12).contains(&r.ply) && !r.error)
        .cloned()
        .collect();
    assert_eq!(rows(&csv), want);
    assert!(
        want.iter().any(|r| r.game == 600),
        "the illegal game's legal positions"
    );

    // --distinct: the first row of each key, in input order; the repeats counted
    let (csv, stderr) = both(
        &input,
        tmp.path(),
        &[&COLUMNS[..], &["--distinct"]].concat(),
    );
    let mut seen = HashSet::new();
    let want: Vec<Row> = all.iter().filter(|r| seen.insert(r.key)).cloned().collect();
    assert_eq!(rows(&csv), want);
    assert!(
        want.len() > 2000 && want.len() < all.len(),
        "{}",
        want.len()
    );
    let said = format!(
        "{} distinct positions, {} repeats dropped",
        want.len(),
        all.len() - want.len()
    );
    assert!(stderr.contains(&said), "{stderr}");

    // --distinct without the key among the columns: the same rows, the key left out
    let (csv, _) = both(
        &input,
        tmp.path(),
        &["--columns", "game_index,ply", "--distinct"],
    );
    let plain: Vec<String> = want
        .iter()
        .map(|r| format!("{},{}", r.game, r.ply))
        .collect();
    assert_eq!(csv, format!("game_index,ply\n{}\n", plain.join("\n")));
}

#[test]
fn a_full_set_of_keys_keeps_new_positions_unchecked() {
    let tmp = tempfile::tempdir().unwrap();
    let (input, _) = games(tmp.path(), 600);
    let (all, _) = both(&input, tmp.path(), &COLUMNS);
    let all = rows(&all);
    // the smallest set: 1,024 slots, 896 keys
    let extra = [&COLUMNS[..], &["--distinct", "--distinct-memory", "1"]].concat();
    let (csv, stderr) = both(&input, tmp.path(), &extra);
    let mut held = HashSet::new();
    let (mut dropped, mut unchecked) = (0, 0);
    let want: Vec<Row> = all
        .iter()
        .filter(|r| {
            if held.contains(&r.key) {
                dropped += 1;
                false
            } else if held.len() < 896 {
                held.insert(r.key);
                true
            } else {
                unchecked += 1;
                true
            }
        })
        .cloned()
        .collect();
    assert_eq!(rows(&csv), want);
    assert!(unchecked > 0);
    assert!(
        stderr.contains(&format!(
            "896 distinct positions, {dropped} repeats dropped"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{unchecked} rows kept unchecked")),
        "{stderr}"
    );
}

/// SplitMix64's output function, as docs/export.md gives it.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn a_sample_is_the_documented_function_of_seed_game_and_position() {
    let tmp = tempfile::tempdir().unwrap();
    let (input, tags) = games(tmp.path(), 300);
    let (all, _) = both(&input, tmp.path(), &COLUMNS);
    let all = rows(&all);
    let (rate, seed) = (0.3, 12345u64);
    let extra = [&COLUMNS[..], &["--sample-rate", "0.3", "--seed", "12345"]].concat();
    let (csv, _) = both(&input, tmp.path(), &extra);
    // the decision of docs/export.md, recomputed
    let fnv = |mut h: u64, bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
        h
    };
    let threshold = (rate * 2f64.powi(64)) as u64;
    let mut state = 0;
    let mut want = Vec::new();
    for r in &all {
        if r.ply == 0 {
            let salt = tags[r.game]
                .iter()
                .fold(0xCBF2_9CE4_8422_2325, |h, (n, v)| {
                    fnv(fnv(fnv(fnv(h, n.as_bytes()), &[0]), v.as_bytes()), &[0])
                });
            state = mix(seed ^ mix(salt));
        }
        state = mix(state ^ r.key as u64);
        if state < threshold {
            want.push(r.clone());
        }
    }
    let got = rows(&csv);
    assert_eq!(got, want);
    let share = got.len() as f64 / all.len() as f64;
    assert!((0.25..0.35).contains(&share), "{share}");
    // another seed, other rows
    let other = [&COLUMNS[..], &["--sample-rate", "0.3", "--seed", "1"]].concat();
    let (csv2, _) = both(&input, tmp.path(), &other);
    assert_ne!(csv, csv2);
}

#[test]
fn position_flags_are_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let (input, _) = games(tmp.path(), 3);
    let out = tmp.path().join("p.csv");
    for (extra, says) in [
        (&["--sample-rate", "0"][..], "--sample-rate 0"),
        (&["--sample-rate", "1.5"][..], "at most 1"),
        (&["--table", "games", "--distinct"][..], "--table positions"),
        (
            &["--table", "moves", "--min-ply", "3"][..],
            "--table positions",
        ),
        (
            &["--min-ply", "5", "--max-ply", "2"][..],
            "is past --max-ply",
        ),
        // the positions rows are the main line's, replayed already: refused, not ignored
        (
            &["--replay"][..],
            "--replay changes nothing in the positions table",
        ),
        (
            &["--variations"][..],
            "--variations changes nothing in the positions table",
        ),
    ] {
        let mut args: Vec<OsString> = vec![
            "export".into(),
            input.clone().into(),
            "-o".into(),
            out.clone().into(),
        ];
        args.extend(["--force"].map(OsString::from));
        if !extra.contains(&"--table") {
            args.extend(["--table", "positions"].map(OsString::from));
        }
        args.extend(extra.iter().map(OsString::from));
        let o = kifu(&args, None);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(says),
            "{extra:?}: {}",
            text(&o.stderr)
        );
    }
    // --seed without --sample-rate, --distinct-memory without --distinct: usage errors
    for extra in [&["--seed", "3"][..], &["--distinct-memory", "1M"][..]] {
        let o = export(&input, &out, extra);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
    }
    // -w on the games table: the games kept
    let o = kifu(
        &[
            OsString::from("export"),
            input.into(),
            "-o".into(),
            out.clone().into(),
            "--force".into(),
            "--columns".into(),
            "Event".into(),
            "-w".into(),
            "WhiteElo=1550".into(),
        ],
        None,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "Event\ngame 1\n");
}

/// A game with no position (a variant that is not chess, a `FEN` tag that does not read) is
/// named on stderr, with exit status 1; the other games' rows are written.
#[test]
fn a_game_that_is_not_replayed_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("odd.pgn");
    std::fs::write(
        &input,
        "[FEN \"bad fen\"]\n\n1. e4 *\n\n[Variant \"Atomic\"]\n\n1. e4 *\n\n[White \"ok\"]\n\n1. d4 *\n",
    )
    .unwrap();
    let o = kifu(
        &[
            "export".as_ref(),
            input.as_os_str(),
            "--table".as_ref(),
            "positions".as_ref(),
            "--to".as_ref(),
            "csv".as_ref(),
            "--columns".as_ref(),
            "game_index,ply".as_ref(),
            "-o".as_ref(),
            "-".as_ref(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stdout), "game_index,ply\n2,0\n2,1\n");
    let err = text(&o.stderr);
    assert!(err.contains("game 1: the FEN tag does not read"), "{err}");
    assert!(
        err.contains("game 2: the variant \"Atomic\" is not chess"),
        "{err}"
    );
}
