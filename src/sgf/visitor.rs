//! The SGF visitor: the events a [`Parser`](super::Parser) raises, and what they carry.

use crate::control::Control;
use crate::error::{Diagnostic, Severity};
use crate::position::Position;

use super::raw::{Color, Point, RawValue};

/// Where an event happened: its position in the stream and in the game tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Context {
    /// Position of the event's first byte (for a value, its `[`).
    pub pos: Position,
    /// Index of the game tree in the collection, 0-based.
    pub game: u64,
    /// Tree depth: 0 for the game tree, 1 inside a variation `( … )` of it, …
    pub depth: u32,
    /// The node: its index on the path from the root (the root node is 0, the node after it
    /// 1, the first node of a variation branching after node 5 is 6). For `on_tree` and
    /// `on_tree_end` it is the number of nodes above the tree on its path (0 for the game tree),
    /// so it equals the index of the tree's first node.
    pub node: u32,
    /// Index of the current tree among its siblings: 0 for the first (the main line's
    /// continuation), 1 for the next variation, …; 0 for a game tree.
    pub variation: u32,
    /// Whether every tree on the path is the first of its siblings: the main line.
    pub main_line: bool,
}

impl Context {
    /// Whether the event belongs to the game tree itself rather than to a variation nested in
    /// it (`depth == 0`): the game tree's `on_tree` / `on_tree_end`, and the nodes of its first
    /// sequence, from the root node up to the first branch point. (For the main line through
    /// the variations, see [`main_line`](Self::main_line).)
    ///
    /// ```
    /// use kifu::{Control, sgf::{self, Context, Visitor}};
    /// struct Trunk(u32);
    /// impl Visitor for Trunk {
    ///     fn on_node(&mut self, ctx: &Context) -> Control {
    ///         if ctx.is_game_level() {
    ///             self.0 += 1;
    ///         }
    ///         Control::Continue
    ///     }
    /// }
    /// let mut v = Trunk(0);
    /// sgf::parse(b"(;SZ[9];B[ee](;W[cc])(;W[gg]))", &mut v);
    /// assert_eq!(v.0, 2); // the root node and B[ee]
    /// ```
    #[inline]
    pub fn is_game_level(&self) -> bool {
        self.depth == 0
    }

    /// Whether the event is inside a variation `( … )` (`depth >= 1`): the opposite of
    /// [`is_game_level`](Self::is_game_level).
    ///
    /// ```
    /// use kifu::{Control, sgf::{self, Context, Visitor}};
    /// struct Variations(u32);
    /// impl Visitor for Variations {
    ///     fn on_tree(&mut self, ctx: &Context) -> Control {
    ///         if ctx.in_variation() {
    ///             self.0 += 1;
    ///         }
    ///         Control::Continue
    ///     }
    /// }
    /// let mut v = Variations(0);
    /// sgf::parse(b"(;SZ[9];B[ee](;W[cc])(;W[gg]))", &mut v);
    /// assert_eq!(v.0, 2);
    /// ```
    #[inline]
    pub fn in_variation(&self) -> bool {
        self.depth > 0
    }

    /// Where this is in the game, for diagnostics.
    pub fn node_ref(&self) -> NodeRef {
        NodeRef {
            depth: self.depth,
            node: self.node,
        }
    }
}

/// A place in a game tree: the tree depth and the node's index on its path (see [`Context`]).
///
/// ```
/// use kifu::sgf::NodeRef;
/// assert_eq!(NodeRef { depth: 1, node: 12 }.to_string(), "node 12 (depth 1)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeRef {
    /// Tree depth, 0 for the game tree.
    pub depth: u32,
    /// Index of the node on its path from the root (root = 0).
    pub node: u32,
}

impl core::fmt::Display for NodeRef {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "node {} (depth {})", self.node, self.depth)
    }
}

/// A property's identifier, raised before its values.
///
/// ```text
/// AddBlack[dd][pp]      (FF[3] style)
/// --------              raw: "AddBlack", name: "AB"
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Property<'a> {
    /// The `FF[4]` identifier: the uppercase letters of what was written (`AB` for `AddBlack`).
    pub name: &'a [u8],
    /// The identifier as written (equal to `name` unless lowercase letters were dropped).
    pub raw: &'a [u8],
}

