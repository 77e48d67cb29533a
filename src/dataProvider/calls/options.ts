import type { Request } from '../http';

/** One stored setting as the user service's options calls carry it. */
export interface Option {
  option_name: string;
  option_value: string;
}

/** The user service's stored settings (the e-mail header and footer). */
export const optionCalls = (request: Request) => ({
  /** Saves the settings given; the reply is the saved settings. */
  saveEmailDefaults: (options: Option[]) => request<Option[]>('user', 'options/bulksave', { method: 'POST', body: options }),
  /** The settings with these names. */
  searchOptions: (names: string[]) => request<Option[]>('user', 'options/search', { method: 'POST', body: { option_name: names } }),
});
