import { useEffect, useRef, useState } from 'react';

/**
 * Whether the element has been in the viewport (it stays true once it has): work for what lies below the first
 * screen, such as drawing a chart, waits until it is scrolled to.
 */
export function useSeen<T extends Element>() {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [seen]);
  return [ref, seen] as const;
}