/// One value of a property, or one piece of a long value.
///
/// A value longer than [`Config::max_value_piece`](super::Config::max_value_piece) arrives in
/// pieces of at most that size, cut where the text allows (never inside an escape, a line
/// break or a UTF-8 sequence, so every piece decodes on its own): `first` is set on the first
/// piece, `last` on the last; a short value is one piece with both set. The pieces depend only
/// on the text, never on the chunking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value<'a> {
    /// The `FF[4]` identifier of the property the value belongs to.
    pub name: &'a [u8],
    /// The value (or this piece of it) as written, escapes unresolved.
    pub raw: RawValue<'a>,
    /// Index of the value in its property, 0-based (`AB[aa][bb]`: 0 then 1).
    pub index: u32,
    /// This is the first piece of the value.
    pub first: bool,
    /// This is the last piece of the value.
    pub last: bool,
}

/// A Go move, `B[pd]` or `W[]`, decoded for the board size of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move<'a> {
    /// Who played it.
    pub color: Color,
    /// Where, or `None` for a pass (`[]`, or `[tt]` on boards up to 19×19).
    pub point: Option<Point>,
    /// The value as written.
    pub raw: &'a [u8],
}

/// A comment (`C[…]`), or one piece of a long one (see [`Value`] for the pieces).
/// `text.text()` decodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comment<'a> {
    /// The text of this piece, escapes unresolved.
    pub text: RawValue<'a>,
    /// This is the first piece of the comment.
    pub first: bool,
    /// This is the last piece of the comment.
    pub last: bool,
}

