// The page's script, run once when the page loads.  LIMITS (the upload limits of
// space/limits.py) is defined by the line the server puts before this file.

// After an action, bring the results into view when they are not (on a phone they sit
// below the inputs; on a laptop beside them, so nothing moves).
window.rougeScroll = (id) => {
  const el = document.getElementById(id);
  if (!el) return;
  const top = el.getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight * 0.6) el.scrollIntoView({block: "start"});
};

// Each upload names this page's session, so the server deletes the file when the visitor
// leaves (even if it was never scored) and no other visitor can read it.  Gradio's client
// calls the global fetch for its uploads; only those requests get the header.
if (!window.rougeFetchTagged) {
  window.rougeFetchTagged = true;
  const plainFetch = window.fetch.bind(window);
  window.fetch = (resource, options) => {
    const url = typeof resource === "string" ? resource : (resource && resource.url) || "";
    const session = window.__gradio_session_hash__;
    if (session && /\/gradio_api\/upload(\?|$)/.test(url)) {
      const headers = new Headers((options && options.headers) || {});
      headers.set("x-rouge-session", session);
      options = {...(options || {}), headers: headers};
    }
    return plainFetch(resource, options);
  };
}

// A file the demo cannot take (too large, or not a table) is stopped here, before it is
// sent: the server would refuse it with a passing notice, and the old results would stay.
// Instead its name and size go to the tab's handler, which shows the reason in the tab's
// message area and clears the results.  The Reproduce tab's files are one text per line:
// any name, only their size is checked.
const GUARDED = {
  "upload": ["batch", "Upload", true],
  "file-a": ["compare", "System A file", true],
  "file-b": ["compare", "System B file", true],
  "audit-predictions": ["reproduce", "Predictions file", false],
  "audit-references": ["reproduce", "References file", false],
};
const GUARDED_SELECTOR = Object.keys(GUARDED).map((id) => `#${id}`).join(", ");

function refuse(tab, payload) {
  const box = document.querySelector(`#${tab}-refused textarea, #${tab}-refused input`);
  const go = document.getElementById(`${tab}-refused-go`);
  if (!box || !go) return;
  box.value = JSON.stringify(payload);
  box.dispatchEvent(new Event("input", {bubbles: true}));
  setTimeout(() => go.click(), 50);  // after the box's new value has reached Gradio
}

function guard(event, files) {
  const holder = event.target.closest && event.target.closest(GUARDED_SELECTOR);
  if (!holder || !files || !files.length) return;
  const [tab, what, table] = GUARDED[holder.id];
  const file = files[0];
  const name = file.name.toLowerCase();
  const named = !table || LIMITS.suffixes.some((s) => name.endsWith(s));
  if (named && file.size <= LIMITS.maxBytes) return;
  event.stopImmediatePropagation();
  event.preventDefault();
  if (event.type === "change") event.target.value = "";
  refuse(tab, {what: what, name: file.name, size: file.size});
}

window.addEventListener("change", (e) => {
  if (e.target && e.target.type === "file") guard(e, e.target.files);
}, true);
window.addEventListener("drop", (e) => guard(e, e.dataTransfer && e.dataTransfer.files), true);

// Two accessibility defects of Gradio's own markup, mended whenever it renders them:
// - an upload area is a button named "Click to upload or drop files" whose visible text is
//   "Drop File Here - or - Click to Upload": a speech-input user saying what they see would
//   not reach it (axe: label-content-name-mismatch).  Its name becomes its visible text and
//   the field's label;
// - the footer's "Settings" link holds an icon whose alt text repeats the link's text, so a
//   screen reader says it twice (axe: image-redundant-alt): the icon is marked decorative;
// - an empty file box (the per-example CSV before a batch is scored) is a plain div with an
//   aria-label, which ARIA does not allow on an element without a role (axe:
//   aria-prohibited-attr, serious): it becomes what it shows, an image (an empty-file icon)
//   with that name.
function mend() {
  for (const box of document.querySelectorAll("div.empty[aria-label]:not([role])")) {
    box.setAttribute("role", "img");
  }
  for (const button of document.querySelectorAll("button.upload-container[aria-label]")) {
    const text = (button.innerText || "").replace(/\s+/g, " ").trim();
    const label = button.closest(".block")?.querySelector('[data-testid="block-label"]');
    const name = [text, (label?.innerText || "").trim()].filter(Boolean).join(": ");
    if (text && button.getAttribute("aria-label") !== name) button.setAttribute("aria-label", name);
  }
  for (const img of document.querySelectorAll("footer img[alt]")) {
    const holder = img.closest("a, button");
    const alt = img.getAttribute("alt").trim().toLowerCase();
    if (alt && holder && (holder.innerText || "").trim().toLowerCase() === alt) {
      img.setAttribute("alt", "");
    }
  }
}
let mending = false;
new MutationObserver(() => {
  if (mending) return;
  mending = true;
  requestAnimationFrame(() => { mend(); mending = false; });
}).observe(document.body, {childList: true, subtree: true});
mend();
