// Next writes a page's metadata (title, description) in English when the page is prerendered,
// before the browser's language is known, and commits it again after the page's effects have
// run: whoever puts the reader's words in the head applies them now and whenever the head changes.
/** Runs `apply` now and on every change to <head>; returns the function that stops it. */
export function keepInHead(apply: () => void): () => void {
  apply();
  const observer = new MutationObserver(apply);
  observer.observe(document.head, { subtree: true, childList: true, characterData: true, attributes: true });
  return () => observer.disconnect();
}
