//! The `FF[4]` property table (general properties and Go's), for the checks the parser makes.

/// The property type of `FF[4]` §2.2.1, plus the classes the checks need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// `B`, `W`.
    Move,
    /// Other move-type properties: `KO`, `MN`, timing `BL` `WL` `OB` `OW`.
    MoveOther,
    /// Move annotations `BM` `DO` `IT` `TE`: exclusive, and need a move in the node.
    MoveAnnotation,
    /// `AB` `AW` `AE` `PL`.
    Setup,
    /// `AP` `CA` `FF` `GM` `ST` `SZ`: only in the root node.
    Root,
    /// Game information (`PB`, `RE`, `KM`, …): one game-info node on a path.
    GameInfo,
    /// `DM` `GB` `GW` `UC`: exclusive.
    NodeAnnotation,
    /// Everything else that `FF[4]` defines.
    Plain,
    /// `FF[1]–FF[3]` properties no longer in `FF[4]` (`L`, `M`, `KI`, …).
    Obsolete,
}

/// The value type, as far as the checks go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    /// A Go move: a point or a pass.
    Move,
    /// A point, or (in a list) a compressed `ul:lr` rectangle.
    Point,
    /// `point:point` (`AR`, `LN`).
    PointPair,
    /// `point:simpletext` (`LB`).
    Label,
    /// Number.
    Number,
    /// Real.
    Real,
    /// Double (`1` or `2`).
    Double,
    /// Color (`B` or `W`).
    Color,
    /// None: the value must be empty.
    Nothing,
    /// `SZ`: a number or `cols:rows`.
    Size,
    /// Text, SimpleText or a compose of them: anything goes.
    Any,
}

/// What the table knows about one property.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Info {
    pub(crate) class: Class,
    pub(crate) ty: Ty,
    /// A list: several values allowed.
    pub(crate) list: bool,
    /// An elist: `[]` alone allowed.
    pub(crate) elist: bool,
}

const fn info(class: Class, ty: Ty, list: bool, elist: bool) -> Info {
    Info {
        class,
        ty,
        list,
        elist,
    }
}

const fn single(class: Class, ty: Ty) -> Option<Info> {
    Some(info(class, ty, false, false))
}

/// The table entry of an `FF[4]` (or Go, or obsolete) identifier (uppercase letters only);
/// `None` for unknown ones. One- and two-letter identifiers (all the known ones) are looked up
/// in a table made at compile time.
#[inline]
pub(crate) fn lookup(name: &[u8]) -> Option<Info> {
    match bit(name) {
        Some(i) => TABLE[i],
        None => describe(name),
    }
}

/// [`lookup`] for every one- and two-letter identifier, by [`bit`].
pub(crate) static TABLE: [Option<Info>; 26 + 26 * 26] = {
    let mut t = [None; 26 + 26 * 26];
    let mut a = 0;
    while a < 26 {
        t[a] = describe(&[b'A' + a as u8]);
        let mut b = 0;
        while b < 26 {
            t[26 + a * 26 + b] = describe(&[b'A' + a as u8, b'A' + b as u8]);
            b += 1;
        }
        a += 1;
    }
    t
};

/// What the specification says of `name`.
const fn describe(name: &[u8]) -> Option<Info> {
    use Class::*;
    use Ty::*;
    match name {
        b"B" | b"W" => single(Class::Move, Ty::Move),
        b"KO" => single(MoveOther, Nothing),
        b"MN" | b"OB" | b"OW" => single(MoveOther, Number),
        b"BL" | b"WL" => single(MoveOther, Real),
        b"BM" | b"TE" => single(MoveAnnotation, Double),
        b"DO" | b"IT" => single(MoveAnnotation, Nothing),
        b"AB" | b"AW" | b"AE" => Some(info(Setup, Point, true, false)),
        b"PL" => single(Setup, Color),
        b"C" | b"N" => single(Plain, Any),
        b"DM" | b"GB" | b"GW" | b"UC" => single(NodeAnnotation, Double),
        b"HO" => single(Plain, Double),
        b"V" => single(Plain, Real),
        b"AR" | b"LN" => Some(info(Plain, PointPair, true, false)),
        b"CR" | b"MA" | b"SL" | b"SQ" | b"TR" => Some(info(Plain, Point, true, false)),
        b"DD" | b"VW" | b"TB" | b"TW" => Some(info(Plain, Point, true, true)),
        b"LB" => Some(info(Plain, Label, true, false)),
        b"AP" | b"CA" => single(Root, Any),
        b"FF" | b"GM" | b"ST" => single(Root, Number),
        b"SZ" => single(Root, Size),
        b"AN" | b"BR" | b"BT" | b"CP" | b"DT" | b"EV" | b"GN" | b"GC" | b"ON" | b"OT" | b"PB"
        | b"PC" | b"PW" | b"RE" | b"RO" | b"RU" | b"SO" | b"US" | b"WR" | b"WT" => {
            single(GameInfo, Any)
        }
        b"TM" | b"KM" => single(GameInfo, Real),
        b"HA" => single(GameInfo, Number),
        b"FG" => single(Plain, Any),
        b"PM" => single(Plain, Number),
        b"BS" | b"CH" | b"EL" | b"EX" | b"ID" | b"L" | b"LT" | b"M" | b"OM" | b"OP" | b"OV"
        | b"RG" | b"SC" | b"SE" | b"SI" | b"TC" | b"WS" | b"KI" => {
            Some(info(Obsolete, Any, true, true))
        }
        _ => None,
    }
}

/// The bit of a one- or two-letter identifier (uppercase letters) in a node's set of seen
/// identifiers.
#[inline]
pub(crate) const fn bit(name: &[u8]) -> Option<usize> {
    match *name {
        [a] if a.is_ascii_uppercase() => Some((a - b'A') as usize),
        [a, b] if a.is_ascii_uppercase() && b.is_ascii_uppercase() => {
            Some(26 + (a - b'A') as usize * 26 + (b - b'A') as usize)
        }
        _ => None,
    }
}

/// The identifier of each [`bit`].
static NAMES: [[u8; 2]; 26 + 26 * 26] = {
    let mut t = [[0; 2]; 26 + 26 * 26];
    let mut a = 0;
    while a < 26 {
        t[a] = [b'A' + a as u8, 0];
        let mut b = 0;
        while b < 26 {
            t[26 + a * 26 + b] = [b'A' + a as u8, b'A' + b as u8];
            b += 1;
        }
        a += 1;
    }
    t
};

/// The identifier whose [`bit`] is `bit`.
#[inline]
pub(crate) fn name(bit: usize) -> &'static [u8] {
    let n = &NAMES[bit];
    if bit < 26 { &n[..1] } else { n }
}

/// Words of the seen-identifier set (702 bits).
pub(crate) const SEEN_WORDS: usize = 11;
const _: () = assert!(SEEN_WORDS <= 16); // the parser's dirty mask is a u16

/// Whether `name` holds Text (`Some(false)`) or SimpleText (`Some(true)`) values; `None` for
/// every other type, compose values and unknown properties.
pub(crate) fn text_kind(name: &[u8]) -> Option<bool> {
    match name {
        b"C" | b"GC" => Some(false),
        b"AN" | b"BR" | b"BT" | b"CP" | b"DT" | b"EV" | b"GN" | b"ON" | b"OT" | b"PB" | b"PC"
        | b"PW" | b"RE" | b"RO" | b"RU" | b"SO" | b"US" | b"WR" | b"WT" | b"N" | b"CA" => {
            Some(true)
        }
        _ => None,
    }
}
