//! What the `kifu` binary's tests share: a game, running the binary, reading what it said, files
//! written into a `tempfile::TempDir`. (Each test binary uses some of it, as `mod common;`; the
//! test data and the corpus of the whole workspace are `kifu_testkit`'s.)
#![allow(dead_code)]

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const GAME: &[u8] =
    b"[Event \"e\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n";

/// Runs `kifu` with `args`; stdin is empty (`None`: `/dev/null`) or the given bytes (piped,
/// written from another thread so that a full stdout pipe cannot block both sides).
pub fn kifu<S: AsRef<OsStr>>(args: &[S], stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifu"));
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    match stdin {
        None => {
            cmd.stdin(Stdio::null());
            cmd.output().expect("kifu runs")
        }
        Some(bytes) => {
            cmd.stdin(Stdio::piped());
            let mut child = cmd.spawn().expect("kifu runs");
            let mut pipe = child.stdin.take().expect("stdin is piped");
            let bytes = bytes.to_vec();
            // a command that fails early (a usage error) reads nothing: the pipe breaks
            let writer = std::thread::spawn(move || {
                let _ = pipe.write_all(&bytes);
            });
            let out = child.wait_with_output().expect("kifu ends");
            writer.join().unwrap();
            out
        }
    }
}

/// Bytes a command wrote, as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// Files written into a directory: `dir.file("a/b.pgn", bytes)` makes `a/` and gives the path.
pub trait Files {
    fn file(&self, rel: &str, content: &[u8]) -> PathBuf;
}

impl Files for tempfile::TempDir {
    fn file(&self, rel: &str, content: &[u8]) -> PathBuf {
        let p = self.path().join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, content).unwrap();
        p
    }
}

/// Every entry of `dir`, sorted (hidden ones too).
pub fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

// ----- no game from nowhere ------------------------------------------------------------------
