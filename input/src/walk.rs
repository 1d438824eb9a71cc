//! The walk over a command's arguments: files, directories, stdin.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::archive::{is_tar, is_zip};
use crate::compression::{Checked, Chunked, Prefixed};
use crate::deliver::{Entry, LOOK_AHEAD, Walker, check_claim};
use crate::names::Archive;
use crate::progress::{AtPos, Consume, Counted, Decoded, RawState};
use crate::{Compression, Options, Progress, Report, name_info, pipe};

/// Walks every argument in order, calling `f` once per input stream, and reports what went
/// wrong.
///
/// * A file is read whatever its name; a directory is walked (sorted by path, symbolic links to
///   directories not followed) for `.pgn` and `.sgf` files, their compressed forms (`.pgn.zst`,
///   `.sgf.gz`, ...) and archives (`.zip`, `.tar`, `.tar.gz`, `.tgz`, ...), the other files
///   counted in [`Report::skipped_files`]; `-` is stdin (once). With no argument, nothing is
///   read: the caller decides (stdin, a sample).
/// * What a stream holds is decided by its bytes: its compression ([`Compression::detect`]),
///   then whether the decoded bytes are a tar ("ustar" at 257) or zip (`PK\x03\x04`) archive
///   (or the name says `.tar`, `.zip`). Archive members are PGN or SGF by name only (`.pgn`,
///   `.sgf`, also compressed: `x.pgn.gz`), each handed over as `ARCHIVE:MEMBER`; the others are
///   counted in [`Report::skipped_members`]. A member is never opened as an archive itself.
/// * A name that claims a compression the bytes do not have is an error (`x.pgn.gz` holding
///   plain text or zstd data); a name that claims none while the bytes are compressed is not
///   (the bytes are decoded). A `.zip` or `.tar` that is no such archive is an error.
/// * An input's fault (unreadable, truncated, corrupt, not what its name says, a broken
///   archive) is recorded with its name after every byte decoded before it was read by `f`,
///   and the walk goes on with the next input (or member, where the archive still allows).
/// * An error that `f` returns on its own (not one its reader gave it) stops the walk: it is
///   [`Report::aborted`].
///
/// ```
/// use kifu_input::{for_each_input, Options, Progress};
/// use std::io::Read;
///
/// let dir = std::env::temp_dir().join(format!("kifu-input-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("sub")).unwrap();
/// std::fs::write(dir.join("b.pgn"), "1. e4 *\n").unwrap();
/// std::fs::write(dir.join("sub/a.sgf"), "(;GM[1])").unwrap();
/// std::fs::write(dir.join("notes.txt"), "skipped").unwrap();
///
/// let mut names = Vec::new();
/// let report = for_each_input(&[dir.clone()], &Options::default(), &Progress::new(), |e| {
///     let mut text = String::new();
///     e.reader.read_to_string(&mut text)?;
///     names.push((e.name.rsplit(['/', '\\']).next().unwrap().to_string(), e.format().to_string()));
///     Ok(())
/// });
/// assert_eq!(names, [("b.pgn".to_string(), "pgn".to_string()), ("a.sgf".into(), "sgf".into())]);
/// assert_eq!((report.entries, report.skipped_files), (2, 1));
/// assert!(report.skipped[0].ends_with("notes.txt (not PGN or SGF)"));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn for_each_input(
    args: &[PathBuf],
    opts: &Options,
    progress: &Progress,
    f: impl FnMut(Entry<'_>) -> io::Result<()>,
) -> Report {
    let mut w = Walker {
        opts,
        progress,
        report: Report::default(),
        f,
        stdin_used: false,
        spares: Vec::new(),
    };
    let mut items = Vec::new();
    for a in args {
        if a.as_os_str() == "-" {
            progress.add_total(None);
            items.push(Item::Stdin);
            continue;
        }
        match fs::metadata(a) {
            Ok(m) if m.is_dir() => {
                for (p, size) in walk_dir(a, &mut w.report) {
                    progress.add_total(Some(size));
                    items.push(Item::File(p, Some(size)));
                }
            }
            Ok(m) => {
                progress.add_total(m.is_file().then_some(m.len()));
                items.push(Item::File(a.clone(), m.is_file().then_some(m.len())));
            }
            Err(_) => items.push(Item::File(a.clone(), None)),
        }
    }
    if items.is_empty() {
        progress.add_total(Some(0));
    }
    for item in items {
        if w.aborted() {
            break;
        }
        w.report.inputs += 1;
        match item {
            Item::Stdin => {
                if std::mem::replace(&mut w.stdin_used, true) {
                    w.report.error(
                        "-",
                        io::Error::new(io::ErrorKind::InvalidInput, "stdin may be named only once"),
                    );
                } else {
                    open_stream(&mut w, "-", Box::new(io::stdin()), None, None);
                }
            }
            Item::File(p, size) => {
                let name = p.display().to_string();
                match fs::File::open(&p) {
                    Ok(file) => open_stream(&mut w, &name, Box::new(file), Some(&p), size),
                    Err(e) => w
                        .report
                        .error(&name, io::Error::new(e.kind(), format!("cannot open: {e}"))),
                }
            }
        }
        progress.input_done();
    }
    w.report
}