/// What went wrong, for [`Visitor::on_error`].
///
/// Every kind has a stable [`name`](ErrorKind::name), a snake_case word (`illegal_point`), and
/// a stable [`code`](ErrorKind::code): a letter for its severity (`W`arning, `E`rror) and the
/// number of the SGFC message it corresponds to (SGFC V2.0's numbering), or a number from 100
/// up for kifu's own.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum ErrorKind {
    /// Text outside any game tree (before the first `(;`, between game trees, after the last
    /// `)`); skipped. One per line.
    #[error("text outside a game tree")]
    TextOutsideGame,
    /// Characters that are no SGF outside values, inside a game tree; skipped. One per line.
    #[error("illegal characters outside values")]
    IllegalChars,
    /// Game trees still open at the end of the input; closed.
    #[error("game tree not closed: `)` missing at the end")]
    UnclosedTree,
    /// A value still open at the end of the input; closed.
    #[error("value not closed: `]` missing at the end")]
    UnterminatedValue,
    /// An identifier longer than the configured limit; the property is dropped.
    #[error("property identifier longer than the configured limit")]
    IdentTooLong,
    /// `()`: a tree without nodes; ignored.
    #[error("empty variation `()` ignored")]
    EmptyTree,
    /// A second value for a property that takes one (`W[ce][cd]`).
    #[error("property may have only one value")]
    TooManyValues,
    /// A point that is not on the board (`B[90]`, `B[tt]` on 9×9 is fine, `W[ss]` on 9×9 is not).
    #[error("illegal point")]
    IllegalPoint,
    /// A value that does not fit its type (a Number, Real, Double or Color, or a value for a
    /// property that takes none).
    #[error("illegal value")]
    IllegalValue,
    /// `FF[4]`: lowercase letters in an identifier; read as its uppercase letters.
    #[error("lowercase letters in a property identifier")]
    LowercaseIdent,
    /// `FF[1]–FF[3]`: a long identifier (`AddBlack`); read as its uppercase letters.
    #[error("FF[1]-FF[3] identifier read as its uppercase letters")]
    OldStyleIdent,
    /// An empty value where the type needs one (`AW[]`, `KM[]`).
    #[error("empty value")]
    EmptyValue,
    /// `FF`, `GM` or `SZ` with a value kifu cannot use (`GM[game of go]`, `SZ[19:19]`,
    /// `SZ[60]`, `FF[7]`); the default is kept.
    #[error("illegal root property value")]
    IllegalRootValue,
    /// `GM` other than 1: moves and points are not decoded (kifu decodes Go only).
    #[error("not a Go game: moves and points are not checked")]
    NotGo,
    /// An identifier with letters but no value (`AB` then `;`); dropped.
    #[error("property without a value")]
    PropertyWithoutValue,
    /// `((`: a variation opened before its tree had a node; the second `(` is dropped (its
    /// `)` then closes the tree), as SGFC does.
    #[error("variation opened before any node of its tree")]
    VariationWithoutNode,
    /// A NUL byte in a value.
    #[error("NUL byte in a value")]
    NulByte,
    /// A compose value expected (`LB[aa]` without `:text`).
    #[error("compose value expected")]
    ComposeExpected,
    /// `B` or `W` in the root node (legal, bad style).
    #[error("move in the root node")]
    MoveInRoot,
    /// The same property twice in one node (`C[a]C[b]`, Fox's two `AP`).
    #[error("property repeated in one node")]
    DuplicateProperty,
    /// `FF[4]`: setup (`AB` `AW` `AE` `PL`) and move properties in one node.
    #[error("setup and move properties mixed in one node")]
    MixedSetupMove,
    /// An identifier of more than two uppercase letters (private properties such as
    /// `MULTIGOGM`).
    #[error("property identifier with more than two letters")]
    LongIdent,
    /// A root property (`SZ`, `GM`, `FF`, `CA`, `AP`, `ST`) outside the root node.
    #[error("root property outside the root node")]
    RootPropertyOutsideRoot,
    /// An identifier that `FF[4]` and Go do not define (kept and delivered).
    #[error("unknown property")]
    UnknownProperty,
    /// `(` not followed by `;`; a node is assumed.
    #[error("`;` missing after `(`")]
    MissingSemicolon,
    /// `B` and `W` in one node.
    #[error("black and white move in one node")]
    TwoMoves,
    /// A property of `FF[1]–FF[3]` that `FF[4]` dropped (`L`, `M`, `KI`, …); kept and delivered.
    #[error("property not defined in FF[4]")]
    ObsoleteProperty,
    /// Annotations that exclude each other in one node (`GB` and `GW`, `BM` and `TE`).
    #[error("conflicting annotations in one node")]
    ConflictingAnnotations,
    /// A move annotation (`BM` `DO` `IT` `TE`) in a node without a move.
    #[error("move annotation without a move")]
    AnnotationWithoutMove,
    /// Game information in a second node on one path.
    #[error("game information outside the game-info node")]
    GameInfoOutsideGameInfoNode,
    /// Values without an identifier (`;[aa]`); dropped.
    #[error("values without a property identifier")]
    ValueWithoutIdent,
    /// `FF[1]–FF[3]`: a pass written `[]`, `FF[4]`'s form.
    #[error("FF[4] pass `[]` in an older file format")]
    PassInOldFormat,
    /// A node after a variation at the same level (`(;a(;b);c)`); a `(` is assumed before it.
    #[error("node after a variation: `(` assumed")]
    NodeOutsideVariation,
    /// A value longer than the configured limit; the rest is skipped.
    #[error("value longer than the configured limit")]
    ValueTooLong,
    /// A `)` outside any game tree.
    #[error("`)` without `(`")]
    StrayParen,
    /// Trees nested deeper than the configured limit; the deeper ones are skipped.
    #[error("trees nested deeper than the configured limit")]
    TooDeep,
    /// Never raised by the parser: a game tree grew past the limit of the DOM builder
    /// ([`TreeBuilder::with_max_game_bytes`](super::TreeBuilder::with_max_game_bytes)); the
    /// rest of it was skipped (or, outside game trees, the rest of the problems that follow it
    /// were dropped). The tree is delivered as far as it was built.
    #[error("game too large for the DOM: the rest was skipped")]
    GameTooLarge,
}

impl ErrorKind {
    /// Every kind, in code order.
    pub const ALL: [ErrorKind; 37] = [
        ErrorKind::TextOutsideGame,
        ErrorKind::IllegalChars,
        ErrorKind::UnclosedTree,
        ErrorKind::UnterminatedValue,
        ErrorKind::IdentTooLong,
        ErrorKind::EmptyTree,
        ErrorKind::TooManyValues,
        ErrorKind::IllegalPoint,
        ErrorKind::IllegalValue,
        ErrorKind::LowercaseIdent,
        ErrorKind::OldStyleIdent,
        ErrorKind::EmptyValue,
        ErrorKind::IllegalRootValue,
        ErrorKind::NotGo,
        ErrorKind::PropertyWithoutValue,
        ErrorKind::VariationWithoutNode,
        ErrorKind::NulByte,
        ErrorKind::ComposeExpected,
        ErrorKind::MoveInRoot,
        ErrorKind::DuplicateProperty,
        ErrorKind::MixedSetupMove,
        ErrorKind::LongIdent,
        ErrorKind::RootPropertyOutsideRoot,
        ErrorKind::UnknownProperty,
        ErrorKind::MissingSemicolon,
        ErrorKind::TwoMoves,
        ErrorKind::ObsoleteProperty,
        ErrorKind::ConflictingAnnotations,
        ErrorKind::AnnotationWithoutMove,
        ErrorKind::GameInfoOutsideGameInfoNode,
        ErrorKind::ValueWithoutIdent,
        ErrorKind::PassInOldFormat,
        ErrorKind::NodeOutsideVariation,
        ErrorKind::ValueTooLong,
        ErrorKind::StrayParen,
        ErrorKind::TooDeep,
        ErrorKind::GameTooLarge,
    ];

