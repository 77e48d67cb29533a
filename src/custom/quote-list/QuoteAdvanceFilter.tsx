import { useState } from 'react';
import { Box, Button, MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { AdvanceFilterPanel, ChoiceField, ListChoiceField } from '../../components/list/AdvanceFilter';
import { AU_STATES } from '../../domain/locations';
import { SCAN_TYPES } from '../../domain/scans';
import { EMPTY_QUOTE_FILTERS, hasQuoteFilterValue, normaliseQuoteFilters, QUOTE_FILTER_KEYS, type QuoteFilterValues } from './filters';

interface QuoteFilterProps {
  applied: QuoteFilterValues;
  loading: boolean;
  onApply: (filters: QuoteFilterValues) => void;
  onReset: () => void;
}

const M = 'app.quotes';

const FilterForm = ({ applied, loading, onApply, onReset }: QuoteFilterProps) => {
  const translate = useTranslate();
  const [draft, setDraft] = useState<QuoteFilterValues>(applied);
  // The applied filters change from outside too (Reset, a stored list state): the inputs follow.
  const [shown, setShown] = useState(applied);
  if (shown !== applied) {
    setShown(applied);
    setDraft(applied);
  }
  const set = (key: keyof QuoteFilterValues) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const label = (key: string) => translate(`${M}.filter.${key}`);
  const canSearch = !loading && hasQuoteFilterValue(draft);
  const canReset = hasQuoteFilterValue(draft) || hasQuoteFilterValue(applied);

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (canSearch) onApply(normaliseQuoteFilters(draft));
      }}
      sx={{ p: 2, pt: 1 }}
    >
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' } }}>
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
        <ChoiceField messages={M} label={label('type')} value={draft.type} onChange={set('type')}>
          {SCAN_TYPES.map((t) => (
            <MenuItem key={t.id} value={t.id}>
              {translate(`app.scans.type.${t.id}`)}
            </MenuItem>
          ))}
        </ChoiceField>
        <ListChoiceField messages={M} resource="agents" label={label('agent')} value={draft.agent_id} onChange={set('agent_id')} />
        <ListChoiceField messages={M} resource="clients" label={label('client')} value={draft.client_id} onChange={set('client_id')} />
        <ChoiceField messages={M} label={label('location_state')} value={draft.location_state} onChange={set('location_state')}>
          {AU_STATES.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {s.id}
            </MenuItem>
          ))}
        </ChoiceField>
      </Box>
      <Box sx={{ display: 'flex', gap: 1, mt: 2, justifyContent: 'flex-end' }}>
        <Button
          type="button"
          disabled={!canReset}
          onClick={() => {
            setDraft(EMPTY_QUOTE_FILTERS);
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
 * Spec 3 §2 advance filter: date range (default today to two days later), type, agent, client and location state;
 * Search is disabled while loading or with no value set; Reset clears every value.
 */
export const QuoteAdvanceFilter = (props: QuoteFilterProps) => (
  <AdvanceFilterPanel messages={M} id="quote-advance-filter" applied={QUOTE_FILTER_KEYS.filter((key) => props.applied[key] !== '').length}>
    <FilterForm {...props} />
  </AdvanceFilterPanel>
);
