//! Keyboard input as a person's typing produces it: keydown, keypress, the text going in through
//! the native value setter (so framework-controlled inputs see the change), input, keyup; and the
//! default actions synthetic key events do not get from the browser (Enter submits a form or
//! activates a button, Space activates, Tab moves focus). `type` and `press` actions.

use aca_core::{ActionOutcome, Fingerprint, NotActionable};
use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue, intern};
use web_sys::{Element, Event, EventInit, HtmlElement, InputEvent, InputEventInit, KeyboardEvent, KeyboardEventInit};

use super::super::js;
use super::target::{Need, actionable, resolve};
use crate::keys::{KeyChord, parse_chord};

const TEXT_LESS_INPUTS: &[&str] = &[
    "checkbox", "radio", "button", "submit", "reset", "image", "file", "range", "color", "hidden",
];

fn is_text_input(element: &Element) -> bool {
    match element.local_name().as_str() {
        "textarea" => true,
        "input" => {
            let kind = element
                .get_attribute(intern("type"))
                .unwrap_or_default()
                .to_ascii_lowercase();
            !TEXT_LESS_INPUTS.contains(&kind.as_str())
        }
        _ => false,
    }
}

fn is_content_editable(element: &Element) -> bool {
    js::prop_bool(element, "isContentEditable")
}

/// The field that takes text for `element`: itself, or the one text field inside it (its shadow
/// root included), as when the agent points at a field's wrapper.
pub fn text_field(element: &Element) -> Option<Element> {
    if is_text_input(element) || is_content_editable(element) {
        return Some(element.clone());
    }
    const FIELDS: &str = "input:not([type=hidden]),textarea,[contenteditable=true],[contenteditable='']";
    let within = |fields: Option<web_sys::NodeList>| {
        let fields = fields?;
        let found: Vec<Element> = js::elements_of(&fields)
            .into_iter()
            .filter(|e| is_text_input(e) || is_content_editable(e))
            .collect();
        (found.len() == 1).then(|| found[0].clone())
    };
    element
        .shadow_root()
        .and_then(|root| within(root.query_selector_all(intern(FIELDS)).ok()))
        .or_else(|| within(element.query_selector_all(intern(FIELDS)).ok()))
}

/// Dispatches one keyboard event; false when a listener cancelled it.
fn key_event(target: &Element, kind: &str, chord: &KeyChord) -> bool {
    let init = KeyboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_composed(true);
    init.set_key(&chord.key);
    init.set_code(&chord.code);
    init.set_ctrl_key(chord.ctrl);
    init.set_shift_key(chord.shift);
    init.set_alt_key(chord.alt);
    init.set_meta_key(chord.meta);
    init.set_view(js::window_of(target).as_ref());
    let legacy = if kind == "keypress" {
        chord.text().map(|c| c as u32).unwrap_or(chord.key_code)
    } else {
        chord.key_code
    };
    // Older widgets read keyCode/which/charCode, which Chromium takes from the init dictionary.
    let raw: &Object = init.as_ref();
    let _ = Reflect::set(raw, &"keyCode".into(), &JsValue::from(legacy));
    let _ = Reflect::set(raw, &"which".into(), &JsValue::from(legacy));
    if kind == "keypress" {
        let _ = Reflect::set(raw, &"charCode".into(), &JsValue::from(legacy));
    }
    match KeyboardEvent::new_with_keyboard_event_init_dict(kind, &init) {
        Ok(event) => target.dispatch_event(&event).unwrap_or(true),
        Err(_) => true,
    }
}

fn input_event(target: &Element, input_type: &str, data: Option<&str>) {
    let init = InputEventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    init.set_input_type(input_type);
    init.set_data(data);
    if let Ok(event) = InputEvent::new_with_event_init_dict("input", &init) {
        let _ = target.dispatch_event(&event);
    }
}

fn plain_event(target: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    if let Ok(event) = Event::new_with_event_init_dict(kind, &init) {
        let _ = target.dispatch_event(&event);
    }
}

