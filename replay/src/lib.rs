//! # kifu-replay: what a record means on the board
//!
//! Visitor adapters that keep a board: legal chess moves, positions and keys; Go captures and
//! positions. (Being built: see the replay issue.)
