//! An output never replaces an input, however the input is reached (issue 32): through a link
//! inside an input directory, a bind mount, stdin redirected from the file, a dataset holding a
//! linked input. Each is refused (exit status 2, the message of `-o` naming the input), the
//! input untouched. The rules are kifu-output's guard; these tests see them from the command
//! line.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;
use common::entries;

/// `n` games, White `P1` or `P2` in turn, Event `real`.
fn games(n: usize) -> Vec<u8> {
    let mut v = Vec::new();
    for i in 0..n {
        let white = if i % 2 == 0 { "P1" } else { "P2" };
        v.extend_from_slice(
            format!(
                "[Event \"real\"]\n[White \"{white}\"]\n[Black \"b{i}\"]\n[Result \"1-0\"]\n\n\
                 1. e4 e5 2. Nf3 Nc6 1-0\n\n"
            )
            .as_bytes(),
        );
    }
    v
}

/// `kifu ARGS`, its stdin read from the file `stdin` (else nothing).
fn kifu(args: &[&str], stdin: Option<&Path>) -> Output {
    let stdin = match stdin {
        Some(p) => Stdio::from(fs::File::open(p).unwrap()),
        None => Stdio::null(),
    };
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .stdin(stdin)
        .output()
        .expect("the kifu binary")
}

/// Asserts `o` was refused as an output that is an input.
fn refused(o: &Output, what: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    assert!(
        err.contains("is one of the inputs (or inside an input directory)"),
        "{what}: {err}"
    );
}

/// The games in the PGN file `path`.
fn count(path: &Path) -> usize {
    String::from_utf8_lossy(&fs::read(path).unwrap())
        .matches("[Event ")
        .count()
}

/// The commands that write a file, each reading `input` and writing `out` with `--force`.
fn writers(input: &str, out: &str) -> Vec<Vec<String>> {
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        v(&["filter", input, "-w", "White=P1", "-o", out, "--force"]),
        v(&["fmt", input, "-o", out, "--force"]),
        v(&["dedup", input, "-o", out, "--force"]),
        v(&["export", input, "--to", "csv", "-o", out, "--force"]),
    ]
}

/// `dir/in/link.pgn` links to `dir/other/real.pgn`, which holds `games`.
fn linked(dir: &Path, games: &[u8]) -> PathBuf {
    fs::create_dir(dir.join("in")).unwrap();
    fs::create_dir(dir.join("other")).unwrap();
    let real = dir.join("other/real.pgn");
    fs::write(&real, games).unwrap();
    std::os::unix::fs::symlink("../other/real.pgn", dir.join("in/link.pgn")).unwrap();
    real
}

#[test]
fn a_file_a_link_in_an_input_directory_reaches_is_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let games = games(40);
    let real = linked(dir.path(), &games);
    let input = dir.path().join("in");
    let (input, out) = (input.to_str().unwrap(), real.to_str().unwrap());
    for args in writers(input, out) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&kifu(&args, None), &args.join(" "));
        assert_eq!(
            fs::read(&real).unwrap(),
            games,
            "{args:?}: the input is untouched"
        );
    }
    // split, whose file for Event `real` is the linked input
    let o = kifu(
        &[
            "split",
            input,
            "--by",
            "Event",
            "-o",
            dir.path().join("other").to_str().unwrap(),
            "--force",
        ],
        None,
    );
    refused(&o, "split");
    assert_eq!(fs::read(&real).unwrap(), games);
    assert_eq!(entries(&dir.path().join("other")), ["real.pgn"]);
    // a file beside it is replaced as before
    let beside = dir.path().join("other/beside.pgn");
    fs::write(&beside, "old").unwrap();
    let o = kifu(
        &[
            "filter",
            input,
            "-w",
            "White=P1",
            "-o",
            beside.to_str().unwrap(),
            "--force",
        ],
        None,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(count(&beside), 20);
}

