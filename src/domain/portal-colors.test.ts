import { describe, expect, it } from 'vitest';
import { contrastRatio, portalButtonColors } from './portal-colors';

describe('portal button colours', () => {
  it("use the agent's colours when the label reads on the background", () => {
    expect(portalButtonColors('#1b5e20', '#ffffff')).toEqual({ background: '#1b5e20', text: '#ffffff' });
    expect(portalButtonColors('#e65100', '#000000')).toEqual({ background: '#e65100', text: '#000000' });
  });

  it('default to #0C1839 and #000000, and swap an unreadable label for white or black', () => {
    // The defaults themselves: black on navy would not read, so white.
    expect(portalButtonColors(null, '')).toEqual({ background: '#0C1839', text: '#ffffff' });
    expect(portalButtonColors('#ffff00', '#ffffff')).toEqual({ background: '#ffff00', text: '#000000' });
    expect(portalButtonColors('red; x', 'nope')).toEqual({ background: '#0C1839', text: '#ffffff' });
  });

  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777', '#777777')).toBeCloseTo(1, 5);
  });
});
