import type { ReactNode } from 'react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { describe, expect, it, vi } from 'vitest';
import { AdvanceFilter, dayRangeFields, type FilterDescription } from './AdvanceFilter';
import { emptyFilters } from './filterValues';
import { ListTable, SKELETON_ROWS, type TableDescription } from './ListTable';

const messages = {
  ...englishMessages,
  app: {
    things: {
      title: 'Things',
      empty: 'Nothing here',
      columns: { name: 'Name', size: 'Size', colour: 'Colour', action: 'Action' },
      filter: {
        expand: 'Expand to Filter',
        title: 'Advance Filter',
        select: '---Select %{field}---',
        applied: '%{smart_count} filter applied |||| %{smart_count} filters applied',
        start_date: 'From',
        end_date: 'To',
        colour: 'Colour',
        search: 'Search',
        reset: 'Reset',
      },
      colours: { red: 'Red', blue: 'Blue' },
    },
  },
};
const i18nProvider = polyglotI18nProvider(() => messages, 'en', { allowMissing: true });
const wrap = (ui: ReactNode) => render(<AdminContext i18nProvider={i18nProvider}>{ui}</AdminContext>);

interface Thing {
  id: number;
  name: string;
  size: number;
  colour: string | null;
}
const table: TableDescription<Thing, 'name' | 'size'> = {
  columns: [
    { key: 'name', source: 'name' },
    { key: 'size', source: 'size', align: 'right', render: (row) => `${row.size} cm` },
    { key: 'colour', source: 'colour' },
  ],
  sortable: ['name', 'size'],
  minWidth: 600,
  actions: (row) => <button type="button">Open {row.name}</button>,
};
const rows: Thing[] = [
  { id: 1, name: 'Box', size: 30, colour: 'red' },
  { id: 2, name: 'Jar', size: 12, colour: null },
];

describe('ListTable', () => {
  it('renders the described columns, cells and row actions; only sortable headings sort', () => {
    const onSort = vi.fn();
    wrap(
      <ListTable
        {...table}
        messages="app.things"
        id="thing"
        rows={rows}
        loading={false}
        sort={{ field: 'size', order: 'desc' }}
        onSort={onSort}
      />,
    );
    expect(screen.getByRole('table', { name: 'Things' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Size', 'Colour', 'Action']);
    const [first, second] = screen.getAllByRole('row').slice(1);
    expect(
      within(first)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Box', '30 cm', 'red', 'Open Box']);
    expect(
      within(second)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Jar', '12 cm', '', 'Open Jar']);
    expect(screen.getByRole('columnheader', { name: 'Size' }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(onSort).toHaveBeenCalledWith('name');
    expect(screen.queryByRole('button', { name: 'Colour' })).toBeNull();
  });

  it('shows the skeleton rows while loading and the empty text for no rows', () => {
    const { unmount } = wrap(
      <ListTable {...table} messages="app.things" id="thing" rows={rows} loading sort={null} onSort={() => undefined} />,
    );
    expect(screen.getAllByTestId('thing-skeleton-row')).toHaveLength(SKELETON_ROWS);
    expect(screen.queryByText('Box')).toBeNull();
    unmount();
    wrap(<ListTable {...table} messages="app.things" id="thing" rows={[]} loading={false} sort={null} onSort={() => undefined} />);
    expect(screen.getByText('Nothing here')).toBeTruthy();
  });
});

const filters: FilterDescription<'ts' | 'te' | 'colour'> = {
  keys: ['ts', 'te', 'colour'],
  columns: 3,
  fields: [
    ...dayRangeFields('ts', 'te'),
    {
      type: 'choice',
      source: 'colour',
      label: 'colour',
      choices: [
        { id: 'red', name: 'app.things.colours.red' },
        { id: 'blue', name: 'app.things.colours.blue' },
      ],
      translateChoice: true,
    },
  ],
};

describe('AdvanceFilter', () => {
  it('renders the described inputs, applies normalised values with Search and clears them with Reset', () => {
    const onApply = vi.fn();
    const onReset = vi.fn();
    const applied = emptyFilters(filters.keys);
    wrap(
      <AdvanceFilter
        messages="app.things"
        id="thing-filter"
        filters={filters}
        applied={applied}
        loading={false}
        onApply={onApply}
        onReset={onReset}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: /Expand to Filter/ }));
    expect(screen.getByText('Advance Filter')).toBeTruthy();
    const search = screen.getByRole<HTMLButtonElement>('button', { name: 'Search' });
    expect(search.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-05-09' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-05-01' } });
    // Each end of the range bounds the other.
    expect(screen.getByLabelText('From').getAttribute('max')).toBe('2026-05-01');
    expect(screen.getByLabelText('To').getAttribute('min')).toBe('2026-05-09');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Colour' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['---Select Colour---', 'Red', 'Blue']);
    fireEvent.click(screen.getByRole('option', { name: 'Blue' }));
    fireEvent.click(search);
    // A backwards range is swapped.
    expect(onApply).toHaveBeenCalledWith({ ts: '2026-05-01', te: '2026-05-09', colour: 'blue' });
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(onReset).toHaveBeenCalledTimes(1);
    expect(screen.getByLabelText<HTMLInputElement>('From').value).toBe('');
  });

  it('counts the applied values and keeps Search disabled while loading', () => {
    wrap(
      <AdvanceFilter
        messages="app.things"
        id="thing-filter"
        filters={filters}
        applied={{ ts: '2026-05-01', te: '2026-05-03', colour: '' }}
        loading
        onApply={() => undefined}
        onReset={() => undefined}
      />,
    );
    expect(screen.getByText('2 filters applied')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Expand to Filter/ }));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Search' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Reset' }).disabled).toBe(false);
  });
});
