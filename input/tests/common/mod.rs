//! Builders of every input variant (with the crates themselves) and a collecting walk.
#![allow(dead_code, unused_imports)] // each test binary uses some of it

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use kifu_input::{Compression, Entry, Format, Options, Progress, Report};

/// The repository's own seed files (always there).
pub fn seed_pgn() -> Vec<u8> {
    kifu_testkit::data_file("seed-kasparov-kramnik-2001.pgn")
}
pub fn seed_sgf() -> Vec<u8> {
    kifu_testkit::data_file("seed-takemiya-cho-meijin-1996.sgf")
}

/// The shared folder (`../shared`, found at build time; see `kifu_testkit::shared`).
pub use kifu_testkit::shared;

/// A few corpus files of ../shared (name, bytes).
pub fn corpus() -> Vec<(String, Vec<u8>)> {
    let s = shared();
    [
        "corpus/pgn/small/pgn2tex/PGN/examples/Capablanca.pgn",
        "corpus/pgn/small/pgn2tex/PGN/examples/Philidor.pgn",
    ]
    .iter()
    .map(|rel| {
        let p = s.join(rel);
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        (
            name,
            std::fs::read(&p).unwrap_or_else(|e| panic!("{rel}: {e}")),
        )
    })
    .chain(first_sgfs(&s, 2))
    .collect()
}

fn first_sgfs(s: &Path, n: usize) -> Vec<(String, Vec<u8>)> {
    let mut stack = vec![s.join("corpus/sgf/small")];
    let mut found = Vec::new();
    while let Some(d) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "sgf") {
                found.push(p);
            }
        }
    }
    found.sort();
    found
        .into_iter()
        .take(n)
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect()
}

/// About `n` bytes of PGN: the seed repeated.
pub fn big_pgn(n: usize) -> Vec<u8> {
    let unit = seed_pgn();
    let mut out = Vec::with_capacity(n + unit.len());
    while out.len() < n {
        out.extend_from_slice(&unit);
    }
    out.truncate(n);
    out
}

pub fn zstd(data: &[u8]) -> Vec<u8> {
    zstd::encode_all(data, 3).unwrap()
}

/// Several zstd frames, one after another, no size headers.
pub fn zstd_frames(data: &[u8], frame: usize) -> Vec<u8> {
    data.chunks(frame.max(1))
        .flat_map(|c| zstd::bulk::compress(c, 3).unwrap())
        .collect()
}

/// What pzstd writes: each frame after a 12-byte skippable frame holding its compressed size.
pub fn pzstd(data: &[u8], frame: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for c in data.chunks(frame.max(1)) {
        let z = zstd::bulk::compress(c, 3).unwrap();
        out.extend_from_slice(&[0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0]);
        out.extend_from_slice(&(z.len() as u32).to_le_bytes());
        out.extend_from_slice(&z);
    }
    out
}

pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Several gzip members, as `cat a.gz b.gz` or pigz make.
pub fn gzip_members(data: &[u8], member: usize) -> Vec<u8> {
    data.chunks(member.max(1)).flat_map(gzip).collect()
}

pub fn bzip2(data: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Several bzip2 streams, as pbzip2 writes them.
pub fn bzip2_streams(data: &[u8], stream: usize) -> Vec<u8> {
    data.chunks(stream.max(1)).flat_map(bzip2).collect()
}

pub fn xz(data: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 3);
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

pub fn xz_streams(data: &[u8], stream: usize) -> Vec<u8> {
    data.chunks(stream.max(1)).flat_map(xz).collect()
}

pub fn compress(c: Compression, data: &[u8]) -> Vec<u8> {
    match c {
        Compression::None => data.to_vec(),
        Compression::Zstd => zstd(data),
        Compression::Gzip => gzip(data),
        Compression::Bzip2 => bzip2(data),
        Compression::Xz => xz(data),
    }
}

pub fn suffix(c: Compression) -> &'static str {
    match c {
        Compression::None => "",
        Compression::Zstd => ".zst",
        Compression::Gzip => ".gz",
        Compression::Bzip2 => ".bz2",
        Compression::Xz => ".xz",
    }
}

pub const ALL: [Compression; 5] = [
    Compression::None,
    Compression::Zstd,
    Compression::Gzip,
    Compression::Bzip2,
    Compression::Xz,
];

/// A tar of (name, bytes) regular files, plus a directory entry.
pub fn tar(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(tar::EntryType::Directory);
    h.set_size(0);
    h.set_mode(0o755);
    b.append_data(&mut h, "dir/", std::io::empty()).unwrap();
    for (name, data) in members {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        b.append_data(&mut h, name, *data).unwrap();
    }
    b.into_inner().unwrap()
}

/// A zip of (name, bytes) files (deflated), plus a directory entry.
pub fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    w.add_directory("dir/", opts).unwrap();
    for (name, data) in members {
        w.start_file(*name, opts).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// What a walk handed over.
#[derive(Debug, Clone, PartialEq)]
pub struct Got {
    pub name: String,
    pub bytes: Vec<u8>,
    /// The reader's error, if any.
    pub err: Option<String>,
    pub format: Format,
    pub compression: Compression,
    pub size_hint: Option<u64>,
}

/// Reads an entry to its end, in reads of `chunk` bytes.
pub fn take(e: Entry<'_>, chunk: usize, got: &mut Vec<Got>) -> std::io::Result<()> {
    let mut bytes = Vec::new();
    let mut buf = vec![0; chunk.max(1)];
    let mut err = None;
    loop {
        match e.reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            Err(x) => {
                err = Some(x);
                break;
            }
        }
    }
    got.push(Got {
        name: e.name.to_string(),
        bytes,
        err: err.as_ref().map(|x| x.to_string()),
        format: e.format(),
        compression: e.compression,
        size_hint: e.size_hint,
    });
    match err {
        Some(x) => Err(x),
        None => Ok(()),
    }
}

pub fn opts(threads: usize) -> Options {
    Options {
        threads,
        buffer_size: 64 << 10,
        ..Options::default()
    }
}

/// Walks paths.
pub fn walk(args: &[PathBuf], threads: usize) -> (Vec<Got>, Report) {
    let mut got = Vec::new();
    let r = kifu_input::for_each_input(args, &opts(threads), &Progress::new(), |e| {
        take(e, 8192, &mut got)
    });
    (got, r)
}

/// Reads one in-memory stream named `name`.
pub fn read(name: &str, bytes: Vec<u8>, threads: usize) -> (Vec<Got>, Report) {
    let mut got = Vec::new();
    let r = kifu_input::for_each_in_reader(
        name,
        std::io::Cursor::new(bytes),
        &opts(threads),
        &Progress::new(),
        |e| take(e, 8192, &mut got),
    );
    (got, r)
}

/// The messages of a report's errors.
pub fn errors(r: &Report) -> Vec<String> {
    r.errors.iter().map(|e| e.to_string()).collect()
}

/// A reader handing out at most `n` bytes per read (a pipe).
pub struct Trickle<R>(pub R, pub usize);
impl<R: Read> Read for Trickle<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.1);
        self.0.read(&mut buf[..n])
    }
}
