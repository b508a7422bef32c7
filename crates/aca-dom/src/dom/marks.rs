//! The set-of-marks overlay: a numbered box over every indexed element in view (or over the one an
//! action proposes), in one fixed, pointer-transparent layer outside the page's own tree of
//! elements, removed without a trace. Elements the observation masked as secrets are covered, so a
//! screenshot taken with the marks shows no more than the observation's text does.

use super::walk::MARKS_ID;
use super::{js, observe, visibility};
use crate::visibility::intersect;

const COLOURS: &[&str] = &[
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#008080", "#9a6324", "#800000",
];

/// Removes the overlay, if drawn.
pub fn remove() {
    if let Ok(document) = js::top_document()
        && let Some(layer) = document.get_element_by_id(MARKS_ID)
    {
        layer.remove();
    }
}

/// Draws the overlay for the last observation's elements where they are now.
pub fn draw() -> Result<(), String> {
    draw_where(|_| true)
}

/// Draws the mark of element `index` alone: the one an action proposes to act on. An error when
/// that element is not in the last observation.
pub fn outline(index: u32) -> Result<(), String> {
    if !observe::all_indexed().iter().any(|(i, _)| *i == index) {
        return Err(format!("element {index} is not in the last observation"));
    }
    draw_where(|i| i == index)
}

fn draw_where(wanted: impl Fn(u32) -> bool) -> Result<(), String> {
    remove();
    let window = js::top_window()?;
    let document = js::top_document()?;
    let viewport = js::viewport(&window);
    let create = |tag: &str| {
        document
            .create_element(tag)
            .map_err(|_| "cannot create the overlay".to_owned())
    };
    let layer = create("div")?;
    layer.set_id(MARKS_ID);
    let _ = layer.set_attribute(
        "style",
        "position:fixed;left:0;top:0;width:0;height:0;overflow:visible;pointer-events:none;z-index:2147483647",
    );
    let _ = layer.set_attribute("aria-hidden", "true");
    for element in observe::secret_elements() {
        let Some(r) = intersect(&js::top_rect(&element), &viewport) else {
            continue;
        };
        let cover = create("div")?;
        let _ = cover.set_attribute(
            "style",
            &format!(
                "position:fixed;left:{:.0}px;top:{:.0}px;width:{:.0}px;height:{:.0}px;background:#555;\
                 color:#fff;font:bold 12px/1 monospace;display:flex;align-items:center;padding-left:4px;\
                 box-sizing:border-box;overflow:hidden;pointer-events:none",
                r.x, r.y, r.width, r.height
            ),
        );
        cover.set_text_content(Some("********"));
        let _ = layer.append_child(&cover);
    }
    for (index, element) in observe::all_indexed().into_iter().filter(|(i, _)| wanted(*i)) {
        let Some(geometry) = visibility::geometry_element(&element) else {
            continue;
        };
        let Some(r) = intersect(&js::top_rect(&geometry), &viewport) else {
            continue;
        };
        let colour = COLOURS[index as usize % COLOURS.len()];
        let mark = create("div")?;
        let _ = mark.set_attribute(
            "style",
            &format!(
                "position:fixed;left:{:.0}px;top:{:.0}px;width:{:.0}px;height:{:.0}px;border:2px solid {colour};\
                 box-sizing:border-box;pointer-events:none",
                r.x, r.y, r.width, r.height
            ),
        );
        let label = create("span")?;
        let _ = label.set_attribute(
            "style",
            &format!(
                "position:absolute;left:-2px;top:-16px;background:{colour};color:#fff;\
                 font:bold 11px/14px monospace;padding:0 3px;pointer-events:none"
            ),
        );
        label.set_text_content(Some(&index.to_string()));
        let _ = mark.append_child(&label);
        let _ = layer.append_child(&mark);
    }
    let root = document
        .document_element()
        .ok_or_else(|| "the document has no root element".to_owned())?;
    root.append_child(&layer)
        .map_err(|_| "cannot attach the overlay".to_owned())?;
    Ok(())
}
