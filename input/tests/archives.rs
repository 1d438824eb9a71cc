//! Bundles: tar (plain and compressed, recognised by bytes), zip (central directory and
//! streaming), truncated archives, directories.

mod common;

use common::*;
use kifu_input::{Compression, Format};

/// Members of every kind: PGN, SGF, text, nested directories, compressed members.
fn members() -> Vec<(String, Vec<u8>)> {
    vec![
        ("dir/a.pgn".to_string(), seed_pgn()),
        ("notes.txt".to_string(), b"not a game".to_vec()),
        ("dir/sub/b.SGF".to_string(), seed_sgf()),
        ("dir/c.pgn.gz".to_string(), gzip(&seed_pgn())),
        ("dir/d.sgf.zst".to_string(), zstd(&seed_sgf())),
        ("e.bin".to_string(), zstd(b"binary")),
        ("dir/empty.pgn".to_string(), Vec::new()),
    ]
}

/// The members above and a few corpus files of ../shared.
fn members_and_corpus() -> Vec<(String, Vec<u8>)> {
    let mut m = members();
    for (name, data) in corpus() {
        m.push((format!("corpus/{name}"), data));
    }
    m
}

/// What the members give: (member name, decoded bytes, format, compression).
fn expected(m: &[(String, Vec<u8>)]) -> Vec<(String, Vec<u8>, Format, Compression)> {
    m.iter()
        .cloned()
        .filter_map(|(n, d)| {
            let lower = n.to_ascii_lowercase();
            let (bytes, c) = if lower.ends_with(".gz") {
                (seed_pgn(), Compression::Gzip)
            } else if lower.ends_with(".zst") {
                (seed_sgf(), Compression::Zstd)
            } else if lower.ends_with(".pgn") || lower.ends_with(".sgf") {
                (d, Compression::None)
            } else {
                return None;
            };
            let f = if lower.contains(".sgf") {
                Format::Sgf
            } else {
                Format::Pgn
            };
            Some((n, bytes, f, c))
        })
        .collect()
}

fn refs(m: &[(String, Vec<u8>)]) -> Vec<(&str, &[u8])> {
    m.iter().map(|(n, d)| (n.as_str(), d.as_slice())).collect()
}

fn check(archive: &str, m: &[(String, Vec<u8>)], got: &[Got], r: &kifu_input::Report) {
    assert!(r.is_clean(), "{archive}: {:?}", errors(r));
    assert_eq!(r.skipped_members, 2, "{archive}");
    let want = expected(m);
    assert_eq!(got.len(), want.len(), "{archive}");
    for (g, (n, bytes, f, c)) in got.iter().zip(want) {
        assert_eq!(g.name, format!("{archive}:{n}"));
        assert!(g.bytes == bytes, "{}", g.name);
        assert_eq!((g.format, g.compression), (f, c), "{}", g.name);
        if c == Compression::None {
            assert_eq!(g.size_hint, Some(bytes.len() as u64), "{}", g.name);
        }
    }
}