    /// The kind's stable name, a snake_case word (`text_outside_game`, `duplicate_property`):
    /// the `kind` of every frontend (`kifu json`, `kifu check`, the export tables' `errors`,
    /// Python's `Diagnostic`), next to the [`code`](ErrorKind::code). It is the variant's name
    /// in snake_case, and it never changes once published.
    ///
    /// ```
    /// use kifu::sgf::ErrorKind;
    /// assert_eq!(ErrorKind::DuplicateProperty.name(), "duplicate_property");
    /// assert_eq!(ErrorKind::TextOutsideGame.name(), "text_outside_game");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::TextOutsideGame => "text_outside_game",
            ErrorKind::IllegalChars => "illegal_chars",
            ErrorKind::UnclosedTree => "unclosed_tree",
            ErrorKind::UnterminatedValue => "unterminated_value",
            ErrorKind::IdentTooLong => "ident_too_long",
            ErrorKind::EmptyTree => "empty_tree",
            ErrorKind::TooManyValues => "too_many_values",
            ErrorKind::IllegalPoint => "illegal_point",
            ErrorKind::IllegalValue => "illegal_value",
            ErrorKind::LowercaseIdent => "lowercase_ident",
            ErrorKind::OldStyleIdent => "old_style_ident",
            ErrorKind::EmptyValue => "empty_value",
            ErrorKind::IllegalRootValue => "illegal_root_value",
            ErrorKind::NotGo => "not_go",
            ErrorKind::PropertyWithoutValue => "property_without_value",
            ErrorKind::VariationWithoutNode => "variation_without_node",
            ErrorKind::NulByte => "nul_byte",
            ErrorKind::ComposeExpected => "compose_expected",
            ErrorKind::MoveInRoot => "move_in_root",
            ErrorKind::DuplicateProperty => "duplicate_property",
            ErrorKind::MixedSetupMove => "mixed_setup_move",
            ErrorKind::LongIdent => "long_ident",
            ErrorKind::RootPropertyOutsideRoot => "root_property_outside_root",
            ErrorKind::UnknownProperty => "unknown_property",
            ErrorKind::MissingSemicolon => "missing_semicolon",
            ErrorKind::TwoMoves => "two_moves",
            ErrorKind::ObsoleteProperty => "obsolete_property",
            ErrorKind::ConflictingAnnotations => "conflicting_annotations",
            ErrorKind::AnnotationWithoutMove => "annotation_without_move",
            ErrorKind::GameInfoOutsideGameInfoNode => "game_info_outside_game_info_node",
            ErrorKind::ValueWithoutIdent => "value_without_ident",
            ErrorKind::PassInOldFormat => "pass_in_old_format",
            ErrorKind::NodeOutsideVariation => "node_outside_variation",
            ErrorKind::ValueTooLong => "value_too_long",
            ErrorKind::StrayParen => "stray_paren",
            ErrorKind::TooDeep => "too_deep",
            ErrorKind::GameTooLarge => "game_too_large",
        }
    }

    /// A stable code: `W` (warning) or `E` (error) and the SGFC message number (kifu's own
    /// from 100 up), as printed by `kifu check`.
    ///
    /// ```
    /// use kifu::sgf::ErrorKind;
    /// assert_eq!(ErrorKind::DuplicateProperty.code(), "E28");
    /// assert_eq!(ErrorKind::TextOutsideGame.code(), "W06");
    /// ```
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::TextOutsideGame => "W06",
            ErrorKind::IllegalChars => "E08",
            ErrorKind::UnclosedTree => "E09",
            ErrorKind::UnterminatedValue => "E10",
            ErrorKind::IdentTooLong => "E11",
            ErrorKind::EmptyTree => "E12",
            ErrorKind::TooManyValues => "E13",
            ErrorKind::IllegalPoint => "E14",
            ErrorKind::IllegalValue => "E15",
            ErrorKind::LowercaseIdent => "E16",
            ErrorKind::OldStyleIdent => "W16",
            ErrorKind::EmptyValue => "W17",
            ErrorKind::IllegalRootValue => "E18",
            ErrorKind::NotGo => "W19",
            ErrorKind::PropertyWithoutValue => "E20",
            ErrorKind::VariationWithoutNode => "E21",
            ErrorKind::NulByte => "W22",
            ErrorKind::ComposeExpected => "E23",
            ErrorKind::MoveInRoot => "W24",
            ErrorKind::DuplicateProperty => "E28",
            ErrorKind::MixedSetupMove => "E30",
            ErrorKind::LongIdent => "W31",
            ErrorKind::RootPropertyOutsideRoot => "E32",
            ErrorKind::UnknownProperty => "W35",
            ErrorKind::MissingSemicolon => "E36",
            ErrorKind::TwoMoves => "E37",
            ErrorKind::ObsoleteProperty => "W40",
            ErrorKind::ConflictingAnnotations => "E41",
            ErrorKind::AnnotationWithoutMove => "E43",
            ErrorKind::GameInfoOutsideGameInfoNode => "E44",
            ErrorKind::ValueWithoutIdent => "E54",
            ErrorKind::PassInOldFormat => "W65",
            ErrorKind::NodeOutsideVariation => "E66",
            ErrorKind::ValueTooLong => "E100",
            ErrorKind::StrayParen => "W101",
            ErrorKind::TooDeep => "E102",
            ErrorKind::GameTooLarge => "E103",
        }
    }

    /// How bad this kind of problem is: a warning when nothing was lost or guessed, else an
    /// error.
    pub fn severity(self) -> Severity {
        if self.code().starts_with('W') {
            Severity::Warning
        } else {
            Severity::Error
        }
    }
}

