/**
 * The marks offered, outlines first: a frame, an ellipse frame, arrows and lines point at damage without covering it.
 * marker.js's filled shapes (cover, highlight, filled ellipse) would hide the dent they mark, so they are left out.
 */
export const ANNOTATION_MARKERS = [
  'FrameMarker',
  'EllipseFrameMarker',
  'ArrowMarker',
  'LineMarker',
  'FreehandMarker',
  'TextMarker',
  'CalloutMarker',
  'MeasurementMarker',
] as const;

/** What the popup is called for assistive technology, and where focus goes when it closes. */
export interface AnnotateOptions {
  label: string;
  returnFocus?: HTMLElement | null;
}

/**
 * Saved Images → Annotation: marker.js 2's popup over the image; its result is exported as a JPEG.
 * Resolves with the JPEG, or null when the user closes the popup without saving. marker.js is loaded on first use.
 *
 * marker.js draws its toolbar as plain `div`s with a title and a click handler, and takes no keys but Delete. The popup
 * is made keyboard-usable here (docs/scan-page.md): a modal dialog named `label` that takes the focus and keeps it
 * (Tab / Shift+Tab cycle), every toolbar and toolbox button focusable and pressed with Enter or Space, Escape closes
 * without saving, Ctrl+Enter (⌘+Enter) saves, Ctrl+Z undoes; focus goes back to `returnFocus` when it closes. Drawing
 * a marker still needs a pointer (marker.js places and sizes markers only by pointer events).
 */
export async function annotateImage(image: HTMLImageElement, options: AnnotateOptions): Promise<Blob | null> {
  const { MarkerArea } = await import('markerjs2');
  const target = await originalOf(image);
  return new Promise((resolve) => {
    const area = new MarkerArea(target);
    area.settings.displayMode = 'popup';
    area.availableMarkerTypes = [...ANNOTATION_MARKERS];
    // Above MUI's dialogs and menus (1300).
    area.uiStyleSettings.zIndex = '1500';
    area.renderAtNaturalSize = true;
    area.renderImageType = 'image/jpeg';
    area.renderImageQuality = 0.92;
    let release = () => {};
    const done = (result: Blob | null) => {
      release();
      if (target !== image) target.remove();
      resolve(result);
    };
    area.addEventListener('render', (event) => done(dataUrlBlob(event.dataUrl)));
    area.addEventListener('close', () => done(null));
    const before = new Set(Array.from(document.body.children));
    area.show();
    const popup = Array.from(document.body.children).find((el): el is HTMLElement => !before.has(el) && el instanceof HTMLElement);
    if (popup)
      release = keyboardPopup(popup, options, {
        close: () => area.close(),
        save: () => void area.startRenderAndClose(),
        undo: () => area.undo(),
      });
  });
}

/**
 * marker.js draws its target at the target's natural size and shows it in the target's on-screen proportions. A
 * thumbnail shows a small copy (srcset) cropped to its tile (object-fit: cover), so the popup annotates a hidden
 * stand-in instead: the original, as wide as the thumbnail and as tall as the original's proportions make it.
 */
async function originalOf(image: HTMLImageElement): Promise<HTMLImageElement> {
  const original = document.createElement('img');
  original.src = image.getAttribute('src') ?? image.src;
  original.alt = '';
  original.setAttribute('aria-hidden', 'true');
  Object.assign(original.style, { position: 'fixed', left: '-10000px', top: '0' });
  document.body.appendChild(original);
  await original.decode().catch(() => {});
  const width = image.clientWidth || original.naturalWidth;
  const ratio =
    original.naturalWidth > 0 ? original.naturalHeight / original.naturalWidth : image.clientHeight / Math.max(1, image.clientWidth);
  Object.assign(original.style, { width: `${width}px`, height: `${Math.round(width * ratio)}px` });
  return original;
}

const BUTTON = '[title]:not(input):not(textarea):not(select):not(button):not(a)';
const FOCUSABLE = 'button, input, textarea, select, a[href], [tabindex="0"]';

