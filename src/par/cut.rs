//! Cutting an input into pieces at places where a game probably starts.
//!
//! A place is only a candidate: it is found by looking at a few bytes around it, not by reading
//! everything before it, so cutting costs next to nothing. Whether a game really starts there is
//! decided later by the parser that read everything before it (`super::piece`).

use std::io::{self, Read};
use std::sync::Arc;

use bytes::Bytes;

use super::lines::{Chain, Start};
use super::pool::Pool;
use crate::Format;
use crate::position::{Breaks, Lines};

/// A piece without a place to cut is cut anyway at this many piece sizes, so that input
/// without game boundaries (a huge game, junk, a bomb of one byte repeated) keeps the pieces in
/// flight, and memory, bounded: at `-j8`, 18 pieces of at most 2 MiB by default.
const MAX_PIECES: usize = 2;

/// How many bytes after a candidate's first byte decide whether it is one.
const DECIDE: usize = 64;

/// Root and game-info properties that open a game tree's first node.
const ROOT_PROPS: &[&[u8]] = &[
    b"FF", b"GM", b"SZ", b"CA", b"AP", b"ST", b"RU", b"KM", b"HA", b"PB", b"PW", b"BR", b"WR",
    b"RE", b"DT", b"EV", b"GN", b"PC", b"RO", b"TM", b"OT", b"SO", b"US", b"AN", b"GC", b"ON",
    b"CP", b"BT", b"WT",
];

impl Format {
    /// The first candidate at or after `from` in `buf`, if one can be told from the bytes held
    /// (`eof`: no bytes follow `buf`). `Err(at)`: a possible candidate at `at` needs bytes
    /// beyond `buf` to be told.
    pub(crate) fn candidate(
        self,
        buf: &[u8],
        from: usize,
        eof: bool,
    ) -> Result<Option<usize>, usize> {
        let open = match self {
            Format::Pgn => b'[',
            Format::Sgf => b'(',
        };
        let mut at = from.max(1);
        if at >= buf.len() {
            return Ok(None);
        }
        while let Some(k) = memchr::memchr(open, &buf[at..]) {
            let c = at + k;
            if c + DECIDE > buf.len() && !eof {
                // a candidate may need bytes beyond the buffer
                if self.before_ok(buf, c) {
                    return Err(c);
                }
            } else if self.before_ok(buf, c) && self.after_ok(&buf[c..]) {
                return Ok(Some(c));
            }
            at = c + 1;
        }
        Ok(None)
    }

    /// What comes before `buf[c]` fits a game start.
    fn before_ok(self, buf: &[u8], c: usize) -> bool {
        match self {
            Format::Pgn => {
                if !matches!(buf[c - 1], b'\n' | b'\r') {
                    return false;
                }
                // the line before: blank, or not a tag pair
                let end = if buf[c - 1] == b'\n' && c >= 2 && buf[c - 2] == b'\r' {
                    c - 2
                } else {
                    c - 1
                };
                let start = memchr::memrchr2(b'\n', b'\r', &buf[..end]).map_or(0, |p| p + 1);
                let line = &buf[start..end];
                match line.iter().position(|b| !matches!(b, b' ' | b'\t')) {
                    None => true,
                    Some(p) => line[p] != b'[',
                }
            }
            Format::Sgf => {
                let before = buf[..c]
                    .iter()
                    .rev()
                    .find(|b| !matches!(b, b' ' | b'\t'))
                    .copied();
                matches!(before, Some(b'\n' | b'\r' | b')'))
            }
        }
    }

    /// The bytes from the candidate on fit a game start.
    fn after_ok(self, rest: &[u8]) -> bool {
        match self {
            Format::Pgn => rest.get(1).is_some_and(u8::is_ascii_alphabetic),
            Format::Sgf => {
                let mut i = 1;
                let blank = |b: &u8| b.is_ascii_whitespace();
                while rest.get(i).is_some_and(blank) {
                    i += 1;
                }
                if rest.get(i) != Some(&b';') {
                    return false;
                }
                i += 1;
                while rest.get(i).is_some_and(blank) {
                    i += 1;
                }
                let start = i;
                while rest.get(i).is_some_and(u8::is_ascii_uppercase) {
                    i += 1;
                }
                ROOT_PROPS.contains(&&rest[start..i])
            }
        }
    }
}

