//! Compressed streams: every compression, multi-member and multi-frame forms, truncated,
//! corrupt and misnamed inputs, readers that trickle.

mod common;

use common::*;
use kifu_input::{Compression, Format, Options, Progress, for_each_in_reader, for_each_input};

fn samples() -> Vec<(String, Vec<u8>)> {
    vec![
        ("seed.pgn".to_string(), seed_pgn()),
        ("seed.sgf".to_string(), seed_sgf()),
    ]
}

#[test]
fn every_compression_gives_back_the_bytes() {
    every_compression_gives_back_the_bytes_of(samples());
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn every_compression_gives_back_the_bytes_of_corpus_files() {
    every_compression_gives_back_the_bytes_of(corpus());
}

fn every_compression_gives_back_the_bytes_of(samples: Vec<(String, Vec<u8>)>) {
    for (name, data) in samples {
        for c in ALL {
            for threads in [1, 2] {
                let (got, r) = read(&format!("{name}{}", suffix(c)), compress(c, &data), threads);
                assert!(r.is_clean(), "{name} {c} {threads}: {:?}", errors(&r));
                assert_eq!(got.len(), 1);
                assert_eq!(got[0].bytes, data, "{name} {c} threads {threads}");
                assert_eq!(got[0].compression, c);
                let want = if name.ends_with(".sgf") {
                    Format::Sgf
                } else {
                    Format::Pgn
                };
                assert_eq!(got[0].format, want);
                // sniffing agrees with the name
                assert_eq!(got[0].err, None);
            }
        }
    }
}

#[test]
fn the_bytes_decide_what_an_unnamed_stream_holds() {
    let data = seed_sgf();
    for c in ALL {
        let (got, r) = read("-", compress(c, &data), 2);
        assert!(r.is_clean());
        assert_eq!(got[0].bytes, data);
        assert_eq!((got[0].compression, got[0].format), (c, Format::Sgf));
        // a name without a compression suffix does not stop decoding either
        let (got, _) = read("game.sgf", compress(c, &data), 1);
        assert_eq!(got[0].bytes, data);
    }
}

#[test]
fn multi_member_and_multi_stream_files() {
    let data = big_pgn(150_000);
    let variants: Vec<(&str, Vec<u8>, Compression)> = vec![
        ("gz members", gzip_members(&data, 7_000), Compression::Gzip),
        (
            "bz2 streams",
            bzip2_streams(&data, 20_000),
            Compression::Bzip2,
        ),
        (
            "bz2 tiny streams",
            bzip2_streams(&data[..30_000], 100),
            Compression::Bzip2,
        ),
        ("xz streams", xz_streams(&data, 50_000), Compression::Xz),
        ("zstd frames", zstd_frames(&data, 10_000), Compression::Zstd),
        ("pzstd", pzstd(&data, 10_000), Compression::Zstd),
        (
            "pzstd one frame",
            pzstd(&data, data.len()),
            Compression::Zstd,
        ),
        (
            "pzstd tiny frames",
            pzstd(&data[..20_000], 7),
            Compression::Zstd,
        ),
    ];
    for (what, bytes, c) in variants {
        for threads in [1, 2, 3, 8] {
            let (got, r) = read("big.pgn", bytes.clone(), threads);
            assert!(r.is_clean(), "{what} {threads}: {:?}", errors(&r));
            assert_eq!(got.len(), 1);
            assert_eq!(got[0].compression, c);
            let want = if what.contains("tiny streams") {
                &data[..30_000]
            } else if what.contains("tiny frames") {
                &data[..20_000]
            } else {
                &data[..]
            };
            assert!(got[0].bytes == want, "{what} threads {threads}");
        }
    }
}

#[test]
fn pzstd_with_other_skippable_frames_and_a_plain_tail() {
    let data = big_pgn(100_000);
    let (a, b) = data.split_at(60_000);
    let mut bytes = pzstd(a, 9_000);
    // a foreign skippable frame between frames
    bytes.extend_from_slice(&[0x5E, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 1, 2, 3]);
    bytes.extend_from_slice(&pzstd(&b[..10_000], 4_000));
    // frames without size headers: decoded on one thread
    bytes.extend_from_slice(&zstd_frames(&b[10_000..], 8_000));
    for threads in [1, 2, 4] {
        let (got, r) = read("mixed.pgn.zst", bytes.clone(), threads);
        assert!(r.is_clean(), "{threads}: {:?}", errors(&r));
        assert!(got[0].bytes == data, "threads {threads}");
    }
    // a frame larger than max_frame_size: the rest streamed on one thread
    let mut got = Vec::new();
    let o = Options {
        threads: 2,
        max_frame_size: 5_000,
        ..Options::default()
    };
    let r = for_each_in_reader(
        "x.zst",
        std::io::Cursor::new(pzstd(&data, 30_000)),
        &o,
        &Progress::new(),
        |e| take(e, 1000, &mut got),
    );
    assert!(r.is_clean());
    assert!(got[0].bytes == data);
}

/// Every way to cut every compressed form: the bytes handed over are a prefix of the original,
/// then the reader fails, and the report names the input and says "truncated".
#[test]
fn truncated_streams_deliver_what_came_before_then_fail() {
    let data = big_pgn(120_000);
    let variants: Vec<(&str, Vec<u8>)> = vec![
        ("x.pgn.zst", zstd(&data)),
        ("x.pgn.zst", pzstd(&data, 20_000)),
        ("x.pgn.gz", gzip(&data)),
        ("x.pgn.gz", gzip_members(&data, 50_000)),
        ("x.pgn.bz2", bzip2(&data)),
        ("x.pgn.bz2", bzip2_streams(&data, 20_000)),
        ("x.pgn.xz", xz(&data)),
    ];
    for (name, bytes) in variants {
        for cut in [
            bytes.len() / 3,
            bytes.len() / 2,
            bytes.len() * 9 / 10,
            bytes.len() - 1,
        ] {
            for threads in [1, 2] {
                let (got, r) = read(name, bytes[..cut].to_vec(), threads);
                let at = format!("{name} cut at {cut} of {} threads {threads}", bytes.len());
                assert_eq!(r.errors.len(), 1, "{at}: {:?}", errors(&r));
                let msg = r.errors[0].to_string();
                assert!(msg.starts_with(&format!("{name}: ")), "{at}: {msg}");
                assert!(msg.contains("truncated"), "{at}: {msg}");
                assert_eq!(got.len(), 1, "{at}");
                let g = &got[0];
                assert!(g.err.is_some(), "{at}");
                assert!(
                    data.starts_with(&g.bytes),
                    "{at}: the bytes are not a prefix"
                );
            }
        }
    }
}

#[test]
fn a_cut_pzstd_file_delivers_its_whole_frames() {
    let data = big_pgn(200_000);
    let bytes = pzstd(&data, 10_000);
    // cut in the middle of the 11th frame: the first 10 frames, at least, come through
    let mut pos = 0;
    for _ in 0..10 {
        let size = u32::from_le_bytes(bytes[pos + 8..pos + 12].try_into().unwrap()) as usize;
        pos += 12 + size;
    }
    for (cut, threads) in [(pos + 5, 2), (pos + 30, 3), (pos + 6, 1), (pos + 12, 2)] {
        let (got, r) = read("x.pgn.zst", bytes[..cut].to_vec(), threads);
        let msg = r.errors[0].to_string();
        assert!(got[0].bytes.len() >= 100_000, "{cut}");
        assert!(data.starts_with(&got[0].bytes));
        assert!(msg.contains("truncated zstd stream"), "{msg}");
        if threads > 1 {
            assert!(
                msg.contains(&format!("the last whole frame ends at byte {pos}")),
                "{msg}"
            );
        }
    }
}

#[test]
fn corrupt_data_is_an_error_after_the_good_bytes() {
    let data = big_pgn(120_000);
    for c in [
        Compression::Zstd,
        Compression::Gzip,
        Compression::Bzip2,
        Compression::Xz,
    ] {
        let mut bytes = compress(c, &data);
        let n = bytes.len();
        for b in &mut bytes[n / 2..n / 2 + 64] {
            *b ^= 0x5A;
        }
        for threads in [1, 2] {
            let (got, r) = read("x.pgn", bytes.clone(), threads);
            assert_eq!(r.errors.len(), 1, "{c}");
            assert!(r.errors[0].to_string().starts_with("x.pgn: "));
            // zstd checks a frame's checksum only at its end; the others stop earlier
            let g = &got[0];
            assert!(
                g.bytes.len() < data.len() || g.bytes != data,
                "{c} {threads} {} {} {:?}",
                g.bytes.len(),
                data.len(),
                errors(&r)
            );
        }
    }
    // garbage after a complete stream
    for c in [Compression::Zstd, Compression::Gzip, Compression::Xz] {
        let mut bytes = compress(c, &data);
        bytes.extend_from_slice(b"trailing garbage, long enough to be looked at");
        let (got, r) = read("x.pgn", bytes, 2);
        assert_eq!(
            r.errors.len(),
            1,
            "{c}: {:?} {}",
            errors(&r),
            got[0].bytes.len()
        );
        assert!(got[0].bytes == data, "{c}");
    }
}

#[test]
fn a_name_that_claims_another_compression_is_an_error() {
    let data = seed_pgn();
    let cases = [
        (
            "x.pgn.gz",
            data.clone(),
            "named as gzip data, but the bytes are not compressed",
        ),
        (
            "x.pgn.gz",
            zstd(&data),
            "named as gzip data, but the bytes are zstd data",
        ),
        (
            "x.pgn.zst",
            bzip2(&data),
            "named as zstd data, but the bytes are bzip2 data",
        ),
        (
            "x.pgn.bz2",
            Vec::new(),
            "named as bzip2 data, but the input is empty",
        ),
        (
            "x.tgz",
            xz(&data),
            "named as gzip data, but the bytes are xz data",
        ),
        (
            "x.pgn.xz",
            gzip(&data),
            "named as xz data, but the bytes are gzip data",
        ),
    ];
    for (name, bytes, want) in cases {
        let (got, r) = read(name, bytes, 2);
        assert!(got.is_empty(), "{name}");
        assert_eq!(errors(&r), [format!("{name}: {want}")]);
    }
    let (got, r) = read("x.zip", data.clone(), 2);
    assert!(got.is_empty());
    assert_eq!(errors(&r), ["x.zip: not a zip archive"]);
    let (got, r) = read("x.tar", data, 2);
    assert!(got.is_empty());
    assert!(
        errors(&r)[0].starts_with("x.tar: broken tar archive"),
        "{:?}",
        errors(&r)
    );
}

#[test]
fn empty_inputs() {
    for threads in [1, 2] {
        let (got, r) = read("x.pgn", Vec::new(), threads);
        assert!(r.is_clean());
        assert_eq!(got.len(), 1);
        assert!(got[0].bytes.is_empty());
        assert_eq!(got[0].format, Format::Pgn);
        for c in [
            Compression::Zstd,
            Compression::Gzip,
            Compression::Bzip2,
            Compression::Xz,
        ] {
            let (got, r) = read("-", compress(c, b""), threads);
            assert!(r.is_clean(), "{c}: {:?}", errors(&r));
            assert!(got[0].bytes.is_empty());
        }
    }
}

#[test]
fn readers_that_trickle() {
    let data = big_pgn(50_000);
    for (what, bytes) in [
        ("plain", data.clone()),
        ("gzip", gzip_members(&data, 9_000)),
        ("pzstd", pzstd(&data, 5_000)),
        ("bzip2", bzip2_streams(&data, 20_000)),
        ("xz", xz(&data)),
    ] {
        for (step, threads) in [(1, 2), (3, 1), (7, 3)] {
            let mut got = Vec::new();
            let r = for_each_in_reader(
                "-",
                Trickle(std::io::Cursor::new(bytes.clone()), step),
                &opts(threads),
                &Progress::new(),
                |e| take(e, 777, &mut got),
            );
            assert!(r.is_clean(), "{what}");
            assert!(got[0].bytes == data, "{what} {step} {threads}");
        }
    }
}

#[test]
fn files_progress_and_errors_in_order() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let data = big_pgn(100_000);
    let a = dir.join("a.pgn.zst");
    let b = dir.join("b.sgf.gz");
    let missing = dir.join("missing.pgn");
    let cut = dir.join("c.pgn.xz");
    let d = dir.join("d.pgn");
    std::fs::write(&a, pzstd(&data, 8_000)).unwrap();
    std::fs::write(&b, gzip(&seed_sgf())).unwrap();
    let x = xz(&data);
    std::fs::write(&cut, &x[..x.len() / 2]).unwrap();
    std::fs::write(&d, &data).unwrap();
    let args = vec![
        a.clone(),
        b.clone(),
        missing.clone(),
        cut.clone(),
        d.clone(),
    ];
    for threads in [1, 2] {
        let progress = Progress::new();
        let mut got = Vec::new();
        let r = for_each_input(&args, &opts(threads), &progress, |e| {
            take(e, 4096, &mut got)
        });
        let names: Vec<_> = got.iter().map(|g| g.name.clone()).collect();
        let s = |p: &std::path::Path| p.display().to_string();
        assert_eq!(names, [s(&a), s(&b), s(&cut), s(&d)]);
        assert_eq!(got[0].bytes, data);
        assert_eq!(
            (got[1].bytes.as_slice(), got[1].format),
            (seed_sgf().as_slice(), Format::Sgf)
        );
        assert_eq!(
            (got[3].bytes.as_slice(), got[3].size_hint),
            (data.as_slice(), Some(data.len() as u64))
        );
        assert_eq!(r.errors.len(), 2);
        assert!(
            r.errors[0]
                .to_string()
                .starts_with(&format!("{}: cannot open: ", s(&missing)))
        );
        assert!(
            r.errors[1]
                .to_string()
                .starts_with(&format!("{}: truncated xz stream", s(&cut))),
            "{}",
            r.errors[1]
        );
        assert_eq!((r.inputs, r.entries), (5, 4));
        let total: u64 = [&a, &b, &cut, &d]
            .iter()
            .map(|p| std::fs::metadata(p).unwrap().len())
            .sum();
        assert_eq!(progress.bytes_read(), total);
        assert_eq!(progress.total_bytes(), Some(total));
        assert_eq!(progress.inputs_done(), 5);
    }
}

