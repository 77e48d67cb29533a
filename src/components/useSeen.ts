import { useEffect, useRef, useState } from 'react';

/**
 * Whether the element has come within `margin` of the viewport (it stays true once it has): work for what lies below
 * the first screen, such as drawing a chart or loading an editor, waits until it is scrolled to (or near). Without
 * IntersectionObserver everything counts as seen.
 */
export function useSeen<T extends Element>(margin = '0px') {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [seen, margin]);
  return [ref, seen] as const;
}
