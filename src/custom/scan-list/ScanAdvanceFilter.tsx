import { useState } from 'react';
import { Box, Button, MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { AdvanceFilterPanel, ChoiceField, ListChoiceField } from '../../components/list/AdvanceFilter';
import { SCAN_STATUSES, SCAN_TYPES } from '../../domain/scans';
import { EMPTY_FILTERS, FILTER_KEYS, hasFilterValue, normaliseFilters, type ScanFilterValues } from './filters';

interface FilterFormProps {
  applied: ScanFilterValues;
  loading: boolean;
  onApply: (filters: ScanFilterValues) => void;
  onReset: () => void;
}

const FilterForm = ({ applied, loading, onApply, onReset }: FilterFormProps) => {
  const translate = useTranslate();
  const [draft, setDraft] = useState<ScanFilterValues>(applied);
  // The applied filters change from outside too (Reset, a stored list state): the inputs follow.
  const [shown, setShown] = useState(applied);
  if (shown !== applied) {
    setShown(applied);
    setDraft(applied);
  }
  const set = (key: keyof ScanFilterValues) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const label = (key: string) => translate(`app.scans.filter.${key}`);
  const canSearch = !loading && hasFilterValue(draft);
  const canReset = hasFilterValue(draft) || hasFilterValue(applied);

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (canSearch) onApply(normaliseFilters(draft));
      }}
      sx={{ p: 2, pt: 1 }}
    >
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' } }}>
        <TextField
          type="date"
          size="small"
          label={label('start_date')}
          value={draft.ts}
          onChange={(event) => set('ts')(event.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: draft.te || undefined } }}
        />
        <TextField
          type="date"
          size="small"
          label={label('end_date')}
          value={draft.te}
          onChange={(event) => set('te')(event.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: draft.ts || undefined } }}
        />
        <ChoiceField messages="app.scans" label={label('status')} value={draft.status} onChange={set('status')}>
          {SCAN_STATUSES.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {translate(`app.scans.status.${s.id}`)}
            </MenuItem>
          ))}
        </ChoiceField>
        <ChoiceField messages="app.scans" label={label('type')} value={draft.type} onChange={set('type')}>
          {SCAN_TYPES.map((t) => (
            <MenuItem key={t.id} value={t.id}>
              {translate(`app.scans.type.${t.id}`)}
            </MenuItem>
          ))}
        </ChoiceField>
        <ListChoiceField messages="app.scans" resource="agents" label={label('agent')} value={draft.agent_id} onChange={set('agent_id')} />
        <ListChoiceField
          messages="app.scans"
          resource="clients"
          label={label('client')}
          value={draft.client_id}
          onChange={set('client_id')}
        />
        <ListChoiceField
          messages="app.scans"
          resource="locations"
          label={label('location')}
          value={draft.location_id}
          onChange={set('location_id')}
        />
      </Box>
      <Box sx={{ display: 'flex', gap: 1, mt: 2, justifyContent: 'flex-end' }}>
        <Button
          type="button"
          disabled={!canReset}
          onClick={() => {
            setDraft(EMPTY_FILTERS);
            onReset();
          }}
        >
          {label('reset')}
        </Button>
        <Button type="submit" variant="contained" disabled={!canSearch}>
          {label('search')}
        </Button>
      </Box>
    </Box>
  );
};

/**
 * Spec 2 §2 advance filter, after spec 1's pattern: a panel titled 'Expand to Filter' while closed and
 * 'Advance Filter' while open; Search applies the values (disabled while loading or with none set), Reset
 * clears them. The select lists load when the panel first opens.
 */
export const ScanAdvanceFilter = (props: FilterFormProps) => (
  <AdvanceFilterPanel messages="app.scans" id="scan-advance-filter" applied={FILTER_KEYS.filter((key) => props.applied[key] !== '').length}>
    <FilterForm {...props} />
  </AdvanceFilterPanel>
);
