//! What every command takes (inputs, performance tuning, limits) and what several share
//! (where games are written, the limit on one game): declared once, flattened into each
//! command's arguments (`cmd/`).

use std::path::PathBuf;

pub use kifu::Format;

/// The limit on one game, for the commands that hold whole games.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct GameLimit {
    /// The most a game may hold in memory (estimated): bytes, or with K, M, G (at least 1);
    /// the rest of a larger game is skipped and reported (`game_too_large`, SGF `E103`).
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = parse_nonzero_size_usize,
          help_heading = "Limits")]
    pub max_game_bytes: usize,
}

fn parse_nonzero_size_usize(text: &str) -> Result<usize, String> {
    parse_nonzero_size(text)
        .and_then(|n| usize::try_from(n).map_err(|_| format!("`{text}`: too large")))
}

/// A count on the command line where 0 would mean nothing (`split --games`, `stats
/// --max-groups`, `export --row-group-rows`, `--max-rows-per-file`): a number, at least 1.
pub fn parse_count(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err(format!("`{text}`: at least 1 (0 would mean nothing)")),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{text}`: a whole number, at least 1")),
    }
}

/// [`parse_count`] as a `usize`.
pub fn parse_count_usize(text: &str) -> Result<usize, String> {
    parse_count(text).and_then(|n| usize::try_from(n).map_err(|_| format!("`{text}`: too large")))
}

/// Where a command that writes games writes them.
#[derive(clap::Args, Debug, Default)]
pub struct OutputArgs {
    /// Write to FILE instead of stdout (`-`: stdout; under a temporary name until complete;
    /// never an input; a device or FIFO is written through).
    #[arg(short, long, value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,
    /// Replace FILE if it exists.
    #[arg(long, help_heading = "Output")]
    pub force: bool,
}

/// How many games a command that writes games writes at most (`-m`, as grep's).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct MaxCount {
    /// Stop after writing N games: the inputs are read no further (at least 1).
    #[arg(short = 'm', long = "max-count", value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..), help_heading = "Output")]
    pub max_count: Option<u64>,
}

/// `--color`: when to colour what kifu prints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// When the stream is a terminal and the environment does not set `NO_COLOR`.
    #[default]
    Auto,
    /// Always (a pager that shows colours: `kifu check --color always … | less -R`).
    Always,
    /// Never.
    Never,
}

impl ColorWhen {
    /// Whether to colour what goes to a stream that is a terminal or not (`terminal`).
    pub fn on(self, terminal: bool) -> bool {
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                terminal
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }
}

/// The default `--frame-buffer`, the pipeline's: 4 MiB. Two threads decoding pzstd frames each
/// that far ahead keep both cores busy (one decoder runs beside the parsing), while peak memory
/// stays near that of one thread (64 MiB, kifu-input's default, held whole frames of 16-32 MiB
/// ahead: 160 MiB on a 1 GB lichess-style stream).
pub const DEFAULT_FRAME_BUFFER: u64 = kifu_pipeline::ScanOptions::DEFAULT_FRAME_BUFFER as u64;

/// What every command takes.
#[derive(clap::Args, Debug, Default)]
pub struct Common {
    /// Files, directories (every .pgn and .sgf below, compressed and archived ones too) and
    /// archives (.zip, .tar, .tar.gz, .tgz, .tar.bz2, .tar.xz, .tar.zst); `-` for stdin.
    /// Compression is told from the bytes (zstd, gzip, bzip2, xz).
    #[arg(help_heading = "Input")]
    pub files: Vec<PathBuf>,
    /// Threads (default, or 0: the machine's cores). With 1, each input is read straight
    /// through; with more, inputs in parallel and large ones in pieces: the output is the same.
    #[arg(
        short = 'j',
        long = "threads",
        value_name = "N",
        help_heading = "Performance tuning"
    )]
    pub threads: Option<usize>,
    /// About how many bytes each piece of a large input holds when read on several threads
    /// (at least 1; default 1M, and 256K for `json`, `--to jsonl` and `export --table
    /// positions`, whose lines and rows take many times the bytes of their games).
    #[arg(long, value_name = "SIZE", value_parser = parse_nonzero_size_usize,
          help_heading = "Performance tuning")]
    pub piece_size: Option<usize>,
    /// Bytes read at a time (down to 1; K, M, G suffixes).
    #[arg(long, value_name = "SIZE", default_value = "64K", value_parser = parse_nonzero_size,
          help_heading = "Performance tuning")]
    pub buffer_size: u64,
    /// Decoded bytes of each independent frame (pzstd) or stream (pbzip2) that a decoding
    /// thread may hold ahead of the reader; larger frames are decoded ahead only this far.
    #[arg(long, value_name = "SIZE", default_value = "4M", value_parser = parse_nonzero_size,
          help_heading = "Performance tuning")]
    pub frame_buffer: u64,
    /// The most memory one decoder may take for what an input asks (a zstd window, an xz
    /// dictionary): a larger one is refused, named as the limit; one as large is taken. Bytes,
    /// or with a suffix: K, M, G (powers of 1024; at least 1). `zstd --long=31` archives need
    /// 2G.
    #[arg(long, value_name = "SIZE", default_value = "128M", value_parser = parse_nonzero_size,
          help_heading = "Limits")]
    pub decoder_memory: u64,
    /// The format of stdin (and of inputs whose name does not say): pgn or sgf.
    #[arg(long, value_parser = format_parser(), help_heading = "Input")]
    pub format: Option<Format>,
    /// Quiet: no progress bar, no summary, no problem lines; `check -q` prints nothing (its
    /// exit status answers). What explains an exit status of 1 or 2 is still said.
    #[arg(short, long)]
    pub quiet: bool,
    /// When to colour the problems' places and severities: auto (when the stream they go to
    /// is a terminal and NO_COLOR is not set), always, never.
    #[arg(
        long,
        value_name = "WHEN",
        value_enum,
        default_value_t,
        help_heading = "Output"
    )]
    pub color: ColorWhen,
    /// Read the embedded sample (3 games, one of them sloppy on purpose) instead of any input.
    /// It is also read when no input is named and stdin is a terminal; an empty or piped stdin
    /// is read as it is (no game from nowhere).
    #[arg(long, help_heading = "Input")]
    pub sample: bool,
}

