import { emailTemplateFields } from '../../domain/email-templates';
import type { ResourceDescription } from '../types';

/**
 * E-mail templates (email service; its page reply `{items, meta}` is read by the data provider):
 * Name, Created, Action; the body in the rich-text editor; the product's own toasts.
 */
export const emailTemplates: ResourceDescription = {
  name: 'email-templates',
  fields: emailTemplateFields,
  searchPlaceholder: 'resources.email-templates.search',
  breadcrumbs: { create: 'resources.email-templates.breadcrumb.create', edit: 'resources.email-templates.breadcrumb.edit' },
  recordRepresentation: 'templateName',
  defaultSort: { field: 'created_at', order: 'DESC' },
  extraColumns: [{ source: 'created_at', type: 'datetime' }],
  messages: {
    created: 'resources.email-templates.notification.created',
    updated: 'resources.email-templates.notification.updated',
    deleted: 'resources.email-templates.notification.deleted',
  },
};
