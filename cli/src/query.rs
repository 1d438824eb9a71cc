//! The query flags of `kifu find` and `kifu explore` (and the ply bounds `kifu export` shares):
//! the forms of docs/search.md, read into a [`Query`].

use std::io;

use kifu_pipeline::find::{ChessSpec, Names, Query};
// the most bytes of a `--go-pattern` file read: the pipeline's bound, shared with Python
use kifu_pipeline::go_find::{MAX_GO_PATTERN_BYTES, read_pattern_file};
use kifu_replay::go::{Anchor, Pattern};

/// What to look for (`kifu find`, `kifu explore`): the forms of docs/search.md.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct QueryArgs {
    /// An exact position: a FEN or an EPD (pieces, side to move, castling, a legal en passant
    /// square; the move counters do not matter). Transpositions are found.
    #[arg(long, value_name = "FEN", help_heading = "Query")]
    pub fen: Option<String>,
    /// A piece pattern: a FEN board part whose pieces must stand on their squares, an empty
    /// square meaning "any" (Scoutfish's sub-fen) and `_` a square that must be empty,
    /// optionally followed by `w` or `b`.
    #[arg(long, value_name = "BOARD", help_heading = "Query")]
    pub subfen: Option<String>,
    /// A material signature: `KRPkr` (exactly), or terms with bounds: `Q+` (at least a white
    /// queen), `[BN]2+` (White: two minor pieces or more), `r2-`, `P>=5`, `q=0`.
    #[arg(long, value_name = "SIG", help_heading = "Query")]
    pub material: Option<String>,
    /// Then this position, after the one before (repeat for more steps): `fen:FEN`,
    /// `subfen:BOARD` or `material:SIG`, several joined by ` & `.
    #[arg(long, value_name = "STEP", help_heading = "Query")]
    pub then: Vec<String>,
    /// After a --then: its step within N plies of the step before it (default: any later
    /// ply); one for each --then that needs a bound.
    #[arg(long, value_name = "N", requires = "then", help_heading = "Query")]
    pub within: Vec<u32>,
    /// For each --within, how many --then come before it on the command line
    /// ([`pair_within`](QueryArgs::pair_within); empty: the --within go to the --then in
    /// order).
    #[arg(skip)]
    pub within_after: Vec<usize>,
    /// Positions after at least N plies (0: the start).
    #[arg(long, value_name = "N", help_heading = "Query")]
    pub min_ply: Option<u32>,
    /// Positions after at most N plies.
    #[arg(long, value_name = "N", help_heading = "Query")]
    pub max_ply: Option<u32>,
    /// Search the variations too (default: the main line only).
    #[arg(long, help_heading = "Query")]
    pub variations: bool,
    /// A Go pattern: a file of rows of `X` (black), `O` (white), `.` (empty) and `?` (any), as
    /// GNU Go's pattern files write them (a GNU Go file itself, its drawn edge the anchor), or
    /// an SGF file whose final position is a whole-board
    /// pattern; found on every position of SGF games' main lines under the 8 symmetries
    /// (docs/search.md § Go patterns).
    #[arg(long, value_name = "FILE", help_heading = "Go query",
          conflicts_with_all = ["fen", "subfen", "material", "then", "min_ply", "max_ply", "variations"])]
    pub go_pattern: Option<std::path::PathBuf>,
    /// Where the Go pattern may stand: `corner` (its upper-left point on a corner point of the
    /// board), `edge` (its top row along an edge) or `anywhere` (the default).
    #[arg(long, value_name = "WHERE", requires = "go_pattern", help_heading = "Go query",
          value_parser = ["corner", "edge", "anywhere"])]
    pub anchor: Option<String>,
    /// Find the Go pattern with black and white exchanged too.
    #[arg(long, requires = "go_pattern", help_heading = "Go query")]
    pub swap_colors: bool,
    /// Build every game before searching it, as before the event search (for tests and
    /// benchmarks: the same answer, slower).
    #[arg(long, hide = true)]
    pub dom_search: bool,
}

