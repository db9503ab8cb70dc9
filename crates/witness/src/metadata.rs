//! The provenance part of every witness entry: the task (file names and
//! SHA-256 hashes, the unreach-call specification, the data model), the
//! producer, a UUID and the creation time — computed here without a clock
//! or random-number crate (the UUID is a version-4-shaped hash of the task,
//! the configuration and the time).

use crate::format::{Metadata, Producer, TaskInfo, FORMAT_VERSION};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The unreach-call specification in SV-COMP's LTL notation.
pub const UNREACH_CALL: &str = "G ! call(reach_error())";

/// SHA-256 of `bytes` as lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// `seconds` since the Unix epoch as ISO 8601 UTC: `2026-11-26T21:06:10Z`.
pub fn iso8601(seconds: u64) -> String {
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest / 60 % 60, rest % 60)
}

/// A version-4-shaped UUID (RFC 4122 text form) from the hash of `seed`.
pub fn uuid_from(seed: &str) -> String {
    let mut b: [u8; 16] = Sha256::digest(seed.as_bytes())[..16].try_into().expect("a SHA-256 digest has 32 bytes");
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
}

/// What a witness says about the run that produced it.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// The program file as given on the command line.
    pub file_name: String,
    /// The program's bytes (hashed into the metadata).
    pub file_bytes: Vec<u8>,
    /// The configuration name (preset or properties file).
    pub configuration: String,
    /// `ILP32` (the only data model the analyses implement).
    pub data_model: String,
    /// Seconds since the Unix epoch at creation.
    pub created_at: u64,
}

impl RunInfo {
    /// The metadata of an entry of kind `entry_type` for this run.
    pub fn metadata(&self, entry_type: &str) -> Metadata {
        let hash = sha256_hex(&self.file_bytes);
        let mut hashes = BTreeMap::new();
        hashes.insert(self.file_name.clone(), hash.clone());
        Metadata {
            format_version: FORMAT_VERSION.into(),
            uuid: uuid_from(&format!("{entry_type}|{hash}|{}|{}", self.configuration, self.created_at)),
            creation_time: iso8601(self.created_at),
            producer: Producer {
                name: "cpaplay".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                configuration: Some(self.configuration.clone()),
            },
            task: TaskInfo {
                input_files: vec![self.file_name.clone()],
                input_file_hashes: hashes,
                specification: UNREACH_CALL.into(),
                data_model: self.data_model.clone(),
                language: "C".into(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_uuids_and_hashes_have_their_standard_shapes() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(1_796_159_170), "2026-12-01T21:06:10Z");
        let u = uuid_from("x");
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert!(matches!(&u[19..20], "8" | "9" | "a" | "b"), "{u}");
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
