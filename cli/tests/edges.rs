//! Where `kifu` meets the outside world (issue 21): no game from nowhere, outputs that never
//! land where they must not, interrupts that leave nothing behind, names from inputs escaped,
//! limits on what the command line asks. Each test builds what it needs at test time.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{GAME, code, entries, err, kifu, out};

#[test]
fn empty_stdin_is_no_game_named_on_stderr_and_exits_1() {
    for cmd in ["stats", "check", "json", "fmt"] {
        let o = kifu(&[cmd], Some(b""));
        assert_eq!(code(&o), 1, "{cmd}: {}", err(&o));
        assert!(
            err(&o).contains("kifu: -: no game in it"),
            "{cmd}: {}",
            err(&o)
        );
        assert!(!err(&o).contains("sample"), "{cmd}: {}", err(&o));
    }
    let o = kifu(&["stats", "--json"], Some(b""));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 0);
}

#[test]
fn empty_stdin_exports_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("g.parquet");
    let o = kifu(
        &["export", "--to", "parquet", "-o", g.to_str().unwrap()],
        Some(b""),
    );
    assert_eq!(code(&o), 1, "{}", err(&o));
    assert!(err(&o).contains("no game in it"), "{}", err(&o));
    if g.exists() {
        // a table with the schema and no rows, never the sample's games
        let bytes = fs::read(&g).unwrap();
        assert!(bytes.starts_with(b"PAR1"));
        assert!(
            !bytes.windows(6).any(|w| w == b"Morphy"),
            "the sample's games"
        );
    }
}

#[test]
fn an_empty_file_and_an_empty_directory_are_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.pgn");
    fs::write(&empty, "").unwrap();
    let o = kifu(&["stats", empty.to_str().unwrap()], None);
    assert_eq!(code(&o), 1);
    assert!(err(&o).contains("empty.pgn: no game in it"), "{}", err(&o));
    let sub = dir.path().join("nothing");
    fs::create_dir(&sub).unwrap();
    let o = kifu(&["stats", sub.to_str().unwrap()], None);
    assert_eq!(code(&o), 1);
    assert!(err(&o).contains("no PGN or SGF input in it"), "{}", err(&o));
    assert!(
        out(&o).contains("games                    0"),
        "{}",
        out(&o)
    );
}

