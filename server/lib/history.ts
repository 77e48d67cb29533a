import { formatDateTime } from '../../src/domain/format';
import { changesOf, declinedLinesText, type EventRecord, type EventValue, eventValueText } from '../../src/domain/history';
import { csvText } from '../../src/domain/csv';

export const HISTORY_CSV_COLUMNS = ['Date/Time', 'User', 'Acting Admin', 'Action', 'Field', 'Before', 'After'] as const;

const text = (field: string, v: EventValue) => (field === 'declined_lines' ? declinedLinesText(v, 'en') : eventValueText(v));

/** A history as CSV: one row per changed field (an event that changed no field, one row), times in Melbourne. */
export function historyCsv(events: readonly EventRecord[]): string {
  const rows = events.flatMap((e) => {
    const who = [formatDateTime(e.at, 'en'), e.actor_name, e.admin_name, e.action];
    const changes = changesOf(e);
    return changes.length
      ? changes.map((c) => [...who, c.field, text(c.field, c.before), text(c.field, c.after)])
      : [[...who, null, null, null]];
  });
  return csvText(HISTORY_CSV_COLUMNS, rows);
}
