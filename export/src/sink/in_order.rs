//! The results of an encoding pool's jobs, numbered as they were sent and taken back in that
//! order, whatever order the threads finish them in: what makes a file written on `N` threads
//! the same bytes as one written on one.

use std::collections::BTreeMap;
use std::sync::mpsc::Receiver;

/// The threads' results, `(index, result)`, and those come before their turn.
pub(crate) struct InOrder<T> {
    done: Receiver<(usize, T)>,
    early: BTreeMap<usize, T>,
    /// Results taken so far: the index of the next one.
    taken: usize,
}

/// An encoding thread ended before its results came.
pub(crate) struct Gone;

impl<T> InOrder<T> {
    pub(crate) fn new(done: Receiver<(usize, T)>) -> InOrder<T> {
        InOrder {
            done,
            early: BTreeMap::new(),
            taken: 0,
        }
    }

    /// Results taken so far.
    pub(crate) fn taken(&self) -> usize {
        self.taken
    }

    /// The next result in order, of the `sent` jobs sent so far: when it is there, or, with
    /// `wait`, once it comes. `None` when it is not there yet (without `wait`) or every sent
    /// job's result was taken.
    pub(crate) fn next(&mut self, sent: usize, wait: bool) -> Result<Option<T>, Gone> {
        loop {
            if let Some(result) = self.early.remove(&self.taken) {
                self.taken += 1;
                return Ok(Some(result));
            }
            if self.taken >= sent {
                return Ok(None);
            }
            let got = if wait {
                self.done.recv().ok()
            } else {
                self.done.try_recv().ok()
            };
            match got {
                Some((index, result)) => {
                    self.early.insert(index, result);
                }
                None if wait => return Err(Gone),
                None => return Ok(None),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_the_order_sent() {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut in_order = InOrder::new(rx);
        tx.send((1, "b")).unwrap();
        assert!(
            matches!(in_order.next(3, false), Ok(None)),
            "0 not there yet"
        );
        tx.send((0, "a")).unwrap();
        tx.send((2, "c")).unwrap();
        let mut got = Vec::new();
        while let Ok(Some(r)) = in_order.next(3, true) {
            got.push(r);
        }
        assert_eq!(got, ["a", "b", "c"]);
        assert_eq!(in_order.taken(), 3);
        drop(tx);
        assert!(
            matches!(in_order.next(4, true), Err(Gone)),
            "the senders are gone"
        );
    }
}
