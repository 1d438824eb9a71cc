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
/// Memory bound: a stream decoded on a thread holds at most 4 chunks of `buffer_size` decoded
/// bytes ahead of the reader. A pzstd stream holds the decoded bytes of at most `threads + 1`
/// frames (each at most `frame_buffer`) and at most `threads + 2` compressed frames (each at
/// most `max_frame_size`); a multi-stream bzip2 file, `threads` jobs of at least
/// `buffer_size / 4` compressed bytes and their decoded bytes. None of it grows with the size
/// of the input.
///
/// ```
/// let opts = kifu_input::Options { threads: 1, ..Default::default() };
/// assert_eq!(opts.threads, 1); // everything decoded inline, on the caller's thread
/// assert!(kifu_input::Options::default().threads >= 1);
/// ```
#[derive(Debug, Clone)]
pub struct Options {
    /// Decoding threads for one stream (default: the machine's cores). With 1, everything is
    /// decoded inline on the caller's thread (no thread is started); with 2 or more, a plain
    /// compressed stream is decoded on a thread of its own (decoding overlaps with the caller's
    /// parsing) and the independent frames of a pzstd or pbzip2 file on `threads` threads.
    pub threads: usize,
    /// The size of the decoded chunks passed from a decoding thread to the reader (default
    /// 1 MiB).
    pub buffer_size: usize,
    /// The decoded bytes of one parallel frame buffered ahead of the reader (default 64 MiB,
    /// twice the 32 MiB frames of `pzstd -19`): a decoding thread that gets this far ahead
    /// waits.
    pub frame_buffer: usize,
    /// The largest compressed frame (pzstd) or bzip2 stream group read into memory for parallel
    /// decoding (default 256 MiB); the rest of a stream with a larger one is decoded on one
    /// thread, streaming.
    pub max_frame_size: usize,
    /// The largest zstd window accepted, as a power of two (default 31, what `zstd --long=31`
    /// writes; the zstd library's own default is 27): a frame asking for more is an error.
    pub zstd_window_log_max: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            buffer_size: 1 << 20,
            frame_buffer: 64 << 20,
            max_frame_size: 256 << 20,
            zstd_window_log_max: 31,
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
}
