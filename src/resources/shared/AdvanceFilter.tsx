import { useMemo, useState, type ReactNode } from 'react';
import { Box, Button, ButtonBase, Collapse, MenuItem, Paper, TextField, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FilterListIcon from '@mui/icons-material/FilterList';
import { useListContext, useTranslate } from 'react-admin';
import { DateRangeField } from '../../components/DateRangeField';
import { useSelectOptions } from '../../components/useSelectOptions';
import { SCAN_TYPES } from '../../domain/scan-codes';
import { emptyFilters, filterQuery, hasAnyValue, normaliseFilterValues, type FilterValues } from './filterValues';

/**
 * A list's advance filter (the shared pattern, used by the scan and quote lists), described by its fields and applied as
 * the react-admin list's filter beside the search. Texts come from the list's own catalogue block `<messages>.filter.*`:
 * expand, title, select, applied, search, reset and each field's label.
 */

interface ChoiceFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
  /** The list's i18n block, e.g. 'app.scans'. */
  messages: string;
}

/** A clearable select: its empty choice is the '---Select X---' placeholder. */
export const ChoiceField = ({ label, value, onChange, children, messages }: ChoiceFieldProps) => {
  const translate = useTranslate();
  const placeholder = translate(`${messages}.filter.select`, { field: label });
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

/** A select over `<resource>/lists` (scoped by the server to what the user may see, narrowed by `filters`). */
export const ListChoiceField = ({
  resource,
  filters,
  ...props
}: Omit<ChoiceFieldProps, 'children'> & { resource: 'agents' | 'clients' | 'locations'; filters?: Record<string, string> }) => {
  const { data = [] } = useSelectOptions(resource, true, filters);
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

interface AdvanceFilterPanelProps {
  /** The list's i18n block, e.g. 'app.scans'. */
  messages: string;
  /** Element id of the collapsible part. */
  id: string;
  /** How many filters are applied (shown as '1 filter applied'). */
  applied: number;
  children: ReactNode;
}

/** The panel titled 'Expand to Filter' while closed and 'Advance Filter' while open; the form mounts when first opened. */
export const AdvanceFilterPanel = ({ messages, id, applied, children }: AdvanceFilterPanelProps) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <Paper variant="outlined" sx={{ mb: 2 }}>
      <ButtonBase
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls={id}
        sx={{ width: '100%', justifyContent: 'flex-start', gap: 1, px: 2, py: 1.5, textAlign: 'left' }}
      >
        <FilterListIcon fontSize="small" color="action" />
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
          {translate(open ? `${messages}.filter.title` : `${messages}.filter.expand`)}
        </Typography>
        {applied > 0 && (
          <Typography variant="body2" color="primary">
            {translate(`${messages}.filter.applied`, { smart_count: applied })}
          </Typography>
        )}
        <ExpandMoreIcon sx={{ transition: 'transform 150ms', transform: open ? 'rotate(180deg)' : 'none' }} />
      </ButtonBase>
      <Collapse in={open} id={id} mountOnEnter>
        {children}
      </Collapse>
    </Paper>
  );
};

/** One input of an advance filter; a `label` names `<messages>.filter.<label>`. */
export type FilterField<K extends string> =
  /** A range of days ('YYYY-MM-DD'), `source` its start and `end` its end, picked in the app's range calendar. */
  | { type: 'dayRange'; source: K; end: K }
  /** A clearable select of fixed choices; `name` is a message key when `translateChoice`, else the text shown. */
  | { type: 'choice'; source: K; label: string; choices: readonly { id: string; name: string }[]; translateChoice?: boolean }
  /**
   * A clearable select over `<reference>/lists`. `within` names the field whose choice narrows its list (the sites of
   * the chosen agent: the list filter of the same name); changing that field clears this one.
   */
  | { type: 'reference'; source: K; label: string; reference: 'agents' | 'clients' | 'locations'; within?: K };

/**
 * A day range, its start and end days picked in the app's range calendar (the dashboard's), which keeps them in order
 * and writes them DD-MM-YYYY (Japanese YYYY-MM-DD) whatever the browser's language.
 */
export const dayRangeField = <K extends string>(start: K, end: K): FilterField<K> => ({ type: 'dayRange', source: start, end });

/** A scan type select (Arch, Chasis, Tire), the scan and quote lists' `type`. */
export const scanTypeField: FilterField<'type'> = {
  type: 'choice',
  source: 'type',
  label: 'type',
  choices: SCAN_TYPES.map((t) => ({ id: t.id, name: `app.scans.type.${t.id}` })),
  translateChoice: true,
};

/** What a list's advance filter holds: its keys (the query's names), its inputs in order, how many per row on a wide screen. */
export interface FilterDescription<K extends string> {
  keys: readonly K[];
  fields: readonly FilterField<K>[];
  columns: number;
}

