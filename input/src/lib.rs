//! # kifu-input: game-record archives as they come
//!
//! Files, directories, stdin, compressed streams and bundles, read as a stream of named inputs
//! for the `kifu` parsers. (Being built: see the archives issue.)
