//! The random suffix that makes a run's resource names unique (`var.suffix`): six characters of
//! lower-case letters and digits, starting with a letter so that it is valid wherever names are.

use rand::Rng;

#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Suffix(String);

const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
pub const LENGTH: usize = 6;

impl Suffix {
    pub fn random() -> Self {
        let mut rng = rand::rng();
        let mut s = String::with_capacity(LENGTH);
        s.push(LETTERS[rng.random_range(0..LETTERS.len())] as char);
        for _ in 1..LENGTH {
            s.push(ALPHABET[rng.random_range(0..ALPHABET.len())] as char);
        }
        Self(s)
    }

    /// A given suffix, checked: 1 to 16 lower-case letters and digits.
    pub fn parse(s: &str) -> Option<Self> {
        let valid = (1..=16).contains(&s.len()) && s.bytes().all(|b| ALPHABET.contains(&b));
        valid.then(|| Self(s.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Suffix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_suffixes_are_six_lowercase_alphanumerics_and_differ() {
        let all: Vec<Suffix> = (0..200).map(|_| Suffix::random()).collect();
        for s in &all {
            assert_eq!(s.as_str().len(), LENGTH);
            assert!(s.as_str().bytes().all(|b| ALPHABET.contains(&b)), "{s}");
            assert!(s.as_str().as_bytes()[0].is_ascii_lowercase(), "{s}");
        }
        let mut distinct = all.clone();
        distinct.sort_by(|a, b| a.0.cmp(&b.0));
        distinct.dedup();
        assert!(distinct.len() > 190, "suffixes repeat too often");
        assert_eq!(Suffix::parse("ab12"), Some(Suffix("ab12".into())));
        assert_eq!(Suffix::parse("AB12"), None);
        assert_eq!(Suffix::parse(""), None);
    }
}
