import { useState, type ReactNode } from 'react';
import { Box, Button, ButtonBase, Collapse, MenuItem, Paper, TextField, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FilterListIcon from '@mui/icons-material/FilterList';
import { useTranslate } from 'react-admin';
import { useSelectOptions } from '../../components/useSelectOptions';
import { SCAN_STATUSES, SCAN_TYPES } from '../../domain/scans';
import { EMPTY_FILTERS, FILTER_KEYS, hasFilterValue, normaliseFilters, type ScanFilterValues } from './filters';

interface ChoiceFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}

/** A clearable select: its empty choice is the '---Select X---' placeholder (spec 1 filter pattern). */
const ChoiceField = ({ label, value, onChange, children }: ChoiceFieldProps) => {
  const translate = useTranslate();
  const placeholder = translate('app.scans.filter.select', { field: label });
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{
        inputLabel: { shrink: true },
        select: {
          displayEmpty: true,
          MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } },
        },
      }}
    >
      <MenuItem value="">
        <Box component="span" sx={{ color: 'text.secondary' }}>
          {placeholder}
        </Box>
      </MenuItem>
      {children}
    </TextField>
  );
};

/** A select over `<resource>/lists` (scoped by the server to what the user may see). */
const ListChoiceField = ({ resource, ...props }: Omit<ChoiceFieldProps, 'children'> & { resource: 'agents' | 'clients' | 'locations' }) => {
  const { data = [] } = useSelectOptions(resource);
  const known = props.value === '' || data.some((o) => String(o.value) === props.value);
  return (
    <ChoiceField {...props} value={known ? props.value : ''}>
      {data.map((o) => (
        <MenuItem key={o.value} value={String(o.value)}>
          {o.text}
        </MenuItem>
      ))}
    </ChoiceField>
  );
};

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
        <ChoiceField label={label('status')} value={draft.status} onChange={set('status')}>
          {SCAN_STATUSES.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {translate(`app.scans.status.${s.id}`)}
            </MenuItem>
          ))}
        </ChoiceField>
        <ChoiceField label={label('type')} value={draft.type} onChange={set('type')}>
          {SCAN_TYPES.map((t) => (
            <MenuItem key={t.id} value={t.id}>
              {translate(`app.scans.type.${t.id}`)}
            </MenuItem>
          ))}
        </ChoiceField>
        <ListChoiceField resource="agents" label={label('agent')} value={draft.agent_id} onChange={set('agent_id')} />
        <ListChoiceField resource="clients" label={label('client')} value={draft.client_id} onChange={set('client_id')} />
        <ListChoiceField resource="locations" label={label('location')} value={draft.location_id} onChange={set('location_id')} />
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
export const ScanAdvanceFilter = (props: FilterFormProps) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const count = FILTER_KEYS.filter((key) => props.applied[key] !== '').length;
  return (
    <Paper variant="outlined" sx={{ mb: 2 }}>
      <ButtonBase
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls="scan-advance-filter"
        sx={{ width: '100%', justifyContent: 'flex-start', gap: 1, px: 2, py: 1.5, textAlign: 'left' }}
      >
        <FilterListIcon fontSize="small" color="action" />
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
          {translate(open ? 'app.scans.filter.title' : 'app.scans.filter.expand')}
        </Typography>
        {count > 0 && (
          <Typography variant="body2" color="primary">
            {translate('app.scans.filter.applied', { smart_count: count })}
          </Typography>
        )}
        <ExpandMoreIcon sx={{ transition: 'transform 150ms', transform: open ? 'rotate(180deg)' : 'none' }} />
      </ButtonBase>
      <Collapse in={open} id="scan-advance-filter" mountOnEnter>
        <FilterForm {...props} />
      </Collapse>
    </Paper>
  );
};