/// Sets a field's value through the prototype's native setter, which frameworks that wrap the
/// instance's `value` property (React's value tracker) cannot intercept.
pub fn set_native_value(field: &Element, value: &str) {
    let class = if field.local_name() == "textarea" {
        "HTMLTextAreaElement"
    } else {
        "HTMLInputElement"
    };
    let setter = js::window_of(field)
        .and_then(|w| Reflect::get(&w, &class.into()).ok())
        .and_then(|c| Reflect::get(&c, &"prototype".into()).ok())
        .and_then(|p| {
            Object::get_own_property_descriptor(p.unchecked_ref::<Object>(), &"value".into())
                .dyn_into::<Object>()
                .ok()
        })
        .and_then(|d| js::method(&d, "set"));
    match setter {
        Some(set) => {
            let _ = set.call1(field, &JsValue::from_str(value));
        }
        None => {
            let _ = Reflect::set(field, &"value".into(), &JsValue::from_str(value));
        }
    }
}

fn exec_command(field: &Element, command: &str, value: &str) {
    let Some(document) = field.owner_document() else { return };
    if let Some(exec) = js::method(&document, "execCommand") {
        let _ = exec.call3(&document, &command.into(), &JsValue::FALSE, &value.into());
    }
}

fn current_value(field: &Element) -> String {
    if is_content_editable(field) {
        field.text_content().unwrap_or_default()
    } else {
        js::prop_string(field, "value").unwrap_or_default()
    }
}

fn max_length(field: &Element) -> Option<usize> {
    js::prop(field, "maxLength")
        .as_f64()
        .filter(|m| *m >= 0.0)
        .map(|m| m as usize)
}

fn insert_text(field: &Element, text: &str) {
    if is_content_editable(field) {
        exec_command(field, "insertText", text);
        return;
    }
    let mut value = current_value(field);
    if max_length(field).is_some_and(|max| value.chars().count() >= max) {
        return;
    }
    value.push_str(text);
    set_native_value(field, &value);
    let kind = if text == "\n" { "insertLineBreak" } else { "insertText" };
    input_event(field, kind, Some(text));
}

fn delete_backward(field: &Element) {
    if is_content_editable(field) {
        exec_command(field, "delete", "");
        return;
    }
    let mut value = current_value(field);
    if value.pop().is_some() {
        set_native_value(field, &value);
        input_event(field, "deleteContentBackward", None);
    }
}

fn clear(field: &Element) {
    if current_value(field).is_empty() {
        return;
    }
    if is_content_editable(field) {
        exec_command(field, "selectAll", "");
        exec_command(field, "delete", "");
        return;
    }
    set_native_value(field, "");
    input_event(field, "deleteContentBackward", None);
}

fn focus(element: &Element) {
    let _ = element.unchecked_ref::<HtmlElement>().focus();
}

/// Enter in a text field: "implicit submission" clicks the form's default button, or submits a
/// form that has none.
fn implicit_submission(field: &Element) {
    let Ok(Some(form)) = field.closest(intern("form")) else {
        return;
    };
    let default_button = form
        .query_selector(intern(
            "button[type=submit],button:not([type]),input[type=submit],input[type=image]",
        ))
        .ok()
        .flatten();
    match default_button {
        Some(button) => {
            if !button.matches(intern(":disabled")).unwrap_or(false) {
                button.unchecked_ref::<HtmlElement>().click();
            }
        }
        None => {
            if let Some(submit) = js::method(&form, "requestSubmit") {
                let _ = submit.call0(&form);
            }
        }
    }
}

/// Whether Enter or Space activates `element` like a click.
fn activates_on_key(element: &Element) -> bool {
    element
        .matches(
            "button,a[href],summary,input[type=checkbox],input[type=radio],input[type=button],input[type=submit],\
             [role=button],[role=link],[role=checkbox],[role=switch],[role=tab],[role=menuitem],[role=option],\
             [role=radio]",
        )
        .unwrap_or(false)
}

fn move_focus(from: &Element, backwards: bool) {
    let Some(document) = from.owner_document() else { return };
    let Ok(list) = document.query_selector_all(
        "a[href],button:not([disabled]),input:not([disabled]):not([type=hidden]),select:not([disabled]),\
         textarea:not([disabled]),[tabindex]:not([tabindex='-1']),[contenteditable=true]",
    ) else {
        return;
    };
    let focusables: Vec<Element> = js::elements_of(&list)
        .into_iter()
        .filter(super::super::visibility::rendered)
        .collect();
    if focusables.is_empty() {
        return;
    }
    let at = focusables.iter().position(|e| e == from);
    let next = match (at, backwards) {
        (Some(i), false) => (i + 1) % focusables.len(),
        (Some(i), true) => (i + focusables.len() - 1) % focusables.len(),
        (None, false) => 0,
        (None, true) => focusables.len() - 1,
    };
    focus(&focusables[next]);
}

