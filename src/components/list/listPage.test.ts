import { describe, expect, it } from 'vitest';
import { nextSort, toListPage } from './listPage';

describe('list page', () => {
  it('reads {items, total, total_is_estimate}; rows without an id are dropped; anything else is an empty page', () => {
    const row = { id: 1, name: 'a' };
    expect(toListPage({ items: [row, 'x', null, { name: 'no id' }], total: 7 })).toEqual({ rows: [row], total: 7, estimate: false });
    expect(toListPage({ items: [], total: 20_000, total_is_estimate: true })).toEqual({ rows: [], total: 20_000, estimate: true });
    expect(toListPage({ items: [row, row] })).toEqual({ rows: [row, row], total: 2, estimate: false });
    expect(toListPage(null)).toEqual({ rows: [], total: 0, estimate: false });
    expect(toListPage('error')).toEqual({ rows: [], total: 0, estimate: false });
  });

  it('sorts a new column ascending, then the same column the other way and back', () => {
    const first = nextSort(null, 'name');
    expect(first).toEqual({ field: 'name', order: 'asc' });
    const second = nextSort(first, 'name');
    expect(second).toEqual({ field: 'name', order: 'desc' });
    expect(nextSort(second, 'name')).toEqual({ field: 'name', order: 'asc' });
    expect(nextSort(second, 'total')).toEqual({ field: 'total', order: 'asc' });
  });
});
