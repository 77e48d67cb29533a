import { lazyComponent } from '../../components/lazyComponent';
import type { ScreenExtras } from '../types';

/** Agents: described list and form, the portal link per row and the webhooks panel when editing. */
export const screens: ScreenExtras = {
  extraColumns: [{ source: 'default_client_name', type: 'text' }],
  rowActions: [lazyComponent(() => import('./PortalLink'), 'PortalLink')],
  form: {
    // The pincode is write-only: required on create, blank on edit keeps the current one.
    helperTexts: { pincode: { create: 'resources.agents.helper.pincode_create', edit: 'resources.agents.helper.pincode_edit' } },
    below: lazyComponent(() => import('./WebhooksPanel'), 'WebhooksPanel'),
  },
};
