import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ValidationError } from '../errors';
import { IMAGE_MAX_BYTES, type UploadedFile } from './images';

const FIELD_MAX_BYTES = 1024 * 1024;

/**
 * multipart/form-data for a service's routes (app.ts mounts the services without it). Registering it
 * twice in one context, or under a parent that has it, is a no-op, so every service may register it.
 */
export const multipartPlugin = fp(async (app: FastifyInstance) => {
  if (app.hasContentTypeParser('multipart/form-data')) return;
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: IMAGE_MAX_BYTES, fieldSize: FIELD_MAX_BYTES, fields: 200, parts: 220 },
  });
});

/**
 * A preValidation hook turning a multipart request into a plain body the route's zod schema validates:
 * text parts become strings (a repeated name becomes a list), the file parts named in `uploads`
 * (part name -> body member, e.g. logoFile -> logo) become UploadedFile values cut at IMAGE_MAX_BYTES + 1
 * (`truncated` says so). Other file parts are read and dropped. JSON requests pass untouched.
 */
export function multipartBody(uploads: Record<string, string>) {
  return async (req: FastifyRequest) => {
    if (!req.isMultipart()) return;
    const body: Record<string, unknown> = {};
    const files: Record<string, UploadedFile> = {};
    const parts = req.parts({ limits: { fileSize: IMAGE_MAX_BYTES, files: Math.max(1, Object.keys(uploads).length) } });
    for await (const part of parts) {
      if (part.type === 'file') {
        const target = uploads[part.fieldname];
        const data = await part.toBuffer();
        if (target) files[target] = { filename: part.filename, mimetype: part.mimetype, data, truncated: part.file.truncated };
        continue;
      }
      if (part.valueTruncated)
        throw new ValidationError({ [part.fieldname]: `${part.fieldname} must be less than ${FIELD_MAX_BYTES / 1024} KB` });
      const prior = body[part.fieldname];
      body[part.fieldname] =
        prior === undefined ? part.value : Array.isArray(prior) ? [...(prior as unknown[]), part.value] : [prior, part.value];
    }
    // A file wins over a text value of the same member (the form may echo the current URL too).
    req.body = { ...body, ...files };
  };
}
