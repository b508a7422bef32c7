//! The run as a software authenticator: when the console shows a virtual MFA device's setup key as
//! text, the codes an authenticator app would show are computed from it (RFC 6238), and the key is
//! masked wherever the run records what it saw.

use aca_core::{Element, Observation};

use crate::label::normalise;

/// What a record shows in place of a secret: a setup key, a password typed into the console.
pub const MASK: &str = "******";
/// The shortest setup key taken for one: 80 bits (16 Base32 characters), the least RFC 4226 allows.
const MIN_KEY_CHARS: usize = 16;

/// The setup key the page shows, if any: a Base32 text read under a label that names a key or a
/// secret ("Key: GEZD…", or a text right after such a label).
pub fn setup_key(observation: &Observation) -> Option<String> {
    let elements = &observation.elements;
    elements.iter().enumerate().find_map(|(i, element)| {
        let (label, text) = match element.name.rsplit_once(": ") {
            Some((label, text)) => (label.to_owned(), text),
            None => (i.checked_sub(1).map(|p| elements[p].name.clone())?, element.name.as_str()),
        };
        let label = normalise(&label);
        let names_key = label.split_whitespace().any(|w| matches!(w, "key" | "secret" | "seed"));
        (names_key && is_key(text)).then(|| text.split_whitespace().collect())
    })
}

/// Base32 upper case, at least [`MIN_KEY_CHARS`] long once the groups it is shown in are joined.
fn is_key(text: &str) -> bool {
    let joined: String = text.split_whitespace().collect();
    joined.len() >= MIN_KEY_CHARS
        && joined.chars().all(|c| c.is_ascii_uppercase() || ('2'..='7').contains(&c))
        && aca_otp::decode_key(&joined).is_ok()
}

/// The tab that shows the setup key for an app's manual entry ("Retrieve manually enter
/// information.", beside the QR code's "Scan the code."), where the key is not shown yet.
pub fn manual_entry_tab(observation: &Observation) -> Option<&Element> {
    observation.elements.iter().find(|e| {
        e.role == aca_core::Role::Tab
            && !e.state.selected
            && normalise(&e.name).split_whitespace().any(|w| w == "manual" || w == "manually")
    })
}

/// Whether the page may show a secret an image would carry: a setup key, or a field asking for
/// an authenticator's code (the QR code that binds the app shown beside it, which no text masks).
pub fn may_show_secret(observation: &Observation) -> bool {
    setup_key(observation).is_some()
        || observation
            .elements
            .iter()
            .any(|e| e.role == aca_core::Role::Textbox && asks_for_code(&e.name))
}

/// Whether a field asks for a code from an MFA app ("Verification Code 1", "Security code").
pub fn asks_for_code(label: &str) -> bool {
    let label = normalise(label);
    let words: Vec<&str> = label.split_whitespace().collect();
    words.contains(&"code")
        && ["verification", "security", "authentication", "mfa", "dynamic"]
            .iter()
            .any(|w| words.contains(w))
}

/// The two consecutive codes an authenticator shows at this time: the last step's and the
/// current one's, as a person types them after waiting for the code to change.
pub fn consecutive_codes(key: &str, unix_ms: u64) -> Option<[String; 2]> {
    let key = aca_otp::decode_key(key).ok()?;
    let step = aca_otp::step_of(unix_ms / 1000);
    Some([
        aca_otp::code_at_step(&key, step.saturating_sub(1)),
        aca_otp::code_at_step(&key, step),
    ])
}

/// Which of a form's code fields `field` is (0 for the first), by document order among the code
/// fields of its dialog or page.
pub fn code_field_position(observation: &Observation, field: &Element) -> usize {
    observation
        .elements
        .iter()
        .filter(|e| e.role == aca_core::Role::Textbox && asks_for_code(&e.name) && e.places == field.places)
        .take_while(|e| e.index != field.index)
        .count()
}

/// The text with every setup key the observation shows masked, whether written whole or in the
/// groups it is shown in.
pub fn masked(text: &str, key: &str) -> String {
    if key.is_empty() {
        return text.to_owned();
    }
    let mut out = text.replace(key, MASK);
    for group in [4usize, 8] {
        let grouped: Vec<String> = key
            .as_bytes()
            .chunks(group)
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        out = out.replace(&grouped.join(" "), MASK);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use aca_core::Role;

    fn element(index: u32, role: Role, name: &str) -> Element {
        Element::new(index, role, name, Vec::new())
    }

    const KEY: &str = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

    #[test]
    fn the_key_is_read_beside_its_label_and_nowhere_else() {
        let mut obs = Observation {
            elements: vec![
                element(1, Role::DialogTitle, "Enable the Virtual MFA Device"),
                element(2, Role::Cell, &format!("Key: {KEY}")),
            ],
            ..Observation::default()
        };
        assert_eq!(setup_key(&obs).as_deref(), Some(KEY));
        obs.elements[1] = element(2, Role::Cell, &format!("AccessKey ID: {KEY}"));
        assert_eq!(setup_key(&obs), None, "an AccessKey ID is no setup key");
        obs.elements[1] = element(2, Role::Cell, "Key: not a key at all");
        assert_eq!(setup_key(&obs), None);
        obs.elements = vec![element(1, Role::Cell, "Secret key"), element(2, Role::Cell, "GEZD GNBV GY3T QOJQ")];
        assert_eq!(setup_key(&obs).as_deref(), Some("GEZDGNBVGY3TQOJQ"));
    }

    #[test]
    fn codes_are_those_of_the_last_and_the_current_step() {
        // RFC 6238's key at 59 s: step 1 ("287082"), the step before it step 0.
        let codes = consecutive_codes(KEY, 59_000).unwrap();
        assert_eq!(codes[1], "287082");
        let key = aca_otp::decode_key(KEY).unwrap();
        assert_eq!(codes[0], aca_otp::code_at_step(&key, 0));
        assert!(aca_otp::consecutive(&key, &codes[0], &codes[1], 59, 0));
        assert_eq!(consecutive_codes("bad key!", 59_000), None);
    }

    #[test]
    fn code_fields_are_told_from_others() {
        assert!(asks_for_code("Verification Code 1"));
        assert!(asks_for_code("Enter the security code"));
        assert!(!asks_for_code("Logon Name"));
        assert!(!asks_for_code("Code"));
    }

    #[test]
    fn a_key_is_masked_whole_and_in_groups() {
        let text = format!("Key: {KEY} and GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ");
        assert_eq!(masked(&text, KEY), "Key: ****** and ******");
    }
}
