import { ifMatch, type Request } from '../http';

/** One stored setting as the user service's options calls carry it. */
export interface Option {
  option_name: string;
  option_value: string;
  /** As stored (ISO time); absent in a save's body. */
  updated_at?: string;
}

/** The newest `updated_at` of these settings: what a save made from them sends as If-Match. */
export const newestSaveOf = (options: Option[]) =>
  options.reduce<string | undefined>(
    (newest, o) => (o.updated_at && (!newest || o.updated_at > newest) ? o.updated_at : newest),
    undefined,
  );

/** The user service's stored settings (the e-mail header and footer). */
export const optionCalls = (request: Request) => ({
  /**
   * Saves the settings given; the reply is the saved settings. `savedAt`, the newest `updated_at` of the copies the
   * page read, goes as If-Match: the server refuses (409) a save that would undo one made since.
   */
  saveEmailDefaults: (options: Option[], savedAt?: string) =>
    request<Option[]>('user', 'options/bulksave', {
      method: 'POST',
      body: options,
      ...(savedAt ? { headers: ifMatch(savedAt) } : {}),
    }),
  /** The settings with these names. */
  searchOptions: (names: string[]) => request<Option[]>('user', 'options/search', { method: 'POST', body: { option_name: names } }),
});
