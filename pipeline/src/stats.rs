//! The counts of `kifu stats` and `kifu.stats`: the library's [`Stats`] per piece, added up in
//! input order, with the walk's counts and the throughput, in one shape for both frontends.

use kifu::Stats;
use kifu::par::Work;
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::{Input, WalkCounts};

/// One [`Stats`] per piece: the work of a counting scan.
#[derive(Clone, Copy, Debug, Default)]
pub struct StatsWork;

impl Work for StatsWork {
    type Input = Input;
    type Pgn = Stats;
    type Sgf = Stats;
    fn pgn(&self, _: &Input) -> Stats {
        Stats::default()
    }
    fn sgf(&self, _: &Input) -> Stats {
        Stats::default()
    }
}

/// What a counting scan found: the totals, the walk's counts, and how long it took.
///
/// Serialized, it is the object `kifu stats --json` writes and `kifu.stats` returns: `games`,
/// `tags`, `moves`, `mainline_moves`, `variation_moves`, `comments`, `nags`, `variations`,
/// `errors`, `warnings`, `nodes`, `properties`, `bytes`, `seconds`, `mb_per_s`, `inputs`,
/// `streams`, `skipped_files`, `skipped_members`, `skipped`.
#[derive(Clone, Debug, Default)]
pub struct StatsSummary {
    /// The totals over every input.
    pub stats: Stats,
    /// The walk's counts.
    pub counts: WalkCounts,
    /// Wall time of the scan.
    pub seconds: f64,
}

impl StatsSummary {
    /// Megabytes (10⁶ bytes) read a second.
    pub fn mb_per_s(&self) -> f64 {
        if self.seconds > 0.0 {
            self.stats.bytes as f64 / 1e6 / self.seconds
        } else {
            0.0
        }
    }
}

impl Serialize for StatsSummary {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = &self.stats;
        let c = &self.counts;
        let mut m = s.serialize_map(Some(20))?;
        m.serialize_entry("games", &t.games)?;
        m.serialize_entry("tags", &t.tags)?;
        m.serialize_entry("moves", &t.moves())?;
        m.serialize_entry("mainline_moves", &t.mainline_moves)?;
        m.serialize_entry("variation_moves", &t.variation_moves)?;
        m.serialize_entry("comments", &t.comments)?;
        m.serialize_entry("nags", &t.nags)?;
        m.serialize_entry("variations", &t.variations)?;
        m.serialize_entry("errors", &t.errors)?;
        m.serialize_entry("warnings", &t.warnings)?;
        m.serialize_entry("nodes", &t.nodes)?;
        m.serialize_entry("properties", &t.properties)?;
        m.serialize_entry("bytes", &t.bytes)?;
        m.serialize_entry("seconds", &self.seconds)?;
        m.serialize_entry("mb_per_s", &self.mb_per_s())?;
        m.serialize_entry("inputs", &c.inputs)?;
        m.serialize_entry("streams", &c.streams)?;
        m.serialize_entry("skipped_files", &c.skipped_files)?;
        m.serialize_entry("skipped_members", &c.skipped_members)?;
        m.serialize_entry("skipped", &c.skipped)?;
        m.end()
    }
}

impl crate::Scan<'_> {
    /// Counts every event of the source: the scan of `kifu stats`.
    ///
    /// # Errors
    ///
    /// None of the scan's own (an input that cannot be read is in the [`Scanned`](crate::Scanned)).
    ///
    /// ```
    /// use kifu_pipeline::{Formats, Scan, Source};
    ///
    /// let sgf = b"(;GM[1]SZ[9];B[ee];W[cc])".to_vec();
    /// let scan = Scan::new(Source::Bytes { name: "g.sgf".into(), data: sgf }, Formats::ANY);
    /// let (summary, scanned) = scan.stats(|_| {}).unwrap();
    /// assert_eq!((summary.stats.games, summary.stats.mainline_moves), (1, 2));
    /// assert_eq!(serde_json::to_value(&summary).unwrap()["streams"], 1);
    /// assert!(!scanned.failed());
    /// ```
    pub fn stats(
        self,
        note: impl FnMut(crate::Note),
    ) -> std::io::Result<(StatsSummary, crate::Scanned)> {
        let start = std::time::Instant::now();
        let mut total = Stats::default();
        let scanned = self.run(
            &StatsWork,
            |event| {
                match event {
                    kifu::par::Event::Piece { visited, .. } => {
                        let (kifu::par::Visited::Pgn(s) | kifu::par::Visited::Sgf(s)) = visited;
                        total.add(&s);
                    }
                    kifu::par::Event::End { bytes, .. } => total.bytes += bytes,
                }
                Ok::<(), std::io::Error>(())
            },
            note,
        )?;
        let summary = StatsSummary {
            stats: total,
            counts: scanned.counts.clone(),
            seconds: start.elapsed().as_secs_f64(),
        };
        Ok((summary, scanned))
    }
}
