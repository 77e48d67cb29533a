import { escapeHtml } from './scan-view';

/**
 * A scan's mail: the merge fields a template may use (`{{name}}`, filled by the server from the scan), the rule that
 * refuses a mail with a placeholder left, and how attachments are named. The server fills and names; the template
 * editor lists the fields and the mail form names its chips the same way.
 */

/** One merge field: its name in `{{name}}`, what it holds in both languages, a value it could take. */
export interface MergeField {
  name: string;
  description: { en: string; ja: string };
  example: string;
}

export const MERGE_FIELDS = [
  { name: 'customer_name', description: { en: "The scan's client", ja: 'スキャンのクライアント' }, example: 'Southern Fleet' },
  {
    name: 'client_name',
    description: { en: "The scan's client (as customer_name)", ja: 'スキャンのクライアント（customer_name と同じ）' },
    example: 'Southern Fleet',
  },
  { name: 'registration', description: { en: 'Registration (licence plate)', ja: '登録番号（ナンバー）' }, example: 'ABC123' },
  { name: 'make', description: { en: 'Make', ja: 'メーカー' }, example: 'Toyota' },
  { name: 'model', description: { en: 'Model', ja: 'モデル' }, example: 'Corolla' },
  { name: 'colour', description: { en: 'Colour', ja: '色' }, example: 'White' },
  { name: 'body_type', description: { en: 'Body type', ja: 'ボディタイプ' }, example: 'Sedan' },
  { name: 'dent_count', description: { en: 'Number of dents found', ja: '検出されたへこみの数' }, example: '12' },
  { name: 'scratch_count', description: { en: 'Number of scratches found', ja: '検出された傷の数' }, example: '3' },
  { name: 'damage_count', description: { en: 'Dents and scratches together', ja: 'へこみと傷の合計' }, example: '15' },
  {
    name: 'scan_date',
    description: { en: 'When the vehicle was scanned (Melbourne time)', ja: 'スキャン日時（メルボルン時間）' },
    example: '31-05-2024 05:30 PM',
  },
  { name: 'location', description: { en: 'Where the vehicle was scanned', ja: 'スキャン場所' }, example: 'Dandenong Depot' },
  { name: 'agent_name', description: { en: "The scan's agent", ja: 'スキャンのエージェント' }, example: 'Southern Scans' },
  { name: 'agent_phone', description: { en: "The agent's phone number", ja: 'エージェントの電話番号' }, example: '03 9000 0000' },
  {
    name: 'agent_email',
    description: { en: "The agent's e-mail address", ja: 'エージェントのメールアドレス' },
    example: 'desk@southern.example',
  },
  {
    name: 'scan_link',
    description: { en: 'Link to the scan page (needs a sign-in)', ja: 'スキャンページへのリンク（ログインが必要）' },
    example: 'https://scanquote.example/scans/1042',
  },
  {
    name: 'quote_link',
    description: {
      en: "Link to the scan's quote (needs a sign-in; only once it has one)",
      ja: '見積へのリンク（ログインが必要・見積がある場合のみ）',
    },
    example: 'https://scanquote.example/quotes/77/invoice',
  },
] as const satisfies readonly MergeField[];

export type MergeFieldName = (typeof MERGE_FIELDS)[number]['name'];
export type MergeValues = Partial<Record<MergeFieldName, string | null>>;

// Any `{{…}}` is a placeholder, whatever is inside (an editor may have wrapped part of it in markup).
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

/**
 * A template's `{{name}}` placeholders filled from the values; a placeholder with no value (an unknown name, or a
 * field this scan has nothing for) stays as it is and is listed in `unresolved` (`{{name}}`, each once). `html`: every
 * value is escaped, since a scan's fields are typed by anyone who edits the scan; `text` (the subject) takes them as
 * they are.
 */
export function fillMergeFields(text: string, values: Record<string, string | null | undefined>, format: 'html' | 'text') {
  const unresolved: string[] = [];
  const filled = text.replace(PLACEHOLDER, (whole, inner: string) => {
    const name = inner.replace(/<[^>]*>/g, '').trim();
    const v = Object.hasOwn(values, name) ? values[name] : undefined;
    if (v === undefined || v === null || v === '') {
      if (!unresolved.includes(`{{${name}}}`)) unresolved.push(`{{${name}}}`);
      return whole;
    }
    return format === 'html' ? escapeHtml(v) : v;
  });
  return { text: filled, unresolved };
}

/** The `{{name}}` placeholders of a text that are not among `known`, each once. */
export function unknownPlaceholders(text: string, known: readonly string[]): string[] {
  const out: string[] = [];
  for (const [, inner] of text.matchAll(PLACEHOLDER)) {
    const name = inner.replace(/<[^>]*>/g, '').trim();
    if (!known.includes(name) && !out.includes(`{{${name}}}`)) out.push(`{{${name}}}`);
  }
  return out;
}

/** The 422 message of a subject or message with placeholders left: it names them. */
export const unresolvedMessage = (label: string, placeholders: string[]) =>
  `${label} has placeholders this scan cannot fill: ${placeholders.join(', ')}`;

// Control characters, path separators and what Windows refuses in a name.
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_FILE_NAMES = /[\u0000-\u001f\u007f/\\:*?"<>|]+/g;
/** A file name as people write it: no path separators or characters mail clients and file systems refuse. */
const fileSafe = (s: string) => s.replace(UNSAFE_IN_FILE_NAMES, '-').replace(/\s+/g, ' ').trim().slice(0, 120) || 'File';

/** A detection's close-up: 'Right C Pillar – heavy dent'. */
export const damageAttachmentName = (panelLabel: string, type: string, level: string) =>
  `${panelLabel} – ${level.toLowerCase()} ${type === 'scratchs' ? 'scratch' : 'dent'}`;

/** A report PDF: its label without the link's 'View ' and the registration, 'Scan Report – ABC123'. */
export const reportAttachmentName = (label: string, registration?: string | null) => {
  const name = label.replace(/^View\s+/i, '') || 'Report';
  return registration ? `${name} – ${registration}` : name;
};

/** A saved image by its place among the scan's saved images, or the vehicle photo. */
export const savedImageAttachmentName = (n: number, vehiclePhoto = false) => (vehiclePhoto ? 'Vehicle photo' : `Saved image ${n}`);

/**
 * The mail's file names: each name made file-safe with its extension, and a second equal one numbered
 * ('Bonnet – heavy dent (2).jpg'), compared without case as most file systems do.
 */
export function attachmentFileNames(files: { name: string; extension: string }[]): string[] {
  const used = new Set<string>();
  return files.map(({ name, extension }) => {
    const base = fileSafe(name);
    const ext = extension ? `.${extension.toLowerCase()}` : '';
    let filename = `${base}${ext}`;
    for (let n = 2; used.has(filename.toLowerCase()); n++) filename = `${base} (${n})${ext}`;
    used.add(filename.toLowerCase());
    return filename;
  });
}
