import type { FieldSpecs } from '../../domain/fields';

const newFile = (value: unknown): File | null =>
  typeof value === 'object' && value !== null && 'rawFile' in value && value.rawFile instanceof File ? value.rawFile : null;

/**
 * The form values as the service takes them: a newly chosen image travels as the file part its
 * spec names (e.g. `logo` as `logoFile`), which makes the data provider send multipart.
 * An unchanged image keeps its URL string; secrets left blank are not sent (blank means unchanged).
 */
export function toRequestBody(fields: FieldSpecs, values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...values };
  for (const [source, spec] of Object.entries(fields)) {
    if (spec.type === 'image') {
      const file = newFile(body[source]);
      if (file) {
        delete body[source];
        body[spec.upload] = file;
      }
    }
    if (spec.type === 'secret' && (body[source] === '' || body[source] == null)) delete body[source];
  }
  return body;
}
