import { lazy, Suspense, useId, useState, type ComponentProps } from 'react';
import { Box, Button, CircularProgress, Popover, Typography } from '@mui/material';
import DateRangeIcon from '@mui/icons-material/DateRange';
import { useLocaleState, useTranslate } from 'react-admin';
import { rangeLabel, selectedDays } from './dayRange';

/** The calendar (MUI X date pickers) loads when the field is first opened, not with the dashboard. */
const RangeCalendar = lazy(async () => ({ default: (await import('./RangeCalendar')).RangeCalendar }));

interface Props {
  ts: string;
  td: string;
  /** Both dates picked, or both cleared (''). */
  onChange: (range: { ts: string; td: string }) => void;
}

/** A button showing the chosen days ('N selected' beside them) that opens the range calendar in a popover. */
export const DateRangeField = ({ ts, td, onChange }: Props) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  const label = ts ? rangeLabel(ts, td, locale) : translate('app.date_range.pick');
  const count = selectedDays(ts, td);
  return (
    <Box sx={{ minWidth: 0 }}>
      <Button
        variant="outlined"
        color="inherit"
        fullWidth
        startIcon={<DateRangeIcon />}
        aria-haspopup="dialog"
        aria-controls={anchor ? id : undefined}
        aria-label={`${translate('app.date_range.label')}: ${label}`}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ justifyContent: 'flex-start', textTransform: 'none', borderColor: 'rgba(0, 0, 0, 0.23)', minHeight: 40 }}
      >
        <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {label}
        </Box>
      </Button>
      {count > 0 && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5, ml: 1.5 }}>
          {translate('app.date_range.selected', { smart_count: count })}
        </Typography>
      )}
      <Popover
        id={id}
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': translate('app.date_range.label') } }}
      >
        <Box sx={{ minWidth: 320 }}>
          {anchor && (
            <RangeCalendarOrSpinner
              value={{ ts, td }}
              onPicked={(range) => {
                setAnchor(null);
                onChange(range);
              }}
              onClear={() => {
                setAnchor(null);
                onChange({ ts: '', td: '' });
              }}
            />
          )}
        </Box>
      </Popover>
    </Box>
  );
};

const RangeCalendarOrSpinner = (props: ComponentProps<typeof RangeCalendar>) => (
  <Suspense
    fallback={
      <Box sx={{ minHeight: 380, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <CircularProgress size={24} />
      </Box>
    }
  >
    <RangeCalendar {...props} />
  </Suspense>
);
