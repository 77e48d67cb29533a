import { useState } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/ja';
import en from 'dayjs/locale/en';
import ja from 'dayjs/locale/ja';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { Box, Button, Typography } from '@mui/material';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DateCalendar } from '@mui/x-date-pickers/DateCalendar';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { jaJP } from '@mui/x-date-pickers/locales';
import { PickerDay, type PickerDayProps } from '@mui/x-date-pickers/PickerDay';
import { useLocaleState, useTranslate } from 'react-admin';
import { DISPLAY_TIME_ZONE } from '../domain/format';
import { type DayRange, pickDay, selectedDays } from './dayRange';

dayjs.extend(utc);
dayjs.extend(timezone);
// Weeks start on Monday in both languages (M T W T F S S).
dayjs.locale({ ...en, name: 'en-monday', weekStart: 1 }, undefined, true);
dayjs.locale({ ...ja, name: 'ja-monday', weekStart: 1 }, undefined, true);

/** The calendar's own words (month arrows, view switch) in Japanese; its heading reads '2026年11月', not '11月 2026'. */
const JAPANESE_TEXT = jaJP.components.MuiLocalizationProvider.defaultProps.localeText;
const JAPANESE_HEADING = 'YYYY年M月';

interface DayProps extends PickerDayProps {
  range?: DayRange;
}

/**
 * A day of the calendar, marked when it lies in the range being picked. Never today: MUI's day draws today's outline
 * even under `disableHighlightToday`, and the spec's picker has no today marker.
 */
const RangeDay = ({ range, ...props }: DayProps) => {
  const day = props.day.format('YYYY-MM-DD');
  const end = range?.td || range?.ts || '';
  const inRange = !!range?.ts && !props.outsideCurrentMonth && day >= range.ts && day <= end;
  const edge = day === range?.ts || day === range?.td;
  return (
    <PickerDay
      {...props}
      today={false}
      aria-current={undefined}
      selected={inRange && edge}
      aria-selected={inRange}
      sx={
        inRange && !edge
          ? { bgcolor: 'primary.light', color: 'primary.contrastText', '&:hover, &:focus': { bgcolor: 'primary.main' } }
          : undefined
      }
    />
  );
};

interface Props {
  value: DayRange;
  /** A finished range (both dates). */
  onPicked: (range: DayRange) => void;
  onClear: () => void;
}

/**
 * The date-range picker without time: MUI X's community calendar (it has no range picker) with the range
 * drawn by its day slot; the first click picks the start, the second the end. Days are Melbourne's; no today marker.
 */
export const RangeCalendar = ({ value, onPicked, onClear }: Props) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [range, setRange] = useState<DayRange>(value);
  const count = selectedDays(range.ts, range.td);
  const shown = range.td || range.ts;
  return (
    <LocalizationProvider
      dateAdapter={AdapterDayjs}
      adapterLocale={locale === 'ja' ? 'ja-monday' : 'en-monday'}
      localeText={locale === 'ja' ? JAPANESE_TEXT : undefined}
    >
      <DateCalendar
        timezone={DISPLAY_TIME_ZONE}
        value={shown ? dayjs.tz(shown, DISPLAY_TIME_ZONE) : null}
        referenceDate={dayjs().tz(DISPLAY_TIME_ZONE)}
        onChange={(d: Dayjs | null) => {
          if (!d) return;
          const next = pickDay(range, d.format('YYYY-MM-DD'));
          setRange(next);
          if (next.td) onPicked(next);
        }}
        disableHighlightToday
        dayOfWeekFormatter={(d: Dayjs) => d.format('dd').charAt(0).toUpperCase()}
        slots={{ day: RangeDay }}
        slotProps={{ day: { range } as Partial<DayProps>, calendarHeader: locale === 'ja' ? { format: JAPANESE_HEADING } : undefined }}
      />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, pb: 1.5 }}>
        <Typography variant="body2" role="status" sx={{ flex: 1 }}>
          {translate('app.date_range.selected', { smart_count: count })}
        </Typography>
        <Button
          size="small"
          onClick={() => {
            setRange({ ts: '', td: '' });
            onClear();
          }}
        >
          {translate('app.date_range.clear')}
        </Button>
      </Box>
    </LocalizationProvider>
  );
};
