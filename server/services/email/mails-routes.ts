import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MailPreviewRecord, MergeFieldRecord, ScanMailRecord } from '../../../src/domain/records';
import { TEMPLATE_MERGE_FIELDS } from '../../../src/domain/merge-fields';
import { RESOURCES } from '../../../src/domain/resources';
import { MAIL_MAX_ATTACHMENT_BYTES, MAIL_MAX_ATTACHMENTS, MAIL_MAX_RECIPIENTS } from '../../../src/domain/scan-codes';
import { sendMailBody } from '../../../src/domain/scans';
import { callerOf } from '../../lib/caller';
import { dataReply, recordErrors } from '../../lib/replies';
import type { scanMails } from './mail-service';

/**
 * POST emails and POST emails/preview: the scan page's send-mail form (the scan page's Communication section), permission
 * `scan`, the scan in the sender's scope. GET merge-fields: the placeholders a template may use, for any signed-in user.
 */
export function mailRoutes(app: FastifyInstance, opts: { mails: ReturnType<typeof scanMails> }, done: () => void) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const mailBody = sendMailBody.meta({
    example: {
      scan_id: 1042,
      recipients: ['owner@example.com'],
      subject: 'Your vehicle scan {{registration}}',
      message: '<p>Please find the scan report of your {{make}} {{model}} attached.</p>',
      attachments: ['0f8c6b1e2d3a4f5e6a7b8c9d0e1f2a3b.pdf'],
    },
  });
  const rules =
    `recipients: up to ${MAIL_MAX_RECIPIENTS} addresses (a list, or one text separated by commas), lower-cased and each checked; ` +
    'subject and message (rich text, sanitised) required, their `{{name}}` merge fields (GET merge-fields) filled from the scan; ' +
    `template_id optional (recorded). attachments: up to ${MAIL_MAX_ATTACHMENTS} stored file names of this scan (the \`path\` of ` +
    `its damages, saved images and report PDFs), ${MAIL_MAX_ATTACHMENT_BYTES / 1024 / 1024} MB in all, read on the server. ` +
    'The message is wrapped in the default e-mail header and footer.';
  r.get(
    '/merge-fields',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['Email'],
        summary: 'The merge fields a mail template may use',
        description:
          'Each `{{name}}` a template may use, with what it holds (English and Japanese), an example value and the mails that ' +
          "fill it (`scan`: a scan's mail, from the scan; `approval`: a quote's approval request).",
        response: { 200: dataReply(z.array(MergeFieldRecord)), ...recordErrors },
      },
    },
    async () => ({ data: [...TEMPLATE_MERGE_FIELDS] }),
  );
  r.post(
    '/emails/preview',
    {
      config: { access: { permission: RESOURCES.scans.permission } },
      schema: {
        tags: ['Email'],
        summary: 'The mail POST emails would send, rendered and not sent',
        description:
          `${rules} Replies the subject, HTML and text as they would go out, the attachments' names and the placeholders ` +
          'left unfilled (`unresolved`: sending refuses the mail while there are any). Stores and queues nothing.',
        body: mailBody,
        response: { 200: dataReply(MailPreviewRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await opts.mails.preview(callerOf(req), req.body) }),
  );
  r.post(
    '/emails',
    {
      config: { access: { permission: RESOURCES.scans.permission } },
      schema: {
        tags: ['Email'],
        summary: 'Send a mail about a scan, with its images and PDFs attached',
        description:
          `${rules} A subject or message with a placeholder left is 422 on the field, naming the placeholders. The mail is ` +
          'queued in the mail outbox (sent over SMTP_URL) and recorded with the scan.',
        body: mailBody,
        response: { 201: dataReply(ScanMailRecord), ...recordErrors },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await opts.mails.send(callerOf(req), req.body) }),
  );
  done();
}
