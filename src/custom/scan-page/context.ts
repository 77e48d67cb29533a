import { createContext, useContext } from 'react';
import type { ScanDetail } from '../../domain/records';

/** The whole scan as the server sends it (the domain's record). */
export type Scan = ScanDetail;

/** What the mail form attaches: damage images, saved images and report PDFs chosen in their select modes. */
export interface MailSelection {
  damages: ReadonlySet<number>;
  annotates: ReadonlySet<number>;
  reports: ReadonlySet<string>;
}
export type SelectionKind = keyof MailSelection;

export interface ScanPageState {
  scan: Scan;
  /** The route's scan id (lower-cased). */
  id: string;
  /** The agent viewer (an agent id in the route, or an Agent user). */
  agentViewer: boolean;
  /** The agent the agent viewer works for: the route's, else the scan's (null for the normal viewer). */
  agentId: string | null;
  /** Viewing and changing (docs/ARCHITECTURE.md, "Access model"): `scan_edit` (else the page is read-only) and `quote_edit` (the quote area). */
  canEditScan: boolean;
  canEditQuote: boolean;
  /** Replaces the cached scan (after a save) without asking the server again. */
  setScan: (update: (scan: Scan) => Scan) => void;
  /** Asks the server for the scan again. */
  reload: () => Promise<unknown>;
  /** Inline fields being edited: a live update leaves them alone, and their save is made from the version they began at. */
  setEditing: (field: string, editing: boolean) => void;
  /** The scan's version a save of these fields is made from (src/domain/versions.ts). */
  versionFor: (fields: string[]) => number | undefined;
  /** Asks the server for the scan's current version (after a write whose reply does not carry it). */
  refreshVersion: () => Promise<void>;
  /** True when the error is a conflict (409), now shown in the conflict dialog; `retry` makes the write again from a version. */
  caughtConflict: (error: unknown, retry: (version: number) => Promise<unknown>) => boolean;
  selection: MailSelection;
  toggleSelected: (kind: SelectionKind, key: number | string) => void;
  clearSelection: () => void;
}

export const ScanPageContext = createContext<ScanPageState | null>(null);

export function useScanPage(): ScanPageState {
  const state = useContext(ScanPageContext);
  if (!state) throw new Error('useScanPage outside the scan page');
  return state;
}
