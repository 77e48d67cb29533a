import { FunctionField, TextField, useLocaleState, type RaRecord } from 'react-admin';
import { formatDateTime } from '../../domain/format';
import type { ExtraColumn } from '../types';

/** A read-only column that is not a form field: a date-time in the display format of the user's language, or text. */
export const ExtraColumnValue = ({ column }: { column: ExtraColumn }) => {
  const [locale] = useLocaleState();
  if (column.type === 'text') return <TextField source={column.source} />;
  return (
    <FunctionField
      source={column.source}
      render={(record: RaRecord) => {
        const value: unknown = record[column.source];
        return typeof value === 'string' || typeof value === 'number' ? (
          <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(value, locale)}</span>
        ) : (
          ''
        );
      }}
    />
  );
};
