import type { FieldSpecs } from './fields';

/**
 * E-mail templates: the wire names templateName / templateBody (stored as
 * template_name / template_body). The body is rich text, sanitised by the server before it is stored.
 */
export const emailTemplateFields = {
  templateName: { type: 'text', label: 'Template Name', required: true, max: 255, list: true },
  templateBody: { type: 'richtext', label: 'Template Body', required: true },
} satisfies FieldSpecs;
