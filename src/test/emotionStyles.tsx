import { __unsafe_useEmotionCache as useEmotionCache, type EmotionCache } from '@emotion/react';
import { renderToString } from 'react-dom/server';

const Probe = ({ found }: { found: (cache: EmotionCache | null) => void }) => {
  found(useEmotionCache());
  return null;
};

/**
 * Emotion never removes a style it inserted, and the unit files share a worker, so each file's screens added
 * hundreds of `<style>` elements to the next file's document, and jsdom matches every one of them for each computed
 * style Testing Library asks for. This empties the app's style cache after a test: the next render inserts what it
 * uses again.
 */
export function dropInsertedStyles() {
  let cache: EmotionCache | null = null;
  renderToString(<Probe found={(found) => (cache = found)} />);
  if (!cache) return;
  const { sheet, inserted } = cache as EmotionCache;
  sheet.flush();
  for (const name of Object.keys(inserted)) delete inserted[name];
}
