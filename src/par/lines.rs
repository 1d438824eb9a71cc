//! The line counter at each piece's start, worked out by the threads that read the pieces
//! instead of by the cutter.
//!
//! A parser placed at a piece's first byte needs the line and column there, and they depend on
//! every line break before it. Counting them on the cutter's thread made that one thread touch
//! every byte of the input; now the cutter only looks around the places it cuts, and each
//! piece's thread counts its own piece's breaks ([`Breaks`]) before reading it. The counter at
//! piece `k`'s start is the counter at piece `k - 1`'s start with `k - 1`'s breaks applied.
//!
//! A thread that needs a start no one has worked out yet works it out itself, from the nearest
//! start known before it, counting the breaks of any piece in between whose thread has not
//! counted them yet. It never waits for another thread: whatever order an executor runs the
//! pieces in (even one piece at a time, last first), every piece gets its start. At worst a
//! piece's breaks are counted twice.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;

use crate::position::{Breaks, Lines};

/// The line counter at a piece's start: known when the piece was cut (the first piece of an
/// input), or to be worked out from the pieces before it.
#[derive(Clone, Debug)]
pub(crate) enum Start {
    /// Known.
    Known(Lines),
    /// Piece `index` of the input whose chain this is.
    Chained(Arc<Chain>, u64),
}

impl Start {
    /// The counter at the piece's start, `bytes` being the piece's own bytes (counted here, for
    /// the pieces after it, before its start is asked for).
    pub(crate) fn resolve(&self, bytes: &[u8]) -> Lines {
        match self {
            Start::Known(lines) => *lines,
            Start::Chained(chain, index) => chain.start(*index, bytes),
        }
    }
}

/// The pieces of one input, as far as their line counters go.
#[derive(Debug, Default)]
pub(crate) struct Chain {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Index of the piece `entries[0]` stands for.
    first: u64,
    entries: VecDeque<Entry>,
}

#[derive(Debug)]
struct Entry {
    /// Stream offset of the piece's first byte.
    offset: u64,
    /// The piece's bytes, until its breaks are counted.
    bytes: Bytes,
    breaks: Option<Breaks>,
    start: Option<Lines>,
    /// The piece's thread has its start: the entry can go once the next piece's start is
    /// known too.
    taken: bool,
}

impl Chain {
    /// A chain for a new input.
    pub(crate) fn new() -> Arc<Chain> {
        Arc::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // a thread that panicked while holding the lock left the state whole (every change is
        // one assignment); the scan raises its panic anyway
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds the next piece of the input, `bytes` at stream offset `offset`: its [`Start`].
    pub(crate) fn push(self: &Arc<Self>, offset: u64, bytes: &Bytes) -> Start {
        let mut state = self.lock();
        let index = state.first + state.entries.len() as u64;
        let start = (index == 0).then(Lines::default);
        state.entries.push_back(Entry {
            offset,
            bytes: bytes.clone(),
            breaks: None,
            start,
            taken: false,
        });
        Start::Chained(Arc::clone(self), index)
    }

    /// The counter at the start of piece `index`, whose bytes are `bytes`.
    fn start(&self, index: u64, bytes: &[u8]) -> Lines {
        // the piece's own breaks first, without the lock, for the pieces after it
        let mut state = self.lock();
        if state.entry(index).breaks.is_none() {
            let offset = state.entry(index).offset;
            drop(state);
            let breaks = Breaks::count(bytes, offset);
            state = self.lock();
            state.counted(index, breaks);
        }
        loop {
            if let Some(start) = state.entry(index).start {
                state.entry_mut(index).taken = true;
                state.prune();
                return start;
            }
            // the nearest start known before this one (the first entry's always is)
            let known = (state.first..index)
                .rev()
                .find(|&k| state.entry(k).start.is_some())
                .expect("the first entry's start is known");
            let entry = state.entry(known);
            match entry.breaks {
                Some(breaks) => {
                    let mut next = entry.start.expect("known");
                    next.apply(&breaks);
                    state.entry_mut(known + 1).start = Some(next);
                }
                None => {
                    // a piece whose thread has not counted it yet: count it here
                    let (bytes, offset) = (entry.bytes.clone(), entry.offset);
                    drop(state);
                    let breaks = Breaks::count(&bytes, offset);
                    state = self.lock();
                    state.counted(known, breaks);
                }
            }
        }
    }
}

impl State {
    fn entry(&self, index: u64) -> &Entry {
        &self.entries[(index - self.first) as usize]
    }

    fn entry_mut(&mut self, index: u64) -> &mut Entry {
        &mut self.entries[(index - self.first) as usize]
    }

    /// Records piece `index`'s breaks (counted by its thread or another: the same either
    /// way) and lets its bytes go.
    fn counted(&mut self, index: u64, breaks: Breaks) {
        if index < self.first {
            // let go while it was counted here: its successor's start is known already
            return;
        }
        let entry = self.entry_mut(index);
        entry.breaks = Some(breaks);
        entry.bytes = Bytes::new();
    }

    /// Drops the entries no one needs any more: taken, with the next start known. The first
    /// entry left always has its start known.
    fn prune(&mut self) {
        while self.entries.len() >= 2 && self.entries[0].taken && self.entries[1].start.is_some() {
            self.entries.pop_front();
            self.first += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every order of asking for the starts of pieces cut anywhere gives the counters of one
    /// count through the whole input.
    #[test]
    fn every_order_gives_the_starts_of_one_count() {
        let input = Bytes::from_static(b"a\r\nbb\n\rc\r\r\n\nd\re\n\n\nf\r");
        let cuts = [0, 2, 3, 7, 9, 10, 12, 16, input.len()];
        let mut want = Vec::new();
        let mut lines = Lines::default();
        for w in cuts.windows(2) {
            want.push(lines);
            lines.count(&input[w[0]..w[1]], w[0] as u64);
        }
        let n = cuts.len() - 1;
        // a few orders: in order, reversed, odd ones first, the middle first
        let orders: Vec<Vec<usize>> = vec![
            (0..n).collect(),
            (0..n).rev().collect(),
            (0..n)
                .filter(|k| k % 2 == 1)
                .chain((0..n).filter(|k| k % 2 == 0))
                .collect(),
            (n / 2..n).chain(0..n / 2).collect(),
        ];
        for order in orders {
            let chain = Chain::new();
            let starts: Vec<Start> = cuts
                .windows(2)
                .map(|w| chain.push(w[0] as u64, &input.slice(w[0]..w[1])))
                .collect();
            for &k in &order {
                let got = starts[k].resolve(&input[cuts[k]..cuts[k + 1]]);
                assert_eq!(got, want[k], "piece {k} in the order {order:?}");
            }
            assert!(
                chain.lock().entries.len() <= 2,
                "{order:?}: the entries are let go"
            );
        }
    }
}
