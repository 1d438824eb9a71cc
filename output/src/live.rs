//! The temporary files and directories of the process, removed when it is interrupted.
//!
//! Each temporary is created and entered here under one lock, and leaves only after it was
//! renamed into place or removed; the removal on interrupt takes the same lock and never
//! gives it back (the process ends), so that no temporary is created, renamed or forgotten
//! half-way through it.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

/// A temporary: a file, or a directory removed with what it holds.
#[derive(Debug)]
pub(crate) struct Temporary {
    pub(crate) path: PathBuf,
    pub(crate) dir: bool,
}

#[derive(Default)]
pub(crate) struct Live {
    next: u64,
    by_id: BTreeMap<u64, Temporary>,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    next: 0,
    by_id: BTreeMap::new(),
});

/// The registry, locked (a panic elsewhere does not make it unusable).
pub(crate) fn lock() -> MutexGuard<'static, Live> {
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Live {
    /// Enters a temporary; its id, for [`Live::forget`].
    pub(crate) fn enter(&mut self, t: Temporary) -> u64 {
        self.next += 1;
        self.by_id.insert(self.next, t);
        self.next
    }

    /// Forgets a temporary (renamed into place, or removed).
    pub(crate) fn forget(&mut self, id: u64) {
        self.by_id.remove(&id);
    }

    /// Removes every temporary still entered.
    fn remove_all(&mut self) {
        for t in std::mem::take(&mut self.by_id).into_values() {
            let _ = if t.dir {
                fs::remove_dir_all(&t.path)
            } else {
                fs::remove_file(&t.path)
            };
        }
    }
}

/// Removes every temporary file and directory this process has open for its outputs, then
/// ends the process with `code`. For a signal handler of the embedding program (the `signals`
/// feature installs one). Outputs being renamed into place finish first.
pub fn remove_temporaries_and_exit(code: i32) -> ! {
    let mut live = lock();
    live.remove_all();
    // the lock is kept: nothing is created or renamed any more
    std::mem::forget(live);
    std::process::exit(code)
}

/// Starts a thread that waits for SIGINT, SIGTERM and SIGHUP: on one, it removes every
/// temporary file and directory of the process's outputs and lets the signal end the
/// process as it would have (its exit status says which signal). Call it once, early in
/// `main`.
///
/// # Errors
///
/// The handlers could not be registered.
#[cfg(all(unix, feature = "signals"))]
pub fn remove_on_signal() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("kifu-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let mut live = lock();
                live.remove_all();
                std::mem::forget(live);
                // the default action of the signal: the process dies of it
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}
