//! `kifu split`: the games into files of N games each, or one file per value of a tag (PGN) or
//! root property (SGF), named from a template, in a directory. Every file is written under a
//! temporary name and renamed into place at the end; none of them may exist (or be an input)
//! unless `--force`.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use kifu::par::{Event, Visited};
use kifu::{pgn, sgf};

use crate::args::{Common, GameLimit, MaxCount};
use crate::out::{Guard, Output};
use crate::render::{Rendered, To};
use crate::run::{self, Budget, Outcome};
use kifu_pipeline::Input;
use kifu_pipeline::group::By as GroupBy;
use kifu_pipeline::keys::{Bounded, cut};
use kifu_pipeline::{DomScope, DomWork, PerGame};

/// Write the games into files of N games each (`--games`) or one file per value of a tag or
/// root property (`--by ECO`, `--by Event`, `--by year`), in a directory.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    /// The directory the files go to (made if missing).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub dir: PathBuf,
    /// N games per file (at least 1).
    #[arg(
        long,
        value_name = "N",
        value_parser = crate::args::parse_count,
        conflicts_with = "by",
        required_unless_present = "by"
    )]
    pub games: Option<u64>,
    /// One file per value of this key: a tag (PGN) or root property (SGF), or a derived key
    /// (`year`, `month`, `speed`, `tc_base`, `opening_eco`, `plies`, `result`, `winner`, …; the
    /// keys of `kifu filter -w` and `kifu stats --by`).
    #[arg(long, value_name = "NAME", value_parser = GroupBy::parse)]
    pub by: Option<GroupBy>,
    /// File name template: {num} (the file number, 0001 on), {value} (the value, made safe
    /// for a file name), {ext}. Default: part-{num}.{ext} with --games, {value}.{ext} with
    /// --by.
    #[arg(long, value_name = "TEMPLATE")]
    pub name: Option<String>,
    /// Replace files that exist already.
    #[arg(long)]
    pub force: bool,
    /// The form of the games written.
    #[arg(long, value_enum, default_value_t)]
    pub to: To,
    #[command(flatten)]
    pub max: MaxCount,
    #[command(flatten)]
    pub limit: GameLimit,
}

/// `kifu split`.
pub fn run(args: Args) -> io::Result<ExitCode> {
    crate::run::warn_near_misses(args.common.quiet, args.by.as_ref().map(|b| b.key()));
    let by = match (args.games, args.by) {
        (Some(n), _) => By::Count(n),
        (_, Some(name)) => By::Value(name),
        _ => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "--games N (at least 1) or --by NAME",
            ));
        }
    };
    let opts = Options {
        dir: args.dir,
        by,
        name: args.name,
        to: args.to,
        max_game_bytes: args.limit.max_game_bytes,
        max_count: args.max.max_count,
    };
    command(&args.common, opts, args.force)
}

/// How games are shared out among files.
#[derive(Clone, Debug)]
pub enum By {
    /// N games per file.
    Count(u64),
    /// One file per value of this key (a tag or root property, or a derived key: the keys of
    /// `kifu stats --by`).
    Value(GroupBy),
}

/// What `kifu split` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The directory the files go to (made if missing).
    pub dir: PathBuf,
    /// How games are shared out.
    pub by: By,
    /// The file name template: `{num}` (the file's number, from 0001; `{n}` is the same),
    /// `{value}` (the tag's value, made safe for a file name), `{ext}` (`pgn`, `sgf` or
    /// `jsonl`).
    pub name: Option<String>,
    /// The form of the games written.
    pub to: To,
    /// The DOM builders' limit on one game.
    pub max_game_bytes: usize,
    /// `-m`: the most games written.
    pub max_count: Option<u64>,
}

/// At most this many files open at once; the others are parked (closed, reopened to append).
const OPEN_FILES: usize = 128;

