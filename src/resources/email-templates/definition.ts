import { emailTemplateFields } from '../../domain/email-templates';
import { defineResource } from '../define';

/** E-mail templates; shared by every agent and client. */
export const definition = defineResource({
  name: 'email-templates',
  service: 'email',
  path: 'emailTemplates',
  permission: 'email_template',
  global: true,
  model: 'EmailTemplate',
  table: 'email_templates',
  fields: emailTemplateFields,
  searchable: ['templateName'],
  unique: ['templateName'],
  sortable: ['templateName', 'created_at'],
  defaultSort: { field: 'created_at', order: 'desc' },
  scope: 'global',
  lists: { text: 'templateName' },
  menu: { group: 'email-template', icon: 'Drafts', position: 2, label: 'app.menu.email_templates' },
  recordRepresentation: 'templateName',
  pageCache: true,
  server: true,
});

declare module '../define' {
  interface Definitions {
    'email-templates': typeof definition;
  }
}
