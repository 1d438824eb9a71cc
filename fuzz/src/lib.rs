//! What the chunking fuzz targets share: the input layout's chunk lengths, and cutting the text
//! into chunks.

/// Bytes before the chunk lengths: the config bytes and the count.
pub const HEADER: usize = 4;

/// The chunk lengths (`k = 1 + data[3] % 8` bytes after the header; all zero means 1) and
/// where the text starts.
pub fn split_of(data: &[u8]) -> (Vec<usize>, usize) {
    let k = 1 + data.get(3).copied().unwrap_or(0) as usize % 8;
    let start = (HEADER + k).min(data.len());
    let mut lens: Vec<usize> = (0..k)
        .map(|i| data.get(HEADER + i).copied().unwrap_or(0) as usize)
        .collect();
    if lens.iter().all(|&l| l == 0) {
        lens = vec![1];
    }
    (lens, start)
}

/// `input` cut into chunks of the given lengths, in turn.
pub fn chunks<'a>(input: &'a [u8], lens: &[usize]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    for &len in lens.iter().cycle() {
        if at >= input.len() {
            break;
        }
        let end = (at + len).min(input.len());
        out.push(&input[at..end]);
        at = end;
    }
    out
}
