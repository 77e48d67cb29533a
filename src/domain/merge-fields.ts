import { APPROVAL_MERGE_FIELDS } from './quote-approval';
import { MERGE_FIELDS, type MergeField, unknownPlaceholders } from './scan-mail';

/** The mails that fill a template's `{{name}}`: a scan's mail (the scan page) and a quote's approval request. */
export type TemplateMail = 'scan' | 'approval';

/** The approval mail's fields that a scan's mail does not fill. */
const APPROVAL_ONLY: readonly MergeField[] = [
  { name: 'quote_number', description: { en: "The quote's number", ja: '見積番号' }, example: '#77' },
  { name: 'grand_total', description: { en: "The quote's grand total", ja: '見積の総合計' }, example: '$1,914.00' },
  {
    name: 'approval_link',
    description: { en: 'Link to the approval page (no sign-in)', ja: '承認ページへのリンク（ログイン不要）' },
    example: 'https://scanquote.example/approve/k3J9…',
  },
  {
    name: 'expires_on',
    description: { en: 'When the link stops working (Melbourne time)', ja: 'リンクの有効期限（メルボルン時間）' },
    example: '14-06-2024 05:30 PM',
  },
];

const approvalFills = (name: string) => (APPROVAL_MERGE_FIELDS as readonly string[]).includes(name);

/** Every merge field a template may use, with the mails that fill it: the scan mail's first, then the approval mail's own. */
export const TEMPLATE_MERGE_FIELDS: readonly (MergeField & { mails: TemplateMail[] })[] = [
  ...MERGE_FIELDS.map((f) => ({
    ...f,
    mails: approvalFills(f.name) ? (['scan', 'approval'] as TemplateMail[]) : (['scan'] as TemplateMail[]),
  })),
  ...APPROVAL_ONLY.map((f) => ({ ...f, mails: ['approval'] as TemplateMail[] })),
];

/** The names a template may use: a saved template naming any other is refused. */
export const TEMPLATE_FIELD_NAMES: readonly string[] = TEMPLATE_MERGE_FIELDS.map((f) => f.name);

/** The names a mail fills. */
export const mailFieldNames = (mail: TemplateMail): readonly string[] =>
  TEMPLATE_MERGE_FIELDS.filter((f) => f.mails.includes(mail)).map((f) => f.name);

/**
 * Whether a mail can fill every placeholder of a template (its name is the subject, its body the message): the scan
 * page offers only such templates, since one naming a quote's approval link could never be sent from a scan.
 */
export const templateFitsMail = (template: { templateName: string; templateBody: string }, mail: TemplateMail) =>
  unknownPlaceholders(`${template.templateName} ${template.templateBody}`, mailFieldNames(mail)).length === 0;