/// One key press on `target` with the browser's default action where synthetic events lack it.
pub fn press_on(target: &Element, chord: &KeyChord) {
    let field = text_field(target).filter(|f| f == target);
    let proceed = key_event(target, "keydown", chord);
    let mut activate = false;
    if proceed {
        let typed = chord.text().or_else(|| (chord.key == "Enter").then_some('\r'));
        let pressed_on = typed.is_none_or(|_| key_event(target, "keypress", chord));
        if pressed_on {
            match (chord.key.as_str(), &field) {
                ("Enter", Some(f)) if f.local_name() == "textarea" => insert_text(f, "\n"),
                ("Enter", Some(f)) => implicit_submission(f),
                ("Enter", None) => activate = activates_on_key(target),
                (" ", None) => activate = activates_on_key(target),
                ("Backspace", Some(f)) => delete_backward(f),
                ("Tab", _) => move_focus(target, chord.shift),
                ("a" | "A", Some(f)) if chord.ctrl || chord.meta => {
                    if let Some(select) = js::method(f, "select") {
                        let _ = select.call0(f);
                    }
                }
                (_, Some(f)) => {
                    if let Some(c) = chord.text() {
                        insert_text(f, &c.to_string());
                    }
                }
                _ => {}
            }
        }
    }
    key_event(target, "keyup", chord);
    if activate {
        target.unchecked_ref::<HtmlElement>().click();
    }
}

pub async fn type_text(
    index: u32,
    text: &str,
    submit: bool,
    wanted: Option<&Fingerprint>,
    timeout_ms: u32,
) -> ActionOutcome {
    let target = match resolve(index, wanted, timeout_ms).await {
        Ok(t) => t,
        Err(outcome) => return outcome,
    };
    let Some(field) = text_field(&target.element) else {
        return ActionOutcome::NotActionable {
            index,
            reason: NotActionable::WrongKind {
                expected: "a text field".into(),
            },
        };
    };
    if let Err(outcome) = actionable(&field, index, Need::Text, timeout_ms).await {
        return outcome;
    }
    focus(&field);
    clear(&field);
    for c in text.chars() {
        let chord = if c == '\n' {
            parse_chord("Enter").unwrap_or_else(|_| KeyChord::for_char(c))
        } else {
            KeyChord::for_char(c)
        };
        if c == '\n' && field.local_name() != "textarea" {
            continue;
        }
        if key_event(&field, "keydown", &chord) && key_event(&field, "keypress", &chord) {
            insert_text(&field, &c.to_string());
        }
        key_event(&field, "keyup", &chord);
    }
    plain_event(&field, "change");
    if submit && let Ok(enter) = parse_chord("Enter") {
        press_on(&field, &enter);
    }
    ActionOutcome::Done {
        reresolved: target.reresolved,
    }
}

pub async fn press(key: &str, index: Option<u32>, wanted: Option<&Fingerprint>, timeout_ms: u32) -> ActionOutcome {
    let chord = match parse_chord(key) {
        Ok(chord) => chord,
        Err(message) => return ActionOutcome::Failed { message },
    };
    let (target, reresolved) = match index {
        Some(index) => match resolve(index, wanted, timeout_ms).await {
            Ok(t) => {
                focus(&t.element);
                (t.element, t.reresolved)
            }
            Err(outcome) => return outcome,
        },
        None => {
            let focused =
                js::deep_active_element().or_else(|| js::top_document().ok().and_then(|d| d.body()).map(Element::from));
            match focused {
                Some(element) => (element, false),
                None => {
                    return ActionOutcome::Failed {
                        message: "the page has no focused element and no body".into(),
                    };
                }
            }
        }
    };
    press_on(&target, &chord);
    ActionOutcome::Done { reresolved }
}
