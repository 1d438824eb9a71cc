//! The scan of `kifu check` and `kifu.check`: every problem of the source, located, in input
//! order, from the parser and, with `legal`, from a replay of each game on a board (chess or
//! Go); a game's problems past the first [`MAX_PROBLEMS_PER_GAME`](crate::MAX_PROBLEMS_PER_GAME)
//! counted, not listed; the games, problems and inputs counted for a summary.

use std::sync::Arc;

use kifu::par::{Event, Visited, Work};
use kifu::{Control, pgn, sgf};
use kifu_replay::chess::{self, ReplayVisitor, Replayer};
use kifu_replay::go::{self, GoReplayVisitor, GoReplayer};

use crate::{GameCount, Input, Listed, Note, Problem, Problems, Scan, Scanned};

/// A piece's problems (the first of each game listed, the rest counted) and its games: the
/// visitor of a checking scan.
#[derive(Clone, Debug)]
pub struct Found {
    file: Arc<str>,
    problems: Problems,
    games: u64,
}

impl Found {
    /// Nothing found yet in a piece of `input`.
    pub fn new(input: &Input) -> Found {
        Found {
            file: Arc::clone(&input.name),
            problems: Problems::new(),
            games: 0,
        }
    }

    /// The problems found, each game's counted from the piece's first game.
    pub fn problems(&self) -> &Problems {
        &self.problems
    }
}

impl pgn::Visitor for Found {
    fn on_tree_end(&mut self, ctx: &pgn::Context) -> Control {
        self.games += u64::from(ctx.is_main_line());
        Control::Continue
    }
    fn on_error(&mut self, e: &pgn::Error<'_>) -> Control {
        self.problems.push(Problem::pgn(&self.file, e));
        Control::Continue
    }
}

impl sgf::Visitor for Found {
    fn on_tree_end(&mut self, ctx: &sgf::Context) -> Control {
        self.games += u64::from(ctx.is_game_level());
        Control::Continue
    }
    fn on_error(&mut self, e: &sgf::Error<'_>) -> Control {
        self.problems.push(Problem::sgf(&self.file, e));
        Control::Continue
    }
}

impl ReplayVisitor for Found {
    fn on_replay_error(&mut self, e: &chess::Error<'_>) -> Control {
        self.problems.push(Problem::chess(&self.file, e));
        Control::Continue
    }
}

impl GoReplayVisitor for Found {
    fn on_go_error(&mut self, e: &go::Error<'_>) -> Control {
        self.problems.push(Problem::go(&self.file, e));
        Control::Continue
    }
}

impl GameCount for Found {
    fn games(&self) -> u64 {
        self.games
    }
}

/// A piece's visitor of a checking scan: [`Found`], alone or inside a replay.
pub trait Finds: GameCount {
    /// What it found.
    fn found(&self) -> &Found;
}

impl Finds for Found {
    fn found(&self) -> &Found {
        self
    }
}

impl Finds for Replayer<Found> {
    fn found(&self) -> &Found {
        self.inner()
    }
}

impl Finds for GoReplayer<Found> {
    fn found(&self) -> &Found {
        self.inner()
    }
}

/// The work of a checking scan: the parser's problems (and the DOM-free reading's).
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckWork;

impl Work for CheckWork {
    type Input = Input;
    type Pgn = Found;
    type Sgf = Found;
    fn pgn(&self, input: &Input) -> Found {
        Found::new(input)
    }
    fn sgf(&self, input: &Input) -> Found {
        Found::new(input)
    }
}

/// The work of a checking scan that replays each game on a board too (`kifu check --legal`):
/// illegal and ambiguous moves, bad FENs, unsupported variants (chess); occupied points, ko,
/// suicide, points off the board (Go).
#[derive(Clone, Copy, Debug, Default)]
pub struct LegalWork;

impl Work for LegalWork {
    type Input = Input;
    type Pgn = Replayer<Found>;
    type Sgf = GoReplayer<Found>;
    fn pgn(&self, input: &Input) -> Replayer<Found> {
        Replayer::new(Found::new(input))
    }
    fn sgf(&self, input: &Input) -> GoReplayer<Found> {
        GoReplayer::new(Found::new(input))
    }
}

