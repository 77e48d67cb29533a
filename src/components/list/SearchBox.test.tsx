import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SearchBox } from './SearchBox';

describe('SearchBox', () => {
  it('shows an outside change of the search (Reset) and keeps the typed text when only spaces differ', () => {
    const onSearch = vi.fn();
    const { rerender } = render(<SearchBox value="abc" placeholder="Search" onSearch={onSearch} />);
    const input = screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search' });
    expect(input.value).toBe('abc');

    rerender(<SearchBox value="" placeholder="Search" onSearch={onSearch} />);
    expect(input.value).toBe('');

    fireEvent.change(input, { target: { value: 'xyz ' } });
    rerender(<SearchBox value="xyz" placeholder="Search" onSearch={onSearch} />);
    expect(input.value).toBe('xyz ');
    expect(onSearch).not.toHaveBeenCalled();
  });
});
