//! Where the bytes come from: files, directories, stdin, or the embedded sample.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};

use kifu::{pgn, sgf};

use crate::Format;

/// The sample read when no input is given: three games, one of them sloppy on purpose.
pub const SAMPLE: &[u8] = include_bytes!("sample.pgn");

/// One input stream.
#[derive(Debug)]
pub enum Source {
    File(PathBuf),
    /// Stdin, with the bytes already read to see whether anything comes.
    Stdin(Vec<u8>),
    Sample,
}

/// An input and how to read it.
#[derive(Debug)]
pub struct Input {
    pub source: Source,
    buffer_size: usize,
    bytes: Cell<u64>,
}

impl Input {
    fn new(source: Source, buffer_size: usize) -> Input {
        Input {
            source,
            buffer_size,
            bytes: Cell::new(0),
        }
    }

    /// The name used in reports.
    pub fn name(&self) -> String {
        match &self.source {
            Source::File(p) => p.display().to_string(),
            Source::Stdin(_) => "-".to_string(),
            Source::Sample => "<sample>".to_string(),
        }
    }

    /// Bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes.get()
    }

    /// The input's format: its extension (`.pgn`, `.sgf`), else `forced` (`--format`), else
    /// a look at its first bytes (SGF starts with `(`).
    pub fn format(&self, forced: Option<Format>) -> io::Result<Format> {
        let head = match &self.source {
            Source::Sample => return Ok(Format::Pgn),
            Source::File(p) => {
                let ext = p
                    .extension()
                    .and_then(|e| e.to_str())
                    .map(str::to_ascii_lowercase);
                match ext.as_deref() {
                    Some("pgn") => return Ok(Format::Pgn),
                    Some("sgf") => return Ok(Format::Sgf),
                    _ => {}
                }
                if let Some(f) = forced {
                    return Ok(f);
                }
                let mut head = vec![0u8; 256];
                let n = File::open(p)
                    .and_then(|mut f| f.read(&mut head))
                    .map_err(|e| named(p, e))?;
                head.truncate(n);
                head
            }
            Source::Stdin(head) => {
                if let Some(f) = forced {
                    return Ok(f);
                }
                head.clone()
            }
        };
        Ok(sniff(&head))
    }

    /// Reads the whole input as PGN into `v`.
    pub fn read_pgn<V: pgn::Visitor>(&self, v: &mut V) -> io::Result<()> {
        // the command's visitors stop only when their output failed; they report that
        self.with_source(|r| {
            let r = kifu::encoding::Utf16Reader::new(r);
            pgn::Reader::with_config(r, self.buffer_size, pgn::Config::default())
                .read_all(v)
                .map(drop)
        })
    }

    /// Reads the whole input as SGF into `v`.
    pub fn read_sgf<V: sgf::Visitor>(&self, v: &mut V) -> io::Result<()> {
        self.with_source(|r| {
            let r = kifu::encoding::Utf16Reader::new(r);
            sgf::Reader::with_config(r, self.buffer_size, sgf::Config::default())
                .read_all(v)
                .map(drop)
        })
    }

    /// Reads the input as PGN, one game at a time (the DOM), into `f`; gives back the problems
    /// no game carries (those of an input without any game).
    pub fn for_each_game(
        &self,
        keep: pgn::Scope,
        max_game_bytes: usize,
        mut f: impl FnMut(pgn::Game) -> io::Result<()>,
    ) -> io::Result<Vec<pgn::GameError>> {
        let mut unclaimed = Vec::new();
        self.with_source(|r| {
            let r = kifu::encoding::Utf16Reader::new(r);
            let games = pgn::ReadGames::with_config(
                r,
                self.buffer_size,
                pgn::Config::default(),
                pgn::GameBuilder::with_scope(keep).with_max_game_bytes(max_game_bytes),
            );
            let mut games = games;
            for game in games.by_ref() {
                f(game?)?;
            }
            unclaimed = games.builder().unclaimed_errors().to_vec();
            Ok(())
        })?;
        Ok(unclaimed)
    }

    /// Reads the input as SGF, one game tree at a time (the DOM), into `f`; gives back the
    /// problems no game tree carries (those of an input without any game tree).
    pub fn for_each_tree(
        &self,
        scope: sgf::Scope,
        max_game_bytes: usize,
        mut f: impl FnMut(sgf::GameTree) -> io::Result<()>,
    ) -> io::Result<Vec<sgf::TreeError>> {
        let mut unclaimed = Vec::new();
        self.with_source(|r| {
            let r = kifu::encoding::Utf16Reader::new(r);
            let trees = sgf::ReadTrees::with_builder(
                sgf::Reader::with_config(r, self.buffer_size, sgf::Config::default()),
                sgf::TreeBuilder::with_scope(scope).with_max_game_bytes(max_game_bytes),
            );
            let mut trees = trees;
            for tree in trees.by_ref() {
                f(tree?)?;
            }
            unclaimed = trees.builder().unclaimed_errors().to_vec();
            Ok(())
        })?;
        Ok(unclaimed)
    }

    fn with_source(&self, f: impl FnOnce(&mut dyn Read) -> io::Result<()>) -> io::Result<()> {
        match &self.source {
            Source::File(p) => {
                let file = File::open(p).map_err(|e| named(p, e))?;
                f(&mut Counting {
                    inner: file,
                    n: &self.bytes,
                })
            }
            Source::Stdin(head) => {
                let r = io::Cursor::new(head.as_slice()).chain(io::stdin().lock());
                f(&mut Counting {
                    inner: r,
                    n: &self.bytes,
                })
            }
            Source::Sample => f(&mut Counting {
                inner: SAMPLE,
                n: &self.bytes,
            }),
        }
    }
}

