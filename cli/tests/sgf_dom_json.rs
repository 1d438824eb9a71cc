//! `kifu json` (written from the events) and the SGF DOM (`sgf::GameTree` serialized with serde)
//! agree: the same bytes for every game tree, but for `"file"`, which only the command knows.
//! `--charset utf-8` makes the command decode text as the DOM's serialization does (UTF-8,
//! invalid sequences replaced); its default, `auto`, may pick another charset per game tree.

use std::path::Path;
use std::process::{Command, Stdio};

use kifu::sgf;

/// `kifu json`'s lines for `path`, each without its `"file"` (which follows `"offset"`).
fn kifu_json(path: &Path) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["json", "--charset", "utf-8"])
        .arg(path)
        .stdin(Stdio::null())
        .output()
        .expect("kifu runs");
    // exit status 1: an input without any game tree (named on stderr), so no line
    assert!(
        out.status.success() || out.status.code() == Some(1) && out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = format!(
        ",\"file\":{}",
        serde_json::to_string(&path.display().to_string()).unwrap()
    );
    String::from_utf8(out.stdout)
        .expect("kifu json writes UTF-8")
        .lines()
        .map(|l| l.replacen(&file, "", 1))
        .collect()
}

/// The serialized DOM, one game tree per line. (Compared as text: the trees of the corpus nest
/// deeper than serde_json's reader accepts, and equal bytes say more than equal values.)
fn dom_json(bytes: &[u8]) -> Vec<String> {
    sgf::game_trees(bytes)
        .map(|t| serde_json::to_string(&t).expect("the DOM serializes"))
        .collect()
}

fn same(path: &Path) {
    // the command reads UTF-16 files as UTF-8: so does this side
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path).unwrap();
    std::io::Read::read_to_end(&mut kifu::encoding::Utf16Reader::new(file), &mut bytes).unwrap();
    let cli = kifu_json(path);
    let dom = dom_json(&bytes);
    assert_eq!(cli.len(), dom.len(), "{}: game trees", path.display());
    for (i, (a, b)) in cli.iter().zip(&dom).enumerate() {
        assert_eq!(a, b, "{}: game tree {i}", path.display());
    }
}

#[test]
fn kifu_json_equals_the_serialized_dom() {
    same(&kifu_testkit::data_path(
        "seed-takemiya-cho-meijin-1996.sgf",
    ));
}

#[test]
#[cfg_attr(not(kifu_shared), ignore = "needs ../shared (the corpus)")]
fn kifu_json_equals_the_serialized_dom_on_the_corpus() {
    let shared = kifu_testkit::shared();
    let small = kifu_testkit::files_with_ext(&shared.join("corpus/sgf/small"), "sgf");
    let large = kifu_testkit::files_with_ext(&shared.join("corpus/sgf/large"), "sgf");
    // every small (varied, often broken) file, and one large-collection file in 100
    let mut n = 0;
    for p in small.iter().chain(large.iter().step_by(100)) {
        same(p);
        n += 1;
    }
    eprintln!("{n} SGF files: kifu json = serialized DOM");
}

#[test]
fn broken_input_agrees_too() {
    let dir = tempfile::tempdir().unwrap();
    for (i, text) in [
        &b"junk (;FF[4]C[a\\]b](;B[aa];W[bb])(;B[cc]))garbage\n(;GN[x]"[..],
        b"((;a[1])(;B[aa]))junk(;C[x]FF[4](;B[bb](;W[cc])))trail",
        b"(;SZ[9];B[ee]W[jj]LB[aa:x\\:y](;C[\xff\xfe])())",
    ]
    .iter()
    .enumerate()
    {
        let p = dir.path().join(format!("{i}.sgf"));
        std::fs::write(&p, text).unwrap();
        same(&p);
    }
}
