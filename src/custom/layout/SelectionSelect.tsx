import { memo } from 'react';
import { MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { SelectOption } from '../../dataProvider';
import type { Selection } from '../../session';
import { headerFieldSx } from './headerFieldSx';
import type { Choice } from './useHeaderSelection';

interface SelectionSelectProps {
  label: string;
  options: SelectOption[];
  value: Selection;
  onChange: (choice: Choice) => void;
}

/** A header selector: 'All' first, then the user's agents or clients. */
export const SelectionSelect = memo(function SelectionSelect({ label, options, value, onChange }: SelectionSelectProps) {
  const translate = useTranslate();
  const current = value === null ? 'all' : String(Array.isArray(value) ? value[0] : value);
  const known = current === 'all' || options.some((o) => String(o.value) === current);

  return (
    <TextField
      select
      variant="outlined"
      size="small"
      label={label}
      value={known ? current : ''}
      onChange={(event) => onChange(event.target.value === 'all' ? 'all' : Number(event.target.value))}
      sx={{ ...headerFieldSx, minWidth: 0, flex: { xs: 1, sm: '0 0 180px' } }}
      slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } } }}
    >
      <MenuItem value="all">{translate('app.header.all')}</MenuItem>
      {options.map((o) => (
        <MenuItem key={o.value} value={String(o.value)}>
          {o.text}
        </MenuItem>
      ))}
    </TextField>
  );
});