/// A piece's games, written, each with the value it is split by (kept bounded) and its
/// extension.
pub struct Sorted {
    rendered: Rendered,
    keys: Vec<(Bounded, &'static str)>,
    by: Arc<By>,
    jsonl: bool,
}

impl PerGame for Sorted {
    fn pgn(&mut self, game: pgn::Game) -> Option<pgn::Game> {
        let value = match &*self.by {
            By::Count(_) => Bounded::default(),
            By::Value(key) => Bounded::of(&key.value(&game).unwrap_or_default()),
        };
        self.keys
            .push((value, if self.jsonl { "jsonl" } else { "pgn" }));
        self.rendered.pgn(&game);
        Some(game)
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        let value = match &*self.by {
            By::Count(_) => Bounded::default(),
            By::Value(key) => Bounded::of(&key.value(&tree).unwrap_or_default()),
        };
        self.keys
            .push((value, if self.jsonl { "jsonl" } else { "sgf" }));
        self.rendered.sgf(&tree);
    }
}

/// The most bytes of a value in a file name: with the template's text, the extension and the
/// hidden temporary name's additions, well within the 255 bytes file systems allow.
const MAX_VALUE_BYTES: usize = 100;

/// Names Windows reserves for devices, whatever the extension and case (the superscript
/// digits `¹ ² ³` count as digits there).
const RESERVED: [&str; 30] = [
    "CON", "PRN", "AUX", "NUL", "COM0", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7",
    "COM8", "COM9", "COM¹", "COM²", "COM³", "LPT0", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6",
    "LPT7", "LPT8", "LPT9", "LPT¹", "LPT²", "LPT³",
];

/// A value made safe for a file name: letters, digits, `-`, `_`, `.` kept (a leading or
/// trailing `.` not), every other character `_`; at most [`MAX_VALUE_BYTES`] bytes, cut at a
/// character boundary; a name Windows reserves (`CON`, `nul`, `com1`…) gets a leading `_`;
/// `unknown` for an empty value.
fn safe(value: &str) -> String {
    let s: String = value
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let s = cut(s.trim_start_matches('.'), MAX_VALUE_BYTES).trim_end_matches('.');
    if s.is_empty() {
        return "unknown".into();
    }
    let stem = s.split('.').next().unwrap_or(s);
    if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(stem)) {
        format!("_{s}")
    } else {
        s.to_string()
    }
}

/// The file-name part of each value: [`safe`] (a long value: its first bytes made safe, then
/// `-` and the 16 hex digits of its hash), and kept apart from every other value's (`A/B` and
/// `A_B`, `Foo` and `foo` on a file system that ignores case) by a suffix `-2`, `-3`… in the
/// order the values first come (input order: the same at every `-j`).
#[derive(Default)]
struct Names {
    by_value: HashMap<Bounded, String>,
    /// The names given, in lower case.
    taken: HashSet<String>,
}

impl Names {
    fn of(&mut self, value: &Bounded) -> &str {
        if !self.by_value.contains_key(value) {
            let base = value.name(MAX_VALUE_BYTES, safe);
            let mut name = base.clone();
            let mut k = 1u64;
            while self.taken.contains(&name.to_lowercase()) {
                k += 1;
                let suffix = format!("-{k}");
                name = format!("{}{suffix}", cut(&base, MAX_VALUE_BYTES - suffix.len()));
            }
            self.taken.insert(name.to_lowercase());
            self.by_value.insert(value.clone(), name);
        }
        &self.by_value[value]
    }
}

/// The name the template gives, `value` already made safe.
fn name(template: &str, n: u64, value: &str, ext: &str) -> String {
    template
        .replace("{num}", &format!("{n:04}"))
        .replace("{n}", &format!("{n:04}"))
        .replace("{value}", value)
        .replace("{ext}", ext)
}

/// The files being written: a few open, the others parked.
struct Files {
    guard: Guard,
    dir: PathBuf,
    files: HashMap<String, Output>,
    /// Open files, the least recently used first.
    open: VecDeque<String>,
    games: HashMap<String, u64>,
}

