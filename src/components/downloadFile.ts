import { API_URL } from '../config';
import { fileTimeStamp } from '../domain/format';

/**
 * An export's file name: `<prefix>-YYYYMMDD-HHmm.<ext>` (e.g. scans-20261124-1530.csv), the time in Melbourne like
 * every time the rows inside show, whatever the browser's own time zone.
 */
export function exportFileName(prefix: string, extension: string, now = new Date()) {
  return `${prefix}-${fileTimeStamp(now)}.${extension}`;
}

/**
 * Whether a signed link of the files route (`?expires=<seconds>`) has expired, or will within `marginMs` (the click,
 * the request and the clocks' difference). A link without `expires` never does.
 */
export function linkExpired(url: string, now = Date.now(), marginMs = 60_000) {
  const expires = Number(new URL(url, 'http://link').searchParams.get('expires'));
  return expires > 0 && expires * 1000 - marginMs <= now;
}

/**
 * Starts the browser's download of a file of the files route, saved as `name` (by default an export's name with
 * `prefix`): the name travels as the route's `download` parameter, which makes the server send it as an attachment.
 */
export function downloadFile(url: string, name: string | ((extension: string) => string)) {
  const href = new URL(url, new URL(`${API_URL}/`, window.location.href));
  const extension = /\.([a-z0-9]{1,5})$/i.exec(href.pathname)?.[1] ?? 'csv';
  const fileName = typeof name === 'function' ? name(extension) : name;
  href.searchParams.set('download', fileName);
  clickDownload(href.toString(), fileName);
}

/** Follows a link as a download saved as `name`. */
function clickDownload(href: string, name: string) {
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** Saves text the app already holds (a CSV it was sent) as a file named `name`. */
export function downloadText(text: string, name: string, type = 'text/csv;charset=utf-8') {
  const href = URL.createObjectURL(new Blob([text], { type }));
  clickDownload(href, name);
  // Revoked after the click has started the download.
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
