import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { inputSchema } from '../../../src/domain/fields';
import { can, isSuperAdmin } from '../../../src/domain/permissions';
import { RESOURCES } from '../../../src/domain/resources';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../errors';
import { checkImage } from '../../lib/images';
import { multipartBody, multipartPlugin } from '../../lib/multipart';
import { dataReply, ErrorReply, MessageReply, recordErrors } from '../../lib/replies';
import { scopePredicate } from '../../lib/resource';
import { quoteScope, scanScope } from '../../lib/scan-scope';
import {
  DOCUMENT_LINK_MINUTES,
  FILE_KEY,
  FILE_LINK_MINUTES,
  FILES_PATH,
  fileUrl,
  isDocumentKey,
  isPrivateKey,
  keyOfUrl,
  signedFileUser,
  storageOf,
} from '../../lib/storage';
import type { AuthUser } from '../../plugins/auth';
import { checkUserUploadQuota, userUploadRoom } from '../../lib/upload-quota';

/** Sandboxed: an SVG opened on its own can run nothing and load nothing (its inline styles may apply). */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * The byte range a `Range` header asks for within `size` bytes (RFC 9110 §14): null to send the whole file (no header,
 * another unit, or several ranges, which we answer whole as the RFC allows), 'unsatisfiable' for a bytes range that is
 * malformed or lies outside the file.
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const value = header.trim();
  if (!/^bytes=/i.test(value)) return null;
  const spec = value.slice(6).trim();
  if (spec.includes(',')) return null;
  const m = /^(\d*)-(\d*)$/.exec(spec);
  if (!m || (m[1] === '' && m[2] === '') || size === 0) return 'unsatisfiable';
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

const UploadBody = inputSchema({ file: { type: 'image', label: 'File', upload: 'file', required: true } });

/**
 * Stored files: images and videos served to whoever holds their unguessable server-made names (an <img> cannot send a
 * bearer token); documents (PDFs) only to a user whose data scope reaches their scan or quote, exports only to their
 * maker, by bearer token or signed link; uploaded by signed-in users (`file/upload`, e.g. images in rich text),
 * deleted by their uploader.
 */
