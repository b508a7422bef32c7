//! Which elements are worth listing and as what: native controls, ARIA roles, and div widgets a
//! person can click (tabindex, an `onclick` attribute, or where `cursor: pointer` starts).

use aca_core::Role;

/// What the walker reads off one element to decide its role (no DOM handle: testable natively).
#[derive(Debug, Clone, Copy, Default)]
pub struct ElementFacts<'a> {
    /// Lower-case local name: `button`, `input`, `div`.
    pub tag: &'a str,
    /// The `type` attribute of an `<input>`, lower-cased.
    pub input_type: Option<&'a str>,
    /// The first token of the `role` attribute, lower-cased.
    pub aria_role: Option<&'a str>,
    pub has_href: bool,
    /// `tabindex` is present and not negative.
    pub tabbable: bool,
    pub has_onclick: bool,
    pub contenteditable: bool,
    /// `cursor: pointer` starts at this element (its parent's cursor is something else).
    pub pointer_starts_here: bool,
}

/// How sure the walker is that an element matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strength {
    /// A native control or an interactive ARIA role.
    Control,
    /// Looks clickable (tabindex, onclick, pointer cursor); dropped when it wraps a control or has
    /// no name, since then the control inside is what a person clicks.
    Heuristic,
    /// Text a person must read (headings, alerts); never clicked.
    Readable,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Classified {
    pub role: Role,
    pub strength: Strength,
}

impl Classified {
    fn control(role: Role) -> Option<Self> {
        Some(Self {
            role,
            strength: Strength::Control,
        })
    }
    fn readable(role: Role) -> Option<Self> {
        Some(Self {
            role,
            strength: Strength::Readable,
        })
    }
}

/// The role an ARIA `role` token gives, if it is one the agent lists. `None` for structural roles
/// (row, list, dialog …) and for `none`/`presentation`, which leave the decision to the tag.
pub fn aria_role(token: &str) -> Option<Classified> {
    match token {
        "button" => Classified::control(Role::Button),
        "link" => Classified::control(Role::Link),
        "textbox" | "searchbox" | "spinbutton" => Classified::control(Role::Textbox),
        "combobox" => Classified::control(Role::Combobox),
        "option" => Classified::control(Role::Option),
        "checkbox" => Classified::control(Role::Checkbox),
        "radio" => Classified::control(Role::Radio),
        "switch" => Classified::control(Role::Switch),
        "menuitem" | "menuitemcheckbox" | "menuitemradio" => Classified::control(Role::Menuitem),
        "tab" => Classified::control(Role::Tab),
        "treeitem" | "slider" => Classified::control(Role::Clickable),
        "heading" => Classified::readable(Role::Heading),
        "alert" | "status" => Classified::readable(Role::Alert),
        _ => None,
    }
}

/// The role of an element from its tag and attributes, or `None` when it is not listed.
pub fn classify(facts: &ElementFacts<'_>) -> Option<Classified> {
    if let Some(token) = facts.aria_role
        && let Some(found) = aria_role(token)
    {
        // `<input type=checkbox role=switch>` is a switch; a native input keeps its kind otherwise.
        return Some(found);
    }
    let native = match facts.tag {
        "a" if facts.has_href => Classified::control(Role::Link),
        "button" | "summary" => Classified::control(Role::Button),
        "select" => Classified::control(Role::Combobox),
        "textarea" => Classified::control(Role::Textbox),
        "input" => match facts.input_type.unwrap_or("text") {
            "hidden" => None,
            "checkbox" => Classified::control(Role::Checkbox),
            "radio" => Classified::control(Role::Radio),
            "button" | "submit" | "reset" | "image" | "file" => Classified::control(Role::Button),
            "range" | "color" => Classified::control(Role::Clickable),
            _ => Classified::control(Role::Textbox),
        },
        "h1" | "h2" | "h3" => Classified::readable(Role::Heading),
        _ => None,
    };
    if native.is_some() {
        return native;
    }
    if facts.contenteditable {
        return Classified::control(Role::Textbox);
    }
    // Labels forward their clicks to their control, which is listed itself; the document and its
    // body are never "a button".
    if matches!(facts.tag, "label" | "html" | "body" | "option" | "optgroup") {
        return None;
    }
    if facts.tabbable || facts.has_onclick || facts.pointer_starts_here {
        return Some(Classified {
            role: Role::Clickable,
            strength: Strength::Heuristic,
        });
    }
    None
}

