//! # kifu-input: game-record archives as they come
//!
//! Files, directories, stdin and in-memory readers, compressed (zstd, gzip, bzip2, xz) and
//! bundled (tar, zip), read as a sequence of named, decompressed byte streams for the `kifu`
//! parsers.
//!
//! * [`for_each_input`] walks the arguments of a command (files, directories, `-` for stdin) in
//!   order and calls a function once per stream it finds: a plain or compressed file, or one
//!   member of an archive, named `ARCHIVE:MEMBER`.
//! * [`for_each_in_reader`] does the same for one reader (stdin, a socket, a Python file object).
//! * A fault in one input (unreadable, truncated, corrupt, not what its name says) is recorded in
//!   the [`Report`] with the input's name, after every byte decoded before it was handed over,
//!   and the walk goes on with the next input.
//! * Nothing is taken as whole without being checked: every compressed stream and archive
//!   member is read to its end, also when the function stops reading early (the walk reads
//!   the rest), so that its checksum and length are checked (gzip CRC-32 and size, bzip2 block
//!   and stream CRCs, the xz check and index, the zstd checksum when the frame has one, a zip
//!   member's CRC-32 and sizes); a tar must reach its end-of-archive block and a zip its end of
//!   central directory record. A zip file cut short (no central directory) is read from its
//!   local headers: the members before the cut, then an error.
//! * Damaged input gives the same bytes and the same errors whatever [`Options::threads`]:
//!   decoders are driven in the same chunks of [`Options::buffer_size`] on one thread as on
//!   several, and pzstd frames and pbzip2 jobs are cut the same way.
//! * Nothing an input says makes the walk take the machine: decoded bytes in flight are
//!   bounded (a bomb is decoded streaming), and a zstd window or xz dictionary larger than
//!   [`Options::decoder_memory_limit`] is refused ([`InputError::is_memory_limit`]).
//!
//! What a stream holds is decided by its bytes, never by its name alone: see
//! [`Compression::detect`] and [`Format::sniff`], and the rules for names that claim something
//! the bytes do not have in [`for_each_input`]. zstd files written by `pzstd` (every lichess
//! monthly dump) are decoded frame by frame on [`Options::threads`] threads; other compressed
//! streams are decoded on a thread of their own, so that decoding overlaps with the caller's
//! parsing. Memory stays bounded whatever the size of the input (see [`Options`]).
//!
//! ```
//! use kifu_input::{for_each_in_reader, Format, Options, Progress};
//! use std::io::Read;
//!
//! let text = b"[Event \"?\"]\n\n1. e4 e5 *\n".to_vec();
//! let mut got = Vec::new();
//! let report = for_each_in_reader(
//!     "game.pgn",
//!     std::io::Cursor::new(text.clone()),
//!     &Options::default(),
//!     &Progress::new(),
//!     |entry| {
//!         assert_eq!(entry.name, "game.pgn");
//!         assert_eq!(entry.format(), Format::Pgn);
//!         entry.reader.read_to_end(&mut got)?;
//!         Ok(())
//!     },
//! );
//! assert!(report.is_clean());
//! assert_eq!(got, text);
//! ```
//!
//! ## Features
//! One per decoder, all on by default: `zstd`, `gzip`, `bzip2`, `xz`, `tar`, `zip`. Without one,
//! an input that needs it is an error naming the feature ("built without xz support").
#![deny(missing_docs)]
#![forbid(unsafe_code)]
// a build without some decoders leaves parts of the plumbing unused
#![cfg_attr(
    not(all(
        feature = "zstd",
        feature = "gzip",
        feature = "bzip2",
        feature = "xz",
        feature = "tar",
        feature = "zip"
    )),
    allow(dead_code, unused_imports, unused_variables)
)]

mod archive;
#[cfg(feature = "bzip2")]
mod bzip2_par;
mod compression;
mod deliver;
mod format;
mod frames;
pub mod names;
mod pipe;
mod progress;
mod report;
mod walk;
#[cfg(feature = "zstd")]
mod zstd_par;

