// The extension's service worker. MV3 wants its listeners registered synchronously when the worker
// starts, so they are registered here and hand each event to the wasm once it is instantiated.
import init, { sw_handle, sw_origins_changed, sw_start, sw_tab_removed, sw_tab_updated } from './pkg/aca_extension.js';

const ready = init().then(() => {
  sw_start();
});

chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  // Requests carry a `kind`; anything else (a content script's own traffic) is not ours to answer.
  if (!message || typeof message.kind !== 'string') return false;
  ready
    .then(() => sw_handle(message, sender.tab ? sender.tab.id : undefined))
    .then(sendResponse, (error) => sendResponse({ kind: 'error', message: `the service worker failed: ${error}` }));
  return true;
});

chrome.tabs.onUpdated.addListener((tabId, change) => {
  ready.then(() => sw_tab_updated(tabId, change.status ?? null));
});

chrome.tabs.onRemoved.addListener((tabId) => {
  ready.then(() => sw_tab_removed(tabId));
});

chrome.permissions.onAdded.addListener(() => {
  ready.then(() => sw_origins_changed());
});

chrome.permissions.onRemoved.addListener(() => {
  ready.then(() => sw_origins_changed());
});
