//! The shared corpus's small PGN and SGF collections, bundled at test time (tar.gz, zip, pzstd
//! tar) and walked as a directory: every file comes back byte for byte, named as it should be.
//! Ignored without ../shared.

mod common;

use std::path::{Path, PathBuf};

use common::*;

fn files(root: &Path) -> Vec<PathBuf> {
    let mut stack = vec![root.to_path_buf()];
    let mut found = Vec::new();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let t = e.file_type().unwrap();
            if t.is_dir() {
                stack.push(e.path());
            } else if t.is_file() {
                found.push(e.path());
            }
        }
    }
    found.sort();
    found
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn the_small_corpus_bundled_and_walked() {
    let shared = shared();
    let roots = [
        shared.join("corpus/pgn/small"),
        shared.join("corpus/sgf/small"),
    ];
    let mut members = Vec::new();
    for root in &roots {
        for p in files(root) {
            let rel = p
                .strip_prefix(&shared)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            members.push((rel, std::fs::read(&p).unwrap()));
        }
    }
    let wanted: Vec<&(String, Vec<u8>)> = members
        .iter()
        .filter(|(n, _)| kifu_input::name_info(n).format.is_some())
        .collect();
    let others = members.len() - wanted.len();
    assert!(wanted.len() > 2000, "{}", wanted.len());
    let refs: Vec<(&str, &[u8])> = members
        .iter()
        .map(|(n, d)| (n.as_str(), d.as_slice()))
        .collect();
    let t = tar(&refs);
    // fast settings: the debug builds of the encoders are slow
    let gz = {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&t).unwrap();
        e.finish().unwrap()
    };
    let pz: Vec<u8> = t
        .chunks(1 << 20)
        .flat_map(|c| {
            let z = zstd::bulk::compress(c, 1).unwrap();
            let mut f = vec![0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0];
            f.extend_from_slice(&(z.len() as u32).to_le_bytes());
            f.extend(z);
            f
        })
        .collect();
    let z = {
        use std::io::Write;
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let o = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        for (n, d) in &refs {
            w.start_file(*n, o).unwrap();
            w.write_all(d).unwrap();
        }
        w.finish().unwrap().into_inner()
    };
    for (name, bytes, threads) in [
        ("corpus.tar", t.clone(), 1),
        ("corpus.tgz", gz, 2),
        ("corpus.tar.zst", pz, 2),
        ("corpus.zip", z, 1),
    ] {
        let (got, r) = read(name, bytes, threads);
        assert!(
            r.is_clean(),
            "{name}: {:?}",
            &errors(&r)[..errors(&r).len().min(5)]
        );
        assert_eq!(r.skipped_members as usize, others, "{name}");
        assert_eq!(got.len(), wanted.len(), "{name}");
        for (g, (n, d)) in got.iter().zip(&wanted) {
            assert_eq!(g.name, format!("{name}:{n}"));
            assert!(g.bytes == *d, "{}", g.name);
        }
    }
    // the folders themselves
    let (got, r) = walk(&roots, 2);
    assert!(r.is_clean(), "{:?}", &errors(&r)[..errors(&r).len().min(5)]);
    assert_eq!(got.len(), wanted.len());
    assert_eq!(r.skipped_files as usize, others);
    for (g, (n, d)) in got.iter().zip(&wanted) {
        assert!(g.name.ends_with(n.as_str()), "{} {n}", g.name);
        assert!(g.bytes == *d, "{}", g.name);
    }
}