/// What a checking scan read: the counts of `kifu check --json`'s summary.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    /// Inputs read (the streams: files, archive members).
    pub inputs: u64,
    /// Games (or game trees) read.
    pub games: u64,
    /// Problems that are errors (or fatal), the ones counted and not listed included.
    pub errors: u64,
    /// Problems that are warnings, likewise.
    pub warnings: u64,
    /// The scan's report (inputs that failed, the walk's counts).
    pub scanned: Scanned,
}

impl Checked {
    /// Problems of either severity.
    pub fn problems(&self) -> u64 {
        self.errors + self.warnings
    }
}

impl Scan<'_> {
    /// Every problem of the source, located: the scan of `kifu check` (`legal`: `--legal`,
    /// each game replayed on a board too) and `kifu.check`. `each` gets what is listed, in
    /// input order, on the calling thread, each game numbered in its input (as
    /// [`Problem::game`] says: from 0; `kifu check` shows it from 1): a game's first
    /// [`MAX_PROBLEMS_PER_GAME`](crate::MAX_PROBLEMS_PER_GAME) problems, then one
    /// [`More`](crate::More) that counts the rest. `note` hears of the inputs that held no
    /// game. An error from `each` stops the scan and is returned.
    ///
    /// # Errors
    ///
    /// The first error `each` returned. An input that cannot be read is not an error of the
    /// scan: it is in [`Checked::scanned`].
    ///
    /// ```
    /// use kifu_pipeline::{Formats, Listed, Scan, Source};
    ///
    /// let pgn = b"1. e4 e5 *\n\n1. e4 oh? e5 2. Ke3 *\n".to_vec();
    /// let source = || Source::Bytes { name: "g.pgn".into(), data: pgn.clone() };
    /// let mut found = Vec::new();
    /// let checked = Scan::new(source(), Formats::ANY)
    ///     .check(false, |l| Ok::<_, std::io::Error>(found.push(l)), |_| {})
    ///     .unwrap();
    /// assert_eq!((checked.inputs, checked.games, checked.errors, checked.warnings), (1, 2, 1, 0));
    /// let Listed::Problem(p) = &found[0] else { panic!() };
    /// assert_eq!((p.kind(), p.game()), ("unexpected_text", 1));
    /// // replayed on a board: the king's walk to e3 is illegal
    /// let checked = Scan::new(source(), Formats::ANY).check(true, |_| Ok::<_, std::io::Error>(()), |_| {}).unwrap();
    /// assert_eq!(checked.errors, 2);
    /// ```
    pub fn check<E, F, N>(self, legal: bool, each: F, note: N) -> Result<Checked, E>
    where
        E: Send,
        F: FnMut(Listed) -> Result<(), E>,
        N: FnMut(Note),
    {
        if legal {
            self.check_with(&LegalWork, each, note)
        } else {
            self.check_with(&CheckWork, each, note)
        }
    }

    fn check_with<W, E, F, N>(self, work: &W, mut each: F, note: N) -> Result<Checked, E>
    where
        W: Work<Input = Input>,
        W::Pgn: Finds,
        W::Sgf: Finds,
        E: Send,
        F: FnMut(Listed) -> Result<(), E>,
        N: FnMut(Note),
    {
        let mut checked = Checked::default();
        let scanned = self.run(
            work,
            |event| {
                match event {
                    Event::Piece { visited, info, .. } => {
                        let found = match &visited {
                            Visited::Pgn(v) => v.found(),
                            Visited::Sgf(v) => v.found(),
                        };
                        checked.games += found.games;
                        for mut listed in found.problems.iter() {
                            let (e, w) = listed.counts();
                            checked.errors += e;
                            checked.warnings += w;
                            listed.rebase(info.first_game);
                            each(listed)?;
                        }
                    }
                    Event::End { .. } => checked.inputs += 1,
                }
                Ok(())
            },
            note,
        )?;
        checked.scanned = scanned;
        Ok(checked)
    }
}
