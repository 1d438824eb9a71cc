//! The habits users bring from ripgrep and grep: `-m/--max-count`, `-q`, `--color`, a manual
//! page per command, help that does not say its summary twice.

mod common;

use common::{Files, GAME, code, err, kifu, out};

/// `n` games, the k-th with White `Pk` (0-based).
fn games(n: usize) -> Vec<u8> {
    let mut v = Vec::new();
    for k in 0..n {
        let g =
            String::from_utf8_lossy(GAME).replace("[White \"w\"]", &format!("[White \"P{k}\"]"));
        v.extend_from_slice(g.as_bytes());
    }
    v
}

#[test]
fn max_count_stops_after_n_games_at_every_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let many = dir.file("many.pgn", &games(5_000));
    for j in ["1", "2"] {
        let o = kifu(
            &[
                "json",
                "-m",
                "3",
                "-j",
                j,
                "--piece-size",
                "4K",
                many.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(code(&o), 0, "{}", err(&o));
        let lines: Vec<serde_json::Value> = out(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let indexes: Vec<u64> = lines.iter().map(|v| v["index"].as_u64().unwrap()).collect();
        assert_eq!(indexes, [0, 1, 2]);
        assert_eq!(err(&o), "", "stopping early is no error");

        let o = kifu(&["fmt", "-m", "2", "-j", j, many.to_str().unwrap()], None);
        assert_eq!(code(&o), 0);
        assert_eq!(out(&o).matches("[Event ").count(), 2);
        assert!(out(&o).contains("\"P1\"") && !out(&o).contains("\"P2\""));

        // distinct games, each twice
        let firsts = ["a3", "a4", "b3", "b4", "c3", "c4", "d3", "d4"];
        let distinct: String = firsts
            .iter()
            .map(|m| format!("1. {m} *\n\n").repeat(2))
            .collect();
        let o = kifu(
            &["dedup", "-m", "4", "-j", j, "-"],
            Some(distinct.as_bytes()),
        );
        assert_eq!(code(&o), 0);
        assert_eq!(out(&o).matches("[Event ").count(), 4, "{}", out(&o));
        assert!(out(&o).contains("1. b4") && !out(&o).contains("1. c3"));
    }
    for j in ["1", "2"] {
        let path = many.to_str().unwrap();
        let o = kifu(
            &["filter", "-m", "3", "-j", j, "-w", "White~P1", path],
            None,
        );
        assert_eq!(code(&o), 0, "{}", err(&o));
        // P1, P10, P11 are the first three whites holding P1
        let whites: Vec<_> = out(&o)
            .lines()
            .filter(|l| l.starts_with("[White "))
            .map(String::from)
            .collect();
        assert_eq!(
            whites,
            ["[White \"P1\"]", "[White \"P10\"]", "[White \"P11\"]"]
        );
        // -c counts up to N, as grep -c -m
        let o = kifu(&["filter", "-c", "-m", "7", "-j", j, path], None);
        assert_eq!(out(&o), "7\n");
        let parts = dir.path().join(format!("parts{j}"));
        let o = kifu(
            &[
                "split",
                "-m",
                "5",
                "--games",
                "2",
                "-j",
                j,
                "-o",
                parts.to_str().unwrap(),
                path,
            ],
            None,
        );
        assert_eq!(code(&o), 0, "{}", err(&o));
        let files = common::entries(&parts);
        assert_eq!(files.len(), 3, "{files:?}");
    }
    // at least one: zero is a usage error
    let o = kifu(&["json", "-m", "0", many.to_str().unwrap()], None);
    assert_eq!(code(&o), 2);
}

#[test]
fn max_count_reads_no_further_than_it_needs() {
    // an endless stdin would never end: the scan stops at its next game once enough are written
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["json", "-m", "2", "-j1", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        use std::io::Write;
        let chunk = games(1_000);
        // until kifu closes the pipe (bounded, in case it never does)
        for _ in 0..2_000 {
            if stdin.write_all(&chunk).is_err() {
                return true;
            }
        }
        false
    });
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(out(&o).lines().count(), 2);
    assert!(feeder.join().unwrap(), "kifu read all of stdin");
}

#[test]
fn quiet_check_prints_nothing_and_keeps_its_status() {
    let bad = b"1. e4 oh? e5 *\n";
    let o = kifu(&["check", "-q", "-"], Some(bad));
    assert_eq!(
        (code(&o), out(&o), err(&o)),
        (1, String::new(), String::new())
    );
    let o = kifu(&["check", "-q", "--json", "-"], Some(bad));
    assert_eq!((code(&o), out(&o)), (1, String::new()));
    let o = kifu(&["check", "-q", "-"], Some(GAME));
    assert_eq!((code(&o), out(&o)), (0, String::new()));
    // fmt -q: the games, no problem lines
    let o = kifu(&["fmt", "-q", "-"], Some(bad));
    assert!(out(&o).contains("1. e4 e5"));
    assert_eq!(err(&o), "");
}

#[test]
fn color_is_asked_for_or_never_given_to_a_pipe() {
    let bad = b"1. e4 oh? e5 *\n";
    let o = kifu(&["check", "--color", "always", "-"], Some(bad));
    let line = out(&o);
    assert!(
        line.starts_with("\x1b[1m-:1:7\x1b[0m: \x1b[1;31merror\x1b[0m: "),
        "{line:?}"
    );
    for when in ["auto", "never"] {
        let o = kifu(&["check", "--color", when, "-"], Some(bad));
        assert!(out(&o).starts_with("-:1:7: error: "), "{}", out(&o));
    }
    // --json is never coloured
    let o = kifu(&["check", "--json", "--color", "always", "-"], Some(bad));
    assert!(!out(&o).contains('\x1b'));
    let o = kifu(&["check", "--color", "sometimes", "-"], Some(bad));
    assert_eq!(code(&o), 2);
}

#[test]
fn a_manual_page_for_kifu_and_each_command() {
    let o = kifu(&["man"], None);
    let top = out(&o);
    assert!(top.contains(".TH kifu 1"), "{top}");
    assert!(
        top.contains("kifu\\-stats(1)"),
        "kifu(1) names the commands' pages"
    );
    let o = kifu(&["man", "stats"], None);
    assert!(out(&o).contains(".TH kifu-stats 1"), "{}", out(&o));
    assert!(out(&o).contains("\\-\\-by"));
    // the pages as kifu(1) names them name their commands too
    for name in ["kifu-stats", "kifu-stats(1)"] {
        let o = kifu(&["man", name], None);
        assert_eq!(code(&o), 0, "{name}: {}", err(&o));
        assert!(out(&o).contains(".TH kifu-stats 1"), "{name}");
    }
    let o = kifu(&["man", "kifu"], None);
    assert!(out(&o).contains(".TH kifu 1"), "{}", out(&o));
    let o = kifu(&["man", "nope"], None);
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("no command `nope`"), "{}", err(&o));

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let o = kifu(&["man", "--dir", d], None);
    assert_eq!(code(&o), 0, "{}", err(&o));
    let pages = common::entries(dir.path());
    for name in [
        "kifu.1",
        "kifu-stats.1",
        "kifu-check.1",
        "kifu-export.1",
        "kifu-filter.1",
    ] {
        assert!(pages.iter().any(|p| p == name), "{name} in {pages:?}");
    }
    // an existing page is replaced only with --force
    let o = kifu(&["man", "--dir", d], None);
    assert_eq!(code(&o), 2);
    let o = kifu(&["man", "--dir", d, "--force"], None);
    assert_eq!(code(&o), 0);
}

#[test]
fn long_help_does_not_say_its_summary_twice() {
    for cmd in [
        "stats", "check", "json", "fmt", "filter", "split", "export", "dedup", "man",
    ] {
        let o = kifu(&[cmd, "--help"], None);
        let help = out(&o);
        let first = help.lines().next().unwrap();
        assert!(!first.is_empty());
        assert_eq!(
            help.matches(first.trim_end_matches('.')).count(),
            1,
            "`kifu {cmd} --help` repeats {first:?}"
        );
    }
}
