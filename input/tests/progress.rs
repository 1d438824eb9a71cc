//! The progress counters: `bytes_consumed` follows what the caller has taken, whatever the
//! decoders read ahead, at every point of every kind of input, and ends at the input's size.

mod common;

use std::path::Path;

use common::*;
use kifu_input::{Options, Progress, for_each_in_reader, for_each_input};

/// Text that compresses about 2:1, the same all along (a counter and a xorshift as moves).
fn text(len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 64);
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut n = 1u64;
    while out.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let f = |k: u64| (b'a' + (x >> k) as u8 % 8) as char;
        let r = |k: u64| (b'1' + (x >> k) as u8 % 8) as char;
        out.extend_from_slice(
            format!(
                "{n}. {}{}{}{} {}{}{}{} ",
                f(0),
                r(3),
                f(6),
                r(9),
                f(12),
                r(15),
                f(18),
                r(21)
            )
            .as_bytes(),
        );
        n += 1;
        if n.is_multiple_of(40) {
            out.extend_from_slice(b"*\n\n");
        }
    }
    out.truncate(len);
    out
}

/// Units (frames, streams) of a compressed file: where each ends, raw and decoded.
#[derive(Clone, Copy)]
struct Unit {
    raw_end: u64,
    decoded_end: u64,
}

/// The raw span of the units that hold decoded bytes `from..to`: from the start of the unit
/// holding byte `from` to the end of the unit holding byte `to - 1`.
fn span(units: &[Unit], from: u64, to: u64) -> (u64, u64) {
    let unit = |d: u64| units.partition_point(|u| u.decoded_end <= d);
    let a = unit(from);
    let b = unit(to.saturating_sub(1)).min(units.len() - 1);
    let start = if a == 0 { 0 } else { units[a - 1].raw_end };
    (start, units[b].raw_end)
}

/// pzstd frames of `frame` decoded bytes, and where each ends.
fn pzstd_units(data: &[u8], frame: usize) -> (Vec<u8>, Vec<Unit>) {
    let mut out = Vec::new();
    let mut units = Vec::new();
    let mut d = 0;
    for c in data.chunks(frame) {
        out.extend(pzstd(c, c.len()));
        d += c.len() as u64;
        units.push(Unit {
            raw_end: out.len() as u64,
            decoded_end: d,
        });
    }
    (out, units)
}

/// bzip2 streams of `stream` decoded bytes (as pbzip2 writes), and where each ends.
fn bzip2_units(data: &[u8], stream: usize) -> (Vec<u8>, Vec<Unit>) {
    let mut out = Vec::new();
    let mut units = Vec::new();
    let mut d = 0;
    for c in data.chunks(stream) {
        out.extend(bzip2(c));
        d += c.len() as u64;
        units.push(Unit {
            raw_end: out.len() as u64,
            decoded_end: d,
        });
    }
    (out, units)
}

/// What the caller saw at one read: decoded bytes taken after it, the counters after it.
#[derive(Debug, Clone, Copy)]
struct Point {
    to: u64,
    consumed: u64,
    read: u64,
}

/// Reads `path` with `opts`, `step` decoded bytes at a time, noting the counters at every read;
/// checks that the file was read whole and that the counters end at its size.
fn follow(path: &Path, opts: &Options, step: usize) -> Vec<Point> {
    let progress = Progress::new();
    let size = std::fs::metadata(path).unwrap().len();
    let mut points = Vec::new();
    let mut buf = vec![0u8; step];
    let report = for_each_input(&[path.to_path_buf()], opts, &progress, |e| {
        let mut taken = 0u64;
        loop {
            let n = e.reader.read(&mut buf)?;
            if n == 0 {
                return Ok(());
            }
            points.push(Point {
                to: taken + n as u64,
                consumed: progress.bytes_consumed(),
                read: progress.bytes_read(),
            });
            taken += n as u64;
        }
    });
    assert!(report.is_clean(), "{:?}", errors(&report));
    assert!(!points.is_empty());
    let (consumed, read) = (progress.bytes_consumed(), progress.bytes_read());
    if path.extension().is_some_and(|x| x == "zip") {
        // a zip file is read through its central directory, with seeks: a few KiB are read
        // twice (its first bytes, to see what it is; the buffer's bytes after a seek)
        assert!(consumed == read && (size..size + (16 << 10)).contains(&read));
    } else {
        assert_eq!((consumed, read), (size, size), "{}", path.display());
    }
    assert_eq!(progress.total_bytes(), Some(size));
    points
}

/// Checks the points of one run: consumed never exceeds read nor goes back, and lags it by at
/// most `lag` raw bytes.
fn bounded(points: &[Point], lag: u64, what: &str) {
    let mut last = 0;
    for p in points {
        assert!(p.consumed <= p.read, "{what}: {p:?}");
        assert!(p.consumed >= last, "{what}: went back: {p:?}");
        assert!(
            p.read - p.consumed <= lag,
            "{what}: lags by more than {lag}: {p:?}"
        );
        last = p.consumed;
    }
}

/// The options of these tests: small chunks, so that many are read ahead.
fn small(threads: usize) -> Options {
    Options {
        threads,
        buffer_size: 16 << 10,
        frame_buffer: 64 << 10,
        ..Options::default()
    }
}

