import type { ComponentType } from 'react';
import type { RaRecord, SortPayload } from 'react-admin';
import type { ApiResource } from '../dataProvider/apiRoutes';
import type { FieldSpecs } from '../domain/fields';

/**
 * A plain CRUD resource, described rather than written: the shared list and form screens render it.
 * Its service path lives in src/dataProvider/apiRoutes.ts and its permission in
 * src/authProvider/resourceAccess.ts, both keyed by `name`, so the three cannot disagree.
 */
export interface ResourceDescription {
  /** react-admin resource name = route segment (/locations, /locations/create, /locations/{id}). */
  name: ApiResource;
  icon: ComponentType;
  /** Inputs and list columns (`list: true`), with the same rules the server applies. */
  fields: FieldSpecs;
  /** i18n key of the search box placeholder, e.g. 'Search Location'. */
  searchPlaceholder: string;
  /** i18n keys of the form breadcrumbs' last crumb ('Create Location', 'Update Location'). */
  breadcrumbs: { create: string; edit: string };
  recordRepresentation: string | ((record: RaRecord) => string);
  /** Columns the server accepts as `sort` (its resource's `sortable`); other columns do not sort. */
  sortable: string[];
  defaultSort: SortPayload;
}
