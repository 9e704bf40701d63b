//! Deterministic tar.gz archives of a game's files, and their careful reading: the mail bundle
//! and the packed game are both made and read here. Written archives are ustar with fixed
//! metadata, compressed with gzip without name or time, so the same files give the same bytes.
//! Read archives may come from anyone: only regular files at allowed paths, each once, within
//! the limits.

use qijudge_protocol::error::{Error, Result};
use std::borrow::Cow;
use std::io::{Read, Write};
use std::ops::Range;

/// What an archive may hold.
pub struct Limits {
    /// Bytes once decompressed (a small gzip stream may inflate a thousandfold).
    pub unpacked: u64,
    /// Bytes of one file.
    pub file: u64,
    /// Number of files.
    pub files: usize,
}

/// A gzip-compressed ustar archive of `files` (path, bytes), in the order given.
pub fn write(files: &[(String, Vec<u8>)], level: flate2::Compression) -> Result<Vec<u8>> {
    let mut builder = tar::Builder::new(Vec::new());
    for (path, bytes) in files {
        let mut header = tar::Header::new_ustar();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(0);
        header.set_uid(0);
        header.set_gid(0);
        header.set_entry_type(tar::EntryType::Regular);
        builder
            .append_data(&mut header, path, bytes.as_slice())
            .map_err(|e| Error::Io(format!("packing {path}: {e}")))?;
    }
    let tar = builder
        .into_inner()
        .map_err(|e| Error::Io(format!("packing the game: {e}")))?;
    let mut gz = flate2::GzBuilder::new().mtime(0).write(Vec::new(), level);
    gz.write_all(&tar)
        .and_then(|_| gz.finish())
        .map_err(|e| Error::Io(format!("compressing the game: {e}")))
}

/// The room to make for a gzip member's output at once, rather than growing it while it
/// inflates: the size its trailer states (modulo 2³²), never over the limit. The trailer is
/// only a hint here; the limit and the stream decide.
fn gzip_size_hint(gz: &[u8], limit: u64) -> usize {
    let stated = gz
        .last_chunk::<4>()
        .map_or(0, |t| u64::from(u32::from_le_bytes(*t)));
    usize::try_from(stated.min(limit)).unwrap_or(0)
}

/// The output of the gzip member `gz` when it is one whole member, nothing after it, whose
/// trailer states its size within `limit` and its CRC: inflated in one call into a buffer of
/// that size. Anything else is none, and [`inflate_stream`] decides and explains.
fn inflate_in_one_go(gz: &[u8], limit: u64) -> Option<Vec<u8>> {
    let size = gzip_size_hint(gz, limit);
    // Room, not zeros: a game's hundreds of kilobytes need not be cleared to be overwritten.
    let mut out = Vec::with_capacity(size);
    // A gzip header (16) and the largest window (15); zlib checks the trailer's CRC and size.
    let mut inflater = zlib_rs::Inflate::new(true, 16 + 15);
    let room = &mut out.spare_capacity_mut()[..size];
    let done = inflater.decompress_uninit(gz, room, zlib_rs::InflateFlush::Finish);
    let whole = matches!(done, Ok(zlib_rs::Status::StreamEnd))
        && inflater.total_in() == gz.len() as u64
        && inflater.total_out() == size as u64;
    if !whole {
        return None;
    }
    // SAFETY: the inflater wrote `total_out` bytes from the start of `room`, and that is all
    // `size` bytes of it; `size` is within the capacity asked for above.
    unsafe { out.set_len(size) };
    Some(out)
}

/// The output of the gzip member `gz`, read as a stream within `limit` bytes, or why not.
fn inflate_stream(gz: &[u8], limit: u64) -> std::result::Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(gzip_size_hint(gz, limit));
    // One gzip member and nothing after it: `gzip -d` (and so `tar -xzf`) would go on into a
    // second member that this reader never saw, and unpack another game than the one read.
    let mut member = flate2::bufread::GzDecoder::new(gz);
    (&mut member)
        .take(limit + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("not a gzip file: {e}"))?;
    if out.len() as u64 <= limit && !member.into_inner().is_empty() {
        return Err("bytes after the gzip member (a second member?): one member only".into());
    }
    if out.len() as u64 > limit {
        return Err(format!("more than {limit} bytes once decompressed"));
    }
    Ok(out)
}

/// The files of an archive (gzip-compressed or plain tar), in archive order, or why it cannot
/// be read; `holder` names the archive in the refusal of a path it may not hold ("a game
/// bundle holds").
pub fn read(
    bytes: &[u8],
    limits: &Limits,
    allowed: impl Fn(&str) -> bool,
    holder: &str,
) -> std::result::Result<Vec<(String, Vec<u8>)>, String> {
    let (tar, files) = index(bytes, limits, allowed, holder)?;
    Ok(files
        .into_iter()
        .map(|(path, at)| (path, tar[at].to_vec()))
        .collect())
}

/// Each file's path and where its bytes lie in the tar, in archive order.
pub type Places = Vec<(String, Range<usize>)>;

