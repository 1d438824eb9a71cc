//! The object `kifu json` writes for a game, made in one place for the command's lines and the
//! `json` tables: `{"index":N,"offset":M,"file":NAME,` then the rest of the library's
//! serialization of the DOM (feature `serde`), with what the options add.
//!
//! The serialization's first two members are `index` and `offset`, both numbers: the second
//! comma ends them. [`JsonObject::rest`] is what follows (`"tags":…}` for PGN, `"tree":…}` for
//! SGF), so that a writer that knows a game's place in the whole input writes its own `index`
//! (and the input's name) in front.

use kifu::{pgn, sgf};

use crate::Charset;

/// What a PGN game's object holds beyond the DOM's serialization.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JsonOptions {
    /// Each move gets its move in UCI (`"uci"`, null when it could not be replayed).
    pub uci: bool,
    /// Each move gets the FEN after it (`"fen"`, null when it could not be replayed).
    pub fen: bool,
    /// The game gets its opening (`"opening": {"eco", "name", "ply"}`, null when no position of
    /// the main line has a name), as lichess names it.
    pub openings: bool,
}

impl JsonOptions {
    fn replays(self) -> bool {
        self.uci || self.fen
    }
}

/// One game's object, made again for each game in the same buffer.
///
/// ```
/// use kifu_export::{Charset, JsonObject, JsonOptions};
///
/// let game = kifu::pgn::Games::new(b"[White \"Tal\"]\n\n1. e4 *").next().unwrap();
/// let mut object = JsonObject::default();
/// object.pgn(&game, JsonOptions { uci: true, ..JsonOptions::default() }).unwrap();
/// let rest = std::str::from_utf8(object.rest()).unwrap();
/// assert!(rest.starts_with(r#""tags":[["White","Tal"]]"#), "{rest}");
/// assert!(rest.contains(r#""uci":"e2e4""#) && rest.ends_with('}'));
/// ```
#[derive(Debug, Default)]
pub struct JsonObject {
    body: Vec<u8>,
    /// Where `"offset"` begins, and where the rest does.
    offset: usize,
    rest: usize,
}

impl JsonObject {
    /// Makes the object of a PGN game, with what `options` adds.
    ///
    /// # Errors
    ///
    /// Why the game cannot be written (a tree nesting deeper than the serialization goes, or
    /// not an object): the caller names the game and goes on.
    pub fn pgn(&mut self, game: &pgn::Game, options: JsonOptions) -> Result<(), String> {
        self.body.clear();
        let written = if options.replays() {
            serde_json::to_writer(&mut self.body, &with_replay(game, options)?)
        } else {
            serde_json::to_writer(&mut self.body, game)
        };
        written.map_err(|e| e.to_string())?;
        if options.openings {
            // `,"opening":…` before the closing brace
            self.body.pop();
            self.body.extend_from_slice(b",\"opening\":");
            let opening = kifu_replay::chess::openings::classify(game)
                .map(|o| serde_json::json!({"eco": o.eco, "name": o.name, "ply": o.ply}));
            serde_json::to_writer(&mut self.body, &opening).map_err(|e| e.to_string())?;
            self.body.push(b'}');
        }
        self.cut()
    }

    /// Makes the object of an SGF game tree, its text decoded as `charset` says.
    ///
    /// # Errors
    ///
    /// As [`pgn`](Self::pgn).
    pub fn sgf(&mut self, tree: &sgf::GameTree, charset: Charset) -> Result<(), String> {
        let encoding = charset.encoding_of(tree);
        let decode = |b: &[u8]| kifu::encoding::decode(b, encoding).into_owned();
        self.body.clear();
        serde_json::to_writer(&mut self.body, &tree.with_decoder(&decode))
            .map_err(|e| e.to_string())?;
        self.cut()
    }

    /// Finds where the members after `index` and `offset` begin.
    fn cut(&mut self) -> Result<(), String> {
        let mut commas = self.body.iter().enumerate().filter(|&(_, &b)| b == b',');
        let first = commas.next();
        match (first, commas.next()) {
            (Some((first, _)), Some((second, _))) if self.body.last() == Some(&b'}') => {
                self.offset = first + 1;
                self.rest = second + 1;
                Ok(())
            }
            _ => Err("not an object with index and offset".into()),
        }
    }

    /// The object's `offset` member and its comma: `"offset":M,`.
    pub fn offset_member(&self) -> &[u8] {
        &self.body[self.offset..self.rest]
    }