/// Reads one stream (stdin, a socket, a file object, bytes in memory) as [`for_each_input`]
/// reads a file named `name`: its compression undone (`name` may claim one: `x.pgn.gz`), an
/// archive walked, every stream handed to `f`.
///
/// The reader may be read on another thread (decoding overlaps with `f`'s work when
/// `opts.threads` > 1), hence `Send + 'static`.
///
/// ```
/// use kifu_input::{for_each_in_reader, Compression, Options, Progress};
/// use std::io::{Read, Write};
///
/// let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
/// gz.write_all(b"1. d4 d5 *\n").unwrap();
/// let gz = gz.finish().unwrap();
///
/// let mut out = String::new();
/// let report = for_each_in_reader("upload", std::io::Cursor::new(gz), &Options::default(),
///     &Progress::new(), |e| {
///         assert_eq!(e.compression, Compression::Gzip);
///         e.reader.read_to_string(&mut out).map(drop)
///     });
/// assert!(report.is_clean());
/// assert_eq!(out, "1. d4 d5 *\n");
/// ```
pub fn for_each_in_reader(
    name: &str,
    reader: impl Read + Send + 'static,
    opts: &Options,
    progress: &Progress,
    f: impl FnMut(Entry<'_>) -> io::Result<()>,
) -> Report {
    let mut w = Walker {
        opts,
        progress,
        report: Report::default(),
        f,
        stdin_used: false,
        spares: Vec::new(),
    };
    progress.add_total(None);
    w.report.inputs += 1;
    open_stream(&mut w, name, Box::new(reader), None, None);
    progress.input_done();
    w.report
}

enum Item {
    Stdin,
    File(PathBuf, Option<u64>),
}

/// The wanted files below `dir`, sorted by path, with their sizes. No recursion: a stack of
/// directories still to read.
fn walk_dir(dir: &Path, report: &mut Report) -> Vec<(PathBuf, u64)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = match fs::read_dir(&d) {
            Ok(e) => e,
            Err(e) => {
                report.error(&d.display().to_string(), e);
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    report.error(&d.display().to_string(), e);
                    continue;
                }
            };
            let p = entry.path();
            let wanted = name_info(&entry.file_name().to_string_lossy()).is_wanted();
            // a file that cannot be looked at is an input that cannot be read when its name
            // says it holds games (named, never skipped in silence), else a skipped file
            let unreadable = |e: io::Error, report: &mut Report| {
                if wanted {
                    report.error(&p.display().to_string(), e);
                } else {
                    report.skip_file(&p.to_string_lossy());
                }
            };
            let t = match entry.file_type() {
                Ok(t) => t,
                Err(e) => {
                    unreadable(e, report);
                    continue;
                }
            };
            if t.is_dir() {
                stack.push(p);
                continue;
            }
            // a symbolic link is followed to a file, never to a directory (a cycle would
            // never end)
            let meta = if t.is_symlink() {
                match fs::metadata(&p) {
                    Ok(m) if m.is_dir() => continue,
                    Ok(m) => m,
                    Err(e) => {
                        unreadable(link_error(e), report);
                        continue;
                    }
                }
            } else {
                match entry.metadata() {
                    Ok(m) => m,
                    Err(e) => {
                        unreadable(e, report);
                        continue;
                    }
                }
            };
            if wanted {
                found.push((p, meta.len()));
            } else {
                report.skip_file(&p.to_string_lossy());
            }
        }
    }
    found.sort();
    found
}

/// Why a symbolic link found in a directory cannot be followed, in words: it leads to nothing
/// (dangling), or round in a loop.
fn link_error(e: io::Error) -> io::Error {
    let why = if e.kind() == io::ErrorKind::NotFound {
        "a symbolic link to nothing (dangling)".to_string()
    } else {
        format!("a symbolic link that cannot be followed: {e}")
    };
    io::Error::new(e.kind(), format!("cannot open: {why}"))
}

/// Files smaller than this are read in one call (their compression and format recognised from
/// the bytes in memory): a Go archive of a million small files is a million reads fewer.
const WHOLE_FILE: usize = 64 << 10;

