//! Secrets a run makes while provisioning (the password a Tair instance is created with): random,
//! held in memory for the run only, never serialised, printed masked; the agent gets placeholders
//! ([`aca_core::SecretRef`]) and the driver puts the values in where it types them.

use aca_core::{SecretKind, SecretRef};
use rand::Rng;

use crate::applier::Meta;
use crate::state::ProvisionState;

/// Configuration variables whose values are secrets the run generates (`var.password`).
pub const SECRET_VARIABLES: &[(&str, SecretKind)] = &[("password", SecretKind::Password)];

/// What a secret's value is shown as wherever it could surface.
pub const MASK: &str = "********";

/// A secret value. Neither `Debug` nor `Display` shows it, and it has no `Serialize`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// A password every console in the emulator and the real Tair, RDS and ECS APIs take: 16
    /// characters with upper- and lower-case letters, digits and one of `!@#$%^&*()_+-=`.
    pub fn generate() -> Self {
        const LOWER: &[u8] = b"abcdefghijkmnpqrstuvwxyz";
        const UPPER: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ";
        const DIGITS: &[u8] = b"23456789";
        const SPECIAL: &[u8] = b"!@#%^*_+-=";
        let mut rng = rand::rng();
        let mut pick = |set: &[u8]| set[rng.random_range(0..set.len())] as char;
        let mut s: String = [pick(UPPER), pick(LOWER), pick(DIGITS), pick(SPECIAL)].iter().collect();
        let all: Vec<u8> = [LOWER, UPPER, DIGITS].concat();
        for _ in 0..12 {
            s.push(pick(&all));
        }
        Self(s)
    }

    /// The value, for the one place that must send it (an API call, a typed field).
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secret({MASK})")
    }
}

/// The secrets of one run, by placeholder.
#[derive(Debug, Clone, Default)]
pub struct RunSecrets {
    known: Vec<(SecretRef, Secret)>,
}

impl RunSecrets {
    /// Keeps `secret` of `kind` for the resource `resource`; returns its reference.
    pub fn add(&mut self, kind: SecretKind, resource: &str, secret: Secret) -> SecretRef {
        let reference = SecretRef {
            kind,
            resource: resource.to_owned(),
            placeholder: SecretRef::placeholder_for(self.known.len() + 1),
        };
        self.known.push((reference.clone(), secret));
        reference
    }

    pub fn refs(&self) -> impl Iterator<Item = &SecretRef> {
        self.known.iter().map(|(r, _)| r)
    }

    pub fn is_empty(&self) -> bool {
        self.known.is_empty()
    }

    /// `text` with every placeholder replaced by its value: what is typed into the console.
    pub fn reveal(&self, text: &str) -> String {
        self.known
            .iter()
            .fold(text.to_owned(), |t, (r, s)| t.replace(&r.placeholder, s.expose()))
    }

    /// `text` with every value masked: what may be logged, reported or shown.
    pub fn mask(&self, text: &str) -> String {
        self.known.iter().fold(text.to_owned(), |t, (_, s)| t.replace(s.expose(), MASK))
    }
}

/// The secrets an apply of `meta` gave the resources of `state`: each secret variable's value, for
/// every created resource whose block refers to it.
pub fn secrets_of(meta: &Meta, state: &ProvisionState) -> Vec<(SecretKind, String, Secret)> {
    let mut out = Vec::new();
    for (name, secret) in &meta.secrets {
        let Some((_, kind)) = SECRET_VARIABLES.iter().find(|(n, _)| n == name) else {
            continue;
        };
        let variable = format!("var.{name}");
        for record in state.created() {
            let uses = meta
                .config
                .block(&record.block_address())
                .is_some_and(|b| b.depends_on.contains(&variable));
            if uses {
                out.push((*kind, record.id.clone(), secret.clone()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_password_has_every_character_class_and_never_prints() {
        let secret = Secret::generate();
        let value = secret.expose();
        assert_eq!(value.len(), 16);
        assert!(value.chars().any(|c| c.is_ascii_uppercase()));
        assert!(value.chars().any(|c| c.is_ascii_lowercase()));
        assert!(value.chars().any(|c| c.is_ascii_digit()));
        assert!(value.chars().any(|c| "!@#%^*_+-=".contains(c)));
        assert!(!format!("{secret:?}").contains(value));
        assert_ne!(Secret::generate(), secret);
    }

    #[test]
    fn placeholders_are_revealed_for_typing_and_values_masked_for_the_record() {
        let mut secrets = RunSecrets::default();
        let secret = Secret::generate();
        let value = secret.expose().to_owned();
        let reference = secrets.add(SecretKind::Password, "r-bp1", secret);
        assert_eq!(reference.placeholder, "{{secret:1}}");
        let typed = secrets.reveal(&format!("old: {}", reference.placeholder));
        assert_eq!(typed, format!("old: {value}"));
        assert_eq!(secrets.mask(&typed), format!("old: {MASK}"));
        assert!(!format!("{secrets:?}").contains(&value));
    }
}