/// A piece of an input, cut where a game probably starts.
#[derive(Clone, Debug)]
pub(crate) struct Cut {
    /// The piece's bytes.
    pub bytes: Bytes,
    /// Stream offset of its first byte.
    pub offset: u64,
    /// The line counter at its first byte, worked out by the thread that reads it.
    pub start: Start,
    /// Cut without a candidate: the piece before found no place to cut for [`MAX_PIECES`]
    /// piece sizes (a huge game, a huge comment, junk). A game rarely starts exactly here, so
    /// the piece is not read ahead as if one did: the parser before it reads it (see
    /// `super::scan`).
    pub forced: bool,
}

/// The bytes a cutter holds: read into a buffer, or an input held whole.
enum Held {
    /// Read into `buf`: its first `filled` bytes are the input's, the rest is room for the
    /// next reads, which land there directly. The room is initialized (zeroed when the buffer
    /// was made, or left by the pieces of a buffer used before).
    Read {
        buf: Vec<u8>,
        filled: usize,
    },
    Whole(Bytes),
}

impl Held {
    fn as_slice(&self) -> &[u8] {
        match self {
            Held::Read { buf, filled } => &buf[..*filled],
            Held::Whole(b) => b,
        }
    }

    fn len(&self) -> usize {
        self.as_slice().len()
    }

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first `n` bytes as a piece. A read buffer becomes the piece (lent out through
    /// `pool`), and the bytes after the cut move to the next buffer.
    fn split_to(&mut self, n: usize, pool: &Arc<Pool>) -> Bytes {
        match self {
            Held::Read { buf, filled } => {
                let rest = *filled - n;
                let mut next = match rest {
                    0 => Vec::new(),
                    _ if rest <= pool.size() / 2 => pool.get(),
                    _ => vec![0; rest + pool.size()],
                };
                next[..rest].copy_from_slice(&buf[n..*filled]);
                let piece = core::mem::replace(buf, next);
                *filled = rest;
                pool.share(piece).slice(..n)
            }
            Held::Whole(b) => b.split_to(n),
        }
    }
}

/// The pool of read buffers for pieces of `size` bytes read `read_size` bytes at a time,
/// keeping at most `keep` of them.
pub(crate) fn pool(size: usize, read_size: usize, keep: usize) -> Arc<Pool> {
    Pool::new(size.max(1) + DECIDE + read_size.clamp(1, 1 << 24), keep)
}

/// Cuts a stream into pieces of about `size` bytes (longer when no candidate comes: at most
/// `4 * size` unless the input ends first).
pub(crate) struct Cutter<R> {
    reader: R,
    format: Format,
    size: usize,
    read_size: usize,
    buf: Held,
    /// Bytes of `buf` already searched for a candidate.
    searched: usize,
    offset: u64,
    /// The line counters at the pieces' starts, worked out by the threads that read them: for
    /// an input held whole (its bytes are cold here; counting them would cost this thread a
    /// pass), and for a read one when this thread does not count (see [`Cutter::counting`]).
    chain: Arc<Chain>,
    /// Whether this thread counts the line breaks of a read input (see [`Cutter::counting`]).
    counting: bool,
    /// A read input counted here: the line counter at the buffer's first byte (the next
    /// piece's start)...
    start: Lines,
    /// ... and at its byte `counted`: each read's bytes are counted right after the read, while
    /// they are in the cache, up to where the next cut may fall.
    lines: Lines,
    counted: usize,
    /// The next piece starts where the last one was cut without a candidate.
    forced: bool,
    eof: bool,
    /// The read error that ended the input, handed out after the bytes read before it.
    error: Option<io::Error>,
    /// Where an input's first read lands (only the bytes read are then copied: a small input
    /// costs no room for a whole read), kept from input to input by the caller.
    scratch: Vec<u8>,
    /// The read buffers, used again once their pieces are dropped.
    pool: Arc<Pool>,
}

impl Cutter<io::Empty> {
    /// Cuts an input held in memory: the pieces are slices of it, not copies.
    pub(crate) fn whole(data: Bytes, format: Format, size: usize) -> Self {
        let mut c = Cutter::new(io::empty(), format, size, 1);
        c.buf = Held::Whole(data);
        c.eof = true;
        c
    }
}

impl<R: Read> Cutter<R> {
    pub(crate) fn new(reader: R, format: Format, size: usize, read_size: usize) -> Self {
        let size = size.max(1);
        Cutter {
            reader,
            format,
            size,
            read_size: read_size.clamp(1, 1 << 24),
            buf: Held::Read {
                buf: Vec::new(),
                filled: 0,
            },
            searched: 0,
            offset: 0,
            chain: Chain::new(),
            counting: false,
            start: Lines::default(),
            lines: Lines::default(),
            counted: 0,
            forced: false,
            eof: false,
            error: None,
            scratch: Vec::new(),
            pool: pool(size, read_size, 4),
        }
    }

