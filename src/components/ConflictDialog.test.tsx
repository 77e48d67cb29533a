import { render, screen, within } from '@testing-library/react';
import { AdminContext, HttpError } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { i18nProvider, loadScreenMessages } from '../i18n/i18nProvider';
import { ConflictDialog, conflictOf } from './ConflictDialog';

describe('ConflictDialog', () => {
  it("names the changed fields as the screens do: a panel line by its panel, a switch as Yes / No, amounts with cents in the quote's currency", async () => {
    const changes = [
      { field: 'grant_total', value: 21398.6 },
      { field: 'items.Right B Pillar.lineTotal', value: 5184 },
      { field: 'items.Bonnet.scratch.repair_type', value: 'spot' },
      { field: 'metallic', value: 1 },
      { field: 'assessor_comments', value: null },
    ];
    await loadScreenMessages();
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <ConflictDialog
          conflict={{ version: 4, saved_at: null, saved_by: { id: 2, name: 'Ada Admin' }, changes }}
          record="quote"
          currency="¥"
          onReload={() => {}}
          onReapply={() => {}}
        />
      </AdminContext>,
    );
    await screen.findByText('Metallic');
    const list = within(screen.getByRole('list', { name: 'Your changes were not saved. What changed meanwhile:' }));
    const rows = list.getAllByRole('listitem').map((item) => item.textContent);
    expect(rows).toEqual([
      'Total¥21,398.60',
      'Right B Pillar · Line total¥5,184.00',
      'Bonnet · Scratch Repair typespot',
      'MetallicYes',
      'Assessor comments(none)',
    ]);
  });

  it("names a scan's damage count by its panel, kind and level, and a tyre choice by its wheel", async () => {
    const changes = [
      { field: 'counts.right_front_guard.dents.oversize', value: 1 },
      { field: 'tyre_repairs.1L', value: 'replace' },
    ];
    await loadScreenMessages();
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <ConflictDialog
          conflict={{ version: 4, saved_at: null, saved_by: { id: 2, name: 'Ada Admin' }, changes }}
          record="scan"
          onReload={() => {}}
          onReapply={() => {}}
        />
      </AdminContext>,
    );
    const list = within(await screen.findByRole('list', { name: 'Your changes were not saved. What changed meanwhile:' }));
    expect(list.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Right Front Guard · Dents (Oversize)1',
      'Tyre FRONT LEFTReplace',
    ]);
  });
});

describe('conflictOf', () => {
  const conflict = {
    version: 4,
    saved_by: { id: 2, name: 'Ada Admin' },
    saved_at: '2026-12-01T03:04:00.000Z',
    changes: [{ field: 'make', value: 'Toyota' }],
  };

  it("reads a refused save's conflict from the 409 reply", () => {
    expect(conflictOf(new HttpError('Changed meanwhile', 409, { error: 'Changed meanwhile', conflict }))).toEqual(conflict);
  });

  it('is null for another 409 (no conflict in it), another status or another error', () => {
    expect(conflictOf(new HttpError('Already exists', 409, { error: 'Already exists' }))).toBeNull();
    expect(conflictOf(new HttpError('Bad', 409, { conflict: { version: 'x' } }))).toBeNull();
    expect(conflictOf(new HttpError('Server error', 500, { error: 'Server error', conflict }))).toBeNull();
    expect(conflictOf(new Error('offline'))).toBeNull();
  });
});
