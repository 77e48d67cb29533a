import type { Identifier } from 'react-admin';
import type { EventRecord, EventSubject } from '../../domain/history';
import type { Request } from '../http';

const historyPath = (subject: EventSubject, id: Identifier) => `${subject}s/${encodeURIComponent(String(id))}/history`;

/** The history of a scan (scan service) or a quote (quote service): who changed what, when. */
export const historyCalls = (request: Request) => ({
  /** The subject's events the user may see, oldest first. */
  history: (subject: EventSubject, id: Identifier) => request<EventRecord[]>(subject, historyPath(subject, id)),
  /** The same events as the text of a CSV file. */
  historyCsv: (subject: EventSubject, id: Identifier) => request<string>(subject, historyPath(subject, id), { query: { format: 'csv' } }),
});
