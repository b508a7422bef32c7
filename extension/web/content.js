// The content script, in every frame: instantiates aca-dom (loaded just before as a classic script
// defining `wasm_bindgen`) and answers the service worker's calls of its exports.
(() => {
  const ready = wasm_bindgen({ module_or_path: chrome.runtime.getURL('aca-dom/aca_dom_bg.wasm') });
  const exports = {
    observe: (arg) => wasm_bindgen.observe(arg),
    observe_text: (arg) => wasm_bindgen.observe_text(arg),
    act: (arg) => wasm_bindgen.act(arg),
    mark: (arg) => wasm_bindgen.mark(arg),
    outline: (arg) => wasm_bindgen.outline(arg),
    pick: (arg) => wasm_bindgen.pick(arg),
    settle: (arg) => wasm_bindgen.settle(arg),
  };
  chrome.runtime.onMessage.addListener((message, _sender, sendResponse) => {
    if (!message || !Object.hasOwn(exports, message.aca_dom)) return false;
    ready
      .then(() => exports[message.aca_dom](message.arg))
      .then(
        (result) => sendResponse({ ok: true, result: result ?? null }),
        (error) => sendResponse({ ok: false, error: String(error && error.message ? error.message : error) }),
      );
    return true;
  });
})();