export async function fileRoutes(app: FastifyInstance) {
  await app.register(multipartPlugin);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['File'];

  r.get(
    '/files/:key',
    {
      // Images are capability URLs (an <img> sends no token); documents and exports check the bearer token or the signed link themselves.
      config: { access: 'optional' },
      schema: {
        tags,
        summary: 'A stored file (images, videos, reports, exports), by its server-made name',
        description:
          'With `download=<name>` (letters, digits, . _ -, same extension as the file) it is sent as an attachment saved under that name. ' +
          `Exports (.csv, .xlsx) are private: only their maker (or a Super Admin) with a bearer token, or the signed link the export replied ` +
          `(\`expires\`, \`uid\`, \`sig\`, valid ${FILE_LINK_MINUTES} minutes); never cached (\`Cache-Control: private, no-store\`). ` +
          `Documents (.pdf: quote and scan report PDFs) are private too: only a user allowed to read scans or quotes whose data scope ` +
          `reaches the document's scan or quote, with a bearer token, or the signed link the scan and quote services reply in its place ` +
          `(valid ${DOCUMENT_LINK_MINUTES} minutes); never cached. Images and videos: \`Cache-Control: private, max-age=31536000, immutable\`.`,
        security: [],
        params: z.object({ key: z.string() }),
        querystring: z.object({
          download: z
            .string()
            .regex(/^[\w.-]{1,100}$/, 'Download must be a file name of letters, digits, dots, dashes and underscores')
            .optional(),
          expires: z
            .string()
            .regex(/^\d{1,12}$/, 'Expires must be a number of seconds')
            .optional(),
          uid: z
            .string()
            .regex(/^\d{1,15}$/, 'Uid must be a user id')
            .optional(),
          sig: z
            .string()
            .regex(/^[A-Za-z0-9_-]{43}$/, 'Sig is invalid')
            .optional(),
        }),
        response: {
          200: z.instanceof(Buffer).describe('The file bytes'),
          206: z.instanceof(Buffer).describe('The bytes of the one range asked for (`Range: bytes=start-end`)'),
          416: ErrorReply.describe('The range lies outside the file (`Content-Range: bytes */<size>`)'),
          ...recordErrors,
        },
      },
    },
    async (req, reply) => {
      const { key } = req.params;
      const exported = FILE_KEY.test(key) && isPrivateKey(key);
      const document = FILE_KEY.test(key) && isDocumentKey(key);
      if (exported) await checkExportAccess(key, req.user, req.query);
      if (document) await checkDocumentAccess(key, req, req.query);
      const storage = storageOf(app);
      const { download } = req.query;
      const missing = new NotFoundError('File', key);
      if (!FILE_KEY.test(key)) throw missing;
      // Range requests (the scan page's video player seeks with them): one byte range, 206; an unsatisfiable one, 416.
      // The store reads only the range when it can (the local disk); otherwise the file is read whole and sliced.
      const partial = req.headers.range && storage.stat && storage.getRange ? await storage.stat(key) : null;
      const whole = partial ? null : await storage.get(key);
      const head = partial ?? (whole && { size: whole.data.length, contentType: whole.contentType });
      if (!head) throw missing;
      const extension = (name: string) => name.slice(name.lastIndexOf('.'));
      if (download !== undefined && extension(download) !== extension(key)) {
        throw new ValidationError({ download: `Download must end in ${extension(key)}` });
      }
      const range = byteRange(req.headers.range, head.size);
      if (range === 'unsatisfiable')
        return reply
          .status(416)
          .header('accept-ranges', 'bytes')
          .header('content-range', `bytes */${head.size}`)
          .send({ error: 'Range Not Satisfiable' });
      const bytes = range
        ? whole
          ? whole.data.subarray(range.start, range.end + 1)
          : await storage.getRange!(key, range.start, range.end)
        : (whole ?? (await storage.get(key)))?.data;
      if (!bytes) throw missing;
      reply
        .header('content-type', head.contentType)
        .header('accept-ranges', 'bytes')
        .header('x-content-type-options', 'nosniff')
        // Names are never reused, so the bytes behind one never change, but no shared cache keeps any (a proxy would hand
        // them to whoever asks); exports and documents are for their users only and must not linger in caches.
        .header('cache-control', exported || document ? 'private, no-store' : 'private, max-age=31536000, immutable')
        .header('content-disposition', download ? `attachment; filename="${download}"` : `inline; filename="${key}"`);
      if (head.contentType === 'image/svg+xml') reply.header('content-security-policy', SVG_CSP);
      if (range) return reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${head.size}`).send(bytes);
      return reply.send(bytes);
    },
  );

  /** An export goes to its maker or a Super Admin (bearer token), or to whoever holds a valid signed link made for its maker. */
  async function checkExportAccess(key: string, user: AuthUser | null, link: { expires?: string; uid?: string; sig?: string }) {
    // Scan exports and quote exports (migration 014) are recorded alike.
    const row = (
      await sql<{ user_id: number | null }>`select user_id from scan_exports where key = ${key}
        union all select user_id from quote_exports where key = ${key}`.execute(app.db)
    ).rows[0];
    if (user) {
      if (!row) throw new NotFoundError('File', key);
      if (row.user_id !== user.id && !isSuperAdmin(user)) throw new ForbiddenError();
      return;
    }
    if (link.expires === undefined && link.uid === undefined && link.sig === undefined) throw new UnauthorizedError();
    if (!link.expires || !link.uid || !link.sig) throw new ForbiddenError('The download link is incomplete');
    const uid = signedFileUser(app.signer, key, { expires: link.expires, uid: link.uid, sig: link.sig });
    if (uid === null) throw new ForbiddenError('The download link has expired or is not valid');
    if (!row) throw new NotFoundError('File', key);
    if (row.user_id !== uid) throw new ForbiddenError();
  }

  /**
   * A document goes to a signed-in user whose data scope reaches its scan (with the scans' read permission) or its
   * quote (with the quotes'; a quote's PDF also through its scan, as the scan page shows it), or to whoever holds a valid signed link:
   * the scan and quote services sign one only in a reply to a user whose scope reached the document.
   */
  async function checkDocumentAccess(key: string, req: FastifyRequest, link: { expires?: string; uid?: string; sig?: string }) {
    const user = req.user;
    if (user) {
      const url = `${FILES_PATH}${key}`;
      const seesScans = can(user, RESOURCES.scans.permission);
      const seesQuotes = can(user, RESOURCES.quotes.permission);
      const scanDocument = sql<boolean>`(exists (select 1 from scan_files f join scans s on s.id = f.scan_id
          where f.key = ${key} and ${scopePredicate(req.scope, scanScope)})
        or exists (select 1 from scan_reports r join scans s on s.id = r.scan_id
          where r.url = ${url} and ${scopePredicate(req.scope, scanScope)})
        or exists (select 1 from quotes q join scans s on s.id = q.scan_id
          where q.pdf_key = ${key} and ${scopePredicate(req.scope, scanScope)}))`;
      const quoteDocument = sql<boolean>`exists (select 1 from quotes q where q.pdf_key = ${key} and ${scopePredicate(req.scope, quoteScope)})`;
      const reached = (
        await sql<{
          ok: boolean;
        }>`select ${seesScans ? scanDocument : sql`false`} or ${seesQuotes ? quoteDocument : sql`false`} as ok`.execute(app.db)
      ).rows[0].ok;
      if (!reached) throw new NotFoundError('File', key);
      return;
    }
    if (link.expires === undefined && link.uid === undefined && link.sig === undefined) throw new UnauthorizedError();
    if (!link.expires || !link.uid || !link.sig) throw new ForbiddenError('The download link is incomplete');
    if (signedFileUser(app.signer, key, { expires: link.expires, uid: link.uid, sig: link.sig }) === null)
      throw new ForbiddenError('The download link has expired or is not valid');
  }

  r.post(
    '/file/upload',
    {
      config: { access: 'signed-in' },
      preValidation: multipartBody({ file: 'file' }, { room: (req) => userUploadRoom(app.db, req.user!.id) }),
      schema: {
        tags,
        summary: 'Uploads an image (multipart part `file`)',
        body: UploadBody,
        response: { 201: dataReply(z.object({ key: z.string(), url: z.string() })), ...recordErrors },
      },
    },
    async (req, reply) => {
      const image = await checkImage(req.body.file, 'file', 'File');
      const storage = storageOf(app);
      const key = await app.db.transaction().execute(async (trx) => {
        await checkUserUploadQuota(trx, req.user!.id, image.data.length, 'file');
        const stored = await storage.put(image.data, image.contentType);
        try {
          await trx
            .insertInto('uploaded_files')
            .values({ key: stored, user_id: req.user!.id, content_type: image.contentType, size: image.data.length })
            .execute();
        } catch (e) {
          await storage.delete(stored).catch(() => {});
          throw e;
        }
        return stored;
      });
      return reply.status(201).send({ data: { key, url: fileUrl(key) } });
    },
  );

  r.post(
    '/file/delete',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Deletes a file uploaded with file/upload (by its uploader or a Super Admin)',
        body: z.object({ key: z.string({ error: 'Key is required' }).trim().min(1, 'Key is required').max(300) }),
        response: { 200: MessageReply, ...recordErrors },
      },
    },
    async (req) => {
      // The key, or the URL that holds it.
      const key = keyOfUrl(req.body.key) ?? req.body.key;
      const row = await app.db.selectFrom('uploaded_files').select(['key', 'user_id']).where('key', '=', key).executeTakeFirst();
      if (!row || (row.user_id !== req.user!.id && !isSuperAdmin(req.user!))) throw new NotFoundError('File', key);
      await app.db.deleteFrom('uploaded_files').where('key', '=', key).execute();
      await storageOf(app).delete(key);
      return { data: { message: 'Deleted Successfully' } };
    },
  );
}
