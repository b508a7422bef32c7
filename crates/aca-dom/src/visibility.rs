//! Geometry of visibility: where a box lies against the viewport (or a scrolling container), and
//! where to probe it for occlusion. The DOM side (`dom::visibility`) supplies boxes and hit tests.

use aca_core::{Rect, ScrollDirection};

/// What a person can do with an element, as far as seeing it goes.
#[derive(Debug, Clone, PartialEq)]
pub enum Visibility {
    /// On screen and the topmost thing at (one of) its points.
    Shown,
    /// Rendered but scrolled out of view (of the page or of a scrolling container) in this direction.
    Offscreen(ScrollDirection),
    /// On screen but under something else (a dialog's mask, an overlay): a description of that.
    Covered(String),
    /// Not rendered, transparent, or of no size.
    Hidden,
}

pub fn right(r: &Rect) -> f64 {
    r.x + r.width
}

pub fn bottom(r: &Rect) -> f64 {
    r.y + r.height
}

/// The overlap of two boxes, if they overlap with some area.
pub fn intersect(a: &Rect, b: &Rect) -> Option<Rect> {
    let x = a.x.max(b.x);
    let y = a.y.max(b.y);
    let r = right(a).min(right(b));
    let btm = bottom(a).min(bottom(b));
    (r - x >= 1.0 && btm - y >= 1.0).then_some(Rect {
        x,
        y,
        width: r - x,
        height: btm - y,
    })
}

/// Whether `outer` covers all of `inner`.
pub fn contains(outer: &Rect, inner: &Rect) -> bool {
    outer.x <= inner.x && outer.y <= inner.y && right(outer) >= right(inner) && bottom(outer) >= bottom(inner)
}

/// Which way to scroll to bring `rect` into `view`, or `None` when it is (partly) in view already.
pub fn direction_outside(rect: &Rect, view: &Rect) -> Option<ScrollDirection> {
    if intersect(rect, view).is_some() {
        return None;
    }
    Some(if bottom(rect) <= view.y {
        ScrollDirection::Up
    } else if rect.y >= bottom(view) {
        ScrollDirection::Down
    } else if right(rect) <= view.x {
        ScrollDirection::Left
    } else {
        ScrollDirection::Right
    })
}

/// Points to probe with a hit test: the centre first, then four points inside the corners, so a
/// toast over one corner does not hide a button from the agent.
pub fn probe_points(visible: &Rect) -> [(f64, f64); 5] {
    let cx = visible.x + visible.width / 2.0;
    let cy = visible.y + visible.height / 2.0;
    let dx = (visible.width / 4.0).max(0.5);
    let dy = (visible.height / 4.0).max(0.5);
    [
        (cx, cy),
        (cx - dx, cy - dy),
        (cx + dx, cy - dy),
        (cx - dx, cy + dy),
        (cx + dx, cy + dy),
    ]
}

/// The region an ancestor lets its content show in (`overflow` other than `visible`, or a frame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clip {
    pub rect: Rect,
    /// The region scrolls (content cut off by it is off-screen, not hidden).
    pub scrolls: bool,
}

impl Clip {
    /// The region both clips let content show in; it scrolls if either does.
    pub fn within(&self, outer: Option<&Clip>) -> Clip {
        match outer {
            None => *self,
            Some(outer) => Clip {
                rect: intersect(&self.rect, &outer.rect).unwrap_or(Rect {
                    x: self.rect.x,
                    y: self.rect.y,
                    width: 0.0,
                    height: 0.0,
                }),
                scrolls: self.scrolls || outer.scrolls,
            },
        }
    }
}