    /// The object's members after `index` and `offset`, and its closing brace: `"tags":…}`.
    pub fn rest(&self) -> &[u8] {
        &self.body[self.rest..]
    }
    /// The whole object as `kifu json` writes it for a game of input `file`, its own `index`
    /// kept: `{"index":N,"offset":M,"file":NAME,…}` (a frontend's one game, where no writer
    /// numbers the games of a whole input).
    ///
    /// ```
    /// use kifu_export::{JsonObject, JsonOptions};
    /// let game = kifu::pgn::Games::new(b"1. e4 *").next().unwrap();
    /// let mut object = JsonObject::default();
    /// object.pgn(&game, JsonOptions::default()).unwrap();
    /// let line = String::from_utf8(object.with_file("a.pgn")).unwrap();
    /// assert!(line.starts_with(r#"{"index":0,"offset":0,"file":"a.pgn","tags":[]"#), "{line}");
    /// ```
    pub fn with_file(&self, file: &str) -> Vec<u8> {
        let member = file_member(file);
        let mut out = Vec::with_capacity(self.body.len() + member.len());
        out.extend_from_slice(&self.body[..self.rest]);
        out.extend_from_slice(&member);
        out.extend_from_slice(self.rest());
        out
    }
}

/// `"file":NAME,`: the member each object of input `name` holds after `"offset"`.
///
/// ```
/// assert_eq!(kifu_export::file_member("a\"b.pgn"), br#""file":"a\"b.pgn","#);
/// ```
pub fn file_member(name: &str) -> Vec<u8> {
    let mut entry = b"\"file\":".to_vec();
    serde_json::to_writer(&mut entry, name).expect("writing to a Vec cannot fail");
    entry.push(b',');
    entry
}

/// A game's object with each move's `uci` and `fen` (kifu-replay's DOM helper; each move found
/// by its path in the order the replay gives them), and the replay's problems as
/// `replay_errors` when there are some.
fn with_replay(game: &pgn::Game, options: JsonOptions) -> Result<serde_json::Value, String> {
    use kifu_replay::chess::{DomOptions, for_each_node, replay_game};
    use serde_json::Value;
    let replay = DomOptions {
        fen: options.fen,
        ..Default::default()
    };
    let r = replay_game(game, &replay);
    let mut value = serde_json::to_value(game).map_err(|e| e.to_string())?;
    let mut nodes = r.nodes.iter();
    for_each_node(game, replay.variations, |path, _| {
        let Some(node) = nodes.next() else {
            return;
        };
        let mut at = &mut value["moves"][path[0]];
        for pair in path[1..].chunks(2) {
            at = &mut at["variations"][pair[0]][pair[1]];
        }
        if let Value::Object(m) = at {
            if options.uci {
                m.insert("uci".into(), node.uci.map(|u| u.to_string()).into());
            }
            if options.fen {
                m.insert("fen".into(), node.fen.clone().into());
            }
        }
    });
    if !r.errors.is_empty() {
        let errors: Vec<Value> = r
            .errors
            .iter()
            .map(|e| {
                serde_json::json!({
                    "kind": e.kind.code(),
                    "message": e.kind.to_string(),
                    "text": e.text,
                    "move": e.at.map(|m| m.to_string()),
                })
            })
            .collect();
        value["replay_errors"] = errors.into();
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rest_follows_index_and_offset() {
        let game = kifu::pgn::Games::new(b"1. e4 (1. d4 d5) e5 *")
            .next()
            .unwrap();
        let mut object = JsonObject::default();
        object.pgn(&game, JsonOptions::default()).unwrap();
        let whole = serde_json::to_string(&game).unwrap();
        let rest = std::str::from_utf8(object.rest()).unwrap();
        assert!(whole.starts_with(r#"{"index":0,"offset":0,"#));
        assert_eq!(&whole[r#"{"index":0,"offset":0,"#.len()..], rest);
        assert_eq!(object.offset_member(), br#""offset":0,"#);
    }

    #[test]
    fn replayed_moves_in_variations_get_theirs() {
        let game = kifu::pgn::Games::new(b"1. e4 (1. d4 d5 (1... Nf6)) e5 *")
            .next()
            .unwrap();
        let mut object = JsonObject::default();
        let all = JsonOptions {
            uci: true,
            fen: true,
            openings: true,
        };
        object.pgn(&game, all).unwrap();
        let mut line = b"{".to_vec();
        line.extend_from_slice(object.rest());
        let v: serde_json::Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(v["moves"][0]["uci"], "e2e4");
        assert_eq!(v["moves"][0]["variations"][0][1]["uci"], "d7d5");
        assert_eq!(
            v["moves"][0]["variations"][0][1]["variations"][0][0]["uci"],
            "g8f6"
        );
        assert_eq!(v["moves"][1]["uci"], "e7e5");
        assert!(
            v["moves"][1]["fen"]
                .as_str()
                .unwrap()
                .starts_with("rnbqkbnr/pppp1ppp")
        );
        assert!(v.get("opening").is_some());
    }
}
