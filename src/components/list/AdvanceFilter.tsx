import { useState, type ReactNode } from 'react';
import { Box, ButtonBase, Collapse, MenuItem, Paper, TextField, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FilterListIcon from '@mui/icons-material/FilterList';
import { useTranslate } from 'react-admin';
import { useSelectOptions } from '../useSelectOptions';

/**
 * Pieces of a list's advance filter (spec 1's pattern, used by the scan and quote lists). Texts come from the
 * list's own catalogue block `<messages>.filter.*`: expand, title, select, applied.
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

/** A select over `<resource>/lists` (scoped by the server to what the user may see). */
export const ListChoiceField = ({
  resource,
  ...props
}: Omit<ChoiceFieldProps, 'children'> & { resource: 'agents' | 'clients' | 'locations' }) => {
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