/// A usage error (exit status 2).
fn usage(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// `--min-ply` past `--max-ply`: no position could be searched (`kifu find`, `kifu explore`,
/// `kifu export`).
pub fn check_plies(min_ply: Option<u32>, max_ply: Option<u32>) -> io::Result<()> {
    kifu_pipeline::find::check_plies(min_ply, max_ply).map_err(usage)
}

impl QueryArgs {
    /// The query the flags give; an error when none is given or one cannot be read.
    pub fn query(&self) -> io::Result<Query> {
        // clap's `requires` does not fire when a chess flag conflicting with --go-pattern is
        // given: checked here
        if self.go_pattern.is_none() {
            if let Some(a) = &self.anchor {
                return Err(usage(format!(
                    "--anchor {a} places a Go pattern: give --go-pattern FILE"
                )));
            }
            if self.swap_colors {
                return Err(usage(
                    "--swap-colors exchanges a Go pattern's colours: give --go-pattern FILE".into(),
                ));
            }
        }
        if let Some(path) = &self.go_pattern {
            return self.go_pattern(path).map(Query::Go);
        }
        if self.fen.is_none() && self.subfen.is_none() && self.material.is_none() {
            return Err(usage(
                "no query: give --fen FEN, --subfen BOARD, --material SIG or --go-pattern FILE \
                 (docs/search.md)"
                    .into(),
            ));
        }
        // --min-ply past --max-ply: refused by the spec (kifu_pipeline::find::check_plies)
        let spec = ChessSpec {
            fen: self.fen.clone(),
            subfen: self.subfen.clone(),
            material: self.material.clone(),
            then: self.then.clone(),
            within: self.within_bounds()?,
            min_ply: self.min_ply,
            max_ply: self.max_ply,
            variations: self.variations,
        };
        spec.query()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))
    }

    /// Records where each `--within` stands among the `--then`s of the command line `m` (the
    /// matches of `kifu find` or `kifu explore`): each bounds the step of the `--then` before it.
    pub fn pair_within(&mut self, m: &clap::ArgMatches) {
        let thens: Vec<usize> = m
            .indices_of("then")
            .map(Iterator::collect)
            .unwrap_or_default();
        self.within_after = m
            .indices_of("within")
            .map(|w| {
                w.map(|at| thens.iter().filter(|&&t| t < at).count())
                    .collect()
            })
            .unwrap_or_default();
    }

    /// Per `--then`, the bound its `--within` gives (`None` without one).
    fn within_bounds(&self) -> io::Result<Vec<Option<u32>>> {
        let mut bounds = vec![None; self.then.len()];
        let paired = self.within_after.len() == self.within.len();
        for (i, &n) in self.within.iter().enumerate() {
            let after = if paired { self.within_after[i] } else { i + 1 };
            if after == 0 {
                return Err(usage(format!(
                    "--within {n} comes before any --then: it bounds the step of the --then \
                     before it (`--then STEP --within N`)"
                )));
            }
            match bounds.get_mut(after - 1) {
                Some(b @ None) => *b = Some(n),
                Some(Some(m)) => {
                    return Err(usage(format!(
                        "--within {m} and --within {n} after one --then: one bound a step"
                    )));
                }
                None => {
                    return Err(usage(format!(
                        "--within {n}: no --then for it (each --within bounds the step of the \
                         --then before it)"
                    )));
                }
            }
        }
        Ok(bounds)
    }

    /// Notes on the query for stderr ([`query_notes`](kifu_pipeline::find::query_notes), in
    /// the command line's names).
    pub fn notes(&self, query: &Query) -> Vec<String> {
        kifu_pipeline::find::query_notes(self.fen.as_deref(), &self.then, query, Names::CLI)
    }

    /// The Go pattern of `--go-pattern FILE`, with its anchor and colour swap.
    fn go_pattern(&self, path: &std::path::Path) -> io::Result<Pattern> {
        let bad = |e: String| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("--go-pattern {}: {e}", path.display()),
            )
        };
        let text = read_pattern_file(path).map_err(|e| bad(e.to_string()))?;
        let Some(text) = text else {
            return Err(bad(format!(
                "more than {} bytes: not a pattern (at most 52x52 points or one SGF game)",
                MAX_GO_PATTERN_BYTES
            )));
        };
        let sgf = path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("sgf"));
        let pattern = if sgf {
            Pattern::from_sgf(&text)
        } else {
            let text = std::str::from_utf8(&text).map_err(|_| bad("not UTF-8 text".into()))?;
            Pattern::parse(text)
        }
        .map_err(|e| bad(e.to_string()))?;
        // the anchor a GNU Go file draws (its board edge) unless --anchor says one
        let anchor: Option<Anchor> = self
            .anchor
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(bad)?;
        let pattern = pattern
            .with_anchor_asked(anchor)
            .map_err(|e| bad(format!("{e} (--anchor)")))?;
        Ok(pattern.swap_colors(self.swap_colors))
    }
}

/// The note for a search whose inputs held games but none of the query's format (`go`: a Go
/// pattern, else a chess query; `saw`: a piece of its format was read): a Go pattern over PGN
/// games only, a chess query over SGF games only, which match nothing; `None` otherwise.
pub fn format_note(go: bool, games: u64, saw: bool) -> Option<String> {
    if saw || games == 0 {
        return None;
    }
    let (what, format) = if go {
        ("a Go pattern", "SGF")
    } else {
        ("a chess query", "PGN")
    };
    Some(format!(
        "note: {what} searches {format} games: the inputs held {games} game{}, none of them {format}",
        if games == 1 { "" } else { "s" }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fen_without_its_castling_field_gets_a_note() {
        let board = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR";
        let q = QueryArgs {
            fen: Some(format!("{board} b")),
            then: vec![
                format!("fen:{board} w KQkq - & material:Q"),
                format!("fen:{board}"),
            ],
            ..QueryArgs::default()
        };
        let notes = q.notes(&Query::Go(kifu_replay::go::Pattern::parse("X").unwrap()));
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[0].contains(&format!("read as `{board} b - -`")),
            "{}",
            notes[0]
        );
        assert!(
            notes[0].contains(&format!("--subfen {board}")),
            "{}",
            notes[0]
        );
        assert!(notes[1].starts_with("note: --then fen:"), "{}", notes[1]);
        assert!(notes[1].contains("side to move"), "{}", notes[1]);
        // a Go pattern no 19x19 board holds
        let wide = Pattern::parse(&".".repeat(20)).unwrap();
        let q = QueryArgs::default();
        let notes = q.notes(&Query::Go(wide));
        assert!(
            notes[0].starts_with("warning: the Go pattern is 20x1"),
            "{notes:?}"
        );
        let fits = Pattern::parse(&".".repeat(19)).unwrap();
        assert!(q.notes(&Query::Go(fits)).is_empty());
        // a whole FEN, with or without counters or EPD operations: no note
        for fen in [
            format!("{board} b KQkq -"),
            format!("{board} b KQkq e3 0 1"),
        ] {
            let q = QueryArgs {
                fen: Some(fen),
                ..QueryArgs::default()
            };
            assert!(q.notes(&Query::Go(Pattern::parse("X").unwrap())).is_empty());
        }
    }
}
