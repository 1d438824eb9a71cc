//! `kifu split`: the games into files of N games each, or one file per value of a tag (PGN) or
//! root property (SGF), named from a template, in a directory. Every file is written under a
//! temporary name and renamed into place at the end; none of them may exist (or be an input)
//! unless `--force`.

use std::collections::{HashMap, VecDeque};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use kifu::par::{Event, Visited, Work};
use kifu::{pgn, sgf};

use crate::Common;
use crate::dom::{Dom, PerGame};
use crate::out::{Guard, SafeFile};
use crate::render::{Rendered, To};
use crate::run::{self, Outcome};
use crate::source::Input;

/// How games are shared out among files.
#[derive(Clone, Debug)]
pub enum By {
    /// N games per file.
    Count(u64),
    /// One file per value of this tag or root property; `year` is the year of `Date` (PGN,
    /// else `UTCDate`, `EventDate`) or `DT` (SGF).
    Value(String),
}

/// What `kifu split` was asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// The directory the files go to (made if missing).
    pub dir: PathBuf,
    /// How games are shared out.
    pub by: By,
    /// The file name template: `{n}` (the file's number, from 0001), `{value}` (the tag's
    /// value, made safe for a file name), `{ext}` (`pgn`, `sgf` or `jsonl`).
    pub name: Option<String>,
    /// The form of the games written.
    pub to: To,
    /// The DOM builders' limit on one game.
    pub max_game_bytes: usize,
}

/// At most this many files open at once; the others are parked (closed, reopened to append).
const OPEN_FILES: usize = 128;

/// A piece's games, written, each with the value it is split by and its extension.
pub struct Sorted {
    rendered: Rendered,
    keys: Vec<(String, &'static str)>,
    by: Arc<By>,
    jsonl: bool,
}

impl PerGame for Sorted {
    fn pgn(&mut self, game: pgn::Game) {
        let value = match &*self.by {
            By::Count(_) => String::new(),
            By::Value(name) if name == "year" => {
                let date = ["Date", "UTCDate", "EventDate"].iter().find_map(|t| {
                    game.tag(t)
                        .filter(|d| d.len() >= 4 && d[..4].bytes().all(|b| b.is_ascii_digit()))
                });
                date.map(|d| d[..4].to_string()).unwrap_or_default()
            }
            By::Value(name) => game.tag(name).unwrap_or_default().to_string(),
        };
        self.keys
            .push((value, if self.jsonl { "jsonl" } else { "pgn" }));
        self.rendered.pgn(&game);
    }
    fn sgf(&mut self, tree: sgf::GameTree) {
        let prop = |name: &[u8]| -> String {
            if tree.is_empty() {
                return String::new();
            }
            let Some(v) = tree.root().value(name) else {
                return String::new();
            };
            String::from_utf8_lossy(&v.decoded(name)).into_owned()
        };
        let value = match &*self.by {
            By::Count(_) => String::new(),
            By::Value(name) if name == "year" => {
                let dt = prop(b"DT");
                let year = dt
                    .get(..4)
                    .filter(|y| y.bytes().all(|b| b.is_ascii_digit()));
                year.unwrap_or_default().to_string()
            }
            By::Value(name) => prop(name.as_bytes()),
        };
        self.keys
            .push((value, if self.jsonl { "jsonl" } else { "sgf" }));
        self.rendered.sgf(&tree);
    }
}

struct SplitWork {
    by: Arc<By>,
    to: To,
    max_game_bytes: usize,
}

impl SplitWork {
    fn sorted(&self, input: &Input) -> Sorted {
        Sorted {
            rendered: Rendered::new(self.to, &input.name),
            keys: Vec::new(),
            by: Arc::clone(&self.by),
            jsonl: self.to == To::Jsonl,
        }
    }
}

impl Work for SplitWork {
    type Input = Input;
    type Pgn = Dom<pgn::GameBuilder, Sorted>;
    type Sgf = Dom<sgf::TreeBuilder, Sorted>;
    fn pgn(&self, input: &Input) -> Self::Pgn {
        let b = pgn::GameBuilder::new().with_max_game_bytes(self.max_game_bytes);
        Dom::new(b, self.sorted(input))
    }
    fn sgf(&self, input: &Input) -> Self::Sgf {
        let b = sgf::TreeBuilder::new().with_max_game_bytes(self.max_game_bytes);
        Dom::new(b, self.sorted(input))
    }
}

/// A value made safe for a file name: letters, digits, `-`, `_`, `.` kept (a leading `.` not),
/// every other character `_`; `unknown` for an empty value.
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
    let s = s.trim_start_matches('.');
    if s.is_empty() {
        "unknown".into()
    } else {
        s.chars().take(100).collect()
    }
}

