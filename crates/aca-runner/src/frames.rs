//! Folding what the page side sees inside cross-origin frames into the top frame's observation:
//! indexes continue after the top frame's, boxes move by the frame's position, and each element
//! remembers which frame and which local index an action on it must go to.

use std::collections::HashMap;

use aca_core::{GuiAction, Observation, Place, PlaceKind};
use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::dom::{GetBoxModelParams, GetFrameOwnerParams};
use chromiumoxide::cdp::browser_protocol::page::FrameId;
use chromiumoxide::cdp::browser_protocol::target::TargetId;

use crate::inject::ChildFrame;

/// Where an element of the merged observation lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Route {
    /// In a cross-origin frame, under its own index there.
    Child { target: TargetId, index: u32 },
}

/// The content box of the `<iframe>` that holds `frame`, in the top frame's CSS pixels.
pub(crate) async fn placement(page: &Page, frame: &FrameId) -> Result<aca_core::Rect, String> {
    let owner = page
        .execute(GetFrameOwnerParams::new(frame.clone()))
        .await
        .map_err(|e| e.to_string())?;
    let params = GetBoxModelParams {
        backend_node_id: Some(owner.result.backend_node_id),
        ..Default::default()
    };
    let model = page.execute(params).await.map_err(|e| e.to_string())?;
    let quad = model.result.model.content.inner();
    if quad.len() < 8 {
        return Err("the frame's box has no quad".into());
    }
    let xs = [quad[0], quad[2], quad[4], quad[6]];
    let ys = [quad[1], quad[3], quad[5], quad[7]];
    let (left, top) = (
        xs.iter().copied().fold(f64::MAX, f64::min),
        ys.iter().copied().fold(f64::MAX, f64::min),
    );
    let (right, bottom) = (
        xs.iter().copied().fold(f64::MIN, f64::max),
        ys.iter().copied().fold(f64::MIN, f64::max),
    );
    Ok(aca_core::Rect {
        x: left,
        y: top,
        width: right - left,
        height: bottom - top,
    })
}

/// Appends `inner` (observed in `child`) to `outer`, renumbering its elements after the highest
/// index of `outer` and recording each one's route.
pub(crate) fn merge(
    outer: &mut Observation,
    inner: Observation,
    child: &ChildFrame,
    frame_box: &aca_core::Rect,
    routes: &mut HashMap<u32, Route>,
) {
    let base = outer.elements.iter().map(|e| e.index).max().unwrap_or(0);
    let url = if inner.url.is_empty() {
        child.url.clone()
    } else {
        inner.url.clone()
    };
    let frame_place = Place {
        kind: PlaceKind::Frame,
        name: if inner.title.is_empty() {
            url.clone()
        } else {
            inner.title.clone()
        },
    };
    for mut element in inner.elements {
        let local = element.index;
        element.index = base + local;
        element.option_of = element.option_of.map(|of| base + of);
        if let Some(rect) = element.rect.as_mut() {
            rect.x += frame_box.x;
            rect.y += frame_box.y;
        }
        element.places.insert(0, frame_place.clone());
        routes.insert(
            element.index,
            Route::Child {
                target: child.target.clone(),
                index: local,
            },
        );
        outer.elements.push(element);
    }
    // The page side lists an unwalked frame by its src attribute (absolute or relative).
    outer
        .unwalked_frames
        .retain(|frame| frame.is_empty() || !(url.starts_with(frame.as_str()) || url.contains(frame.as_str())));
}

/// Points an action at another index (the element's index inside its own frame).
pub(crate) fn set_index(action: &mut GuiAction, local: u32) {
    match action {
        GuiAction::Click { index }
        | GuiAction::Type { index, .. }
        | GuiAction::Select { index, .. }
        | GuiAction::Hover { index } => *index = local,
        GuiAction::Press { index, .. } | GuiAction::Scroll { index, .. } => {
            if index.is_some() {
                *index = Some(local);
            }
        }
        GuiAction::Goto { .. } | GuiAction::Wait { .. } => {}
    }
}