    /// Counts the line breaks of a read input on this thread, each read's bytes right after the
    /// read while they are in the cache (at 15 GB/s here), instead of each piece's thread
    /// counting its piece before reading it (from memory: 5 GB/s). It costs this thread a fifth
    /// of its rate and saves every thread's work a tenth of `kifu stats`' own: the choice of a
    /// scan on two threads, which shares two cores with this one (the total work is what
    /// counts), and not of one on more (this thread's rate bounds how many it feeds).
    pub(crate) fn counting(mut self, counting: bool) -> Self {
        self.counting = counting;
        self
    }

    /// Reads into `pool`'s buffers (kept from one input to the next), which must be made by
    /// [`pool`] for this cutter's sizes.
    pub(crate) fn with_pool(mut self, pool: Arc<Pool>) -> Self {
        self.pool = pool;
        self
    }

    /// Reads through `scratch` (a buffer kept from one input to the next).
    pub(crate) fn with_scratch(mut self, scratch: Vec<u8>) -> Self {
        self.scratch = scratch;
        self
    }

    /// The read buffer, for the next input.
    pub(crate) fn into_scratch(self) -> Vec<u8> {
        self.scratch
    }

    /// Total bytes cut so far.
    pub(crate) fn offset(&self) -> u64 {
        self.offset
    }

    /// The next piece; `Ok(None)` at the end. On a read error the bytes read before it are
    /// still handed out first (as the last piece), then the error.
    pub(crate) fn next_cut(&mut self) -> io::Result<Option<Cut>> {
        loop {
            // the bytes read that the next cut cannot fall before, counted while hot
            self.count_to(self.buf.len().min(self.searched.max(self.size)));
            let want = self.size + DECIDE;
            if !self.eof && self.buf.len() < want {
                self.fill();
                continue;
            }
            if self.buf.is_empty() {
                return match self.error.take() {
                    Some(e) => Err(e),
                    None => Ok(None),
                };
            }
            let from = self.searched.max(self.size);
            let mut forced = false;
            let cut = match self.format.candidate(self.buf.as_slice(), from, self.eof) {
                Ok(Some(c)) => c,
                // a place that needs more bytes to be told: read on, or take it as it is when
                // the piece is long already, untold, so forced: not read ahead as if a game
                // started there (the parser that reads on decides). Inside a huge game every
                // piece would otherwise end at the last place its buffer could not tell, and
                // be read as games and dropped.
                Err(c) if self.buf.len() >= MAX_PIECES * self.size + DECIDE => {
                    forced = true;
                    c
                }
                Err(c) => {
                    self.searched = c;
                    self.fill();
                    continue;
                }
                Ok(None) if self.eof => self.buf.len(),
                // no candidate for long: cut anyway (the parser that reads on decides)
                Ok(None) if self.buf.len() >= MAX_PIECES * self.size => {
                    forced = true;
                    self.buf.len()
                }
                Ok(None) => {
                    self.searched = self.buf.len();
                    self.fill();
                    continue;
                }
            };
            let piece = self.take(cut);
            self.forced = forced;
            return Ok(Some(piece));
        }
    }

    /// Counts the line breaks of a read buffer up to its byte `end`.
    fn count_to(&mut self, end: usize) {
        let Held::Read { buf, .. } = &self.buf else {
            return;
        };
        if self.counting && end > self.counted {
            let base = self.offset + self.counted as u64;
            self.lines
                .apply(&Breaks::count(&buf[self.counted..end], base));
            self.counted = end;
        }
    }