pub use compression::Compression;
pub use deliver::Entry;
pub use format::Format;
pub use names::{Archive, NameInfo, name_info};
pub use progress::Progress;
pub use report::{InputError, Report};
pub use walk::{for_each_in_reader, for_each_input};

/// How inputs are read: threads, buffer sizes, limits.
///
/// Memory bound, whatever the input says: a stream decoded on a thread holds at most 4 chunks
/// of `buffer_size` decoded bytes ahead of the reader. A pzstd stream holds the decoded bytes
/// of at most `threads + 1` frames (each at most `frame_buffer`) and at most `threads + 2`
/// compressed frames (each at most `max_frame_size`); a multi-stream bzip2 file, `threads` jobs
/// of at least `buffer_size / 4` compressed bytes and at most `frame_buffer` decoded bytes in
/// all (at least one chunk of each). A decoder's own memory (the zstd window, the xz dictionary) is at most
/// `decoder_memory_limit` each. None of it grows with the size of the input, and a small input
/// that decodes to a huge output (a "bomb") is decoded streaming, never whole.
///
/// ```
/// let opts = kifu_input::Options { threads: 1, ..Default::default() };
/// assert_eq!(opts.threads, 1); // everything decoded inline, on the caller's thread
/// assert!(kifu_input::Options::default().threads >= 1);
/// assert_eq!(kifu_input::Options::default().decoder_memory_limit, 128 << 20);
/// ```
#[derive(Debug, Clone)]
pub struct Options {
    /// Decoding threads for one stream (default: the machine's cores). With 1, everything is
    /// decoded inline on the caller's thread (no thread is started); with 2 or more, a plain
    /// compressed stream is decoded on a thread of its own (decoding overlaps with the caller's
    /// parsing) and the independent frames of a pzstd or pbzip2 file on `threads` threads.
    /// The bytes handed over and the errors reported are the same whatever the count, for
    /// damaged input too.
    pub threads: usize,
    /// The size of the decoded chunks passed from a decoding thread to the reader (default
    /// 1 MiB). Decoders are always driven in chunks of this size (also with one thread), so
    /// that what a damaged stream yields before its fault does not depend on the thread count.
    pub buffer_size: usize,
    /// The decoded bytes of one parallel frame (pzstd), or of a batch of `threads` jobs
    /// (pbzip2; at least one chunk per job), buffered ahead of the reader (default 4 MiB): a
    /// decoding thread that gets this far ahead waits.
    pub frame_buffer: usize,
    /// The largest compressed frame (pzstd) or bzip2 stream group read into memory for parallel
    /// decoding (default 256 MiB); the rest of a stream with a larger one is decoded on one
    /// thread, streaming.
    pub max_frame_size: usize,
    /// The memory one decoder may take for what the input asks (default 128 MiB): the zstd
    /// window (the largest power of two within the limit, at most 2 GiB: 128 MiB is zstd's own
    /// default) and the xz/LZMA2 dictionary (liblzma's memory limit). A frame or stream asking
    /// for more is an error that says so ([`InputError::is_memory_limit`]); the limit applies
    /// to each decoder, so a pzstd stream on N threads may take N times it. gzip, zip
    /// (deflate) and bzip2 decoders use a few MiB whatever the input.
    pub decoder_memory_limit: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: kifu::par::cores(),
            buffer_size: 1 << 20,
            frame_buffer: 4 << 20,
            max_frame_size: 256 << 20,
            decoder_memory_limit: 128 << 20,
        }
    }
}

impl Options {
    pub(crate) fn chunk_len(&self) -> usize {
        self.buffer_size.clamp(4096, 1 << 30)
    }
    pub(crate) fn thread_count(&self) -> usize {
        self.threads.max(1)
    }
    /// The largest zstd window log within [`Options::decoder_memory_limit`] (10..=31).
    pub(crate) fn zstd_window_log(&self) -> u32 {
        self.decoder_memory_limit.max(1).ilog2().clamp(10, 31)
    }
}

/// The example of the crate's README, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
