//! What a name claims: the format, compression and bundle its suffixes name.

use crate::{Compression, Format};

/// The kind of bundle a name claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Archive {
    /// A tar archive (`.tar`, also under a compression suffix, `.tgz`, `.tbz2`, `.txz`, `.tzst`).
    Tar,
    /// A zip archive (`.zip`).
    Zip,
}

/// What a file name claims by its suffixes (case-insensitive). See [`name_info`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NameInfo {
    /// `.pgn` / `.sgf`, also under a compression suffix (`x.pgn.zst`).
    pub format: Option<Format>,
    /// The compression the last suffix names: `.zst`/`.zstd`/`.tzst`, `.gz`/`.tgz`,
    /// `.bz2`/`.tbz2`/`.tbz`, `.xz`/`.txz`.
    pub compression: Option<Compression>,
    /// `.tar` (also under a compression suffix, or `.tgz` and the like), `.zip`.
    pub archive: Option<Archive>,
}

impl NameInfo {
    /// Whether a directory walk takes the file: it names a PGN or SGF file (compressed or not)
    /// or an archive.
    pub fn is_wanted(&self) -> bool {
        self.format.is_some() || self.archive.is_some()
    }
}

/// What a name (a path, or an archive member's name) claims by its suffixes.
///
/// ```
/// use kifu_input::{name_info, Compression, Format, names::Archive};
/// let i = name_info("dumps/lichess_2024-01.PGN.zst");
/// assert_eq!((i.format, i.compression, i.archive), (Some(Format::Pgn), Some(Compression::Zstd), None));
/// let i = name_info("go.tgz");
/// assert_eq!((i.compression, i.archive), (Some(Compression::Gzip), Some(Archive::Tar)));
/// assert!(!name_info("README.txt").is_wanted());
/// ```
pub fn name_info(name: &str) -> NameInfo {
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let mut info = NameInfo::default();
    let (mut stem, mut ext) = split_ext(file);
    let compression = match ext.to_ascii_lowercase().as_str() {
        "zst" | "zstd" => Some((Compression::Zstd, false)),
        "tzst" => Some((Compression::Zstd, true)),
        "gz" => Some((Compression::Gzip, false)),
        "tgz" => Some((Compression::Gzip, true)),
        "bz2" => Some((Compression::Bzip2, false)),
        "tbz2" | "tbz" => Some((Compression::Bzip2, true)),
        "xz" => Some((Compression::Xz, false)),
        "txz" => Some((Compression::Xz, true)),
        _ => None,
    };
    if let Some((c, tar)) = compression {
        info.compression = Some(c);
        if tar {
            info.archive = Some(Archive::Tar);
            return info;
        }
        (stem, ext) = split_ext(stem);
    }
    let _ = stem;
    if ext.eq_ignore_ascii_case("tar") {
        info.archive = Some(Archive::Tar);
    } else if ext.eq_ignore_ascii_case("zip") {
        info.archive = Some(Archive::Zip);
    } else {
        info.format = Format::from_extension(ext);
    }
    info
}

/// `("a.b", "c")` from `"a.b.c"`; `(name, "")` without a dot (a leading dot does not count).
fn split_ext(name: &str) -> (&str, &str) {
    match name.rfind('.') {
        Some(i) if i > 0 => (&name[..i], &name[i + 1..]),
        _ => (name, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims() {
        let i = name_info("a/b.c/x.sgf");
        assert_eq!(i.format, Some(Format::Sgf));
        assert_eq!(i.compression, None);
        let i = name_info("x.tar.bz2");
        assert_eq!(i.archive, Some(Archive::Tar));
        assert_eq!(i.compression, Some(Compression::Bzip2));
        assert_eq!(name_info("x.zip").archive, Some(Archive::Zip));
        assert_eq!(name_info("x.TXZ").archive, Some(Archive::Tar));
        assert_eq!(
            name_info("x.gz"),
            NameInfo {
                compression: Some(Compression::Gzip),
                ..Default::default()
            }
        );
        assert_eq!(name_info(".pgn"), NameInfo::default());
        assert_eq!(name_info("-"), NameInfo::default());
        assert!(!name_info("x.pgn.txt").is_wanted());
        assert!(name_info("x.pgn.xz").is_wanted());
        // only one compression suffix is looked through
        assert_eq!(name_info("x.pgn.gz.zst").format, None);
    }
}