/// A located SGF problem: kind, severity, offending text, position, game and node (`None`
/// outside game trees).
pub type Error<'a> = Diagnostic<'a, ErrorKind, Option<NodeRef>>;

/// One line: `LINE:COLUMN: SEVERITY CODE: MESSAGE: `text` (game N, node K (depth D))`, the code
/// SGFC's (`W35`), the game counted from 1, the node where the problem is inside a game tree;
/// control characters of the text are escaped. A tool prefixes its file name (`FILE:`) to get
/// the usual `FILE:LINE:COLUMN:` form.
impl core::fmt::Display for Error<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.write_line(f, Some(self.kind.code()), "")
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error<'_> {}

/// Receives the events of an SGF collection.
///
/// Every method has a default that does nothing and returns [`Control::Continue`], so a visitor
/// implements only what it needs.
///
/// # Flow
///
/// For each game tree `(;…)`:
/// 1. `on_tree` (depth 0): the game tree starts.
/// 2. For each node `;`: `on_node`, then for each property `on_property` (its identifier) and
///    one `on_value` per value (or value piece), each `B`/`W` value followed by `on_move`
///    (Go) and each `C` piece by `on_comment`; then `on_node_end`.
/// 3. For each variation `(…)`: `on_tree` (depth ≥ 1), its nodes and variations, `on_tree_end`.
/// 4. `on_tree_end` (depth 0): the game tree ends.
///
/// After the last game tree, [`on_end`](Visitor::on_end) (from
/// [`Parser::finish`](super::Parser::finish) or [`parse`](super::parse)): the input is over.
///
/// `on_error` can come at any point. Variations are visited by default: return
/// [`Control::Skip`] from `on_tree` when `ctx.variation > 0` to read the main line only, or
/// [`Control::Skip`] from `on_node_end` of the root node to read game information only.
///
/// ```
/// use kifu::{Control, sgf::{self, Context, Move, Visitor}};
///
/// #[derive(Default)]
/// struct MainLine(Vec<String>);
///
/// impl Visitor for MainLine {
///     fn on_tree(&mut self, ctx: &Context) -> Control {
///         if ctx.variation > 0 { Control::Skip } else { Control::Continue }
///     }
///     fn on_move(&mut self, _ctx: &Context, mv: &Move<'_>) -> Control {
///         self.0.push(mv.point.map_or("pass".into(), |p| p.to_string()));
///         Control::Continue
///     }
/// }
///
/// let mut v = MainLine::default();
/// sgf::parse(b"(;SZ[9];B[ee](;W[cc];B[])(;W[gg]))", &mut v);
/// assert_eq!(v.0, ["ee", "cc", "pass"]);
/// ```
#[allow(unused_variables)]
pub trait Visitor {
    /// A game tree (`ctx.depth == 0`) or a variation (`ctx.depth >= 1`) begins, at its `(`.
    /// [`Control::Skip`] skips it (then only its `on_tree_end` arrives).
    fn on_tree(&mut self, ctx: &Context) -> Control {
        Control::Continue
    }

