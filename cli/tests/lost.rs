//! Nothing lost in silence (issue 32): every game read is written in every form, or named on
//! stderr with exit status 1; values that mean nothing are refused; what could not be read is
//! named. Each test builds what it needs at test time.

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn kifu<S: AsRef<OsStr>>(args: &[S], stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifu"));
    cmd.args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the kifu binary");
    if let Some(bytes) = stdin {
        let mut w = child.stdin.take().unwrap();
        // a command that fails early (a usage error) reads nothing: the pipe breaks
        let _ = w.write_all(bytes);
    }
    child.wait_with_output().unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// Every entry of `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The text of every file of `dir`, in name order.
fn texts(dir: &Path) -> String {
    entries(dir)
        .iter()
        .map(|n| fs::read_to_string(dir.join(n)).unwrap())
        .collect()
}

// ----- deep SGF trees ------------------------------------------------------------------------

/// A game tree with `n` branch points nested in each other (each `B[aa]` has two children,
/// `W[bb]` and the next branch point), then a plain tree `B[dd]`.
fn deep_sgf(n: usize) -> Vec<u8> {
    let mut s = b"(;GM[1]".to_vec();
    for _ in 0..n {
        s.extend_from_slice(b"(;B[aa](;W[bb])");
    }
    s.extend(std::iter::repeat_n(b')', n));
    s.extend_from_slice(b")\n(;GM[1];B[dd])\n");
    s
}

/// A tree nested past the JSON serialization's depth is written in the standard form by every
/// command, and in JSON by none: each JSON form names it on stderr and exits 1, never drops it
/// in silence nor panics; the other tree is written everywhere.
#[test]
fn a_tree_too_deep_for_json_is_named_by_every_json_form() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("deep.sgf");
    fs::write(&input, deep_sgf(1100)).unwrap();
    let input = input.to_str().unwrap();
    let named = "deep.sgf: game 1: not written: variations nested deeper than 1000";
    let plain = "[\"B\",[\"dd\"]]";

    // the JSON forms to stdout: the plain tree, the deep one named, exit 1
    for args in [
        &["json"][..],
        &["filter", "--to", "jsonl"],
        &["dedup", "--to", "jsonl"],
    ] {
        let o = kifu(&[args, &[input]].concat(), None);
        assert_eq!(code(&o), 1, "{args:?}: {}", err(&o));
        assert!(err(&o).contains(named), "{args:?}: {}", err(&o));
        assert_eq!(out(&o).lines().count(), 1, "{args:?}: {}", out(&o));
        assert!(out(&o).contains(plain), "{args:?}: {}", out(&o));
    }
    // the standard form: both trees, exit 0
    for args in [&["fmt"][..], &["filter"], &["dedup"]] {
        let o = kifu(&[args, &[input]].concat(), None);
        assert_eq!(code(&o), 0, "{args:?}: {}", err(&o));
        assert_eq!(out(&o).matches("(;GM[1]").count(), 2, "{args:?}");
        assert!(out(&o).contains("B[dd]"), "{args:?}");
    }
    // split, both ways of sharing out, both forms
    for share in [&["--games", "1"][..], &["--by", "GM"]] {
        for (to, trees, status) in [("jsonl", 1, 1), ("std", 2, 0)] {
            let to_dir = dir.path().join(format!("split-{to}-{}", share[0]));
            let to_dir = to_dir.to_str().unwrap();
            let args = [&["split", "-o", to_dir, "--to", to][..], share, &[input]].concat();
            let o = kifu(&args, None);
            assert_eq!(code(&o), status, "{args:?}: {}", err(&o));
            assert_eq!(
                err(&o).contains(named),
                status == 1,
                "{args:?}: {}",
                err(&o)
            );
            let written = texts(Path::new(to_dir));
            let count = if to == "jsonl" {
                written.lines().count()
            } else {
                written.matches("(;GM[1]").count()
            };
            assert_eq!(count, trees, "{args:?}: {written}");
            assert!(written.contains("B[dd]") || written.contains(plain));
        }
    }
}
