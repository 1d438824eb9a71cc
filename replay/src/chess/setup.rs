//! The starting position of a game, from its `FEN`, `SetUp` and `Variant` tags.

use super::{ErrorKind, Position};

/// What the `Variant` tag says, as python-chess reads it (`chess.pgn.Headers.variant` and
/// `is_chess960`, compared without regard to case).
///
/// ```
/// use kifu_replay::chess::Variant;
/// assert_eq!(Variant::from_tag(b"Standard"), Variant::Standard);
/// assert_eq!(Variant::from_tag(b"fischerandom"), Variant::Chess960); // Cute Chess
/// assert_eq!(Variant::from_tag(b"chess 960"), Variant::Chess960);
/// assert_eq!(Variant::from_tag(b"From Position"), Variant::Standard);
/// assert_eq!(Variant::from_tag(b"Crazyhouse"), Variant::Unsupported);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Chess: no tag, or `Standard`, `Chess`, `Classical`, `Normal`, `Illegal`, `From Position`,
    /// and FICS's `wild/0` … `wild/8a` (chess from another position).
    #[default]
    Standard,
    /// Chess960: `Chess960`, `Chess 960`, `Fischerandom` (Cute Chess), `Fischerrandom`, `Fischer
    /// Random`.
    Chess960,
    /// Any other game (crazyhouse, atomic, antichess, three-check, Seirawan, sittuyin, …): its
    /// moves are not replayed.
    Unsupported,
}

impl Variant {
    /// Reads a `Variant` tag's value.
    pub fn from_tag(value: &[u8]) -> Variant {
        let v = value.trim_ascii();
        let is = |names: &[&str]| names.iter().any(|n| v.eq_ignore_ascii_case(n.as_bytes()));
        if is(&[
            "chess960",
            "chess 960",
            "fischerandom",
            "fischerrandom",
            "fischer random",
        ]) {
            Variant::Chess960
        } else if v.is_empty()
            || is(&[
                "standard",
                "chess",
                "classical",
                "normal",
                "illegal",
                "from position",
                "wild/0",
                "wild/1",
                "wild/2",
                "wild/3",
                "wild/4",
                "wild/5",
                "wild/6",
                "wild/7",
                "wild/8",
                "wild/8a",
            ])
        {
            Variant::Standard
        } else {
            Variant::Unsupported
        }
    }
}

/// What a game's tags say about its start, collected tag by tag (buffers reused from game to
/// game: no allocation once they have grown).
#[derive(Clone, Debug, Default)]
pub(crate) struct Setup {
    pub(crate) fen: Option<String>,
    pub(crate) fen_pos: kifu::Position,
    pub(crate) variant: Variant,
    pub(crate) variant_text: String,
    pub(crate) variant_pos: kifu::Position,
    fen_buf: String,
    /// The standard start, built once.
    startpos: Option<Position>,
}

/// Which tag a setup problem is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SetupTag {
    Fen,
    Variant,
}

impl Setup {
    /// Forgets the previous game's tags.
    pub(crate) fn clear(&mut self) {
        if let Some(s) = self.fen.take() {
            self.fen_buf = s;
        }
        self.variant = Variant::Standard;
        self.variant_text.clear();
    }

    /// Takes a tag pair: `FEN` and `Variant` matter (a `FEN` tag is used with or without
    /// `SetUp "1"`, as python-chess does).
    pub(crate) fn tag(&mut self, name: &[u8], value: &str, pos: kifu::Position) {
        if name == b"FEN" {
            let mut s = self
                .fen
                .take()
                .unwrap_or_else(|| core::mem::take(&mut self.fen_buf));
            s.clear();
            s.push_str(value);
            self.fen = Some(s);
            self.fen_pos = pos;
        } else if name == b"Variant" {
            self.variant = Variant::from_tag(value.as_bytes());
            self.variant_text.clear();
            self.variant_text.push_str(value);
            self.variant_pos = pos;
        }
    }

    /// The starting position, or what is wrong with the tags.
    pub(crate) fn start(&mut self) -> Result<Position, (ErrorKind, SetupTag)> {
        if self.variant == Variant::Unsupported {
            return Err((ErrorKind::UnsupportedVariant, SetupTag::Variant));
        }
        let chess960 = self.variant == Variant::Chess960;
        let startpos = self.startpos.get_or_insert_with(Position::startpos);
        match &self.fen {
            None if chess960 => Ok(startpos.clone().into_chess960()),
            None => Ok(startpos.clone()),
            Some(fen) => {
                Position::from_fen(fen, chess960).map_err(|e| (ErrorKind::BadFen(e), SetupTag::Fen))
            }
        }
    }
}

impl Position {
    /// The same position, its castling played by Chess960's rules.
    pub(crate) fn into_chess960(mut self) -> Position {
        self.set_chess960();
        self
    }
}