    /// A game tree or variation ends. `ctx.depth` matches its `on_tree`.
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        Control::Continue
    }

    /// A node begins (at its `;`).
    fn on_node(&mut self, ctx: &Context) -> Control {
        Control::Continue
    }

    /// The node is over (raised at what ends it: the next `;`, `(` or `)`).
    fn on_node_end(&mut self, ctx: &Context) -> Control {
        Control::Continue
    }

    /// A property: its identifier, raised before its values.
    fn on_property(&mut self, ctx: &Context, prop: &Property<'_>) -> Control {
        Control::Continue
    }

    /// A value of the current property, or a piece of a long one (see [`Value`]).
    fn on_value(&mut self, ctx: &Context, value: &Value<'_>) -> Control {
        Control::Continue
    }

    /// A Go move (`B` or `W`), right after its `on_value`.
    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        Control::Continue
    }

    /// A comment (`C`), or a piece of a long one, right after its `on_value`.
    fn on_comment(&mut self, ctx: &Context, comment: &Comment<'_>) -> Control {
        Control::Continue
    }

    /// A problem in the input, located; parsing goes on after it.
    fn on_error(&mut self, error: &Error<'_>) -> Control {
        Control::Continue
    }

    /// The input is over: raised once by [`Parser::finish`](super::Parser::finish) (and so by
    /// [`parse`](super::parse)) after the last game tree was closed, also when the input held
    /// none. A visitor that collects results can flush them here, so that nothing waits for a
    /// call of its own after the parse.
    fn on_end(&mut self) {}
}

impl<V: Visitor + ?Sized> Visitor for &mut V {
    fn on_tree(&mut self, ctx: &Context) -> Control {
        (**self).on_tree(ctx)
    }
    fn on_tree_end(&mut self, ctx: &Context) -> Control {
        (**self).on_tree_end(ctx)
    }
    fn on_node(&mut self, ctx: &Context) -> Control {
        (**self).on_node(ctx)
    }
    fn on_node_end(&mut self, ctx: &Context) -> Control {
        (**self).on_node_end(ctx)
    }
    fn on_property(&mut self, ctx: &Context, prop: &Property<'_>) -> Control {
        (**self).on_property(ctx, prop)
    }
    fn on_value(&mut self, ctx: &Context, value: &Value<'_>) -> Control {
        (**self).on_value(ctx, value)
    }
    fn on_move(&mut self, ctx: &Context, mv: &Move<'_>) -> Control {
        (**self).on_move(ctx, mv)
    }
    fn on_comment(&mut self, ctx: &Context, comment: &Comment<'_>) -> Control {
        (**self).on_comment(ctx, comment)
    }
    fn on_error(&mut self, error: &Error<'_>) -> Control {
        (**self).on_error(error)
    }
    fn on_end(&mut self) {
        (**self).on_end()
    }
}

#[cfg(test)]
mod display_tests {
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use super::{Error, Visitor};
    use crate::control::Control;

    struct Lines(Vec<String>);
    impl Visitor for Lines {
        fn on_error(&mut self, e: &Error<'_>) -> Control {
            self.0.push(e.to_string());
            Control::Continue
        }
    }

    #[test]
    fn one_line_each() {
        let mut v = Lines(Vec::new());
        crate::sgf::parse(b"(;GM[1]\n;B[aa]ZZ\n[x])", &mut v);
        assert!(!v.0.is_empty());
        for l in &v.0 {
            assert!(l.contains("(game 1"), "{l}");
            assert!(!l.contains('\n'), "{l}");
        }
    }
}