#[test]
fn the_file_stdin_is_redirected_from_is_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let games = games(40);
    let s = dir.path().join("s.pgn");
    fs::write(&s, &games).unwrap();
    let out = s.to_str().unwrap();
    // named `-`, and read with no input named
    for args in writers("-", out) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&kifu(&args, Some(&s)), &args.join(" "));
        assert_eq!(
            fs::read(&s).unwrap(),
            games,
            "{args:?}: the input is untouched"
        );
        let implicit: Vec<&str> = args.iter().copied().filter(|a| *a != "-").collect();
        refused(&kifu(&implicit, Some(&s)), &implicit.join(" "));
        assert_eq!(fs::read(&s).unwrap(), games, "{implicit:?}");
    }
    // a dataset holding it
    let ds = dir.path().join("ds");
    fs::create_dir(&ds).unwrap();
    let part = ds.join("part-00000.csv");
    fs::write(&part, &games).unwrap();
    let o = kifu(
        &[
            "export",
            "-",
            "--to",
            "csv",
            "--dataset",
            "--force",
            "-o",
            ds.to_str().unwrap(),
        ],
        Some(&part),
    );
    refused(&o, "export --dataset");
    assert_eq!(fs::read(&part).unwrap(), games);
    // stdin from another file: written
    let other = dir.path().join("other.pgn");
    fs::write(&other, &games).unwrap();
    let o = kifu(
        &["filter", "-", "-w", "White=P1", "-o", out, "--force"],
        Some(&other),
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(count(&s), 20, "the games of P1");
}

#[test]
fn a_dataset_holding_a_linked_input_is_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let games = games(10);
    let ds = dir.path().join("ds");
    // a dataset whose part a link of the input directory reaches
    fs::create_dir(&ds).unwrap();
    let part = ds.join("part-00000.csv");
    fs::write(&part, &games).unwrap();
    fs::write(ds.join("_SUCCESS"), "").unwrap();
    fs::create_dir(dir.path().join("in")).unwrap();
    std::os::unix::fs::symlink("../ds/part-00000.csv", dir.path().join("in/link.pgn")).unwrap();
    let input = dir.path().join("in");
    for extra in [
        &["--dataset"][..],
        &["--max-rows-per-file", "3"],
        &["--partition-by", "White"],
    ] {
        let mut args = vec!["export", input.to_str().unwrap(), "--to", "csv", "--force"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["-o", ds.to_str().unwrap()]);
        refused(&kifu(&args, None), &args.join(" "));
        assert_eq!(
            fs::read(&part).unwrap(),
            games,
            "{args:?}: the input is untouched"
        );
        assert_eq!(entries(&ds), ["_SUCCESS", "part-00000.csv"]);
        assert_eq!(
            entries(dir.path()),
            ["ds", "in"],
            "{args:?}: nothing left beside"
        );
    }
}

/// A bind mount, unmounted when dropped.
#[cfg(target_os = "linux")]
struct Bound(PathBuf);

#[cfg(target_os = "linux")]
impl Bound {
    /// `from` mounted at `at`, if this process may (root, in a namespace that allows it).
    fn mount(from: &Path, at: &Path) -> Option<Bound> {
        let ok = Command::new("mount")
            .arg("--bind")
            .args([from, at])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Bound(at.to_path_buf()))
    }
}

#[cfg(target_os = "linux")]
impl Drop for Bound {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_a_bind_mount_in_an_input_directory_reaches_is_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let games = games(40);
    fs::create_dir_all(dir.path().join("in/mnt")).unwrap();
    fs::create_dir(dir.path().join("other")).unwrap();
    let real = dir.path().join("other/real.pgn");
    fs::write(&real, &games).unwrap();
    let Some(_bound) = Bound::mount(&dir.path().join("other"), &dir.path().join("in/mnt")) else {
        eprintln!("no bind mount here (not root?): the test proves nothing");
        return;
    };
    let input = dir.path().join("in");
    let (input, out) = (input.to_str().unwrap(), real.to_str().unwrap());
    for args in writers(input, out) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&kifu(&args, None), &args.join(" "));
        assert_eq!(
            fs::read(&real).unwrap(),
            games,
            "{args:?}: the input is untouched"
        );
    }
    // and a new file in a bind mount of the input directory itself
    let mirror = dir.path().join("mirror");
    fs::create_dir(&mirror).unwrap();
    let Some(_mirror) = Bound::mount(&dir.path().join("in"), &mirror) else {
        return;
    };
    let new = mirror.join("new.pgn");
    let o = kifu(&["fmt", input, "-o", new.to_str().unwrap()], None);
    refused(&o, "a new file inside");
    assert!(!new.exists());
}