/// The part of `rect` a person can see, or why there is none: cut off by a clipping ancestor
/// (off-screen when it scrolls, hidden when it does not) or outside the viewport.
pub fn place_box(rect: &Rect, clip: Option<&Clip>, viewport: &Rect) -> Result<Rect, Visibility> {
    let mut shown = *rect;
    if let Some(clip) = clip {
        match intersect(rect, &clip.rect) {
            Some(part) => shown = part,
            None if clip.scrolls && clip.rect.width >= 1.0 && clip.rect.height >= 1.0 => {
                return Err(Visibility::Offscreen(
                    direction_outside(rect, &clip.rect).unwrap_or(ScrollDirection::Down),
                ));
            }
            None => return Err(Visibility::Hidden),
        }
    }
    match intersect(&shown, viewport) {
        Some(part) => Ok(part),
        None => Err(Visibility::Offscreen(
            direction_outside(&shown, viewport).unwrap_or(ScrollDirection::Down),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f64, y: f64, width: f64, height: f64) -> Rect {
        Rect { x, y, width, height }
    }

    #[test]
    fn boxes_outside_the_view_say_which_way_to_scroll() {
        let view = rect(0.0, 0.0, 1440.0, 900.0);
        assert_eq!(direction_outside(&rect(10.0, 10.0, 100.0, 30.0), &view), None);
        assert_eq!(
            direction_outside(&rect(10.0, 890.0, 100.0, 30.0), &view),
            None,
            "partly in view"
        );
        assert_eq!(
            direction_outside(&rect(10.0, 1200.0, 100.0, 30.0), &view),
            Some(ScrollDirection::Down)
        );
        assert_eq!(
            direction_outside(&rect(10.0, -300.0, 100.0, 30.0), &view),
            Some(ScrollDirection::Up)
        );
        assert_eq!(
            direction_outside(&rect(1500.0, 10.0, 100.0, 30.0), &view),
            Some(ScrollDirection::Right)
        );
    }

    #[test]
    fn overlaps_need_area_and_probes_stay_inside() {
        let a = rect(0.0, 0.0, 100.0, 100.0);
        assert_eq!(
            intersect(&a, &rect(100.0, 0.0, 50.0, 50.0)),
            None,
            "touching edges do not overlap"
        );
        assert_eq!(
            intersect(&a, &rect(50.0, 50.0, 100.0, 100.0)),
            Some(rect(50.0, 50.0, 50.0, 50.0))
        );
        assert!(contains(&a, &rect(10.0, 10.0, 90.0, 90.0)));
        assert!(!contains(&a, &rect(10.0, 10.0, 91.0, 90.0)));
        for (x, y) in probe_points(&rect(10.0, 20.0, 80.0, 30.0)) {
            assert!((10.0..=90.0).contains(&x) && (20.0..=50.0).contains(&y));
        }
    }

    #[test]
    fn clipping_ancestors_hide_or_scroll_their_content() {
        let view = rect(0.0, 0.0, 1440.0, 900.0);
        let menu = Clip {
            rect: rect(0.0, 50.0, 208.0, 300.0),
            scrolls: true,
        };
        assert_eq!(
            place_box(&rect(10.0, 500.0, 180.0, 30.0), Some(&menu), &view),
            Err(Visibility::Offscreen(ScrollDirection::Down))
        );
        let collapsed = Clip {
            rect: rect(0.0, 50.0, 208.0, 0.0),
            scrolls: false,
        };
        assert_eq!(
            place_box(&rect(10.0, 60.0, 180.0, 30.0), Some(&collapsed), &view),
            Err(Visibility::Hidden)
        );
        assert_eq!(
            place_box(&rect(10.0, 340.0, 180.0, 30.0), Some(&menu), &view),
            Ok(rect(10.0, 340.0, 180.0, 10.0))
        );
        assert_eq!(
            place_box(&rect(10.0, 1000.0, 180.0, 30.0), None, &view),
            Err(Visibility::Offscreen(ScrollDirection::Down))
        );
        let inner = Clip {
            rect: rect(100.0, 100.0, 100.0, 100.0),
            scrolls: false,
        };
        assert_eq!(inner.within(Some(&menu)).rect, rect(100.0, 100.0, 100.0, 100.0));
        assert!(inner.within(Some(&menu)).scrolls);
    }
}
