import type { ComponentType } from 'react';
import type { RaRecord, SortPayload } from 'react-admin';
import type { DescribedResource } from './define';
import type { FieldSpec, FieldSpecs, FormMode } from '../domain/fields';

/**
 * A plain CRUD resource's screens, as the shared list and form render them: made from its definition
 * (src/resources/<name>/definition.ts) by `describe` in ./registry, with what its index.ts adds (`ScreenExtras`).
 */
export interface ResourceDescription {
  /** react-admin resource name = route segment (/locations, /locations/create, /locations/{id}). */
  name: DescribedResource;
  /** Inputs and list columns (`list: true`), with the same rules the server applies. */
  fields: FieldSpecs;
  /** Columns the list may sort by (the server's `sort` values). */
  sortable: readonly string[];
  /** i18n key of the search box placeholder, e.g. 'Search Location'. */
  searchPlaceholder: string;
  /** i18n keys of the form breadcrumbs' last crumb ('Create Location', 'Update Location'). */
  breadcrumbs: { create: string; edit: string };
  recordRepresentation: string | ((record: RaRecord) => string);
  defaultSort: SortPayload;
  /** Read-only list columns that are not form inputs (a user's Created), after the field columns; labelled resources.<name>.fields.<source>. */
  extraColumns?: ExtraColumn[];
  /** Per-row buttons before edit and delete (a user's impersonate, an agent's portal link); they read the row with useRecordContext. */
  rowActions?: ComponentType[];
  /** Whether a row offers delete (the users list: not the signed-in user's own account, which the server refuses). */
  deletable?: (record: RaRecord) => boolean;
  /** What a delete does beyond removing the row, said in its dialog under the row's name (a role's holders lose it). */
  deleteNotice?: (record: RaRecord) => { message: string; args?: Record<string, unknown> } | null;
  /** Form behaviour the field specs alone cannot say. */
  form?: FormBehaviour;
  /** Create and delete are offered unless set to false (application settings: list and edit only). */
  actions?: { create?: boolean; delete?: boolean };
  /** List columns by source in this order, when listed fields then extra columns is not the product's order (devices). */
  columnOrder?: string[];
  /** A listed field's cell when its type's default does not fit (an option's name with spaces, its value as HTML). */
  columnDisplay?: Partial<Record<string, ColumnDisplay>>;
  /** i18n keys of the success toasts when the resource has its own ('Setting Updated'); else 'Created Successfully' etc. */
  messages?: { created?: string; updated?: string; deleted?: string };
}

/** 'html': the value as HTML, sanitised again in the browser; a function: the text it returns. */
export type ColumnDisplay = 'html' | ((value: unknown) => string);

export interface ExtraColumn {
  source: string;
  /** 'datetime' shows DD-MM-YYYY hh:mm A (Japanese YYYY-MM-DD A hh:mm). */
  type: 'text' | 'datetime';
  /** Sorts when the resource table lists it as sortable, unless false here (a user's Created). */
  sortable?: false;
}

export type FormScreenMode = 'create' | 'edit';

/** When an input shows: `when` reads the values named in `on` (watched, so only they re-render it). */
export interface InputCondition {
  on: string[];
  when: (values: Record<string, unknown>, mode: FormScreenMode) => boolean;
  /** Required whenever shown: its label carries the asterisk (the rule itself is the form's `refine`). */
  required?: boolean;
}

/** Whether a reference's choice (its value) may be picked on the form of `record` (undefined on create). */
export type OfferedChoice = (value: string | number, record: RaRecord | undefined) => boolean;

export interface FormBehaviour {
  /** Read-only fields the form still shows, disabled, as the list shows them (which setting is being edited). */
  readOnlyInputs?: string[];
  /** A field's spec resolved from the record being edited (a setting's value is rich text when its field_type is 'editor'). */
  fieldFor?: Partial<Record<string, (spec: FieldSpec, record: RaRecord | undefined) => FieldSpec>>;
  /**
   * Rules across fields, as the server's `refine` (e.g. userRefine): English messages keyed by input
   * source ('agents', 'weighted_no.light'); each shows under its input in the user's language.
   */
  refine?: (values: Record<string, unknown>, mode: FormMode) => Record<string, string> | null;
  /**
   * Which choices of a reference input may be picked, by source (a user's roles: those the writer may grant); the
   * others stay listed, disabled, and show where the record has them.
   */
  offered?: Partial<Record<string, OfferedChoice>>;
  /** Inputs shown only under a condition; a hidden input is emptied ([] for lists, null otherwise) and not validated. */
  conditions?: Partial<Record<string, InputCondition>>;
  /** i18n keys of helper texts by source and mode (the agent pincode: 'blank keeps it' on edit). */
  helperTexts?: Partial<Record<string, Partial<Record<FormScreenMode, string>>>>;
  /** Initial values on create beyond the fields' `default`s (a client's empty price matrices). */
  createDefaults?: Record<string, unknown>;
  /** Rendered inside the form after the inputs (a client's price matrices, a user's API key); lazy-load it. */
  extras?: ComponentType<{ mode: FormScreenMode }>;
  /** The extras beside the inputs from md up (a template's merge fields beside its editor), under them on a phone. */
  extrasBeside?: boolean;
  /** Rendered under the form card when editing, outside the form (an agent's webhooks); lazy-load it. */
  below?: ComponentType;
}

/** What a resource's index.ts may add to or change in the screens made from its definition (`export const screens`). */
export type ScreenExtras = Partial<Omit<ResourceDescription, 'name' | 'sortable'>>;
