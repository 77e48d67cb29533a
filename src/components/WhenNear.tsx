import type { ReactElement, ReactNode } from 'react';
import { Box } from '@mui/material';
import { useSeen } from './useSeen';

/**
 * Renders `children` once its place comes within `margin` of the viewport, and from then on; until then `placeholder`
 * holds the place (the same size, so nothing moves when the children arrive). What lies far below the first screen
 * (the scan page's mail form and its rich-text editor) is then neither downloaded nor evaluated during the page's load.
 * It wraps a whole form, never one input of a form already mounted: the rich-text editor arriving that way is left
 * out of the form's validation.
 */
export function WhenNear({ children, placeholder, margin = '600px' }: { children: ReactNode; placeholder: ReactElement; margin?: string }) {
  const [place, near] = useSeen<HTMLDivElement>(margin);
  return near ? children : <Box ref={place}>{placeholder}</Box>;
}
