import { sql } from 'kysely';
import { z } from 'zod';
import { emailTemplateFields } from '../../../src/domain/email-templates';
import { messages } from '../../../src/domain/fields';
import { TEMPLATE_FIELD_NAMES } from '../../../src/domain/merge-fields';
import { unknownPlaceholders } from '../../../src/domain/scan-mail';
import { ValidationError } from '../../errors';
import type { ResourcePart } from '../../lib/definitions';

/** Editor markup with nothing in it (`<p><br></p>`, or only what the sanitiser removed) is a blank body. */
const isBlankHtml = (html: string) => !/<img\b/i.test(html) && html.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;|\s/g, '') === '';

export const emailTemplatesPart: ResourcePart = {
  record: z.object({ id: z.number(), templateName: z.string(), templateBody: z.string(), created_at: z.date(), updated_at: z.date() }),
  // This list replies {items, meta: {total, last_page}}.
  pageShape: 'meta',
  from: sql`(select id, template_name as "templateName", template_body as "templateBody", created_at, updated_at from email_templates) as email_templates`,
  hooks: {
    beforeWrite(columns) {
      // The body arrives here already sanitised (rich text); the wire's camelCase names become the table's columns.
      const { templateName, templateBody, ...rest } = columns;
      if (typeof templateBody === 'string' && isBlankHtml(templateBody)) {
        throw new ValidationError({ templateBody: messages.required(emailTemplateFields.templateBody.label) });
      }
      // A placeholder no mail fills would only be found when a mail is refused for it: say so on saving.
      const unknown = typeof templateBody === 'string' ? unknownPlaceholders(templateBody, TEMPLATE_FIELD_NAMES) : [];
      if (unknown.length) throw new ValidationError({ templateBody: messages.unknownMergeFields(unknown) });
      return { ...rest, template_name: templateName, template_body: templateBody };
    },
  },
};
