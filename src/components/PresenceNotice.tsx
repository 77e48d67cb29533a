import { Alert } from '@mui/material';
import { useTranslate } from 'react-admin';

/** "Anna Lee is also editing this quote": the other editors usePresence hears, nothing when there are none. */
export const PresenceNotice = ({ names, record }: { names: string[]; record: 'quote' | 'scan' }) => {
  const translate = useTranslate();
  if (!names.length) return null;
  return (
    <Alert severity="info" role="status" sx={{ gridColumn: '1 / -1' }}>
      {translate(`app.conflicts.editing_${record}`, { names: names.join(', '), smart_count: names.length })}
    </Alert>
  );
};
