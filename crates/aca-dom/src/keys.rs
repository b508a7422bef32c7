//! Key names and chords (`Enter`, `Control+A`, `a`) as the values keyboard events carry: `key`,
//! `code`, the legacy `keyCode` some widgets still read, and modifier flags.

/// One key press with its modifiers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyChord {
    pub key: String,
    pub code: String,
    pub key_code: u32,
    pub ctrl: bool,
    pub shift: bool,
    pub alt: bool,
    pub meta: bool,
}

impl KeyChord {
    /// The character this key types into a field, if it types one (no Control/Alt/Meta held).
    pub fn text(&self) -> Option<char> {
        if self.ctrl || self.alt || self.meta {
            return None;
        }
        let mut chars = self.key.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        }
    }

    /// The chord that types `c`.
    pub fn for_char(c: char) -> Self {
        let (code, key_code) = char_code(c);
        KeyChord {
            key: c.to_string(),
            code,
            key_code,
            ctrl: false,
            shift: c.is_uppercase(),
            alt: false,
            meta: false,
        }
    }
}

const NAMED: &[(&str, &str, u32)] = &[
    ("Enter", "Enter", 13),
    ("Escape", "Escape", 27),
    ("Tab", "Tab", 9),
    ("Backspace", "Backspace", 8),
    ("Delete", "Delete", 46),
    ("ArrowUp", "ArrowUp", 38),
    ("ArrowDown", "ArrowDown", 40),
    ("ArrowLeft", "ArrowLeft", 37),
    ("ArrowRight", "ArrowRight", 39),
    ("Home", "Home", 36),
    ("End", "End", 35),
    ("PageUp", "PageUp", 33),
    ("PageDown", "PageDown", 34),
];

fn char_code(c: char) -> (String, u32) {
    if c.is_ascii_alphabetic() {
        let upper = c.to_ascii_uppercase();
        (format!("Key{upper}"), upper as u32)
    } else if c.is_ascii_digit() {
        (format!("Digit{c}"), c as u32)
    } else if c == ' ' {
        ("Space".into(), 32)
    } else {
        (String::new(), 0)
    }
}

/// Reads a key or chord. Names are matched without regard to case (`escape`, `ctrl+a`); a single
/// character is that character's key.
pub fn parse_chord(text: &str) -> Result<KeyChord, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("no key given".into());
    }
    // "+" alone, or a chord ending in "+" ("Control++"), presses the plus key.
    let (modifiers, key) = match text.strip_suffix("++") {
        Some(rest) => (rest, "+"),
        None if text == "+" => ("", "+"),
        None => match text.rsplit_once('+') {
            Some((mods, key)) => (mods, key),
            None => ("", text),
        },
    };
    let mut chord = if key.chars().count() == 1 {
        let c = key.chars().next().unwrap_or(' ');
        KeyChord::for_char(c)
    } else if key.eq_ignore_ascii_case("space") {
        KeyChord::for_char(' ')
    } else if key.eq_ignore_ascii_case("esc") {
        named("Escape")
    } else if key.eq_ignore_ascii_case("return") {
        named("Enter")
    } else {
        NAMED
            .iter()
            .find(|(name, _, _)| name.eq_ignore_ascii_case(key))
            .map(|(name, _, _)| named(name))
            .ok_or_else(|| format!("unknown key {key:?}"))?
    };
    for modifier in modifiers.split('+').filter(|m| !m.is_empty()) {
        match modifier.to_ascii_lowercase().as_str() {
            "control" | "ctrl" => chord.ctrl = true,
            "shift" => chord.shift = true,
            "alt" | "option" => chord.alt = true,
            "meta" | "cmd" | "command" => chord.meta = true,
            other => return Err(format!("unknown modifier {other:?}")),
        }
    }
    Ok(chord)
}

fn named(name: &str) -> KeyChord {
    let (key, code, key_code) = NAMED
        .iter()
        .find(|(n, _, _)| *n == name)
        .copied()
        .unwrap_or(("Enter", "Enter", 13));
    KeyChord {
        key: key.into(),
        code: code.into(),
        key_code,
        ctrl: false,
        shift: false,
        alt: false,
        meta: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_keys_and_chords_carry_key_code_and_modifiers() {
        let enter = parse_chord("enter").unwrap();
        assert_eq!(
            (enter.key.as_str(), enter.code.as_str(), enter.key_code),
            ("Enter", "Enter", 13)
        );
        assert_eq!(enter.text(), None);
        let select_all = parse_chord("Control+A").unwrap();
        assert!(
            select_all.ctrl && select_all.shift,
            "an upper-case letter is typed with Shift"
        );
        assert_eq!((select_all.code.as_str(), select_all.key_code), ("KeyA", 65));
        assert_eq!(select_all.text(), None);
        assert_eq!(parse_chord("Esc").unwrap().key, "Escape");
        assert_eq!(parse_chord("x").unwrap().text(), Some('x'));
        assert_eq!(parse_chord("Control++").unwrap().key, "+");
    }

    #[test]
    fn unknown_keys_are_errors_that_name_them() {
        assert!(parse_chord("Hyper+Q").unwrap_err().contains("hyper"));
        assert!(parse_chord("Launch").unwrap_err().contains("Launch"));
        assert!(parse_chord(" ").is_err());
    }
}
