// The content script, in every frame: instantiates aca-dom (loaded just before as a classic script
// defining `wasm_bindgen`) and answers the service worker's calls of its exports.
(() => {
  let instantiated = false;
  const ready = wasm_bindgen({ module_or_path: chrome.runtime.getURL('aca-dom/aca_dom_bg.wasm') }).then(() => {
    instantiated = true;
  });
  // While a person has taken a run's page over (step mode), the controls their own clicks land on
  // are told to the service worker, which keeps those of the run's tab for the report. A document
  // the take-over opened asks whether one is going on.
  let recording = false;
  const record = (on) => {
    recording = on === true;
    return null;
  };
  chrome.runtime
    .sendMessage({ kind: 'recording' })
    .then((reply) => record(reply && reply.recording === true))
    .catch(() => {});
  document.addEventListener(
    'click',
    (event) => {
      // Trusted clicks only: the agent's synthetic events are never the person's.
      if (!recording || !instantiated || !event.isTrusted) return;
      let control = null;
      try {
        control = wasm_bindgen.clicked(event);
      } catch (_) {
        return;
      }
      if (control) chrome.runtime.sendMessage({ kind: 'clicked', control: JSON.parse(control) }).catch(() => {});
    },
    { capture: true, passive: true },
  );
  const exports = {
    observe: (arg) => wasm_bindgen.observe(arg),
    observe_text: (arg) => wasm_bindgen.observe_text(arg),
    act: (arg) => wasm_bindgen.act(arg),
    mark: (arg) => wasm_bindgen.mark(arg),
    outline: (arg) => wasm_bindgen.outline(arg),
    pick: (arg) => wasm_bindgen.pick(arg),
    settle: (arg) => wasm_bindgen.settle(arg),
    record,
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
