import { type ReactElement, type ReactNode, useEffect, useRef, useState } from 'react';
import { Box } from '@mui/material';

/**
 * Renders `children` once its place comes within `margin` of the viewport, and from then on; until then `placeholder`
 * holds the place (the same size, so nothing moves when the children arrive). A widget far below the first screen
 * (the scan page's mail editor) is then neither downloaded nor evaluated during the page's load. Without
 * IntersectionObserver the children render at once.
 */
export function WhenNear({ children, placeholder, margin = '600px' }: { children: ReactNode; placeholder: ReactElement; margin?: string }) {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  const place = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (near || !place.current) return undefined;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: margin });
    observer.observe(place.current);
    return () => observer.disconnect();
  }, [near, margin]);
  return near ? children : <Box ref={place}>{placeholder}</Box>;
}
