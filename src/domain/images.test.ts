import { describe, expect, it } from 'vitest';
import { imageSources, sizedImageUrl, viewerSources } from './images';

const url = '/api/user/files/0123456789abcdef0123456789abcdef.jpg';

describe('imageSources', () => {
  it('offers the sized copies of a stored image for the box it fills', () => {
    expect(imageSources(url, '100px')).toEqual({
      src: url,
      srcSet: `${url}?w=320 320w, ${url}?w=640 640w, ${url}?w=1280 1280w`,
      sizes: '100px',
    });
  });

  it('gives the viewer the 1280 copy, with the original as the largest', () => {
    expect(viewerSources(url)).toEqual({ src: url, srcSet: `${url}?w=1280 1x, ${url} 2x` });
  });

  it('leaves other images as they are (SVGs, outside URLs, captures)', () => {
    for (const other of ['/api/user/files/0123456789abcdef0123456789abcdef.svg', 'https://cdn.example/a.jpg', 'blob:x']) {
      expect(imageSources(other, '100px')).toEqual({ src: other });
      expect(sizedImageUrl(other, 320)).toBe(other);
      expect(viewerSources(other)).toEqual({ src: other });
    }
  });
});