/** Makes marker.js's title-only `div`s buttons: a role, a name, a tab stop. */
function asButtons(root: ParentNode) {
  root.querySelectorAll<HTMLElement>(BUTTON).forEach((el) => {
    // marker.js gives some of them the role already, never a tab stop.
    if (el.tabIndex === 0 || el instanceof SVGElement) return;
    el.setAttribute('role', 'button');
    el.tabIndex = 0;
    if (!el.hasAttribute('aria-label')) el.setAttribute('aria-label', el.title);
  });
}

/**
 * Dialog semantics, focus and keys for marker.js's popup `popup`; returns the clean-up (observer, listener, focus back).
 * Toolbox panels appear as markers are chosen, so new buttons are made focusable as they are added.
 */
export function keyboardPopup(
  popup: HTMLElement,
  options: AnnotateOptions,
  actions: { close: () => void; save: () => void; undo: () => void },
): () => void {
  const returnTo = options.returnFocus ?? (document.activeElement instanceof HTMLElement ? document.activeElement : null);
  popup.setAttribute('role', 'dialog');
  popup.setAttribute('aria-modal', 'true');
  popup.setAttribute('aria-label', options.label);
  popup.setAttribute('aria-keyshortcuts', 'Escape Control+Enter Meta+Enter Control+Z');
  popup.tabIndex = -1;
  asButtons(popup);
  const observer = new MutationObserver(() => asButtons(popup));
  observer.observe(popup, { childList: true, subtree: true });

  const focusables = () =>
    Array.from(popup.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null && !el.hasAttribute('disabled'));
  const onKey = (event: KeyboardEvent) => {
    const target = event.target instanceof HTMLElement ? event.target : null;
    const typing = target?.matches('input, textarea, [contenteditable="true"]') ?? false;
    if (event.key === 'Escape') {
      event.preventDefault();
      actions.close();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      actions.save();
    } else if (!typing && (event.key === 'z' || event.key === 'Z') && (event.ctrlKey || event.metaKey) && !event.shiftKey) {
      event.preventDefault();
      actions.undo();
    } else if ((event.key === 'Enter' || event.key === ' ') && target?.getAttribute('role') === 'button' && target.tabIndex === 0) {
      event.preventDefault();
      target.click();
    } else if (event.key === 'Tab') {
      // Focus stays in the popup (aria-modal).
      const list = focusables();
      if (!list.length) return;
      const i = target ? list.indexOf(target) : -1;
      const next = event.shiftKey ? (i <= 0 ? list.length - 1 : i - 1) : i === -1 || i === list.length - 1 ? 0 : i + 1;
      event.preventDefault();
      list[next].focus();
    }
  };
  popup.addEventListener('keydown', onKey);
  const focusFirst = () => (focusables()[0] ?? popup).focus();
  // A modal keeps the focus: whatever takes it outside (e.g. the closing menu giving it back to its button) loses it.
  const keepFocus = (event: FocusEvent) => {
    if (!(event.target instanceof Node) || !popup.contains(event.target)) focusFirst();
  };
  document.addEventListener('focusin', keepFocus);
  focusFirst();
  return () => {
    observer.disconnect();
    popup.removeEventListener('keydown', onKey);
    document.removeEventListener('focusin', keepFocus);
    if (returnTo?.isConnected) returnTo.focus();
  };
}

/** A `data:` URL's bytes (no fetch: the page's CSP keeps connections to its own origin). */
export function dataUrlBlob(dataUrl: string): Blob {
  const [head, body = ''] = dataUrl.split(',', 2);
  const type = /^data:([^;,]+)/.exec(head)?.[1] ?? 'application/octet-stream';
  const bytes = head.includes(';base64')
    ? Uint8Array.from(atob(body), (c) => c.charCodeAt(0))
    : new TextEncoder().encode(decodeURIComponent(body));
  return new Blob([bytes], { type });
}
