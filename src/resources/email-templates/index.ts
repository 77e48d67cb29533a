import { lazyComponent } from '../../components/lazyComponent';
import type { ScreenExtras } from '../types';

/**
 * E-mail templates (email service; its page reply `{items, meta}` is read by the data provider):
 * Name, Created, Action; the body in the rich-text editor with the merge fields it may use beside it (under it on a phone); the product's own toasts.
 */
export const screens: ScreenExtras = {
  extraColumns: [{ source: 'created_at', type: 'datetime' }],
  form: { extras: lazyComponent(() => import('./MergeFieldList'), 'MergeFieldList'), extrasBeside: true },
  messages: {
    created: 'resources.email-templates.notification.created',
    updated: 'resources.email-templates.notification.updated',
    deleted: 'resources.email-templates.notification.deleted',
  },
};
