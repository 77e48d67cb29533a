/**
 * What a browser tab shows when a file link cannot be served: a short page in the browser's language, since the API's
 * JSON reply would show as raw text. Download links are signed for a limited time, so an old tab reloaded, or a link
 * kept from a mail or a chat, ends here; the page says what happened and leads back to the app, where a fresh link is
 * made on opening the file again.
 */

const TEXTS = {
  en: {
    refused: {
      title: 'This link has expired',
      body: 'Download links are valid for a limited time, or this one is not complete. Open the file again from the app for a fresh link.',
    },
    gone: { title: 'File not found', body: 'This file is no longer available. It may have been replaced or deleted.' },
    open: 'Open Insurance ScanQuote',
  },
  ja: {
    refused: {
      title: 'このリンクは有効期限切れです',
      body: 'ダウンロードリンクには有効期限があります（またはリンクが不完全です）。アプリからもう一度ファイルを開くと、新しいリンクが作られます。',
    },
    gone: { title: 'ファイルが見つかりません', body: 'このファイルは利用できなくなりました。差し替えまたは削除された可能性があります。' },
    open: 'Insurance ScanQuote を開く',
  },
} as const;

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
};

/** A browser opening the address in a tab (not the app's fetch, not an <img> or a <video>). */
export const isPageRequest = (headers: Headers) => {
  const dest = header(headers, 'sec-fetch-dest');
  return dest ? dest === 'document' : /\btext\/html\b/.test(header(headers, 'accept'));
};

/** Japanese when the browser's first language is; English otherwise. */
const languageOf = (headers: Headers) => (/^\s*ja\b/i.test(header(headers, 'accept-language')) ? 'ja' : 'en');

/** The page for a refused link (401, 403) or a file that is not there (404). */
export function linkPage(reason: 'refused' | 'gone', headers: Headers): string {
  const language = languageOf(headers);
  const t = TEXTS[language];
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t[reason].title}</title>
<style>
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f5f6f8; color: #1c2434;
  font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
main { max-width: 28rem; margin: 1rem; padding: 2rem; background: #fff; border-radius: 8px; box-shadow: 0 1px 3px rgb(0 0 0 / 0.15); }
h1 { margin: 0 0 0.75rem; font-size: 1.4rem; }
a { display: inline-block; margin-top: 1rem; padding: 0.5rem 1rem; border-radius: 4px; background: #1c2434; color: #fff; text-decoration: none; }
</style>
</head>
<body>
<main>
<h1>${t[reason].title}</h1>
<p>${t[reason].body}</p>
<a href="/">${t.open}</a>
</main>
</body>
</html>
`;
}