fn named(p: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", p.display()))
}

/// SGF if the first byte after blanks (and a byte order mark; zero bytes of UTF-16 skipped too)
/// is `(`, else PGN.
fn sniff(head: &[u8]) -> Format {
    let head = [&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"]
        .iter()
        .find_map(|bom| head.strip_prefix(*bom))
        .unwrap_or(head);
    match head.iter().find(|b| !b.is_ascii_whitespace() && **b != 0) {
        Some(b'(') => Format::Sgf,
        _ => Format::Pgn,
    }
}

struct Counting<'a, R> {
    inner: R,
    n: &'a Cell<u64>,
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.n.set(self.n.get() + k as u64);
        Ok(k)
    }
}

/// The inputs named on the command line, directories expanded (every `.pgn` and `.sgf` below,
/// sorted).
pub fn collect(args: &[PathBuf], buffer_size: usize) -> io::Result<Vec<Input>> {
    let mut out = Vec::new();
    if args.is_empty() {
        let stdin = io::stdin();
        if stdin.is_terminal() {
            out.push(Input::new(Source::Sample, buffer_size));
        } else {
            let head = read_head(buffer_size)?;
            let n = head.len();
            let source = if n == 0 {
                Source::Sample
            } else {
                Source::Stdin(head)
            };
            out.push(Input::new(source, buffer_size));
        }
        return Ok(out);
    }
    if args.iter().filter(|a| a.as_os_str() == "-").count() > 1 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "`-` (stdin) may be named only once",
        ));
    }
    for a in args {
        if a.as_os_str() == "-" {
            // the first bytes, read now, tell the format
            out.push(Input::new(
                Source::Stdin(read_head(buffer_size)?),
                buffer_size,
            ));
        } else if a.is_dir() {
            for p in walk(a)? {
                out.push(Input::new(Source::File(p), buffer_size));
            }
        } else {
            out.push(Input::new(Source::File(a.clone()), buffer_size));
        }
    }
    Ok(out)
}

/// The first bytes of stdin (up to 64 KiB).
fn read_head(buffer_size: usize) -> io::Result<Vec<u8>> {
    let mut head = vec![0u8; buffer_size.clamp(256, 1 << 16)];
    let mut n = 0;
    // a pipe may deliver a few bytes at a time: read until a full head or the end
    while n < head.len() {
        match io::stdin().lock().read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
        if n >= 256 {
            break;
        }
    }
    head.truncate(n);
    Ok(head)
}

fn walk(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).map_err(|e| named(&d, e))? {
            let entry = entry.map_err(|e| named(&d, e))?;
            let p = entry.path();
            // symbolic links to directories are not followed (a link cycle would never end)
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(p);
            } else if p
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pgn") || e.eq_ignore_ascii_case("sgf"))
            {
                found.push(p);
            }
        }
    }
    found.sort();
    Ok(found)
}