#[test]
fn tar_in_every_compression() {
    tar_in_every_compression_of(&members());
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn tar_in_every_compression_with_corpus_files() {
    tar_in_every_compression_of(&members_and_corpus());
}

fn tar_in_every_compression_of(m: &[(String, Vec<u8>)]) {
    let t = tar(&refs(m));
    for c in ALL {
        for name in [format!("bundle.tar{}", suffix(c)), "bundle.bin".to_string()] {
            for threads in [1, 2] {
                let (got, r) = read(&name, compress(c, &t), threads);
                check(&name, m, &got, &r);
            }
        }
    }
    let (got, r) = read("go.tgz", gzip(&t), 2);
    check("go.tgz", m, &got, &r);
    let (got, r) = read("go.tbz2", bzip2(&t), 2);
    check("go.tbz2", m, &got, &r);
    // a pzstd-framed tar (as lichess-style tools would write it)
    let (got, r) = read("go.tar.zst", pzstd(&t, 3_000), 3);
    check("go.tar.zst", m, &got, &r);
}

#[test]
fn zip_by_central_directory_and_streaming() {
    zip_by_central_directory_and_streaming_of(&members());
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn zip_by_central_directory_and_streaming_with_corpus_files() {
    zip_by_central_directory_and_streaming_of(&members_and_corpus());
}

fn zip_by_central_directory_and_streaming_of(m: &[(String, Vec<u8>)]) {
    let z = zip(&refs(m));
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let p = dir.join("bundle.zip");
    std::fs::write(&p, &z).unwrap();
    for threads in [1, 2] {
        let (got, r) = walk(std::slice::from_ref(&p), threads);
        check(&p.display().to_string(), m, &got, &r);
        // stdin-like: from the local headers
        let (got, r) = read("bundle.zip", z.clone(), threads);
        check("bundle.zip", m, &got, &r);
        // compressed around: streaming too
        let (got, r) = read("bundle.zip.gz", gzip(&z), threads);
        check("bundle.zip.gz", m, &got, &r);
    }
    // an empty zip
    let empty = zip(&[]);
    let (got, r) = read("empty.zip", empty, 1);
    assert!(got.is_empty() && r.is_clean(), "{:?}", errors(&r));
}

#[test]
fn a_tar_cut_inside_a_member() {
    let big = big_pgn(100_000);
    let m = vec![
        ("a.pgn".to_string(), seed_pgn()),
        ("b.pgn".to_string(), big.clone()),
        ("c.sgf".to_string(), seed_sgf()),
    ];
    let t = tar(&refs(&m));
    // b.pgn's data starts after two headers, the directory's and a.pgn's (with its data)
    let cut = 512 * 5 + 50_000;
    for c in ALL {
        let name = format!("cut.tar{}", suffix(c));
        let bytes = if c == Compression::None {
            t[..cut].to_vec()
        } else {
            // a compressed tar whose compressed bytes are cut in the middle of b.pgn
            let z = compress(c, &t);
            z[..z.len() / 2].to_vec()
        };
        for threads in [1, 2] {
            let (got, r) = read(&name, bytes.clone(), threads);
            assert_eq!(r.errors.len(), 1, "{name}: {:?}", errors(&r));
            let e = r.errors[0].to_string();
            if c != Compression::None {
                // where the cut falls in the decoded tar depends on the compression's blocks:
                // in a header (the archive's error) or in b.pgn (the member's)
                assert!(e.contains("truncated"), "{e}");
                assert!(
                    e.starts_with(&format!("{name}:b.pgn: truncated"))
                        || e.starts_with(&format!("{name}: broken tar archive: truncated")),
                    "{e}"
                );
                assert!(got.len() <= 2, "{name}: c.sgf is never reached");
                for (g, want) in got.iter().zip([seed_pgn(), big.clone()]) {
                    assert!(want.starts_with(&g.bytes));
                }
                continue;
            }
            assert!(e.starts_with(&format!("{name}:b.pgn: truncated")), "{e}");
            assert_eq!(got.len(), 2, "{name}: c.sgf is never reached");
            assert_eq!(got[0].bytes, seed_pgn());
            assert!(big.starts_with(&got[1].bytes) && got[1].bytes.len() < big.len());
            assert!(got[1].err.is_some());
            assert_eq!(got[1].bytes.len(), 50_000);
        }
    }
}

#[test]
fn broken_members_and_archives() {
    // a member whose name claims gzip but holds plain text: an error for it, the others go on
    let m = vec![
        ("a.pgn.gz".to_string(), seed_pgn()),
        ("b.pgn".to_string(), seed_pgn()),
    ];
    for (name, bytes) in [("x.tar", tar(&refs(&m))), ("x.zip", zip(&refs(&m)))] {
        let (got, r) = read(name, bytes, 2);
        assert_eq!(
            errors(&r),
            [format!(
                "{name}:a.pgn.gz: named as gzip data, but the bytes are not compressed"
            )]
        );
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].name, format!("{name}:b.pgn"));
    }
    // a cut zip on disk: its central directory is gone; the members are read from their local
    // headers, then the archive's error
    let z = zip(&refs(&m));
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let p = dir.join("cut.zip");
    std::fs::write(&p, &z[..z.len() - 30]).unwrap();
    let (got, r) = walk(std::slice::from_ref(&p), 2);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].name, format!("{}:b.pgn", p.display()));
    let e = errors(&r);
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(
        e[0].starts_with(&format!("{}:a.pgn.gz: named as gzip", p.display())),
        "{e:?}"
    );
    assert!(
        e[1].starts_with(&format!("{}: truncated zip archive", p.display())),
        "{e:?}"
    );
    // the same bytes streamed: members found before the cut come through, then the
    // central directory is read to its end record, which is missing
    let (got, r) = read("cut.zip", z[..z.len() - 30].to_vec(), 2);
    assert_eq!((got.len(), r.errors.len()), (1, 2), "{:?}", errors(&r));
    assert!(
        errors(&r)[0].starts_with("cut.zip:a.pgn.gz: named as gzip"),
        "{:?}",
        errors(&r)
    );
    assert!(
        errors(&r)[1].starts_with("cut.zip: truncated zip archive"),
        "{:?}",
        errors(&r)
    );
    // cut inside a member's data: that member's error, nothing after it
    let (got, r) = read("cut.zip", z[..z.len() / 2].to_vec(), 2);
    assert!(got.is_empty() || got[0].err.is_some());
    let e = errors(&r);
    assert!(
        e.iter()
            .any(|e| e.starts_with("cut.zip:b.pgn: ")
                || e.starts_with("cut.zip: broken zip archive")),
        "{e:?}"
    );
}

