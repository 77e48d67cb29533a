import { StyleSheet } from '@emotion/sheet';

/**
 * Unit tests never read a style (jsdom lays nothing out; the browser tests see the real styles), but jsdom matches
 * every inserted rule against an element each time a computed style is asked for, and Testing Library asks for one
 * per node when it computes an accessible name or checks that an element is hidden. With MUI's hundreds of rules
 * that was over a third of a screen test's time. So emotion, which inserts through this class whatever cache a
 * component uses, inserts nothing here.
 */
export function insertNoStyles() {
  StyleSheet.prototype.insert = () => {};
}
