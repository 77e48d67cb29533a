import type { MailPreview } from '../../domain/records';
import type { Request } from '../http';

/** An e-mail template as the scan mail form offers it. */
export interface EmailTemplate {
  id: number;
  templateName: string;
  templateBody: string;
}

/** The e-mail service's calls from the scan page's mail form. */
export const emailCalls = (request: Request) => ({
  /** Sends a mail about a scan (recipients, subject, message, the scan's files to attach). */
  sendScanEmail: (body: object) => request('email', 'emails', { method: 'POST', body }),
  /** The same mail rendered by the server and not sent: subject, HTML, attachments' names, placeholders left. */
  previewScanEmail: (body: object) => request<MailPreview>('email', 'emails/preview', { method: 'POST', body }),
  /** The first hundred templates, to fill the mail form from. */
  emailTemplatesForMail: () => request<{ items: EmailTemplate[] }>('email', 'emailTemplates', { query: { page: 1, per_page: 100 } }),
});