#[test]
fn directories_are_walked_in_order() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let sub = dir.join("sub");
    std::fs::create_dir_all(sub.join("deeper")).unwrap();
    std::fs::write(dir.join("b.pgn"), seed_pgn()).unwrap();
    std::fs::write(dir.join("a.sgf.gz"), gzip(&seed_sgf())).unwrap();
    std::fs::write(dir.join("readme.txt"), "skipped").unwrap();
    std::fs::write(dir.join("raw.zst"), zstd(&seed_pgn())).unwrap(); // no format in the name
    std::fs::write(sub.join("deeper/c.PGN.xz"), xz(&seed_pgn())).unwrap();
    let m = vec![
        ("m.sgf".to_string(), seed_sgf()),
        ("n.txt".to_string(), b"x".to_vec()),
    ];
    std::fs::write(sub.join("t.tar.bz2"), bzip2(&tar(&refs(&m)))).unwrap();
    std::fs::write(sub.join("z.zip"), zip(&refs(&m))).unwrap();
    #[cfg(unix)]
    {
        // a link to a directory is not followed, a link to a file is
        std::os::unix::fs::symlink(&sub, dir.join("loop")).unwrap();
        std::os::unix::fs::symlink(dir.join("b.pgn"), sub.join("link.pgn")).unwrap();
    }
    for threads in [1, 2] {
        let (got, r) = walk(std::slice::from_ref(&dir), threads);
        assert!(r.is_clean(), "{:?}", errors(&r));
        let names: Vec<_> = got
            .iter()
            .map(|g| {
                g.name
                    .strip_prefix(&dir.display().to_string())
                    .unwrap()
                    .to_string()
            })
            .collect();
        let mut want = vec!["/a.sgf.gz", "/b.pgn", "/sub/deeper/c.PGN.xz"];
        if cfg!(unix) {
            want.push("/sub/link.pgn");
        }
        want.extend(["/sub/t.tar.bz2:m.sgf", "/sub/z.zip:m.sgf"]);
        assert_eq!(names, want);
        assert_eq!(r.skipped_files, 2); // readme.txt, raw.zst
        assert_eq!(r.skipped_members, 2);
        assert_eq!(got[0].bytes, seed_sgf());
        assert_eq!(got[2].bytes, seed_pgn());
        assert_eq!(r.inputs as usize, if cfg!(unix) { 6 } else { 5 });
    }
}

#[test]
fn archives_of_many_small_files() {
    // thousands of small SGF files, as Go archives come
    let sgf = seed_sgf();
    let m: Vec<(String, Vec<u8>)> = (0..2000)
        .map(|i| (format!("games/{:04}.sgf", i), sgf.clone()))
        .collect();
    let t = tar(&refs(&m));
    for threads in [1, 2] {
        let (got, r) = read("go.tar.gz", gzip(&t), threads);
        assert!(r.is_clean());
        assert_eq!(got.len(), 2000);
        assert_eq!(got[1999].name, "go.tar.gz:games/1999.sgf");
        assert!(
            got.iter()
                .all(|g| g.bytes == sgf && g.format == Format::Sgf)
        );
    }
}