/// One top-level stream: compression recognised and undone, then an archive walked or the
/// stream handed over.
fn open_stream<F: FnMut(Entry<'_>) -> io::Result<()>>(
    w: &mut Walker<'_, F>,
    name: &str,
    raw: Box<dyn Read + Send>,
    path: Option<&Path>,
    size: Option<u64>,
) {
    let info = if name == "-" {
        Default::default()
    } else {
        name_info(name)
    };
    let counted = Counted::new(raw, Some(w.progress));
    let state = Arc::clone(&counted.state);
    // a small file is read whole at once, with the read that finds its end (its size is the
    // walk's: fewer bytes or more are read as they come); not one whose name says it is
    // compressed or an archive, whose decoder's errors say how far into the file they are
    let plain = info.compression.is_none() && info.archive.is_none();
    let ahead = match size {
        Some(s) if plain && s < WHOLE_FILE as u64 => (s as usize + 1).max(16),
        _ => 16,
    };
    let mut raw = Prefixed::new(counted, ahead);
    let c = Compression::detect(raw.head());
    if raw.head().is_empty()
        && let Err(e) = raw.read(&mut [0])
    {
        return w.report.error(name, e);
    }
    if let Err(e) = check_claim(&info, c, raw.head()) {
        return w.report.error(name, e);
    }
    if c != Compression::None {
        w.progress.set_compressed();
    }
    if c == Compression::None
        && (is_zip(raw.head()) || info.archive == Some(Archive::Zip) && path.is_some())
    {
        #[cfg(feature = "zip")]
        match path {
            Some(p) => crate::archive::zip_file(w, name, p),
            None => crate::archive::zip_stream(
                w,
                name,
                &mut Consume::new(AtPos { inner: raw, state }, w.progress),
            ),
        }
        #[cfg(not(feature = "zip"))]
        w.report.error(name, no_archive("zip"));
        return;
    }
    let decoded = match decoder(c, raw, state, w.opts, w.progress) {
        Ok(d) => d,
        Err(e) => return w.report.error(name, e),
    };
    let mut decoded = Prefixed::new(decoded, LOOK_AHEAD);
    if is_tar(decoded.head()) || info.archive == Some(Archive::Tar) {
        #[cfg(feature = "tar")]
        crate::archive::tar(w, name, &mut decoded);
        #[cfg(not(feature = "tar"))]
        w.report.error(name, no_archive("tar"));
        return;
    }
    if info.archive == Some(Archive::Zip) && !is_zip(decoded.head()) {
        return w.report.error(
            name,
            io::Error::new(io::ErrorKind::InvalidData, "not a zip archive"),
        );
    }
    if is_zip(decoded.head()) {
        #[cfg(feature = "zip")]
        crate::archive::zip_stream(w, name, &mut decoded);
        #[cfg(not(feature = "zip"))]
        w.report.error(name, no_archive("zip"));
        return;
    }
    let size = if c == Compression::None { size } else { None };
    w.deliver(name, info.format, c, size, &mut decoded);
}

#[allow(dead_code)]
fn no_archive(kind: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        format!(
            "a {kind} archive, but built without {kind} support (the `{kind}` feature of kifu-input)"
        ),
    )
}

type Raw = Prefixed<Counted<Box<dyn Read + Send>>>;

/// The decoder for a top-level stream: inline with one thread; with more, on a thread of its
/// own, or frame by frame on several (pzstd, pbzip2). Both ways read the decoders in the same
/// chunks ([`Chunked`], [`pipe::pump`]) and cut the same frames and jobs, so the bytes and
/// errors of a damaged stream are the same at every thread count.
///
/// What the caller reads of it advances [`Progress::bytes_consumed`] to the raw position of the
/// chunk handed over ([`Consume`]): chunks decoded on another thread carry the position their
/// decoder had reached; a decoder on the caller's thread is where its raw reader is.
fn decoder(
    c: Compression,
    raw: Raw,
    state: Arc<RawState>,
    opts: &Options,
    progress: &Progress,
) -> io::Result<Box<dyn Read + Send>> {
    let d = decoded(c, raw, state, opts)?;
    Ok(Box::new(Consume::new(d, progress)))
}

/// The decoded stream, telling the raw position of what it handed over.
fn decoded(
    c: Compression,
    raw: Raw,
    state: Arc<RawState>,
    opts: &Options,
) -> io::Result<Box<dyn Decoded>> {
    if c == Compression::None {
        return Ok(Box::new(AtPos { inner: raw, state }));
    }
    let parallel = opts.thread_count() > 1;
    #[cfg(feature = "zstd")]
    if c == Compression::Zstd && crate::zstd_par::is_pzstd(raw.head()) {
        return Ok(if parallel {
            Box::new(crate::zstd_par::spawn(Box::new(raw), state, opts)?)
        } else {
            Box::new(crate::zstd_par::inline(Box::new(raw), state, opts))
        });
    }
    #[cfg(feature = "bzip2")]
    if c == Compression::Bzip2 {
        return Ok(if parallel {
            Box::new(crate::bzip2_par::spawn(Box::new(raw), opts)?)
        } else {
            Box::new(crate::bzip2_par::inline(Box::new(raw), opts))
        });
    }
    let checked = AtPos {
        inner: Checked::new(c, raw, Arc::clone(&state), opts)?,
        state,
    };
    Ok(if parallel {
        Box::new(pipe::spawn(Box::new(checked), opts.chunk_len(), 4)?)
    } else {
        Box::new(Chunked::new(checked, opts.chunk_len()))
    })
}