/// Roles that take typed text.
pub fn takes_text(role: Role) -> bool {
    matches!(role, Role::Textbox)
}

/// Roles a person clicks (everything but text to read).
pub fn is_interactive(role: Role) -> bool {
    !matches!(
        role,
        Role::Heading | Role::Alert | Role::FieldError | Role::DialogTitle | Role::Cell
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(tag: &str) -> ElementFacts<'_> {
        ElementFacts {
            tag,
            ..Default::default()
        }
    }

    #[test]
    fn native_controls_take_their_html_role() {
        let role = |f: ElementFacts<'_>| classify(&f).map(|c| c.role);
        assert_eq!(
            role(ElementFacts {
                has_href: true,
                ..facts("a")
            }),
            Some(Role::Link)
        );
        assert_eq!(role(facts("a")), None, "an anchor without href is no link");
        assert_eq!(role(facts("button")), Some(Role::Button));
        assert_eq!(role(facts("select")), Some(Role::Combobox));
        assert_eq!(role(facts("input")), Some(Role::Textbox));
        for (kind, expected) in [
            ("password", Some(Role::Textbox)),
            ("checkbox", Some(Role::Checkbox)),
            ("radio", Some(Role::Radio)),
            ("submit", Some(Role::Button)),
            ("hidden", None),
        ] {
            let f = ElementFacts {
                input_type: Some(kind),
                ..facts("input")
            };
            assert_eq!(role(f), expected, "input type={kind}");
        }
    }

    #[test]
    fn aria_roles_override_tags_and_divs_with_roles_are_controls() {
        let switch = ElementFacts {
            input_type: Some("checkbox"),
            aria_role: Some("switch"),
            ..facts("input")
        };
        assert_eq!(classify(&switch).map(|c| c.role), Some(Role::Switch));
        let combobox = ElementFacts {
            aria_role: Some("combobox"),
            ..facts("div")
        };
        assert_eq!(
            classify(&combobox),
            Some(Classified {
                role: Role::Combobox,
                strength: Strength::Control
            })
        );
        let presentational_button = ElementFacts {
            aria_role: Some("presentation"),
            ..facts("button")
        };
        assert_eq!(classify(&presentational_button).map(|c| c.role), Some(Role::Button));
        let alert = ElementFacts {
            aria_role: Some("status"),
            ..facts("div")
        };
        assert_eq!(classify(&alert).map(|c| c.strength), Some(Strength::Readable));
    }

    #[test]
    fn clickable_divs_are_found_by_tabindex_onclick_or_pointer_cursor() {
        assert_eq!(classify(&facts("div")), None);
        for f in [
            ElementFacts {
                tabbable: true,
                ..facts("div")
            },
            ElementFacts {
                has_onclick: true,
                ..facts("span")
            },
            ElementFacts {
                pointer_starts_here: true,
                ..facts("li")
            },
        ] {
            assert_eq!(
                classify(&f),
                Some(Classified {
                    role: Role::Clickable,
                    strength: Strength::Heuristic
                })
            );
        }
        let label = ElementFacts {
            pointer_starts_here: true,
            ..facts("label")
        };
        assert_eq!(classify(&label), None, "a label's control is listed instead");
        let editor = ElementFacts {
            contenteditable: true,
            ..facts("div")
        };
        assert_eq!(classify(&editor).map(|c| c.role), Some(Role::Textbox));
    }
}
