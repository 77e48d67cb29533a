import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ScanMailRecord } from '../../../src/domain/records';
import { RESOURCES } from '../../../src/domain/resources';
import { MAIL_MAX_ATTACHMENT_BYTES, MAIL_MAX_ATTACHMENTS, MAIL_MAX_RECIPIENTS, sendMailBody } from '../../../src/domain/scans';
import { callerOf } from '../../lib/caller';
import { dataReply, recordErrors } from '../../lib/replies';
import type { scanMails } from './mail-service';

/** POST emails: the scan page's send-mail form (the scan page's Communication section), permission `scan`, the scan in the sender's scope. */
export function mailRoutes(app: FastifyInstance, opts: { mails: ReturnType<typeof scanMails> }, done: () => void) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/emails',
    {
      config: { access: { permission: RESOURCES.scans.permission } },
      schema: {
        tags: ['Email'],
        summary: 'Send a mail about a scan, with its images and PDFs attached',
        description:
          `recipients: up to ${MAIL_MAX_RECIPIENTS} addresses (a list, or one text separated by commas), lower-cased and each checked; ` +
          'subject and message (rich text, sanitised) required; template_id optional (recorded). attachments: up to ' +
          `${MAIL_MAX_ATTACHMENTS} stored file names of this scan (the \`path\` of its damages, saved images and report PDFs), ` +
          `${MAIL_MAX_ATTACHMENT_BYTES / 1024 / 1024} MB in all, read on the server. The message is wrapped in the default e-mail ` +
          'header and footer, queued in the mail outbox (sent over SMTP_URL) and recorded with the scan.',
        body: sendMailBody.meta({
          example: {
            scan_id: 1042,
            recipients: ['owner@example.com'],
            subject: 'Your vehicle scan',
            message: '<p>Please find your scan report attached.</p>',
            attachments: ['0f8c6b1e2d3a4f5e6a7b8c9d0e1f2a3b.pdf'],
          },
        }),
        response: { 201: dataReply(ScanMailRecord), ...recordErrors },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await opts.mails.send(callerOf(req), req.body) }),
  );
  done();
}