interface FilterFormProps<K extends string> {
  /** The list's i18n block, e.g. 'app.scans'. */
  messages: string;
  filters: FilterDescription<K>;
  applied: FilterValues<K>;
  loading: boolean;
  onApply: (filters: FilterValues<K>) => void;
  onReset: () => void;
}

const FilterInput = <K extends string>({
  field,
  draft,
  set,
  messages,
}: {
  field: FilterField<K>;
  draft: FilterValues<K>;
  set: (key: K) => (value: string) => void;
  messages: string;
}) => {
  const translate = useTranslate();
  // The range names itself ('Date range'); the other inputs are named by the list's messages.
  const label = field.type === 'dayRange' ? '' : translate(`${messages}.filter.${field.label}`);
  const value = draft[field.source];
  switch (field.type) {
    case 'dayRange':
      return (
        <DateRangeField
          ts={value}
          td={draft[field.end]}
          onChange={(range) => {
            set(field.source)(range.ts);
            set(field.end)(range.td);
          }}
        />
      );
    case 'choice':
      return (
        <ChoiceField messages={messages} label={label} value={value} onChange={set(field.source)}>
          {field.choices.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {field.translateChoice ? translate(c.name) : c.name}
            </MenuItem>
          ))}
        </ChoiceField>
      );
    case 'reference':
      return (
        <ListChoiceField
          messages={messages}
          resource={field.reference}
          filters={field.within && { [field.within]: draft[field.within] }}
          label={label}
          value={value}
          onChange={set(field.source)}
        />
      );
  }
};

const FilterForm = <K extends string>({ messages, filters, applied, loading, onApply, onReset }: FilterFormProps<K>) => {
  const translate = useTranslate();
  const [draft, setDraft] = useState<FilterValues<K>>(applied);
  // The applied filters change from outside too (Reset, a stored list state): the inputs follow.
  const [shown, setShown] = useState(applied);
  if (shown !== applied) {
    setShown(applied);
    setDraft(applied);
  }
  const set = (key: K) => (value: string) =>
    setDraft((d) => {
      const next: FilterValues<K> = { ...d, [key]: value };
      for (const f of filters.fields) if (f.type === 'reference' && f.within === key && value !== d[key]) next[f.source] = '';
      return next;
    });
  const canSearch = !loading && hasAnyValue(filters.keys, draft);
  const canReset = hasAnyValue(filters.keys, draft) || hasAnyValue(filters.keys, applied);

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (canSearch) onApply(normaliseFilterValues(filters.keys, draft));
      }}
      sx={{ p: 2, pt: 1 }}
    >
      <Box
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: `repeat(${filters.columns}, 1fr)` } }}
      >
        {filters.fields.map((field) => (
          <FilterInput key={field.source} field={field} draft={draft} set={set} messages={messages} />
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, mt: 2, justifyContent: 'flex-end' }}>
        <Button
          type="button"
          disabled={!canReset}
          onClick={() => {
            setDraft(emptyFilters(filters.keys));
            onReset();
          }}
        >
          {translate(`${messages}.filter.reset`)}
        </Button>
        <Button type="submit" variant="contained" disabled={!canSearch}>
          {translate(`${messages}.filter.search`)}
        </Button>
      </Box>
    </Box>
  );
};

/** How many filters are applied: a day range with both its days is one. */
const appliedCount = <K extends string>(filters: FilterDescription<K>, applied: FilterValues<K>) =>
  filters.keys.filter((key) => applied[key] !== '').length -
  filters.fields.filter((f) => f.type === 'dayRange' && applied[f.source] !== '' && applied[f.end] !== '').length;

/**
 * The advance filter (after the shared pattern): the panel above holding the described inputs; Search applies the values
 * with the list's search text (disabled while loading or with none set), Reset clears them. The select lists load when
 * the panel first opens.
 */
export const AdvanceFilter = <K extends string>({
  messages,
  id,
  filters,
}: {
  /** The list's i18n block, e.g. 'app.scans'. */
  messages: string;
  /** Element id of the collapsible part. */
  id: string;
  filters: FilterDescription<K>;
}) => {
  const list = useListContext();
  const { setFilters, isPending } = list;
  const values = list.filterValues as Partial<Record<K | 'q', unknown>>;
  const applied = useMemo(() => normaliseFilterValues(filters.keys, values), [filters.keys, values]);
  const apply = (next: FilterValues<K>) => setFilters(filterQuery(filters.keys, values.q, next));
  return (
    <AdvanceFilterPanel messages={messages} id={id} applied={appliedCount(filters, applied)}>
      <FilterForm
        messages={messages}
        filters={filters}
        applied={applied}
        loading={isPending}
        onApply={apply}
        onReset={() => apply(emptyFilters(filters.keys))}
      />
    </AdvanceFilterPanel>
  );
};
