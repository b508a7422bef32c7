//! The console tab's marked screenshot, for a model that takes images and for the report's defects:
//! the last observation's marks
//! drawn (secrets covered), the tab captured as its window shows it, scaled down to the policy's
//! size. `chrome.tabs.captureVisibleTab` works only once the person allowed the extension to
//! capture tabs (asked for on the options page), and only for the tab its window shows.

use std::cell::Cell;

use aca_agent::ScreenshotSize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::page;
use crate::chrome;
use crate::origins::CAPTURE_TABS;

#[wasm_bindgen(inline_js = r#"
export async function fit_png(dataUrl, maxWidth, maxHeight) {
  const bitmap = await createImageBitmap(await (await fetch(dataUrl)).blob());
  const scale = Math.min(1, maxWidth / bitmap.width, maxHeight / bitmap.height);
  if (scale >= 1) return dataUrl;
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext('2d').drawImage(bitmap, 0, 0, width, height);
  const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return 'data:image/png;base64,' + btoa(binary);
}
"#)]
extern "C" {
    #[wasm_bindgen(catch)]
    fn fit_png(data_url: &str, max_width: u32, max_height: u32) -> Result<js_sys::Promise, JsValue>;
}

/// Chrome allows `captureVisibleTab` twice a second (`MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND`):
/// captures are spaced at least this far apart.
const CAPTURE_SPACING_MS: i64 = 550;

thread_local! {
    /// When the last capture was asked for (Unix milliseconds).
    static LAST_CAPTURE_MS: Cell<i64> = const { Cell::new(0) };
}

/// Waits until a capture now keeps within Chrome's rate, and notes it.
async fn within_rate() {
    let wait = LAST_CAPTURE_MS.with(Cell::get) + CAPTURE_SPACING_MS - chrome::now_ms();
    if wait > 0 {
        chrome::sleep(wait as i32).await;
    }
    LAST_CAPTURE_MS.with(|last| last.set(chrome::now_ms()));
}

/// Whether the person allowed the extension to capture tabs.
pub async fn allowed() -> bool {
    chrome::granted_origins()
        .await
        .is_ok_and(|granted| granted.iter().any(|g| g == CAPTURE_TABS))
}

/// The marked screenshot of `tab` as a PNG `data:` URL at most `size`; `Err` says why there is none
/// (a model is then asked in words only, a report goes without it).
pub async fn marked(tab: i32, size: ScreenshotSize) -> Result<String, String> {
    let place = chrome::tab_place(tab).await.map_err(|e| e.to_string())?;
    if !place.active {
        return Err("the console tab is not the one its window shows, so it cannot be captured".into());
    }
    page::mark(tab, true).await?;
    within_rate().await;
    let shot = chrome::capture_visible_tab(place.window_id).await;
    let _ = page::mark(tab, false).await;
    let shot = shot.map_err(|e| e.to_string())?;
    // The person may have switched tabs meanwhile: the capture is then of another page.
    if !chrome::tab_place(tab)
        .await
        .is_ok_and(|p| p.active && p.window_id == place.window_id)
    {
        return Err("the console tab was left while it was captured".into());
    }
    let fitted = fit_png(&shot, size.max_width, size.max_height).map_err(|e| chrome::describe(&e))?;
    JsFuture::from(fitted)
        .await
        .map_err(|e| format!("the screenshot cannot be scaled: {}", chrome::describe(&e)))?
        .as_string()
        .ok_or_else(|| "the screenshot cannot be scaled: no image came back".to_owned())
}
