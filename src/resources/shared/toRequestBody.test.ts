import { describe, expect, it } from 'vitest';
import type { FieldSpecs } from '../../domain/fields';
import { toRequestBody } from './toRequestBody';

const fields = {
  name: { type: 'text', label: 'Name' },
  logo: { type: 'image', label: 'Logo', upload: 'logoFile' },
  password: { type: 'secret', label: 'Password' },
} satisfies FieldSpecs;

describe('toRequestBody', () => {
  it('moves a newly chosen image to its upload part', () => {
    const file = new File(['png'], 'logo.png');
    expect(toRequestBody(fields, { name: 'A', logo: { rawFile: file, src: 'blob:1', title: 'logo.png' } })).toEqual({
      name: 'A',
      logoFile: file,
    });
  });

  it('keeps an unchanged image URL and drops a blank secret', () => {
    expect(toRequestBody(fields, { name: 'A', logo: '/files/logo.png', password: '' })).toEqual({ name: 'A', logo: '/files/logo.png' });
  });
});
