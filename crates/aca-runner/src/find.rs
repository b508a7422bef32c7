//! Finding an element of an observation by what a person reads (its role and name, optionally the
//! region it is in) rather than by CSS: what scripted sequences and the `aca observe --login` step use.

use aca_core::{Element, Observation, PlaceKind, Role};

/// The first element with `role` whose name is `name` (ignoring case and surrounding space), or
/// failing that, the first whose name starts with it.
pub fn by_name<'a>(observation: &'a Observation, role: Role, name: &str) -> Option<&'a Element> {
    matching(observation.elements.iter(), role, name)
}

/// As [`by_name`], among the elements inside a region of `kind` named `place` (any name when empty).
pub fn in_place<'a>(
    observation: &'a Observation,
    kind: PlaceKind,
    place: &str,
    role: Role,
    name: &str,
) -> Option<&'a Element> {
    let inside = observation.elements.iter().filter(|e| {
        e.places
            .iter()
            .any(|p| p.kind == kind && (place.is_empty() || same(&p.name, place)))
    });
    matching(inside, role, name)
}

fn matching<'a>(elements: impl Iterator<Item = &'a Element> + Clone, role: Role, name: &str) -> Option<&'a Element> {
    let with_role = elements.filter(|e| e.role == role);
    with_role.clone().find(|e| same(&e.name, name)).or_else(|| {
        let wanted = name.trim().to_lowercase();
        with_role
            .clone()
            .find(|e| !wanted.is_empty() && e.name.trim().to_lowercase().starts_with(&wanted))
    })
}

fn same(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

#[cfg(test)]
mod tests {
    use super::*;
    use aca_core::Place;

    fn element(index: u32, role: Role, name: &str, places: Vec<Place>) -> Element {
        Element::new(index, role, name, places)
    }

    #[test]
    fn exact_names_win_over_prefixes_and_regions_narrow_the_search() {
        let dialog = Place {
            kind: PlaceKind::Dialog,
            name: "Create vSwitch".into(),
        };
        let observation = Observation {
            elements: vec![
                element(1, Role::Button, "OK, got it", vec![]),
                element(2, Role::Button, "ok", vec![]),
                element(3, Role::Button, "OK", vec![dialog]),
                element(4, Role::Link, "OK", vec![]),
            ],
            ..Default::default()
        };
        assert_eq!(by_name(&observation, Role::Button, "OK").map(|e| e.index), Some(2));
        assert_eq!(by_name(&observation, Role::Button, "OK, got").map(|e| e.index), Some(1));
        let in_dialog = in_place(&observation, PlaceKind::Dialog, "create vswitch", Role::Button, "OK");
        assert_eq!(in_dialog.map(|e| e.index), Some(3));
        assert!(by_name(&observation, Role::Textbox, "OK").is_none());
    }
}
