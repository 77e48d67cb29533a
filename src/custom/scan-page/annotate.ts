/**
 * Spec 2 §2 Saved Images → Annotation: marker.js 2's popup over the image; its result is exported as a JPEG.
 * Resolves with the JPEG, or null when the user closes the popup without saving. marker.js is loaded on first use.
 */
export async function annotateImage(image: HTMLImageElement): Promise<Blob | null> {
  const { MarkerArea } = await import('markerjs2');
  return new Promise((resolve) => {
    const area = new MarkerArea(image);
    area.settings.displayMode = 'popup';
    // Above MUI's dialogs and menus (1300).
    area.uiStyleSettings.zIndex = '1500';
    area.renderAtNaturalSize = true;
    area.renderImageType = 'image/jpeg';
    area.renderImageQuality = 0.92;
    area.addEventListener('render', (event) => {
      resolve(dataUrlBlob(event.dataUrl));
    });
    area.addEventListener('close', () => resolve(null));
    area.show();
  });
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
