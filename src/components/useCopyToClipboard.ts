import { useCallback, useEffect, useRef, useState } from 'react';

/** The 'Copied!' indicator stays 5 seconds. */
export const COPIED_MS = 5000;

/** The clipboard API needs a secure context; an old-style copy through a hidden text area works elsewhere. */
async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Permission refused: fall through to the selection copy.
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    document.execCommand('copy');
  } finally {
    area.remove();
  }
}

/** `copy(text)` puts text on the clipboard; `copied` is true for the next 5 seconds. */
export function useCopyToClipboard(duration = COPIED_MS) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(
    async (text: string) => {
      await writeClipboard(text);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), duration);
    },
    [duration],
  );
  return { copy, copied };
}