/// The name the template gives.
fn name(template: &str, n: u64, value: &str, ext: &str) -> String {
    template
        .replace("{n}", &format!("{n:04}"))
        .replace("{value}", &safe(value))
        .replace("{ext}", ext)
}

/// The files being written: a few open, the others parked.
struct Files {
    guard: Guard,
    dir: PathBuf,
    files: HashMap<String, SafeFile>,
    /// Open files, the least recently used first.
    open: VecDeque<String>,
    games: HashMap<String, u64>,
}

impl Files {
    fn write(
        &mut self,
        name: &str,
        game: impl FnOnce(&mut SafeFile) -> io::Result<()>,
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
/// `--quiet`). Exit status 0 (2 when an input could not be read).
pub fn command(common: &Common, opts: Options, force: bool) -> io::Result<ExitCode> {
    std::fs::create_dir_all(&opts.dir)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", opts.dir.display())))?;
    let template = opts.name.clone().unwrap_or_else(|| match opts.by {
        By::Count(_) => "part-{n}.{ext}".into(),
        By::Value(_) => "{value}.{ext}".into(),
    });
    if matches!(opts.by, By::Count(_)) && !template.contains("{n}") {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--name needs {n} with --games",
        ));
    }
    let mut files = Files {
        guard: Guard::new(&common.files, force),
        dir: opts.dir.clone(),
        files: HashMap::new(),
        open: VecDeque::new(),
        games: HashMap::new(),
    };
    let work = SplitWork {
        by: Arc::new(opts.by.clone()),
        to: opts.to,
        max_game_bytes: opts.max_game_bytes,
    };
    let mut written = 0u64;
    let failed = run::scan(common, "splitting", &work, |event| {
        let Event::Piece { visited, info, .. } = event else {
            return Ok(());
        };
        let sorted = match &visited {
            Visited::Pgn(dom) => &dom.each,
            Visited::Sgf(dom) => &dom.each,
        };
        for (k, (value, ext)) in sorted.keys.iter().enumerate() {
            let file = match &opts.by {
                By::Count(n) => name(&template, written / n.max(&1) + 1, value, ext),
                By::Value(_) => name(&template, 0, value, ext),
            };
            written += 1;
            files.write(&file, |f| sorted.rendered.write_game(k, f, info.first_game))?;
        }
        Ok(())
    })?;
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
    Ok(Outcome {
        found: false,
        input_failed: failed,
    }
    .code())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe() {
        assert_eq!(name("{value}.{ext}", 0, "B90", "pgn"), "B90.pgn");
        assert_eq!(
            name("{value}.{ext}", 0, "../etc/passwd", "pgn"),
            "_etc_passwd.pgn"
        );
        assert_eq!(name("{value}.{ext}", 0, "", "sgf"), "unknown.sgf");
        assert_eq!(name("part-{n}.{ext}", 12, "", "pgn"), "part-0012.pgn");
        assert_eq!(
            name("{value}.{ext}", 0, "Tata Steel 2022", "pgn"),
            "Tata_Steel_2022.pgn"
        );
    }
}
