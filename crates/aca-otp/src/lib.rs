//! Time-based one-time passwords (RFC 6238 over RFC 4226) as virtual MFA devices use them: a
//! Base32 setup key, SHA-1, 30-second steps and 6 digits.
//!
//! The caller passes the time in; nothing here reads a clock.

use hmac::{Hmac, Mac};
use sha1::Sha1;

/// Seconds one code lasts.
pub const STEP_SECONDS: u64 = 30;
/// Digits in a code.
pub const DIGITS: u32 = 6;

/// A setup key that is not Base32 (RFC 4648: `A`–`Z`, `2`–`7`, optional `=` padding).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the setup key is not Base32 (letters A to Z and digits 2 to 7)")]
#[non_exhaustive]
pub struct BadKey;

/// The key's bytes. Spaces and hyphens (keys are shown in groups) are ignored, and case does not
/// matter, as authenticator apps take them.
pub fn decode_key(key: &str) -> Result<Vec<u8>, BadKey> {
    let mut bits: u64 = 0;
    let mut held = 0u32;
    let mut out = Vec::new();
    let cleaned = key.trim().trim_end_matches('=');
    if cleaned.is_empty() {
        return Err(BadKey);
    }
    for c in cleaned.chars().filter(|c| !matches!(c, ' ' | '-')) {
        let value = match c.to_ascii_uppercase() {
            c @ 'A'..='Z' => c as u64 - 'A' as u64,
            c @ '2'..='7' => c as u64 - '2' as u64 + 26,
            _ => return Err(BadKey),
        };
        bits = (bits << 5) | value;
        held += 5;
        if held >= 8 {
            held -= 8;
            out.push((bits >> held) as u8);
            bits &= (1 << held) - 1;
        }
    }
    Ok(out)
}

/// Encodes bytes as a Base32 setup key, without padding.
pub fn encode_key(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::new();
    let mut bits: u64 = 0;
    let mut held = 0u32;
    for &byte in bytes {
        bits = (bits << 8) | u64::from(byte);
        held += 8;
        while held >= 5 {
            held -= 5;
            out.push(ALPHABET[((bits >> held) & 31) as usize] as char);
        }
        bits &= (1 << held) - 1;
    }
    if held > 0 {
        out.push(ALPHABET[((bits << (5 - held)) & 31) as usize] as char);
    }
    out
}

/// The time step a Unix time falls in.
pub fn step_of(unix_seconds: u64) -> u64 {
    unix_seconds / STEP_SECONDS
}

/// The code of one time step (RFC 4226's HOTP with the step as counter).
pub fn code_at_step(key: &[u8], step: u64) -> String {
    // HMAC accepts keys of any length: this cannot fail.
    let Ok(mut mac) = Hmac::<Sha1>::new_from_slice(key) else {
        return String::new();
    };
    mac.update(&step.to_be_bytes());
    let digest = mac.finalize().into_bytes();
    let offset = usize::from(digest[digest.len() - 1] & 0x0f);
    let word = u32::from_be_bytes([digest[offset], digest[offset + 1], digest[offset + 2], digest[offset + 3]]);
    format!("{:0width$}", (word & 0x7fff_ffff) % 10u32.pow(DIGITS), width = DIGITS as usize)
}

/// The code an authenticator app shows at this Unix time.
pub fn code_at(key: &[u8], unix_seconds: u64) -> String {
    code_at_step(key, step_of(unix_seconds))
}

/// Whether two codes are consecutive codes of the key around this time: the first of a step at
/// most `drift` steps before or after the current one, the second of the step after it.
pub fn consecutive(key: &[u8], first: &str, second: &str, unix_seconds: u64, drift: u64) -> bool {
    let now = step_of(unix_seconds);
    (now.saturating_sub(drift + 1)..=now + drift)
        .any(|step| code_at_step(key, step) == first.trim() && code_at_step(key, step + 1) == second.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238, appendix B: the SHA-1 key "12345678901234567890", 8-digit codes cut to 6.
    #[test]
    fn codes_match_the_rfc_6238_test_vectors() {
        let key = b"12345678901234567890";
        for (time, code) in [
            (59, "287082"),
            (1_111_111_109, "081804"),
            (1_111_111_111, "050471"),
            (1_234_567_890, "005924"),
            (2_000_000_000, "279037"),
            (20_000_000_000, "353130"),
        ] {
            assert_eq!(code_at(key, time), code, "at {time}");
        }
    }

    #[test]
    fn a_key_survives_base32_and_reads_as_apps_read_it() {
        let key = b"12345678901234567890";
        let text = encode_key(key);
        assert_eq!(text, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
        assert_eq!(decode_key(&text).unwrap(), key);
        assert_eq!(decode_key("gezd gnbv-gy3t qojq gezd gnbv gy3t qojq").unwrap(), key);
        assert_eq!(decode_key("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ====").unwrap(), key);
    }

    #[test]
    fn what_is_not_base32_is_refused() {
        assert_eq!(decode_key("not base32!"), Err(BadKey));
        assert_eq!(decode_key("ABC1"), Err(BadKey));
        assert_eq!(decode_key("  "), Err(BadKey));
    }

    #[test]
    fn two_consecutive_codes_are_taken_and_others_are_not() {
        let key = b"12345678901234567890";
        let now = 1_234_567_890;
        let step = step_of(now);
        let (previous, current, next) = (
            code_at_step(key, step - 1),
            code_at_step(key, step),
            code_at_step(key, step + 1),
        );
        assert!(consecutive(key, &previous, &current, now, 1));
        assert!(consecutive(key, &current, &next, now, 1));
        assert!(!consecutive(key, &current, &previous, now, 1));
        assert!(!consecutive(key, &current, &current, now, 1));
        assert!(!consecutive(key, &previous, &current, now + 10 * STEP_SECONDS, 1));
    }
}