/// The most threads `-j` gives, per core of the machine (and at least [`MIN_THREAD_CAP`]).
pub const THREADS_PER_CORE: usize = 8;
/// The cap on `-j` is never below this.
pub const MIN_THREAD_CAP: usize = 16;

impl Common {
    /// What `kifu` alone reads: the embedded sample, with the defaults.
    pub fn sample() -> Common {
        Common {
            buffer_size: 64 * 1024,
            frame_buffer: DEFAULT_FRAME_BUFFER,
            piece_size: None,
            decoder_memory: 128 << 20,
            sample: true,
            ..Common::default()
        }
    }

    /// The threads to use: `-j`, at most [`THREADS_PER_CORE`] per core (at least
    /// [`MIN_THREAD_CAP`]); the machine's cores by default.
    pub fn threads(&self) -> usize {
        let cores = kifu::par::cores();
        match self.threads.filter(|&n| n > 0) {
            None => cores,
            Some(n) => n.min(thread_cap(cores)),
        }
    }

    /// Says on stderr (unless `--quiet`) when `-j` asked for more threads than the cap.
    pub fn note_threads(&self) {
        let cores = kifu::par::cores();
        if let Some(n) = self.threads
            && n > thread_cap(cores)
            && !self.quiet
        {
            eprintln!(
                "kifu: -j {n}: using {} threads ({THREADS_PER_CORE} per core on this machine's {cores}, at least {MIN_THREAD_CAP})",
                thread_cap(cores)
            );
        }
    }
}

/// A size on the command line: bytes, or a number with `K`, `M`, `G` (or `KiB`, `MiB`, `GiB`;
/// powers of 1024), as `128M`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("`{text}`: a size is a number of bytes, or with K, M or G"))?;
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return Err(format!("`{text}`: the unit is K, M or G")),
    };
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}`: too large"))
}

/// A size (as [`parse_size`]) of at least 1 byte.
pub fn parse_nonzero_size(text: &str) -> Result<u64, String> {
    match parse_size(text)? {
        0 => Err(format!("`{text}`: at least 1")),
        n => Ok(n),
    }
}

/// The most threads on a machine of `cores` cores.
fn thread_cap(cores: usize) -> usize {
    cores.saturating_mul(THREADS_PER_CORE).max(MIN_THREAD_CAP)
}

/// `--format pgn|sgf`: the library's one [`Format`], its names the possible values.
fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Format::ALL.map(Format::name))
        .map(|name| name.parse::<Format>().expect("one of the possible values"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_written_as_sizes_are_the_constants() {
        assert_eq!(
            parse_size("64M").unwrap(),
            kifu::pgn::GameBuilder::DEFAULT_MAX_GAME_BYTES as u64
        );
        assert_eq!(
            parse_size("64M").unwrap(),
            kifu::sgf::TreeBuilder::DEFAULT_MAX_GAME_BYTES as u64
        );
        assert_eq!(parse_size("4M").unwrap(), DEFAULT_FRAME_BUFFER);
        assert_eq!(
            parse_size("1M").unwrap(),
            kifu::par::Options::DEFAULT_PIECE_SIZE as u64
        );
        assert_eq!(
            parse_size("128M").unwrap(),
            kifu_input::Options::default().decoder_memory_limit as u64
        );
    }

    #[test]
    fn sizes_take_suffixes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("128M"), Ok(128 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("64KiB"), Ok(64 << 10));
        assert!(parse_size("12X").is_err());
        assert!(parse_size("M").is_err());
        assert!(parse_size("99999999999G").is_err());
    }

    #[test]
    fn counts_and_limits_are_at_least_1() {
        assert_eq!(parse_count("3"), Ok(3));
        assert!(parse_count("0").unwrap_err().contains("at least 1"));
        assert!(parse_count("-1").is_err());
        assert!(parse_count("x").is_err());
        assert_eq!(parse_count_usize("122880"), Ok(122_880));
        assert!(parse_count_usize("0").is_err());
        assert!(parse_nonzero_size("0K").is_err());
        assert!(parse_nonzero_size_usize("0").is_err());
        assert_eq!(parse_nonzero_size_usize("1K"), Ok(1024));
    }
}
