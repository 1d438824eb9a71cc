//! An ordered pool: items made on one thread, worked on several, handed on in the order they
//! were made, with a bounded number in flight.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;

/// Where a producer puts the items of an ordered pool ([`run`]). Sending blocks while the
/// pool holds as many items as its window allows.
pub(crate) struct Sender<T> {
    tasks: SyncSender<(u64, T)>,
    permits: Receiver<()>,
    seq: u64,
    cancel: Arc<AtomicBool>,
}

impl<T> Sender<T> {
    /// Queues `item`; `false` when the pool was cancelled (the sink failed or a visitor
    /// stopped): the producer should then return.
    pub(crate) fn send(&mut self, item: T) -> bool {
        if self.cancel.load(Ordering::Relaxed) || self.permits.recv().is_err() {
            return false;
        }
        let ok = self.tasks.send((self.seq, item)).is_ok();
        self.seq += 1;
        ok && !self.cancel.load(Ordering::Relaxed)
    }
}

/// Runs `produce` on a thread of its own, `work` on `threads` threads, and `sink` on the calling
/// thread, which gets the results in the order the producer sent the items. At most `window`
/// items are in flight (sent and not yet through the sink), so memory stays bounded whatever
/// the producer makes. The first error of `sink` cancels the pool (the producer's next send
/// answers `false`) and is returned; a panic of the producer or of `work` is raised again here.
pub(crate) fn run<T, U, E, P, W, S>(
    threads: usize,
    window: usize,
    produce: P,
    work: W,
    mut sink: S,
) -> Result<(), E>
where
    T: Send,
    U: Send,
    P: FnOnce(&mut Sender<T>) + Send,
    W: Fn(T) -> U + Sync,
    S: FnMut(U) -> Result<(), E>,
{
    let threads = threads.max(1);
    let window = window.max(threads + 1);
    let cancel = Arc::new(AtomicBool::new(false));
    let (task_tx, task_rx) = sync_channel::<(u64, T)>(window);
    let (permit_tx, permit_rx) = sync_channel::<()>(window);
    for _ in 0..window {
        permit_tx.send(()).expect("the permits fit the channel");
    }
    let (result_tx, result_rx) = channel::<(u64, thread::Result<U>)>();
    let task_rx = Mutex::new(task_rx);
    let mut failure = None;
    let mut outcome = Ok(());
    thread::scope(|s| {
        let mut sender = Sender {
            tasks: task_tx,
            permits: permit_rx,
            seq: 0,
            cancel: Arc::clone(&cancel),
        };
        let producer = s.spawn(move || produce(&mut sender));
        for _ in 0..threads {
            let result_tx = result_tx.clone();
            let (task_rx, work, cancel) = (&task_rx, &work, &cancel);
            s.spawn(move || {
                loop {
                    let next = task_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok((seq, item))) = next else { break };
                    if cancel.load(Ordering::Relaxed) {
                        continue; // drain what the producer had queued
                    }
                    let done = catch_unwind(AssertUnwindSafe(|| work(item)));
                    let failed = done.is_err();
                    if result_tx.send((seq, done)).is_err() || failed {
                        cancel.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
        drop(result_tx);
        merge_in_order(
            &result_rx,
            &permit_tx,
            &mut sink,
            &mut outcome,
            &mut failure,
        );
        // stop the producer (its next send fails) and let the workers drain
        cancel.store(true, Ordering::Relaxed);
        drop(permit_tx);
        if let Err(panic) = producer.join() {
            failure.get_or_insert(panic);
        }
    });
    if let Some(panic) = failure {
        resume_unwind(panic);
    }
    outcome
}

/// As [`run`], with the work done by `executor`'s threads instead of threads of the pool's own:
/// a dispatching thread hands each item to the executor as a job, and the results come back
/// to `sink` in order. Every job the executor is given must run (a job dropped unrun ends the
/// pool with a panic here, rather than with results missing).
pub(crate) fn run_on<T, U, E, P, S>(
    window: usize,
    produce: P,
    work: Arc<dyn Fn(T) -> U + Send + Sync>,
    executor: &dyn super::Executor,
    mut sink: S,
) -> Result<(), E>
where
    T: Send + 'static,
    U: Send + 'static,
    P: FnOnce(&mut Sender<T>) + Send,
    S: FnMut(U) -> Result<(), E>,
{
    let window = window.max(2);
    let cancel = Arc::new(AtomicBool::new(false));
    let (task_tx, task_rx) = sync_channel::<(u64, T)>(window);
    let (permit_tx, permit_rx) = sync_channel::<()>(window);
    for _ in 0..window {
        permit_tx.send(()).expect("the permits fit the channel");
    }
    let (result_tx, result_rx) = channel::<(u64, thread::Result<U>)>();
    let mut failure = None;
    let mut outcome = Ok(());
    let mut sent = 0u64;
    let mut next = 0u64;
    thread::scope(|s| {
        let mut sender = Sender {
            tasks: task_tx,
            permits: permit_rx,
            seq: 0,
            cancel: Arc::clone(&cancel),
        };
        let producer = s.spawn(move || produce(&mut sender));
        let dispatcher = {
            let cancel = Arc::clone(&cancel);
            s.spawn(move || {
                let mut sent = 0u64;
                for (seq, item) in task_rx.iter() {
                    sent += 1;
                    let (work, cancel) = (Arc::clone(&work), Arc::clone(&cancel));
                    let mut result = Unrun {
                        seq,
                        tx: Some(result_tx.clone()),
                    };
                    // (a job runs whole even once the pool is cancelled: at most a window's
                    // worth of work is done for nothing)
                    executor.execute(Box::new(move || {
                        let done = catch_unwind(AssertUnwindSafe(|| work(item)));
                        let failed = done.is_err();
                        let tx = result.tx.take().expect("a job runs once");
                        if tx.send((seq, done)).is_err() || failed {
                            cancel.store(true, Ordering::Relaxed);
                        }
                    }));
                }
                sent
            })
        };
        next = merge_in_order(
            &result_rx,
            &permit_tx,
            &mut sink,
            &mut outcome,
            &mut failure,
        );
        // stop the producer (its next send fails); the dispatcher ends with it
        cancel.store(true, Ordering::Relaxed);
        drop(permit_tx);
        if let Err(panic) = producer.join() {
            failure.get_or_insert(panic);
        }
        match dispatcher.join() {
            Ok(n) => sent = n,
            Err(panic) => {
                failure.get_or_insert(panic);
            }
        }
        // the jobs still out run to their end (each holds a result sender): wait for them
        // here, so that none outlives the pool's borrows
        for _ in result_rx.iter() {}
    });
    if let Some(panic) = failure {
        resume_unwind(panic);
    }
    // every result handed on, unless the sink stopped the pool
    debug_assert!(outcome.is_err() || next == sent, "{next} of {sent} results");
    outcome
}

/// The merge of [`run`] and [`run_on`]: hands the results to `sink` in sequence order as they
/// come (holding those that come early), giving a permit back for each; ends at the first error
/// of `sink` (in `outcome`) or panic of a job (in `failure`), or when the results end. Returns
/// how many results went to `sink`.
fn merge_in_order<U, E>(
    results: &Receiver<(u64, thread::Result<U>)>,
    permits: &SyncSender<()>,
    sink: &mut impl FnMut(U) -> Result<(), E>,
    outcome: &mut Result<(), E>,
    failure: &mut Option<Box<dyn core::any::Any + Send + 'static>>,
) -> u64 {
    let mut next = 0u64;
    let mut held = BTreeMap::new();
    for (seq, done) in results.iter() {
        held.insert(seq, done);
        while let Some(done) = held.remove(&next) {
            next += 1;
            match done {
                Ok(u) => {
                    if let Err(e) = sink(u) {
                        *outcome = Err(e);
                        return next;
                    }
                }
                Err(panic) => {
                    *failure = Some(panic);
                    return next;
                }
            }
            let _ = permits.send(());
        }
    }
    next
}

/// A job's way back: dropped unrun (an executor that broke its word), it hands on a panic in
/// the job's place, so that the pool ends raising it rather than waiting for a result forever.
struct Unrun<U> {
    seq: u64,
    tx: Option<std::sync::mpsc::Sender<(u64, thread::Result<U>)>>,
}

impl<U> Drop for Unrun<U> {
    fn drop(&mut self) {
        if let Some(tx) = self.tx.take() {
            let why: Box<dyn std::any::Any + Send> =
                Box::new("kifu::par: an executor dropped a job unrun");
            let _ = tx.send((self.seq, Err(why)));
        }
    }
}

/// Maps `items` through `work` on `threads` threads and hands the results to `sink` in the
/// order of the items, on the calling thread. At most `2 * threads + 2` items are in flight.
/// With one thread everything runs on the calling thread, item by item.
///
/// The first error `sink` returns stops the map (items not yet taken are not worked on) and is
/// returned. For a set of inputs (files, archive members) that each go to one visitor:
///
/// ```
/// use kifu::pgn;
///
/// let files: Vec<&[u8]> = vec![b"1. e4 e5 *", b"1. d4 *\n\n1. c4 *", b"1. Nf3 *"];
/// let mut games = Vec::new();
/// kifu::par::map_ordered(
///     2,
///     files.into_iter(),
///     |bytes| pgn::games(bytes).count(),
///     |n| -> Result<(), ()> {
///         games.push(n);
///         Ok(())
///     },
/// )
/// .unwrap();
/// assert_eq!(games, [1, 2, 1]);
/// ```
pub fn map_ordered<T, U, E>(
    threads: usize,
    items: impl Iterator<Item = T> + Send,
    work: impl Fn(T) -> U + Sync,
    mut sink: impl FnMut(U) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
    U: Send,
{
    if threads <= 1 {
        for item in items {
            sink(work(item))?;
        }
        return Ok(());
    }
    run(
        threads,
        2 * threads + 2,
        |tx| {
            for item in items {
                if !tx.send(item) {
                    break;
                }
            }
        },
        work,
        sink,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_order_whatever_the_timing() {
        let items: Vec<u64> = (0..200).collect();
        let mut got = Vec::new();
        map_ordered(
            4,
            items.clone().into_iter(),
            |i| {
                // later items finish first
                thread::sleep(std::time::Duration::from_micros((200 - i) * 20));
                i * 2
            },
            |u| -> Result<(), ()> {
                got.push(u);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(got, items.iter().map(|i| i * 2).collect::<Vec<_>>());
    }

    #[test]
    fn a_sink_error_stops_the_map() {
        let taken = std::sync::atomic::AtomicU64::new(0);
        let mut seen = 0;
        let r = map_ordered(
            2,
            0..1_000_000u64,
            |i| {
                taken.fetch_add(1, Ordering::Relaxed);
                i
            },
            |i| {
                seen += 1;
                if i == 10 { Err("enough") } else { Ok(()) }
            },
        );
        assert_eq!(r, Err("enough"));
        assert_eq!(seen, 11);
        // only the window's worth past the failure was worked on
        assert!(taken.load(Ordering::Relaxed) < 100);
    }

    #[test]
    #[should_panic(expected = "bad item")]
    fn a_panic_of_the_work_is_raised_again() {
        let _ = map_ordered(
            3,
            0..100u32,
            |i| {
                if i == 7 {
                    panic!("bad item");
                }
                i
            },
            |_| -> Result<(), ()> { Ok(()) },
        );
    }

    /// Runs each job at once, on the thread that hands it over.
    struct Inline;
    impl crate::par::Executor for Inline {
        fn execute(&self, job: crate::par::Job) {
            job();
        }
    }

    /// Drops every job.
    struct Careless;
    impl crate::par::Executor for Careless {
        fn execute(&self, _job: crate::par::Job) {}
    }

    #[test]
    fn an_executor_runs_the_work_and_the_results_come_in_order() {
        let mut got = Vec::new();
        let r = run_on(
            4,
            |tx| {
                for i in 0..100u64 {
                    if !tx.send(i) {
                        break;
                    }
                }
            },
            Arc::new(|i: u64| i * 3),
            &Inline,
            |u| -> Result<(), ()> {
                got.push(u);
                Ok(())
            },
        );
        assert_eq!(r, Ok(()));
        assert_eq!(got, (0..100).map(|i| i * 3).collect::<Vec<_>>());
    }

    #[test]
    #[should_panic(expected = "dropped a job unrun")]
    fn a_job_dropped_unrun_is_a_panic_not_a_gap() {
        let _ = run_on(
            4,
            |tx| {
                for i in 0..10u64 {
                    if !tx.send(i) {
                        break;
                    }
                }
            },
            Arc::new(|i: u64| i),
            &Careless,
            |_| -> Result<(), ()> { Ok(()) },
        );
    }

    #[test]
    fn one_thread_runs_inline() {
        let me = thread::current().id();
        let mut n = 0;
        map_ordered(
            1,
            0..5,
            |i| {
                assert_eq!(thread::current().id(), me);
                i
            },
            |_| -> Result<(), ()> {
                n += 1;
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(n, 5);
    }
}