/// An archive read as [`read`] reads it, its files left where they lie: the tar (inflated
/// when `bytes` is gzip-compressed) and each file's path and place in it, in archive order.
/// A reader of many files (a packed game's) then copies none of them.
pub fn index<'a>(
    bytes: &'a [u8],
    limits: &Limits,
    allowed: impl Fn(&str) -> bool,
    holder: &str,
) -> std::result::Result<(Cow<'a, [u8]>, Places), String> {
    let tar: Cow<[u8]> = if bytes.starts_with(&[0x1f, 0x8b]) {
        Cow::Owned(match inflate_in_one_go(bytes, limits.unpacked) {
            Some(out) => out,
            None => inflate_stream(bytes, limits.unpacked)?,
        })
    } else {
        Cow::Borrowed(bytes)
    };
    let files = entries(&tar, limits, allowed, holder)?;
    Ok((tar, files))
}

/// The regular files of the tar `bytes`: each allowed path once, within the limits, then the
/// end marker and nothing else.
fn entries(
    bytes: &[u8],
    limits: &Limits,
    allowed: impl Fn(&str) -> bool,
    holder: &str,
) -> std::result::Result<Places, String> {
    // Read through a seekable cursor: tar then steps over each entry's data by seeking, where
    // it would otherwise zero and fill a 32 KiB buffer an entry.
    let mut archive = tar::Archive::new(std::io::Cursor::new(bytes));
    let mut files: Places = Vec::new();
    let mut end = 0usize;
    let entries = archive
        .entries_with_seek()
        .map_err(|e| format!("not a tar archive: {e}"))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("a damaged entry: {e}"))?;
        let path = entry
            .path()
            .map_err(|e| format!("an entry without a readable name: {e}"))?
            .to_string_lossy()
            .into_owned();
        if entry.header().entry_type() != tar::EntryType::Regular {
            return Err(format!("{path}: not a regular file"));
        }
        if !allowed(&path) {
            return Err(format!("{path}: not a file {holder}"));
        }
        let size = entry.header().size().map_err(|e| format!("{path}: {e}"))?;
        // A size that an extended (pax) header gives the entry over its own: tar readers that
        // honour it and those that do not would read different bytes (qijudge writes none).
        if entry.size() != size {
            return Err(format!(
                "{path}: an extended header gives it another size than its own"
            ));
        }
        if size > limits.file {
            return Err(format!("{path}: larger than {} bytes", limits.file));
        }
        if files.len() == limits.files {
            return Err(format!("more than {} files", limits.files));
        }
        // The data must be there whole: tar seeks over it without reading it.
        let at = usize::try_from(entry.raw_file_position())
            .ok()
            .zip(usize::try_from(size).ok())
            .and_then(|(from, size)| Some(from..from.checked_add(size)?))
            .filter(|at| at.end <= bytes.len())
            .ok_or_else(|| format!("{path}: cut short"))?;
        end = at.end.div_ceil(512) * 512;
        files.push((path, at));
    }
    // Each path once: sorted, a path twice sits next to itself (and qijudge writes its paths
    // in order, which the sort finds sorted in one pass).
    let mut paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    paths.sort_unstable();
    if let Some(twice) = paths.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("{}: twice in the archive", twice[0]));
    }
    // The archive's end marker (two zero blocks) and only zeros after it: data there is what
    // another tar reader might take for more files.
    let tail = bytes.get(end..);
    if !tail.is_some_and(|t| t.len() >= 1024 && t.iter().all(|&b| b == 0)) {
        return Err("the tar archive does not end with its end marker and nothing else".into());
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn packed() -> Vec<u8> {
        let files: Vec<(String, Vec<u8>)> = (0..40)
            .map(|i| {
                let text = format!("ply = {i}\n").repeat(i + 1);
                (format!("moves/{i:04}.toml"), text.into_bytes())
            })
            .collect();
        write(&files, flate2::Compression::default()).unwrap()
    }

    /// What qijudge writes is inflated in one go, to the stream reader's bytes; a member over
    /// the limit, with more after it, or cut short is left to the stream reader.
    #[test]
    fn a_whole_member_is_inflated_in_one_go_to_the_streams_bytes() {
        let gz = packed();
        let fast = inflate_in_one_go(&gz, 1 << 20).expect("one whole member");
        assert_eq!(Ok(fast), inflate_stream(&gz, 1 << 20));
        assert_eq!(inflate_in_one_go(&gz, 100), None);
        assert_eq!(
            inflate_in_one_go(&[&gz[..], &gz[..]].concat(), 1 << 20),
            None
        );
        assert_eq!(inflate_in_one_go(&gz[..gz.len() - 1], 1 << 20), None);
        let mut crc = gz.clone();
        let at = crc.len() - 8;
        crc[at] ^= 1;
        assert_eq!(inflate_in_one_go(&crc, 1 << 20), None);
        assert!(inflate_stream(&crc, 1 << 20).is_err());
    }

    /// Files are read in place, each at its own bytes; an archive whose last file's data is
    /// cut short is refused by that file's name, whatever is cut.
    #[test]
    fn files_are_indexed_where_they_lie_and_a_cut_file_is_refused() {
        let limits = Limits {
            unpacked: 1 << 20,
            file: 1 << 20,
            files: 100,
        };
        let gz = packed();
        let (tar, files) = index(&gz, &limits, |_| true, "a test holds").unwrap();
        assert_eq!(files.len(), 40);
        for (i, (path, at)) in files.iter().enumerate() {
            assert_eq!(path, &format!("moves/{i:04}.toml"));
            assert_eq!(
                &tar[at.clone()],
                format!("ply = {i}\n").repeat(i + 1).as_bytes()
            );
        }
        assert_eq!(
            read(&tar, &limits, |_| true, "a test holds").unwrap()[39].1,
            &tar[files[39].1.clone()]
        );
        let last = files[39].1.clone();
        for cut in [last.end - 1, last.start + 1, last.start] {
            let why = read(&tar[..cut], &limits, |_| true, "a test holds").unwrap_err();
            assert_eq!(why, "moves/0039.toml: cut short", "{cut}");
        }
    }

    /// A pax header that gives a file another size than its own header does is refused: tar
    /// readers that honour it and those that do not would take different bytes.
    #[test]
    fn a_size_from_an_extended_header_is_refused() {
        let block = |bytes: &[u8]| {
            let mut b = bytes.to_vec();
            b.resize(bytes.len().div_ceil(512) * 512, 0);
            b
        };
        let header = |path: &str, kind: tar::EntryType, size: u64| {
            let mut h = tar::Header::new_ustar();
            h.set_path(path).unwrap();
            h.set_entry_type(kind);
            h.set_size(size);
            h.set_mode(0o644);
            h.set_cksum();
            h.as_bytes().to_vec()
        };
        let pax = b"11 size=20\n";
        let tar = [
            header("pax", tar::EntryType::XHeader, pax.len() as u64),
            block(pax),
            header("moves/0001-red.toml", tar::EntryType::Regular, 10),
            block(&[b'x'; 20]),
            vec![0; 1024],
        ]
        .concat();
        let limits = Limits {
            unpacked: 1 << 20,
            file: 1 << 20,
            files: 100,
        };
        let why = read(&tar, &limits, |_| true, "a test holds").unwrap_err();
        assert_eq!(
            why,
            "moves/0001-red.toml: an extended header gives it another size than its own"
        );
    }

    /// A path twice is refused wherever the second one is: in order, out of order, or after
    /// other paths out of order.
    #[test]
    fn a_path_twice_is_refused_in_any_order() {
        let limits = Limits {
            unpacked: 1 << 20,
            file: 1 << 20,
            files: 100,
        };
        let archive = |paths: &[&str]| {
            let files: Vec<(String, Vec<u8>)> = paths
                .iter()
                .map(|p| (p.to_string(), b"x".to_vec()))
                .collect();
            write(&files, flate2::Compression::fast()).unwrap()
        };
        for paths in [
            &["a", "b", "b"][..],
            &["b", "a", "b"],
            &["a", "c", "b", "c"],
            &["c", "b", "a", "d", "a"],
            &["a", "a"],
        ] {
            let why = read(&archive(paths), &limits, |_| true, "a test holds").unwrap_err();
            assert!(why.ends_with(": twice in the archive"), "{paths:?}: {why}");
        }
        for paths in [
            &["a", "b", "c"][..],
            &["c", "b", "a"],
            &["b", "c", "a", "d"],
        ] {
            let files = read(&archive(paths), &limits, |_| true, "a test holds").unwrap();
            let read: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
            assert_eq!(read, paths);
        }
    }

    /// Every value of every header byte (flags, reserved bits, a header CRC claimed but
    /// absent, another method): the one-go path gives the stream reader's bytes or nothing.
    #[test]
    fn every_header_byte_is_decided_alike() {
        let gz = packed();
        for at in 0..10 {
            for value in 0..=255u8 {
                let mut edited = gz.clone();
                edited[at] = value;
                if let Some(fast) = inflate_in_one_go(&edited, 1 << 20) {
                    assert_eq!(
                        Ok(fast),
                        inflate_stream(&edited, 1 << 20),
                        "byte {at} = {value}"
                    );
                }
            }
        }
    }

    proptest! {
        /// Whatever bytes of a member are changed or cut, the one-go path gives the stream
        /// reader's bytes or leaves the member to it.
        #[test]
        fn the_one_go_path_is_the_stream_path_or_none(
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
            cut in 0usize..12,
        ) {
            let mut gz = packed();
            for (at, byte) in edits {
                let i = at.index(gz.len());
                gz[i] = byte;
            }
            gz.truncate(gz.len() - cut);
            if let Some(fast) = inflate_in_one_go(&gz, 1 << 20) {
                prop_assert_eq!(Ok(fast), inflate_stream(&gz, 1 << 20));
            }
        }
    }
}