#[test]
fn the_functions_own_error_stops_the_walk() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let a = dir.join("a.pgn");
    let b = dir.join("b.pgn");
    std::fs::write(&a, seed_pgn()).unwrap();
    std::fs::write(&b, seed_pgn()).unwrap();
    let mut calls = 0;
    let r = for_each_input(&[a.clone(), b], &opts(2), &Progress::new(), |_| {
        calls += 1;
        Err(std::io::Error::new(
            std::io::ErrorKind::BrokenPipe,
            "output closed",
        ))
    });
    assert_eq!(calls, 1);
    assert!(r.errors.is_empty());
    assert_eq!(
        r.aborted.unwrap().to_string(),
        format!("{}: output closed", a.display())
    );
}

#[test]
fn a_reader_error_is_recorded_even_when_the_function_swallows_it() {
    let data = big_pgn(100_000);
    let z = zstd(&data);
    let r = for_each_in_reader(
        "x.zst",
        std::io::Cursor::new(z[..z.len() / 2].to_vec()),
        &opts(2),
        &Progress::new(),
        |e| {
            let _ = std::io::copy(e.reader, &mut std::io::sink());
            Ok(())
        },
    );
    assert_eq!(r.errors.len(), 1);
    assert!(r.aborted.is_none());
}

#[test]
fn stopping_early_ends_the_threads() {
    let data = big_pgn(2_000_000);
    for bytes in [
        pzstd(&data, 20_000),
        gzip(&data),
        bzip2_streams(&data, 100_000),
    ] {
        let r = for_each_in_reader(
            "x",
            std::io::Cursor::new(bytes),
            &opts(3),
            &Progress::new(),
            |e| {
                let mut b = [0; 100];
                std::io::Read::read_exact(e.reader, &mut b)?;
                Ok(())
            },
        );
        assert!(r.is_clean());
    }
}
