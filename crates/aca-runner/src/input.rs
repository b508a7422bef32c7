//! Trusted input through CDP (`Input.*`): pointer and keyboard events the browser itself generates,
//! for what synthetic DOM events cannot do: CSS `:hover` menus, pages that check `isTrusted`, and
//! typing into inputs inside a web component's shadow root.

use aca_core::Rect;
use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::input::{
    DispatchKeyEventParams, DispatchKeyEventType, DispatchMouseEventParams, DispatchMouseEventType, InsertTextParams,
    MouseButton,
};

use crate::error::RunnerError;

/// The point a person would aim at: the centre of the element's box.
pub(crate) fn centre(rect: &Rect) -> (f64, f64) {
    (rect.x + rect.width / 2.0, rect.y + rect.height / 2.0)
}

fn mouse(kind: DispatchMouseEventType, (x, y): (f64, f64)) -> DispatchMouseEventParams {
    let mut params = DispatchMouseEventParams::new(kind, x, y);
    if !matches!(params.r#type, DispatchMouseEventType::MouseMoved) {
        params.button = Some(MouseButton::Left);
        params.buttons = Some(1);
        params.click_count = Some(1);
    }
    params
}

/// Moves the pointer to `point` (hover effects, menus that open on hover).
pub(crate) async fn move_to(page: &Page, point: (f64, f64)) -> Result<(), RunnerError> {
    page.execute(mouse(DispatchMouseEventType::MouseMoved, point))
        .await
        .map_err(|e| RunnerError::protocol("moving the pointer", e))?;
    Ok(())
}

/// A left click at `point`: move, press, release.
pub(crate) async fn click_at(page: &Page, point: (f64, f64)) -> Result<(), RunnerError> {
    move_to(page, point).await?;
    for kind in [
        DispatchMouseEventType::MousePressed,
        DispatchMouseEventType::MouseReleased,
    ] {
        page.execute(mouse(kind, point))
            .await
            .map_err(|e| RunnerError::protocol("clicking", e))?;
    }
    Ok(())
}

/// Replaces the focused field's text with `text`, as a person selecting all and typing would.
pub(crate) async fn replace_text(page: &Page, text: &str) -> Result<(), RunnerError> {
    key(page, "a", "KeyA", 65, Some(select_modifier()), &["selectAll"]).await?;
    key(page, "Delete", "Delete", 46, None, &["deleteForward"]).await?;
    if !text.is_empty() {
        page.execute(InsertTextParams::new(text))
            .await
            .map_err(|e| RunnerError::protocol("typing", e))?;
    }
    Ok(())
}

/// Presses Enter in the focused element.
pub(crate) async fn press_enter(page: &Page) -> Result<(), RunnerError> {
    key(page, "Enter", "Enter", 13, None, &[]).await
}

/// Presses one of the keys a person walks a page with: `Tab`, `Enter` or `Space`.
pub async fn press_key(page: &Page, name: &str) -> Result<(), RunnerError> {
    match name {
        "Tab" => key(page, "Tab", "Tab", 9, None, &[]).await,
        "Enter" => press_enter(page).await,
        "Space" => key(page, " ", "Space", 32, None, &[]).await,
        other => Err(RunnerError::protocol(
            format!("pressing {other}"),
            "only Tab, Enter and Space are known",
        )),
    }
}

/// Ctrl (Cmd on macOS) as a CDP modifier bit mask.
fn select_modifier() -> i64 {
    if cfg!(target_os = "macos") { 4 } else { 2 }
}

async fn key(
    page: &Page,
    key: &str,
    code: &str,
    key_code: i64,
    modifiers: Option<i64>,
    commands: &[&str],
) -> Result<(), RunnerError> {
    for kind in [DispatchKeyEventType::KeyDown, DispatchKeyEventType::KeyUp] {
        let is_down = matches!(kind, DispatchKeyEventType::KeyDown);
        let mut params = DispatchKeyEventParams::new(kind);
        params.key = Some(key.to_owned());
        params.code = Some(code.to_owned());
        params.windows_virtual_key_code = Some(key_code);
        params.modifiers = modifiers;
        if is_down {
            match key {
                "Enter" => params.text = Some("\r".to_owned()),
                " " => params.text = Some(" ".to_owned()),
                _ => {}
            }
            if !commands.is_empty() {
                params.commands = Some(commands.iter().map(|c| (*c).to_owned()).collect());
            }
        }
        page.execute(params)
            .await
            .map_err(|e| RunnerError::protocol(format!("pressing {key}"), e))?;
    }
    Ok(())
}
