//! Damaged input: a flipped byte, a cut, a bomb, a frame asking for too much memory.
//!
//! Every variant is built here with the crates themselves. The rules checked:
//! * every compressed stream and archive member is read to its end, so a fault anywhere (its
//!   checksum, its length, a cut) is an error naming the input, after the bytes before it;
//! * the bytes handed over and the errors are the same with 1, 2 and 8 threads;
//! * a small input that decodes to a huge output is decoded with bounded memory;
//! * a zstd window or xz dictionary over `Options::decoder_memory_limit` is refused with a
//!   message that says so, and read when the limit is raised.

use std::io::{Cursor, Write};
use std::sync::OnceLock;

use kifu_input::{Options, Progress, Report, for_each_in_reader, for_each_input};
use proptest::prelude::*;

/// About `n` bytes of PGN-like text, varied enough not to compress to nothing.
fn text(n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n + 100);
    let mut i = 0u32;
    while out.len() < n {
        write!(
            out,
            "[Event \"Game {i}\"]\n[White \"P{}\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a{} {{{}}} 1-0\n\n",
            i.wrapping_mul(2_654_435_761) % 1000,
            i % 7,
            i.wrapping_mul(40_503) % 65_536
        )
        .unwrap();
        i += 1;
    }
    out.truncate(n);
    out
}