#[test]
fn the_sample_is_read_when_asked_for() {
    let o = kifu(&["stats", "--sample", "--json"], None);
    assert_eq!(code(&o), 0, "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 3);
    assert!(err(&o).contains("embedded sample"));
    let o = kifu(&["stats", "--sample", "x.pgn"], None);
    assert_eq!(code(&o), 2, "an input and --sample: {}", err(&o));
}

/// With no input and stdin a terminal (`script` gives the command one), the sample is read.
#[test]
fn the_sample_is_read_with_no_input_on_a_terminal() {
    let Ok(script) = which("script") else {
        eprintln!("no `script` (util-linux) here to give kifu a terminal: part skipped");
        return;
    };
    let bin = env!("CARGO_BIN_EXE_kifu");
    let o = Command::new(script)
        .args(["-qec", &format!("{bin} stats --json"), "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = out(&o);
    assert!(text.contains("\"games\":3"), "{text}");
}

/// `check` on clean input says so in one line on a terminal, and nothing on a pipe.
#[test]
fn check_on_clean_input_says_so_on_a_terminal_only() {
    let dir = tempfile::tempdir().unwrap();
    let clean = dir.path().join("clean.pgn");
    fs::write(&clean, GAME).unwrap();
    let o = kifu(&["check", clean.to_str().unwrap()], None);
    assert_eq!(
        (code(&o), out(&o)),
        (0, String::new()),
        "a pipe gets nothing"
    );
    let Ok(script) = which("script") else {
        eprintln!("no `script` (util-linux) here to give kifu a terminal: part skipped");
        return;
    };
    let bin = env!("CARGO_BIN_EXE_kifu");
    let at_terminal = |quiet: &str| {
        Command::new(&script)
            .args([
                "-qec",
                &format!("{bin} check {quiet} {}", clean.display()),
                "/dev/null",
            ])
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let o = at_terminal("");
    assert!(
        out(&o).contains("no problem in 1 game (1 input)"),
        "{}",
        out(&o)
    );
    // -q: nothing said, even there
    let o = at_terminal("-q");
    assert!(!out(&o).contains("no problem"), "{}", out(&o));
}

fn which(name: &str) -> Result<PathBuf, ()> {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or(())
}

#[test]
fn a_malformed_test_is_a_usage_error_that_shows_where() {
    let o = kifu(&["filter", "-w", "WhiteElo>>2700"], Some(GAME));
    assert_eq!(code(&o), 2, "{}", err(&o));
    let e = err(&o);
    assert!(e.contains("a second operator"), "{e}");
    assert!(e.contains("  WhiteElo>>2700\n           ^"), "{e}");
    let o = kifu(&["filter", "-w", "White Elo>2700"], Some(GAME));
    assert_eq!(code(&o), 2, "{}", err(&o));
}

// ----- outputs -------------------------------------------------------------------------------

#[test]
fn a_character_device_is_written_through_never_replaced() {
    if !Path::new("/dev/null").exists() {
        return;
    }
    for args in [
        vec!["fmt", "-o", "/dev/null", "--force"],
        vec!["fmt", "-o", "/dev/null"],
        vec!["filter", "-o", "/dev/null"],
        vec!["dedup", "-o", "/dev/null"],
        vec!["export", "--to", "csv", "-o", "/dev/null"],
    ] {
        let o = kifu(&args, Some(GAME));
        assert_eq!(code(&o), 0, "{args:?}: {}", err(&o));
        let m = fs::metadata("/dev/null").unwrap();
        assert!(!m.is_file(), "{args:?} replaced /dev/null");
    }
}

#[test]
fn dash_is_stdout_for_every_command_parquet_included() {
    let o = kifu(&["fmt", "-o", "-"], Some(GAME));
    assert!(out(&o).contains("1. e4 e5 2. Nf3 Nc6 1-0"), "{}", err(&o));
    let o = kifu(&["export", "--to", "parquet", "-o", "-"], Some(GAME));
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(o.stdout.starts_with(b"PAR1") && o.stdout.ends_with(b"PAR1"));
    let o = kifu(&["export", "--to", "jsonl", "-o", "-"], Some(GAME));
    assert!(out(&o).starts_with("{\"file\":\"-\","), "{}", out(&o));
    let o = kifu(
        &["export", "--to", "csv", "-o", "-", "--dataset"],
        Some(GAME),
    );
    assert_eq!(code(&o), 2, "a dataset is a directory: {}", err(&o));
}

#[test]
fn an_output_inside_an_input_directory_is_refused_before_it_exists() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("d");
    fs::create_dir(&d).unwrap();
    fs::write(d.join("a.pgn"), GAME).unwrap();
    let new = d.join("new.pgn");
    for args in [
        vec!["fmt", d.to_str().unwrap(), "-o", new.to_str().unwrap()],
        vec!["filter", d.to_str().unwrap(), "-o", new.to_str().unwrap()],
        vec!["dedup", d.to_str().unwrap(), "-o", new.to_str().unwrap()],
        vec![
            "export",
            d.to_str().unwrap(),
            "--to",
            "csv",
            "-o",
            new.to_str().unwrap(),
        ],
        vec![
            "split",
            d.to_str().unwrap(),
            "--games",
            "1",
            "-o",
            d.join("parts").to_str().unwrap(),
        ],
    ] {
        let o = kifu(&args, None);
        assert_eq!(code(&o), 2, "{args:?}: {}", err(&o));
        assert!(err(&o).contains("input"), "{args:?}: {}", err(&o));
        assert_eq!(entries(&d), ["a.pgn"], "{args:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_link_at_the_output_pointing_at_the_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pgn");
    fs::write(&input, GAME).unwrap();
    let link = dir.path().join("out.pgn");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    let o = kifu(
        &[
            "fmt",
            input.to_str().unwrap(),
            "-o",
            link.to_str().unwrap(),
            "--force",
        ],
        None,
    );
    assert_eq!(code(&o), 2, "{}", err(&o));
    assert_eq!(fs::read(&input).unwrap(), GAME, "the input is untouched");
}

/// A command reading a pipe that stays open, so that it is caught with its outputs half
/// written; the pipe's writer is kept in the child's stdin. Two threads and small pieces, so
/// that the games read so far reach the outputs while the pipe is open.
fn start_on_open_pipe(args: &[&str], first: &[u8]) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .args(["-j2", "--piece-size", "2000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.as_mut().unwrap().write_all(first).unwrap();
    child.stdin.as_mut().unwrap().flush().unwrap();
    child
}

/// Waits until `ready` holds (at most 20 s).
fn wait_for(mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < Duration::from_secs(20), "timed out");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits for `child` with its stdin still open: `Child::wait` closes stdin first, and the end
/// of the input could let a loaded machine's kifu finish before its signal thread runs.
#[cfg(unix)]
fn wait_signalled(child: &mut Child) -> std::process::ExitStatus {
    let stdin = child.stdin.take();
    let status = child.wait().unwrap();
    drop(stdin);
    status
}

#[cfg(unix)]
fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{sig}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

#[cfg(unix)]
#[test]
fn an_interrupt_removes_the_temporary_files() {
    use std::os::unix::process::ExitStatusExt;
    for (sig, number) in [("INT", 2), ("TERM", 15)] {
        // fmt: one temporary file
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.pgn");
        let mut child = start_on_open_pipe(&["fmt", "-", "-o", out.to_str().unwrap()], GAME);
        wait_for(|| !entries(dir.path()).is_empty());
        signal(&child, sig);
        let status = wait_signalled(&mut child);
        assert_eq!(status.signal(), Some(number), "dies of the signal");
        assert_eq!(
            entries(dir.path()),
            Vec::<String>::new(),
            "{sig}: fmt left files"
        );

        // split: a temporary file per part
        let parts = dir.path().join("parts");
        let games: Vec<u8> = GAME.repeat(300);
        let mut child = start_on_open_pipe(
            &["split", "-", "--games", "1", "-o", parts.to_str().unwrap()],
            &games,
        );
        wait_for(|| parts.is_dir() && entries(&parts).len() >= 10);
        signal(&child, sig);
        wait_signalled(&mut child);
        assert_eq!(
            entries(&parts),
            Vec::<String>::new(),
            "{sig}: split left files"
        );
    }
}

#[cfg(unix)]
#[test]
fn an_interrupted_dataset_export_leaves_the_old_dataset_whole() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds");
    let o = kifu(
        &[
            "export",
            "--to",
            "csv",
            "--dataset",
            "-o",
            ds.to_str().unwrap(),
        ],
        Some(GAME),
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    let before: Vec<_> = entries(&ds)
        .into_iter()
        .map(|n| (n.clone(), fs::read(ds.join(&n)).unwrap()))
        .collect();
    assert_eq!(before.len(), 2, "a part and _SUCCESS");
    // a second export with --force, caught while its rows are still coming
    let games: Vec<u8> = GAME.repeat(20_000);
    let mut child = start_on_open_pipe(
        &[
            "export",
            "--to",
            "csv",
            "--dataset",
            "--force",
            "-o",
            ds.to_str().unwrap(),
        ],
        &games,
    );
    wait_for(|| entries(dir.path()).len() >= 2);
    signal(&child, "INT");
    wait_signalled(&mut child);
    let after: Vec<_> = entries(&ds)
        .into_iter()
        .map(|n| (n.clone(), fs::read(ds.join(&n)).unwrap()))
        .collect();
    assert_eq!(after, before, "the old dataset is whole");
    assert_eq!(entries(dir.path()), ["ds"], "no temporary directory left");
}

#[test]
fn dataset_force_replaces_a_dataset_whole_and_marks_it() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds");
    let games: Vec<u8> = GAME.repeat(5);
    for rows in ["2", "3"] {
        let o = kifu(
            &[
                "export",
                "--to",
                "csv",
                "--max-rows-per-file",
                rows,
                "--force",
                "-o",
                ds.to_str().unwrap(),
            ],
            Some(&games),
        );
        assert_eq!(code(&o), 0, "{}", err(&o));
    }
    assert_eq!(
        entries(&ds),
        ["_SUCCESS", "part-00000.csv", "part-00001.csv"],
        "the 3-row parts only, none left of the 2-row ones"
    );
    fs::write(ds.join("notes.txt"), "mine").unwrap();
    let o = kifu(
        &[
            "export",
            "--to",
            "csv",
            "--dataset",
            "--force",
            "-o",
            ds.to_str().unwrap(),
        ],
        Some(&games),
    );
    assert_eq!(code(&o), 2, "a directory with other files: {}", err(&o));
    assert!(ds.join("notes.txt").exists());
}

#[test]
fn split_names_that_would_clash_or_overflow_stay_apart() {
    let dir = tempfile::tempdir().unwrap();
    let mut input = Vec::new();
    for event in ["A/B", "A_B", "CON", &"棋".repeat(79), &"棋".repeat(80)] {
        input.extend_from_slice(format!("[Event \"{event}\"]\n\n1. e4 *\n\n").as_bytes());
    }
    let parts = dir.path().join("parts");
    let o = kifu(
        &["split", "--by", "Event", "-o", parts.to_str().unwrap()],
        Some(&input),
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    let names = entries(&parts);
    assert_eq!(names.len(), 5, "{names:?}");
    assert!(names.contains(&"A_B.pgn".to_string()));
    assert!(names.contains(&"A_B-2.pgn".to_string()));
    assert!(names.contains(&"_CON.pgn".to_string()));
    assert!(names.iter().all(|n| n.len() <= 255));
}

// ----- limits and names ----------------------------------------------------------------------

#[test]
fn a_huge_thread_count_is_capped_and_said() {
    let start = Instant::now();
    let o = kifu(&["stats", "-j", "1000000"], Some(GAME));
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(err(&o).contains("-j 1000000: using"), "{}", err(&o));
    assert!(start.elapsed() < Duration::from_secs(20));
}

#[test]
fn member_names_reach_the_terminal_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let tar_path = dir.path().join("evil.tar");
    let mut b = tar::Builder::new(fs::File::create(&tar_path).unwrap());
    for (name, body) in [
        ("a\x1b[31mred\nkifu: forged.pgn", &b""[..]),
        ("notes.txt", b"hello"),
        ("ok.pgn", GAME),
    ] {
        let mut h = tar::Header::new_gnu();
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        // a raw name, as a hostile archive holds it
        let raw = name.as_bytes();
        h.as_old_mut().name[..raw.len()].copy_from_slice(raw);
        h.set_cksum();
        b.append(&h, body).unwrap();
    }
    b.into_inner().unwrap().flush().unwrap();
    let o = kifu(&["stats", tar_path.to_str().unwrap()], None);
    let e = err(&o);
    assert!(!e.contains('\x1b'), "{e:?}");
    assert!(!e.lines().any(|l| l.starts_with("kifu: forged")), "{e:?}");
    assert!(e.contains("\\x1b[31mred\\nkifu: forged.pgn"), "{e:?}");
    let text = out(&o);
    assert!(
        text.contains("skipped"),
        "the .txt member is counted: {text}"
    );
}

/// A zstd frame asking for a window of 2^`log` bytes (no checksum, no content size), holding
/// `payload` in one raw block: what a hostile header says, whatever the data.
fn zstd_window_frame(log: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = vec![0x28, 0xB5, 0x2F, 0xFD, 0x00, (log - 10) << 3];
    let h = ((payload.len() as u32) << 3) | 1; // last block, raw
    f.extend_from_slice(&h.to_le_bytes()[..3]);
    f.extend_from_slice(payload);
    f
}

#[test]
fn a_decoder_asking_for_more_than_decoder_memory_is_refused_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.pgn.zst");
    fs::write(&big, zstd_window_frame(28, GAME)).unwrap();
    for j in ["-j1", "-j2"] {
        let o = kifu(&["stats", j, big.to_str().unwrap()], None);
        assert_eq!(code(&o), 2, "{j}: {}", err(&o));
        let e = err(&o);
        assert!(
            e.contains("big.pgn.zst") && e.contains("--decoder-memory"),
            "{e}"
        );
        // the flag, not a Rust API's name
        assert!(!e.contains("Options::"), "{e}");
        let o = kifu(
            &[
                "stats",
                j,
                "--decoder-memory",
                "256M",
                big.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(code(&o), 0, "{j}: {}", err(&o));
        assert!(
            out(&o).contains("games                    1"),
            "{}",
            out(&o)
        );
    }
}

/// Damaged input gives the same games, messages and exit status at every `-j` (the input
/// layer's rule, through the command and its parallel parsing).
#[test]
fn a_damaged_stream_reads_the_same_at_every_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let games: Vec<u8> = GAME.repeat(3000);
    // several frames, as pzstd writes them, so that -j2 decodes them in parallel
    let mut bytes = Vec::new();
    for part in games.chunks(40_000) {
        let mut e = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
        e.include_checksum(true).unwrap();
        e.write_all(part).unwrap();
        bytes.extend(e.finish().unwrap());
    }
    let at = bytes.len() / 2;
    bytes[at] ^= 0x40;
    let path = dir.path().join("damaged.pgn.zst");
    fs::write(&path, &bytes).unwrap();
    let runs: Vec<_> = ["-j1", "-j2", "-j8"]
        .iter()
        .map(|j| {
            let o = kifu(
                &["json", j, "--piece-size", "16K", path.to_str().unwrap()],
                None,
            );
            (code(&o), o.stdout.clone(), err(&o))
        })
        .collect();
    assert_eq!(runs[0].0, 2, "{}", runs[0].2);
    assert!(runs[0].2.contains("damaged.pgn.zst"), "{}", runs[0].2);
    let games_read = runs[0]
        .1
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    assert!(games_read > 0 && games_read < 3000, "{games_read}");
    for r in &runs[1..] {
        assert_eq!(r, &runs[0]);
    }
}

/// A full disk is named: `/dev/full` answers every write with ENOSPC.
#[test]
fn a_full_disk_names_the_path() {
    if !Path::new("/dev/full").exists() {
        eprintln!("no /dev/full here: part skipped");
        return;
    }
    let games: Vec<u8> = GAME.repeat(2000);
    for args in [
        vec!["fmt", "-o", "/dev/full"],
        vec!["export", "--to", "csv", "-o", "/dev/full"],
    ] {
        let o = kifu(&args, Some(&games));
        assert_eq!(code(&o), 2, "{args:?}: {}", err(&o));
        let e = err(&o);
        assert!(
            e.contains("/dev/full") && e.contains("No space left"),
            "{args:?}: {e}"
        );
    }
}

#[test]
fn export_tells_the_format_from_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    for (name, head) in [
        ("g.parquet", &b"PAR1"[..]),
        ("g.csv", b"file,"),
        ("g.jsonl", b"{"),
    ] {
        let path = dir.path().join(name);
        let o = kifu(&["export", "-o", path.to_str().unwrap()], Some(GAME));
        assert_eq!(code(&o), 0, "{name}: {}", err(&o));
        assert!(fs::read(&path).unwrap().starts_with(head), "{name}");
    }
    let o = kifu(
        &["export", "-o", dir.path().join("g.txt").to_str().unwrap()],
        Some(GAME),
    );
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("--to"), "{}", err(&o));
    let o = kifu(&["export", "--help"], None);
    assert!(out(&o).contains("positions"), "every table in help");
}

#[cfg(unix)]
#[test]
fn a_fifo_is_written_through() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("no mkfifo here: part skipped");
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(&fifo).unwrap())
    };
    let o = kifu(&["fmt", "-o", fifo.to_str().unwrap()], Some(GAME));
    assert_eq!(code(&o), 0, "{}", err(&o));
    let got = reader.join().unwrap();
    assert!(String::from_utf8_lossy(&got).contains("1. e4 e5 2. Nf3 Nc6 1-0"));
    assert!(
        fs::metadata(&fifo).unwrap().file_type().is_fifo(),
        "still a FIFO"
    );
    assert_eq!(entries(dir.path()), ["pipe"]);
}

#[test]
fn completions_and_the_manual_page_are_generated() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = kifu(&["completions", shell], None);
        assert_eq!(code(&o), 0, "{shell}: {}", err(&o));
        let script = out(&o);
        for sub in ["stats", "export", "dedup"] {
            assert!(script.contains(sub), "{shell}: {sub}");
        }
    }
    // the bash script is valid bash
    let dir = tempfile::tempdir().unwrap();
    let bash = dir.path().join("kifu.bash");
    fs::write(&bash, kifu(&["completions", "bash"], None).stdout).unwrap();
    if let Ok(status) = Command::new("bash").arg("-n").arg(&bash).status() {
        assert!(status.success(), "bash -n on the completion script");
    }
    let o = kifu(&["man"], None);
    assert_eq!(code(&o), 0, "{}", err(&o));
    let page = out(&o);
    assert!(page.contains(".TH kifu 1"), "{page}");
    for sub in [
        "stats", "check", "json", "fmt", "filter", "split", "export", "dedup",
    ] {
        assert!(page.contains(sub), "man lists {sub}");
    }
}
