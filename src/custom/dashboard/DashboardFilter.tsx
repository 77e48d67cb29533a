import { memo, useState } from 'react';
import { Box, Button, ButtonBase, Collapse, MenuItem, Paper, TextField, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FilterListIcon from '@mui/icons-material/FilterList';
import { useTranslate } from 'react-admin';
import { useSelectOptions } from '../../components/useSelectOptions';
import type { SelectOption } from '../../dataProvider';
import { DateRangeField } from '../../components/DateRangeField';
import { canSearch, EMPTY_DASHBOARD_FILTERS, hasAnyFilter, type DashboardFilterValues } from './filters';

type IdKey = 'agent_id' | 'client_id' | 'location_id';
const SELECTS: { key: IdKey; resource: 'agents' | 'clients' | 'locations'; label: string }[] = [
  { key: 'agent_id', resource: 'agents', label: 'agent' },
  { key: 'client_id', resource: 'clients', label: 'client' },
  { key: 'location_id', resource: 'locations', label: 'location' },
];

/** A clearable select over `<resource>/lists` (scoped by the server); its empty choice is '---Select X---'. */
const ListSelect = ({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: SelectOption[];
  onChange: (v: string) => void;
}) => {
  const translate = useTranslate();
  const known = value === '' || options.some((o) => String(o.value) === value);
  return (
    <TextField
      select
      size="small"
      label={label}
      value={known ? value : ''}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{
        inputLabel: { shrink: true },
        select: { displayEmpty: true, MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } },
      }}
    >
      <MenuItem value="">
        <Box component="span" sx={{ color: 'text.secondary' }}>
          {translate('app.dashboard.filter.select', { field: label })}
        </Box>
      </MenuItem>
      {options.map((o) => (
        <MenuItem key={o.value} value={String(o.value)}>
          {o.text}
        </MenuItem>
      ))}
    </TextField>
  );
};

interface Props {
  applied: DashboardFilterValues;
  onApply: (filters: DashboardFilterValues) => void;
}

/**
 * The dashboard's advance filter (users holding dashboard_statistics): 'Expand to Filter' while collapsed, 'Advance Filter'
 * while open. Collapsed, the header names the applied agent, client and location (or 'Not set') and offers the date
 * range, which searches as soon as both days are picked; open, the selects and the range fill a draft that Search
 * applies (enabled only with something set, both dates for a date filter) and Reset clears.
 */
export const DashboardFilter = memo(function DashboardFilter({ applied, onApply }: Props) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<DashboardFilterValues>(applied);
  const [shown, setShown] = useState(applied);
  if (shown !== applied) {
    setShown(applied);
    setDraft(applied);
  }
  // A list is asked for only when it is shown: the selects (open) or the applied choice's name (collapsed); collapsed
  // with nothing applied, the summary says 'Not set' without any list.
  const needs = (key: keyof DashboardFilterValues) => open || applied[key] !== '';
  // The Location list holds the chosen agent's sites only; choosing another agent clears the location.
  const agent = open ? draft.agent_id : applied.agent_id;
  const options = {
    agents: useSelectOptions('agents', needs('agent_id')).data ?? [],
    clients: useSelectOptions('clients', needs('client_id')).data ?? [],
    locations: useSelectOptions('locations', needs('location_id'), { agent_id: agent }).data ?? [],
  };
  const label = (key: string) => translate(`app.dashboard.filter.${key}`);
  const nameOf = (resource: keyof typeof options, id: string) =>
    id ? (options[resource].find((o) => String(o.value) === id)?.text ?? `#${id}`) : label('not_set');

  return (
    <Paper variant="outlined" sx={{ mb: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, px: 2, py: 1 }}>
        {/* The whole title row opens and closes the panel, as the lists' advance filters do. */}
        <ButtonBase
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls="dashboard-advance-filter"
          aria-label={label(open ? 'collapse' : 'expand')}
          sx={{ flex: 1, justifyContent: 'flex-start', gap: 1, py: 0.5, textAlign: 'left', borderRadius: 1 }}
        >
          <FilterListIcon fontSize="small" color="action" />
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
            {label(open ? 'title' : 'expand')}
          </Typography>
          <ExpandMoreIcon sx={{ transition: 'transform 150ms', transform: open ? 'rotate(180deg)' : 'none' }} />
        </ButtonBase>
        {!open && (
          <Box
            sx={{
              flexBasis: '100%',
              display: 'grid',
              gap: 1.5,
              alignItems: 'start',
              gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' },
            }}
          >
            <Box
              component="dl"
              sx={{ m: 0, display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.5 }}
              data-testid="dashboard-filter-summary"
            >
              {SELECTS.map((s) => (
                <Box key={s.key} sx={{ display: 'flex', gap: 0.5, minWidth: 0 }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {label(s.label)}:
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 500, overflowWrap: 'anywhere' }}>
                    {nameOf(s.resource, applied[s.key])}
                  </Typography>
                </Box>
              ))}
            </Box>
            <DateRangeField
              ts={applied.ts}
              td={applied.td}
              // Collapsed: a picked range searches at once, keeping the other filters.
              onChange={(range) => onApply({ ...applied, ...range })}
            />
          </Box>
        )}
      </Box>
      <Collapse in={open} id="dashboard-advance-filter" unmountOnExit>
        <Box
          component="form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (canSearch(draft)) onApply(draft);
          }}
          sx={{ p: 2, pt: 1 }}
        >
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' } }}>
            {SELECTS.map((s) => (
              <ListSelect
                key={s.key}
                label={label(s.label)}
                value={draft[s.key]}
                options={options[s.resource]}
                onChange={(v) =>
                  setDraft((d) => ({ ...d, [s.key]: v, ...(s.key === 'agent_id' && v !== d.agent_id && { location_id: '' }) }))
                }
              />
            ))}
            <DateRangeField ts={draft.ts} td={draft.td} onChange={(range) => setDraft((d) => ({ ...d, ...range }))} />
          </Box>
          <Box sx={{ display: 'flex', gap: 1, mt: 2, justifyContent: 'flex-end' }}>
            <Button
              type="button"
              disabled={!hasAnyFilter(draft) && !hasAnyFilter(applied)}
              onClick={() => {
                setDraft(EMPTY_DASHBOARD_FILTERS);
                onApply(EMPTY_DASHBOARD_FILTERS);
              }}
            >
              {label('reset')}
            </Button>
            <Button type="submit" variant="contained" disabled={!canSearch(draft)}>
              {label('search')}
            </Button>
          </Box>
        </Box>
      </Collapse>
    </Paper>
  );
});