fn data() -> &'static [u8] {
    static D: OnceLock<Vec<u8>> = OnceLock::new();
    D.get_or_init(|| text(300_000))
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn bzip2(data: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn xz(data: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// zstd with a checksum at the end of the frame.
fn zstd(data: &[u8]) -> Vec<u8> {
    let mut e = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
    e.include_checksum(true).unwrap();
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// What pzstd writes: each frame (with a checksum here) after its size header.
fn pzstd(data: &[u8], frame: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for c in data.chunks(frame.max(1)) {
        let z = zstd(c);
        out.extend_from_slice(&[0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0]);
        out.extend_from_slice(&(z.len() as u32).to_le_bytes());
        out.extend_from_slice(&z);
    }
    out
}

/// Several streams (members, frames), one after another.
fn pieces(data: &[u8], n: usize, f: fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    data.chunks(n.max(1)).flat_map(f).collect()
}

fn tar(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, data) in members {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        b.append_data(&mut h, name, *data).unwrap();
    }
    b.into_inner().unwrap()
}

fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in members {
        w.start_file(*name, opts).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// Three members: two PGN files and an SGF.
fn members() -> [(&'static str, &'static [u8]); 3] {
    let d = data();
    [
        ("a.pgn", &d[..100_000]),
        ("dir/b.pgn", &d[100_000..250_000]),
        ("c.sgf", b"(;GM[1]SZ[19];B[pd];W[dp])"),
    ]
}

/// What a walk gave: per entry its name, bytes and reader error; the report's errors.
#[derive(Debug, PartialEq)]
struct Outcome {
    entries: Vec<(String, Vec<u8>, Option<String>)>,
    errors: Vec<String>,
}

impl Outcome {
    fn of(entries: Vec<(String, Vec<u8>, Option<String>)>, r: &Report) -> Outcome {
        assert!(r.aborted.is_none());
        Outcome {
            entries,
            errors: r.errors.iter().map(|e| e.to_string()).collect(),
        }
    }
}

fn opts(threads: usize) -> Options {
    Options {
        threads,
        buffer_size: 64 << 10,
        ..Options::default()
    }
}

/// Reads every entry to its end in reads of `read` bytes.
fn collect(
    read: usize,
    entries: &mut Vec<(String, Vec<u8>, Option<String>)>,
) -> impl FnMut(kifu_input::Entry<'_>) -> std::io::Result<()> + '_ {
    move |e| {
        let mut out = Vec::new();
        let mut buf = vec![0; read.max(1)];
        let mut err = None;
        loop {
            match e.reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(x) => {
                    err = Some(x.to_string());
                    break;
                }
            }
        }
        entries.push((e.name.to_string(), out, err));
        Ok(())
    }
}

fn run(name: &str, bytes: &[u8], o: &Options, read: usize) -> Outcome {
    let mut entries = Vec::new();
    let r = for_each_in_reader(
        name,
        Cursor::new(bytes.to_vec()),
        o,
        &Progress::new(),
        collect(read, &mut entries),
    );
    Outcome::of(entries, &r)
}

/// The outcome with one thread, checked to be the same with 2 and 8 (and other read sizes).
fn same_at_every_thread_count(name: &str, bytes: &[u8]) -> Outcome {
    let one = run(name, bytes, &opts(1), 8192);
    for (threads, read) in [(2, 8192), (8, 8192), (1, 1000), (2, 65_537)] {
        let other = run(name, bytes, &opts(threads), read);
        assert!(
            other == one,
            "{name}: -j{threads} (reads of {read}) differs from -j1: {:?} against {:?}",
            summary(&other),
            summary(&one)
        );
    }
    one
}

fn summary(o: &Outcome) -> Vec<String> {
    o.entries
        .iter()
        .map(|(n, b, e)| format!("{n}: {} bytes, {e:?}", b.len()))
        .chain(o.errors.iter().cloned())
        .collect()
}

fn flip(bytes: &[u8], at: usize) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at] ^= 0x20;
    b
}

/// One stream with a fault: an error naming it, after bytes that are a prefix of the original
/// (`exact`: for a cut).
fn assert_faulty(name: &str, o: &Outcome, original: &[u8], exact: bool) {
    assert_eq!(o.errors.len(), 1, "{name}: {:?}", summary(o));
    assert!(
        o.errors[0].starts_with(&format!("{name}: ")),
        "{:?}",
        o.errors
    );
    assert_eq!(o.entries.len(), 1, "{name}");
    let (_, bytes, err) = &o.entries[0];
    assert!(err.is_some(), "{name}: the reader fails");
    if exact {
        assert!(original.starts_with(bytes), "{name}: a prefix");
    }
}

#[test]
fn a_flipped_byte_in_every_compression_is_an_error() {
    let d = data();
    let cases: [(&str, Vec<u8>); 6] = [
        ("x.pgn.gz", gzip(d)),
        ("x.pgn.bz2", bzip2(d)),
        ("x.pgn.xz", xz(d)),
        ("x.pgn.zst", zstd(d)),
        ("p.pgn.zst", pzstd(d, 70_000)),
        ("m.pgn.bz2", pieces(d, 40_000, bzip2)),
    ];
    for (name, z) in cases {
        // in the data, near its end, and in the last bytes (a checksum, a length, an index)
        for at in [z.len() / 3, z.len() * 9 / 10, z.len() - 6, z.len() - 2] {
            let o = same_at_every_thread_count(name, &flip(&z, at));
            assert_faulty(name, &o, d, false);
        }
    }
}

#[test]
fn a_cut_stream_is_an_error() {
    let d = data();
    for (name, z) in [
        ("x.pgn.gz", gzip(d)),
        ("x.pgn.bz2", bzip2(d)),
        ("x.pgn.xz", xz(d)),
        ("x.pgn.zst", zstd(d)),
        ("p.pgn.zst", pzstd(d, 70_000)),
    ] {
        for cut in [1, 3, z.len() / 2] {
            let o = same_at_every_thread_count(name, &z[..z.len() - cut]);
            assert_faulty(name, &o, d, true);
            assert!(o.errors[0].contains("truncated"), "{:?}", o.errors);
        }
    }
}

#[test]
fn a_flipped_byte_in_an_archive_is_an_error() {
    let m = members();
    let t = tar(&m);
    let z = zip(&m);
    let archives: [(&str, Vec<u8>); 6] = [
        ("x.tar.gz", gzip(&t)),
        ("x.tar.zst", zstd(&t)),
        ("x.tar.bz2", bzip2(&t)),
        ("x.tar.xz", xz(&t)),
        ("x.zip", z.clone()),
        ("x.zip.gz", gzip(&z)),
    ];
    for (name, a) in archives {
        // a member's compressed data, the end of the stream (a checksum or the zip's central
        // directory)
        for at in [a.len() / 4, a.len() / 2, a.len() - 2] {
            let o = same_at_every_thread_count(name, &flip(&a, at));
            assert!(!o.errors.is_empty(), "{name} at {at}: nothing reported");
            for e in &o.errors {
                assert!(e.starts_with(name), "{e}");
            }
            // around a tar, the compression's own fault is said (also when the tar's headers
            // broke first)
            let codec = [
                (".gz", "gzip"),
                (".zst", "zstd"),
                (".bz2", "bzip2"),
                (".xz", "xz"),
            ]
            .iter()
            .find(|(s, _)| name.ends_with(s) && name.contains(".tar"))
            .map(|x| x.1);
            if let Some(codec) = codec {
                assert!(
                    o.errors.iter().any(|e| e.contains(&format!("{codec} "))),
                    "{name} at {at}: {:?}",
                    o.errors
                );
            }
        }
    }
}

#[test]
fn a_zip_member_whose_crc_does_not_match() {
    // a stored member with one byte of its data flipped: nothing but the CRC-32 tells
    let d = &data()[..20_000];
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for name in ["a.pgn", "b.pgn"] {
        w.start_file(name, stored).unwrap();
        w.write_all(d).unwrap();
    }
    let z = w.finish().unwrap().into_inner();
    let at = z.windows(100).position(|x| x == &d[5_000..5_100]).unwrap();
    let bad = flip(&z, at);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let p = dir.join("crc.zip");
    std::fs::write(&p, &bad).unwrap();
    let by_file = walk(&p);
    let by_stream = same_at_every_thread_count("crc.zip", &bad);
    for (o, name) in [
        (by_file, p.display().to_string()),
        (by_stream, "crc.zip".into()),
    ] {
        // the member's error; the next member is read all the same
        assert_eq!(o.errors.len(), 1, "{:?}", summary(&o));
        assert!(
            o.errors[0].starts_with(&format!("{name}:a.pgn: ")),
            "{:?}",
            o.errors
        );
        assert!(
            o.errors[0].to_lowercase().contains("checksum"),
            "{:?}",
            o.errors
        );
        assert_eq!(o.entries.len(), 2);
        assert_eq!(o.entries[1].1, d);
        assert_eq!(o.entries[1].2, None);
    }
}

fn walk(p: &std::path::Path) -> Outcome {
    let one = walk_with(p, &opts(1));
    for threads in [2, 8] {
        assert_eq!(walk_with(p, &opts(threads)), one, "-j{threads}");
    }
    one
}

fn walk_with(p: &std::path::Path, o: &Options) -> Outcome {
    let mut entries = Vec::new();
    let r = for_each_input(
        &[p.to_path_buf()],
        o,
        &Progress::new(),
        collect(8192, &mut entries),
    );
    Outcome::of(entries, &r)
}

#[test]
fn a_cut_archive_is_an_error_after_the_members_before_the_cut() {
    let m = members();
    let t = tar(&m);
    let z = zip(&m);
    // cut by one byte: the gzip trailer (its length) is short
    let tgz = gzip(&t);
    let o = same_at_every_thread_count("x.tar.gz", &tgz[..tgz.len() - 1]);
    assert_eq!(o.entries.len(), 3);
    assert!(o.entries.iter().zip(&m).all(|(g, (_, want))| g.1 == *want));
    assert_eq!(o.errors.len(), 1, "{:?}", o.errors);
    assert!(
        o.errors[0].starts_with("x.tar.gz: truncated gzip"),
        "{:?}",
        o.errors
    );
    // zstd with its checksum cut
    let tzst = zstd(&t);
    let o = same_at_every_thread_count("x.tar.zst", &tzst[..tzst.len() - 1]);
    assert_eq!(
        (o.entries.len(), o.errors.len()),
        (3, 1),
        "{:?}",
        summary(&o)
    );
    assert!(
        o.errors[0].starts_with("x.tar.zst: truncated zstd"),
        "{:?}",
        o.errors
    );
    // a plain tar cut at a block boundary, before its end-of-archive blocks
    let end = t.len() - 1024;
    let o = same_at_every_thread_count("x.tar", &t[..end]);
    assert_eq!(o.entries.len(), 3);
    assert!(
        o.errors
            == [
                "x.tar: truncated tar archive: the input ends at byte ".to_string()
                    + &end.to_string()
                    + " without the end-of-archive block"
            ]
            || t[..end].ends_with(&[0; 512]),
        "{:?}",
        o.errors
    );
    // a zip cut inside its central directory: every member, then the error
    let o = same_at_every_thread_count("x.zip", &z[..z.len() - 30]);
    assert_eq!(o.entries.len(), 3);
    assert!(o.entries.iter().zip(&m).all(|(g, (_, want))| g.1 == *want));
    assert_eq!(o.errors.len(), 1, "{:?}", o.errors);
    assert!(
        o.errors[0].starts_with("x.zip: truncated zip archive"),
        "{:?}",
        o.errors
    );
    // a zip cut inside its second member, streamed and on disk: the first member, the error
    let second = z.windows(9).position(|w| w == b"dir/b.pgn").unwrap();
    let cut = &z[..second + 2_000];
    let o = same_at_every_thread_count("x.zip", cut);
    assert_eq!(o.entries.len(), 2, "{:?}", summary(&o));
    assert_eq!(o.entries[0].1, m[0].1);
    assert!(o.entries[1].2.is_some());
    assert!(!o.errors.is_empty());
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let p = dir.join("cut.zip");
    std::fs::write(&p, cut).unwrap();
    let o = walk(&p);
    assert_eq!(o.entries.len(), 2, "{:?}", summary(&o));
    assert_eq!(o.entries[0].1, m[0].1);
    let name = p.display().to_string();
    assert!(
        o.errors
            .iter()
            .any(|e| e.starts_with(&format!("{name}: broken zip archive"))),
        "{:?}",
        o.errors
    );
}

#[test]
fn a_caller_that_stops_early_still_gets_the_checksum_error() {
    // the function reads 10 bytes and returns: the rest is read by the walk, and the gzip
    // trailer's fault is reported all the same
    let d = data();
    let z = gzip(d);
    let bad = flip(&z, z.len() - 3);
    for threads in [1, 2, 8] {
        let r = for_each_in_reader(
            "x.pgn.gz",
            Cursor::new(bad.clone()),
            &opts(threads),
            &Progress::new(),
            |e| e.reader.read_exact(&mut [0; 10]),
        );
        assert_eq!(r.errors.len(), 1, "-j{threads}");
        assert!(r.aborted.is_none());
        assert!(
            r.errors[0]
                .to_string()
                .starts_with("x.pgn.gz: corrupt gzip")
        );
    }
    // in a tar: the member read 10 bytes, the tar's gzip trailer checked
    let t = tar(&members());
    let z = gzip(&t);
    let bad = flip(&z, z.len() - 3);
    for threads in [1, 2, 8] {
        let mut n = 0;
        let r = for_each_in_reader(
            "x.tgz",
            Cursor::new(bad.clone()),
            &opts(threads),
            &Progress::new(),
            |e| {
                n += 1;
                e.reader.read_exact(&mut [0; 10])
            },
        );
        assert_eq!(n, 3);
        assert_eq!(r.errors.len(), 1, "-j{threads}");
        assert!(r.errors[0].to_string().starts_with("x.tgz: corrupt gzip"));
    }
}

/// Inputs of every kind, to be damaged.
fn encode(kind: u8, d: &[u8], unit: usize) -> (&'static str, Vec<u8>) {
    let m = [("a.pgn", &d[..d.len() / 2]), ("b.pgn", &d[d.len() / 2..])];
    match kind {
        0 => ("x.pgn.gz", pieces(d, unit, gzip)),
        1 => ("x.pgn.bz2", pieces(d, unit.max(2_000), bzip2)),
        2 => ("x.pgn.xz", pieces(d, unit.max(2_000), xz)),
        3 => ("x.pgn.zst", pieces(d, unit, zstd)),
        4 => ("x.pgn.zst", pzstd(d, unit)),
        5 => ("x.tar.gz", gzip(&tar(&m))),
        6 => ("x.tar.zst", pzstd(&tar(&m), unit)),
        7 => ("x.tar.bz2", pieces(&tar(&m), unit.max(2_000), bzip2)),
        8 => ("x.zip", zip(&m)),
        _ => ("x.zip.xz", xz(&zip(&m))),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// Whatever the damage (flipped bytes, a cut), the bytes handed over and the errors are
    /// the same with 1, 2 and 8 threads, whatever the read sizes; and a damaged input is never
    /// read as whole without an error.
    #[test]
    fn damaged_input_gives_the_same_at_every_thread_count(
        kind in 0u8..10,
        len in 1usize..60_000,
        unit in 500usize..20_000,
        flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 0..3),
        cut in proptest::option::of(any::<prop::sample::Index>()),
        buffer in 4096usize..100_000,
        frame_buffer in 1usize..100_000,
        read in 1usize..20_000,
    ) {
        let d = &data()[..len];
        let (name, mut bytes) = encode(kind, d, unit);
        for (at, x) in &flips {
            let i = at.index(bytes.len());
            bytes[i] ^= x;
        }
        if let Some(c) = cut {
            bytes.truncate(c.index(bytes.len()));
        }
        let o = |threads, read| {
            let o = Options { threads, buffer_size: buffer, frame_buffer, ..Options::default() };
            run(name, &bytes, &o, read)
        };
        let one = o(1, read);
        for (threads, r) in [(2, read), (8, read), (2, 8192)] {
            let other = o(threads, r);
            prop_assert!(other == one, "-j{}: {:?} against -j1: {:?}", threads, summary(&other), summary(&one));
        }
        if !flips.is_empty() && cut.is_none() {
            // damaged: never every byte without an error (a cut may fall between two streams,
            // which leaves a valid file)
            let whole = one.errors.is_empty() && one.entries.iter().all(|e| e.2.is_none());
            let same = match kind {
                5..=9 => one.entries.len() == 2
                    && one.entries[0].1 == d[..d.len() / 2]
                    && one.entries[1].1 == d[d.len() / 2..],
                _ => one.entries.len() == 1 && one.entries[0].1 == d,
            };
            // (a flip in a header field no check covers, a gzip name or time, or a zip's
            // central directory name, may leave the bytes whole: then they are the same)
            prop_assert!(!whole || same || kind >= 8, "{}: {:?}", name, summary(&one));
        }
    }
}

/// A bzip2 file of many streams, each 8 MiB of one byte: 5 KB that decode to 320 MiB.
fn bzip2_bomb() -> Vec<u8> {
    let stream = bzip2(&vec![b'a'; 8 << 20]);
    stream.repeat(40)
}

fn peak_rss_kib() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// Run in a child process of its own (the test harness runs other tests beside, which would
/// count in this process's peak): reads 64 MiB of the bomb and stops; prints the peak RSS.
#[test]
fn bzip2_bomb_child() {
    let Ok(threads) = std::env::var("KIFU_INPUT_BOMB_THREADS") else {
        return;
    };
    let threads: usize = threads.parse().unwrap();
    let bomb = bzip2_bomb();
    let before = peak_rss_kib();
    let o = Options {
        threads,
        buffer_size: 64 << 10,
        frame_buffer: 1 << 20,
        ..Options::default()
    };
    let mut got = 0u64;
    let r = for_each_in_reader(
        "bomb.pgn.bz2",
        Cursor::new(bomb),
        &o,
        &Progress::new(),
        |e| {
            let mut buf = vec![0; 1 << 16];
            while got < 64 << 20 {
                let n = e.reader.read(&mut buf)?;
                assert!(n > 0 && buf[..n].iter().all(|&b| b == b'a'));
                got += n as u64;
            }
            // stop: an error of the function's own ends the walk without reading on
            Err(std::io::Error::other("enough"))
        },
    );
    assert!(r.errors.is_empty() && r.aborted.is_some());
    println!("KIFU_INPUT_BOMB {before} {}", peak_rss_kib());
}

#[test]
#[cfg(target_os = "linux")]
fn a_bzip2_bomb_is_decoded_with_bounded_memory() {
    for threads in [1, 2, 8] {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "bzip2_bomb_child",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("KIFU_INPUT_BOMB_THREADS", threads.to_string())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line = stdout
            .lines()
            .find_map(|l| l.split_once("KIFU_INPUT_BOMB ").map(|x| x.1))
            .unwrap_or_else(|| panic!("no figure: {stdout}"));
        let v: Vec<u64> = line.split(' ').map(|x| x.parse().unwrap()).collect();
        let (before, after) = (v[0], v[1]);
        // 64 MiB were handed over, 320 MiB are in the file: the decoding held at most
        // `threads` jobs of 1 MiB ahead, and the bzip2 decoders' own few MiB each
        assert!(
            after < before + 64 * 1024,
            "-j{threads}: peak RSS {after} KiB, {before} KiB before the walk"
        );
    }
}

/// A zstd frame (no checksum, no content size) asking for a window of 2^`log` bytes, holding
/// `payload` in one raw block.
fn zstd_window_frame(log: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = vec![0x28, 0xB5, 0x2F, 0xFD, 0x00, (log - 10) << 3];
    let h = ((payload.len() as u32) << 3) | 1; // last block, raw
    f.extend_from_slice(&h.to_le_bytes()[..3]);
    f.extend_from_slice(payload);
    f
}

#[test]
fn a_zstd_window_over_the_limit_is_refused_and_read_when_the_limit_is_raised() {
    let payload = b"1. e4 e5 *\n";
    for (log, name) in [(31u8, "big.pgn.zst"), (28, "mid.pgn.zst")] {
        let plain = zstd_window_frame(log, payload);
        let mut framed = vec![0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0];
        framed.extend_from_slice(&(plain.len() as u32).to_le_bytes());
        framed.extend_from_slice(&plain);
        for bytes in [plain, framed] {
            for threads in [1, 2, 8] {
                let r = for_each_in_reader(
                    name,
                    Cursor::new(bytes.clone()),
                    &opts(threads),
                    &Progress::new(),
                    |e| std::io::copy(e.reader, &mut std::io::sink()).map(drop),
                );
                assert_eq!(r.errors.len(), 1, "{name} -j{threads}");
                let e = &r.errors[0];
                assert!(e.is_memory_limit(), "{e}");
                let msg = e.to_string();
                assert!(msg.starts_with(&format!("{name}: ")), "{msg}");
                assert!(
                    msg.contains("memory limit") && msg.contains("--decoder-memory"),
                    "{msg}"
                );
                assert!(!msg.contains("corrupt"), "{msg}");
            }
        }
    }
    // 256 MiB asked, 256 MiB allowed: read
    let bytes = zstd_window_frame(28, payload);
    for threads in [1, 2] {
        let o = Options {
            decoder_memory_limit: 256 << 20,
            ..opts(threads)
        };
        let mut entries = Vec::new();
        let r = for_each_in_reader(
            "mid.pgn.zst",
            Cursor::new(bytes.clone()),
            &o,
            &Progress::new(),
            collect(100, &mut entries),
        );
        assert!(r.is_clean(), "{:?}", r.errors);
        assert_eq!(entries[0].1, payload);
    }
}

/// An xz stream whose LZMA2 dictionary is said to be of `prop` (2^(prop/2 + 12) for an even
/// prop; 40: 4 GiB): one made with a small one, its block header patched (and its CRC-32).
fn xz_with_dictionary(prop: u8, data: &[u8]) -> Vec<u8> {
    let mut x = xz(data);
    let h = 12; // the block header starts after the 12-byte stream header
    let size = (x[h] as usize + 1) * 4;
    let flags = x[h + 1];
    let mut p = h + 2;
    let varint = |x: &[u8], p: &mut usize| {
        while x[*p] & 0x80 != 0 {
            *p += 1;
        }
        *p += 1;
    };
    if flags & 0x40 != 0 {
        varint(&x, &mut p);
    }
    if flags & 0x80 != 0 {
        varint(&x, &mut p);
    }
    assert_eq!(
        (x[p], x[p + 1]),
        (0x21, 1),
        "an LZMA2 filter with one property byte"
    );
    x[p + 2] = prop;
    let mut crc = flate2::Crc::new();
    crc.update(&x[h..h + size - 4]);
    x[h + size - 4..h + size].copy_from_slice(&crc.sum().to_le_bytes());
    x
}

#[test]
fn an_xz_dictionary_over_the_limit_is_refused_and_read_when_the_limit_is_raised() {
    let d = &data()[..10_000];
    for (prop, what) in [(40u8, "4 GiB"), (32, "256 MiB")] {
        let bytes = xz_with_dictionary(prop, d);
        for threads in [1, 2, 8] {
            let r = for_each_in_reader(
                "big.pgn.xz",
                Cursor::new(bytes.clone()),
                &opts(threads),
                &Progress::new(),
                |e| std::io::copy(e.reader, &mut std::io::sink()).map(drop),
            );
            assert_eq!(r.errors.len(), 1, "{what} -j{threads}");
            let e = &r.errors[0];
            assert!(e.is_memory_limit(), "{what}: {e}");
            let msg = e.to_string();
            assert!(msg.starts_with("big.pgn.xz: "), "{msg}");
            assert!(
                msg.contains("memory limit") && msg.contains("--decoder-memory"),
                "{msg}"
            );
        }
    }
    // 256 MiB asked, 512 MiB allowed: read
    let bytes = xz_with_dictionary(32, d);
    for threads in [1, 2] {
        let o = Options {
            decoder_memory_limit: 512 << 20,
            ..opts(threads)
        };
        let mut entries = Vec::new();
        let r = for_each_in_reader(
            "big.pgn.xz",
            Cursor::new(bytes.clone()),
            &o,
            &Progress::new(),
            collect(1000, &mut entries),
        );
        assert!(r.is_clean(), "{:?}", r.errors);
        assert_eq!(entries[0].1, d);
    }
}

#[test]
fn a_zip_written_to_a_pipe_reads_from_a_file_and_says_why_not_from_a_stream() {
    // a zip written without seeking has data descriptors: its sizes come after its data
    let d = &data()[..30_000];
    let mut w = zip::ZipWriter::new_stream(Vec::new());
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for name in ["a.pgn", "b.pgn"] {
        w.start_file(name, opts).unwrap();
        w.write_all(d).unwrap();
    }
    let z = w.finish().unwrap().into_inner();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let p = dir.join("piped.zip");
    std::fs::write(&p, &z).unwrap();
    let by_file = walk(&p);
    assert!(by_file.errors.is_empty(), "{:?}", by_file.errors);
    assert_eq!(by_file.entries.len(), 2);
    assert!(by_file.entries.iter().all(|e| e.1 == d));
    let by_stream = same_at_every_thread_count("piped.zip", &z);
    if by_stream.entries.is_empty() {
        assert_eq!(by_stream.errors.len(), 1);
        assert!(
            by_stream.errors[0].contains("data descriptor")
                && by_stream.errors[0].contains("save the whole archive to a file"),
            "{:?}",
            by_stream.errors
        );
    } else {
        // (should the zip crate read them from a stream one day: whole)
        assert!(by_stream.errors.is_empty() && by_stream.entries.iter().all(|e| e.1 == d));
    }
}