#[test]
fn pzstd_frames_consumed_as_the_caller_reads_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let data = text(3 << 20);
    // 48 frames of 64 KiB
    let (bytes, units) = pzstd_units(&data, 64 << 10);
    let path = dir.join("x.pgn.zst");
    std::fs::write(&path, &bytes).unwrap();
    let size = bytes.len() as u64;
    let frame_raw = units
        .windows(2)
        .map(|w| w[1].raw_end - w[0].raw_end)
        .max()
        .unwrap();
    for threads in [1, 2, 3] {
        let opts = small(threads);
        let points = follow(&path, &opts, 4096);
        // the splitter reads at most the frames queued (one per thread), the one in the job
        // queue, the one it holds, ahead of the frame being read
        let lag = (threads as u64 + 3) * (frame_raw + 12);
        assert!(lag < size / 4, "a meaningful bound: {lag} of {size}");
        bounded(&points, lag, &format!("pzstd -j{threads}"));
        for p in &points {
            // the chunk being read: within the frames of the bytes taken and of the rest of
            // its chunk (and of the 512 bytes looked at before the stream is handed over)
            let (start, end) = span(&units, p.to - 1, p.to + 16_384 + 512);
            assert!(
                (start..=end).contains(&p.consumed),
                "-j{threads}: {p:?} outside {start}..={end}"
            );
        }
    }
}

#[test]
fn bzip2_streams_consumed_as_the_caller_reads_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let data = text(3 << 20);
    // 64 streams of 48 KiB (jobs of at least 4 KiB raw: one stream each)
    let (bytes, units) = bzip2_units(&data, 48 << 10);
    let path = dir.join("x.pgn.bz2");
    std::fs::write(&path, &bytes).unwrap();
    let size = bytes.len() as u64;
    let stream_raw = units
        .windows(2)
        .map(|w| w[1].raw_end - w[0].raw_end)
        .max()
        .unwrap();
    for threads in [1, 2, 3] {
        let opts = small(threads);
        let points = follow(&path, &opts, 4096);
        // two batches of `threads` jobs (one being sent, the next one decoding while the
        // channel holds the first one's last chunks), and the bytes read past them to find
        // the next cut (256 KiB at most, and 64 KiB at least per read)
        let lag = 2 * (threads as u64 + 1) * stream_raw + (320 << 10);
        assert!(lag < size / 2, "a meaningful bound: {lag} of {size}");
        bounded(&points, lag, &format!("bzip2 streams -j{threads}"));
        for p in &points {
            let (start, end) = span(&units, p.to - 1, p.to + 16_384 + 512);
            assert!(
                (start..=end).contains(&p.consumed),
                "-j{threads}: {p:?} outside {start}..={end}"
            );
        }
    }
}

#[test]
fn every_kind_of_input_is_consumed_as_read() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let data = text(1 << 20);
    let mut files = vec![("plain.pgn".to_string(), data.clone())];
    for c in ALL {
        files.push((format!("x.pgn{}", suffix(c)), compress(c, &data)));
    }
    files.push(("one.pgn.zst".into(), zstd_frames(&data, data.len())));
    files.push((
        "gz.tar.gz".into(),
        gzip(&tar(&[("a.pgn", &data[..1000]), ("b.pgn", &data)])),
    ));
    files.push((
        "z.zip".into(),
        zip(&[("a.pgn", &data), ("b.pgn", &data[..1000])]),
    ));
    for (name, bytes) in &files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        for threads in [1, 2] {
            let points = follow(&path, &small(threads), 4096);
            // a decoder's input buffer (zstd's 128 KiB) and the decoded chunks queued ahead
            // (4 and one being filled), each at most a chunk of raw bytes
            let lag = (128 << 10) + 8 * (16 << 10);
            bounded(&points, lag, &format!("{name} -j{threads}"));
        }
    }
}

#[test]
fn a_reader_of_unknown_size_is_consumed_to_its_end() {
    let data = text(1 << 20);
    let (bytes, _) = pzstd_units(&data, 64 << 10);
    for threads in [1, 2] {
        let progress = Progress::new();
        let mut points = Vec::new();
        let report = for_each_in_reader(
            "-",
            std::io::Cursor::new(bytes.clone()),
            &small(threads),
            &progress,
            |e| {
                let mut buf = [0u8; 4096];
                while e.reader.read(&mut buf)? > 0 {
                    points.push((progress.bytes_consumed(), progress.bytes_read()));
                }
                Ok(())
            },
        );
        assert!(report.is_clean());
        assert!(points.iter().all(|(c, r)| c <= r));
        assert!(points.windows(2).all(|w| w[0].0 <= w[1].0));
        assert_eq!(progress.total_bytes(), None);
        let size = bytes.len() as u64;
        assert_eq!(
            (progress.bytes_consumed(), progress.bytes_read()),
            (size, size)
        );
    }
}

#[test]
fn compressed_is_said() {
    let progress = Progress::new();
    for_each_in_reader(
        "a.pgn",
        std::io::Cursor::new(b"1. e4 *\n".to_vec()),
        &Options::default(),
        &progress,
        |e| std::io::copy(e.reader, &mut std::io::sink()).map(drop),
    );
    assert!(!progress.compressed());
    for_each_in_reader(
        "a.pgn.gz",
        std::io::Cursor::new(gzip(b"1. e4 *\n")),
        &Options::default(),
        &progress,
        |e| std::io::copy(e.reader, &mut std::io::sink()).map(drop),
    );
    assert!(progress.compressed());
}