impl Files {
    fn write(
        &mut self,
        name: &str,
        game: impl FnOnce(&mut Output) -> io::Result<()>,
    ) -> io::Result<()> {
        if !self.files.contains_key(name) {
            let path = self.dir.join(name);
            self.files
                .insert(name.to_string(), self.guard.create(&path)?);
        }
        if let Some(at) = self.open.iter().position(|n| n == name) {
            self.open.remove(at);
        } else if self.open.len() >= OPEN_FILES {
            let lru = self.open.pop_front().expect("files are open");
            self.files.get_mut(&lru).expect("known").park()?;
        }
        self.open.push_back(name.to_string());
        *self.games.entry(name.to_string()).or_default() += 1;
        game(self.files.get_mut(name).expect("created"))
    }

    /// Every file renamed into place, in name order.
    fn commit(self) -> io::Result<Vec<(String, u64)>> {
        let mut names: Vec<_> = self.files.into_iter().collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        let mut done = Vec::new();
        for (name, file) in names {
            file.commit()?;
            done.push((name.clone(), self.games[&name]));
        }
        Ok(done)
    }
}

/// `kifu split`. The files made are listed on stderr with their game counts (unless
/// `--quiet`). Exit status 0; 1 when a game could not be written (named on stderr), 2 when an
/// input could not be read.
pub fn command(common: &Common, opts: Options, force: bool) -> io::Result<ExitCode> {
    let guard = Guard::new(&common.files, force);
    if opts.dir.as_os_str() == "-" {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "split writes files into a directory: `-o -` (stdout) is none; `kifu fmt` or \
             `kifu filter` write to stdout",
        ));
    }
    if guard.is_input(&opts.dir) {
        return Err(kifu_output::Error::Input(opts.dir.clone()).into());
    }
    if opts.dir.exists() && !opts.dir.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            format!(
                "{}: not a directory (split writes its files into a directory: -o DIR)",
                opts.dir.display()
            ),
        ));
    }
    std::fs::create_dir_all(&opts.dir)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", opts.dir.display())))?;
    let template = opts.name.clone().unwrap_or_else(|| match opts.by {
        By::Count(_) => "part-{num}.{ext}".into(),
        By::Value(_) => "{value}.{ext}".into(),
    });
    if matches!(opts.by, By::Count(_)) && !template.contains("{num}") && !template.contains("{n}") {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--name needs {num} with --games",
        ));
    }
    let mut files = Files {
        guard,
        dir: opts.dir.clone(),
        files: HashMap::new(),
        open: VecDeque::new(),
        games: HashMap::new(),
    };
    let by = Arc::new(opts.by.clone());
    let to = opts.to;
    let scope = DomScope::FULL.with_max_game_bytes(opts.max_game_bytes);
    let work = DomWork::new(scope, |input: &Input| Sorted {
        rendered: Rendered::new(to, &input.name),
        keys: Vec::new(),
        by: Arc::clone(&by),
        jsonl: to == To::Jsonl,
    });
    let mut budget = Budget::new(opts.max_count);
    let mut written = 0u64;
    let mut unwritten = false;
    let mut names = Names::default();
    let scanned = run::scan_in_pieces(
        common,
        "splitting",
        run::piece_size_to(to),
        &work,
        |event| {
            let Event::Piece {
                input,
                visited,
                info,
            } = event
            else {
                return Ok(());
            };
            let sorted = match &visited {
                Visited::Pgn(dom) => &dom.each,
                Visited::Sgf(dom) => &dom.each,
            };
            for (k, (value, ext)) in sorted.keys.iter().enumerate() {
                if budget.done() {
                    break;
                }
                let value = names.of(value);
                let file = match &opts.by {
                    By::Count(n) => name(&template, written / n.max(&1) + 1, value, ext),
                    By::Value(_) => name(&template, 0, value, ext),
                };
                written += 1;
                if let Some(why) = sorted.rendered.why_unwritten(k) {
                    // the game keeps its place (the next goes where it would have gone)
                    unwritten = true;
                    let n = info.first_game + sorted.rendered.index(k) + 1;
                    crate::render::name_unwritten("split", &input.name, n, why, &mut io::stdout())?;
                    continue;
                }
                budget.take();
                files.write(&file, |f| sorted.rendered.write_game(k, f, info.first_game))?;
            }
            Ok(())
        },
    )?;
    let made = files.commit()?;
    if !common.quiet {
        for (name, games) in &made {
            eprintln!(
                "{}: {games} games",
                Path::new(&opts.dir).join(name).display()
            );
        }
    }
    io::stdout().flush()?;
    Ok(Outcome::of(&scanned, unwritten).code())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifu_pipeline::keys::{KEPT_BYTES, fnv1a};

    fn named(value: &str) -> String {
        name("{value}.{ext}", 0, &safe(value), "pgn")
    }

    #[test]
    fn names_are_safe() {
        assert_eq!(named("B90"), "B90.pgn");
        assert_eq!(named("../etc/passwd"), "_etc_passwd.pgn");
        assert_eq!(name("{value}.{ext}", 0, &safe(""), "sgf"), "unknown.sgf");
        assert_eq!(name("part-{num}.{ext}", 12, "", "pgn"), "part-0012.pgn");
        assert_eq!(name("part-{n}.{ext}", 12, "", "pgn"), "part-0012.pgn");
        assert_eq!(named("Tata Steel 2022"), "Tata_Steel_2022.pgn");
        assert_eq!(named("dots..."), "dots.pgn");
    }

    #[test]
    fn names_windows_reserves_are_escaped() {
        assert_eq!(named("CON"), "_CON.pgn");
        assert_eq!(named("nul"), "_nul.pgn");
        assert_eq!(named("com1"), "_com1.pgn");
        assert_eq!(named("Lpt9.x"), "_Lpt9.x.pgn");
        assert_eq!(named("CONSOLE"), "CONSOLE.pgn");
        assert_eq!(named("COM0"), "_COM0.pgn");
        assert_eq!(named("lpt0.txt"), "_lpt0.txt.pgn");
        assert_eq!(named("COM¹"), "_COM¹.pgn");
        assert_eq!(named("com²"), "_com².pgn");
        assert_eq!(named("LPT³"), "_LPT³.pgn");
        assert_eq!(named("COM10"), "COM10.pgn");
    }

    #[test]
    fn long_names_are_cut_by_bytes_at_a_character_boundary() {
        let long = "棋".repeat(79); // 237 bytes: too long with a prefix and an extension
        let s = safe(&long);
        assert!(s.len() <= MAX_VALUE_BYTES, "{}", s.len());
        assert_eq!(s, "棋".repeat(MAX_VALUE_BYTES / 3));
    }

    #[test]
    fn values_that_look_alike_stay_apart() {
        let mut names = Names::default();
        let mut of = |v: &str| names.of(&Bounded::of(v)).to_string();
        let a = of("A/B");
        let b = of("A_B");
        let c = of("a_b");
        assert_eq!(
            (a.as_str(), b.as_str(), c.as_str()),
            ("A_B", "A_B-2", "a_b-3")
        );
        assert_eq!(of("A/B"), "A_B", "the same value keeps its name");
        let long = "x".repeat(150);
        let mut longer = long.clone();
        longer.push('y');
        let first = of(&long);
        let second = of(&longer);
        assert_ne!(first, second);
        assert!(second.len() <= MAX_VALUE_BYTES);
        assert_eq!(of(&long), first, "the same long value keeps its name");
    }

    #[test]
    fn long_values_are_kept_bounded_and_apart() {
        let a = format!("{}a", "x".repeat(1 << 20));
        let b = format!("{}b", "x".repeat(1 << 20));
        let (ka, kb) = (Bounded::of(&a), Bounded::of(&b));
        assert_ne!(ka, kb, "values that differ only past the cut stay apart");
        assert_eq!(ka, Bounded::of(&a));
        assert_eq!(ka.prefix.len(), KEPT_BYTES);
        assert_eq!(Bounded::of("short").prefix, "short");
        assert_eq!(Bounded::of("short").whole, None);
        // the name: the cut prefix made safe, then the hash, the same in every build
        let mut names = Names::default();
        let name = names.of(&ka).to_string();
        assert_eq!(name.len(), MAX_VALUE_BYTES);
        assert!(name.starts_with("xxxx"), "{name}");
        assert!(
            name.ends_with(&format!("-{:016x}", fnv1a(a.as_bytes()))),
            "{name}"
        );
        assert_ne!(names.of(&kb), name);
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