    /// Takes the first `n` bytes of the buffer as a piece.
    fn take(&mut self, n: usize) -> Cut {
        let read = self.counting && matches!(self.buf, Held::Read { .. });
        if read {
            self.count_to(n);
            self.counted = 0;
        }
        let bytes = self.buf.split_to(n, &self.pool);
        let start = if read {
            Start::Known(core::mem::replace(&mut self.start, self.lines))
        } else {
            self.chain.push(self.offset, &bytes)
        };
        let cut = Cut {
            offset: self.offset,
            start,
            bytes,
            forced: self.forced,
        };
        self.offset += n as u64;
        self.searched = 0;
        cut
    }

    /// Reads once more into the buffer; marks the end of input. A read error ends the input
    /// too: what was read before it goes out first, then the error.
    fn fill(&mut self) {
        let Held::Read { buf, filled } = &mut self.buf else {
            self.eof = true;
            return;
        };
        // no room left (and at an input's start): this read goes through the scratch buffer,
        // so that an input that ends here costs no new buffer (most files of a directory of
        // SGF files are smaller than one read: their one piece keeps only its own bytes, and
        // some readers hand out a file's first bytes in a read of their own)
        let full = buf.len() == *filled;
        loop {
            let read = if full {
                if self.scratch.len() < self.read_size {
                    self.scratch.resize(self.read_size, 0);
                }
                self.reader.read(&mut self.scratch[..self.read_size])
            } else {
                let end = buf.len().min(*filled + self.read_size);
                self.reader.read(&mut buf[*filled..end])
            };
            match read {
                Ok(0) => {
                    self.eof = true;
                    return;
                }
                Ok(k) if full && *filled + k <= self.pool.size() / 4 => {
                    // a small input so far: its bytes kept in a vector that grows as vectors
                    // do (no room zeroed, none of the pool's buffers held for a small file)
                    buf.extend_from_slice(&self.scratch[..k]);
                    *filled += k;
                    return;
                }
                Ok(k) if full => {
                    // a buffer of the pool, or a larger one for a piece that found no place to
                    // cut yet, the bytes not cut yet and the ones just read moved into it
                    let n = *filled + k;
                    let mut grown = if n + self.read_size <= self.pool.size() {
                        self.pool.get()
                    } else {
                        vec![0; n + self.size]
                    };
                    grown[..*filled].copy_from_slice(&buf[..*filled]);
                    grown[*filled..n].copy_from_slice(&self.scratch[..k]);
                    *buf = grown;
                    *filled = n;
                    return;
                }
                Ok(k) => {
                    *filled += k;
                    return;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.eof = true;
                    self.error = Some(e);
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cuts(format: Format, input: &[u8], size: usize, chunk: usize) -> Vec<(u64, Vec<u8>)> {
        struct Slow<'a>(&'a [u8], usize);
        impl Read for Slow<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(buf.len()).min(self.1);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut c = Cutter::new(Slow(input, chunk), format, size, 4096);
        let mut out = Vec::new();
        while let Some(cut) = c.next_cut().unwrap() {
            out.push((cut.offset, cut.bytes.to_vec()));
        }
        out
    }

    #[test]
    fn pgn_cuts_before_a_tag_section() {
        let input =
            b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 *\n\n[Event \"c\"]\n1. d4 *\n[Event \"d\"]\n*\n";
        for chunk in [1, 3, 100] {
            let got = cuts(Format::Pgn, input, 1, chunk);
            let starts: Vec<u64> = got.iter().map(|c| c.0).collect();
            assert_eq!(starts, [0, 33, 53], "chunk {chunk}");
            let joined: Vec<u8> = got.into_iter().flat_map(|c| c.1).collect();
            assert_eq!(joined, input);
        }
    }

    #[test]
    fn sgf_cuts_before_a_root_node_only() {
        let input = b"(;GM[1]SZ[19]\n(;B[aa])\n(;W[bb]))\n(;FF[4]GM[1];B[cc])\n ( ; GM[1])";
        let got = cuts(Format::Sgf, input, 1, 7);
        let starts: Vec<u64> = got.iter().map(|c| c.0).collect();
        assert_eq!(starts, [0, 33, 54]);
    }

    /// Inside one huge SGF game whose variations open after a `)` (places that look like a
    /// game start until the bytes after them are read), the pieces cut at a place the buffer
    /// could not tell are forced: none is read ahead as if a game started there.
    #[test]
    fn a_place_cut_untold_is_forced() {
        let mut input = b"(;GM[1]SZ[19]".to_vec();
        for _ in 0..4000 {
            input.extend_from_slice(b";B[aa]C[c](;W[bb]C[x])(;W[cc])");
        }
        input.extend_from_slice(b")\n(;GM[1];B[aa])\n");
        let mut c = Cutter::new(&input[..], Format::Sgf, 4096, 1000);
        let mut pieces = Vec::new();
        while let Some(cut) = c.next_cut().unwrap() {
            pieces.push((cut.offset, cut.forced, cut.bytes.starts_with(b"(;GM")));
        }
        assert!(pieces.len() > 3, "{pieces:?}");
        for &(offset, forced, game) in &pieces[1..] {
            assert!(forced || game, "a piece at {offset} read ahead: {pieces:?}");
        }
    }

    #[test]
    fn no_candidate_means_pieces_of_at_most_two_sizes() {
        let input = vec![b'x'; 10_000];
        let got = cuts(Format::Pgn, &input, 1000, 512);
        assert!(
            got.iter().all(|c| c.1.len() <= 2000 + 512),
            "{:?}",
            got.iter().map(|c| c.1.len()).collect::<Vec<_>>()
        );
        assert_eq!(got.iter().map(|c| c.1.len()).sum::<usize>(), 10_000);
    }

    #[test]
    fn a_small_input_holds_no_pooled_buffer_and_a_large_one_reuses_them() {
        // a reader that hands out the first bytes alone (as a sniffing reader does)
        struct Two<'a>(&'a [u8], bool);
        impl Read for Two<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = if self.1 { 4 } else { buf.len() }.min(self.0.len());
                self.1 = false;
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let small = b"(;GM[1];B[aa])\n(;GM[1];W[bb])\n".repeat(20);
        let pool = pool(1 << 12, 1 << 10, 8);
        let mut c = Cutter::new(Two(&small, true), Format::Sgf, 1 << 12, 1 << 10)
            .with_pool(Arc::clone(&pool));
        let cut = c.next_cut().unwrap().expect("one piece");
        assert_eq!(&cut.bytes[..], &small[..]);
        assert!(c.next_cut().unwrap().is_none());
        drop((cut, c));
        assert_eq!(pool.free_len(), 0, "no buffer of the pool was taken");

        let large = b"(;GM[1];B[aa])\n(;GM[1];W[bb])\n".repeat(2000);
        let mut c = Cutter::new(Two(&large, true), Format::Sgf, 1 << 12, 1 << 10)
            .with_pool(Arc::clone(&pool));
        let mut joined = Vec::new();
        while let Some(cut) = c.next_cut().unwrap() {
            // a piece's thread's first step: its line counter (which lets the chain drop the
            // bytes it keeps for counting)
            cut.start.resolve(&cut.bytes);
            joined.extend_from_slice(&cut.bytes);
        }
        assert_eq!(joined, large);
        assert!(pool.free_len() >= 1, "buffers came back");
        assert!(pool.free_len() <= 8, "at most `keep` kept");
    }

    #[test]
    fn the_line_counter_follows_the_cuts() {
        let input = b"[A \"1\"]\r\n*\r\n\r\n[B \"2\"]\n*\r[C \"3\"]\n";
        // counted by the pieces' threads or by the cutter, read a byte at a time or at once
        for (counting, read) in [(false, 4096), (true, 4096), (true, 1), (false, 1)] {
            let mut c = Cutter::new(&input[..], Format::Pgn, 1, read).counting(counting);
            let mut lines = Vec::new();
            while let Some(cut) = c.next_cut().unwrap() {
                lines.push(cut.start.resolve(&cut.bytes).at(cut.offset));
            }
            let got: Vec<(u64, u64, u32)> =
                lines.iter().map(|p| (p.offset, p.line, p.column)).collect();
            assert_eq!(
                got,
                [(0, 1, 1), (14, 4, 1), (24, 6, 1)],
                "{counting} {read}"
            );
        }
    }
}
