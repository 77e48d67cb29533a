import { fromDecimalText } from '../../../src/domain/text';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inputSchema } from '../../../src/domain/fields';
import { IMAGE_WIDTHS } from '../../../src/domain/images';
import { AppError } from '../../errors';
import { callerOf } from '../../lib/caller';
import { checkImage } from '../../lib/images';
import { isPageRequest, linkPage } from '../../lib/link-page';
import { multipartBody, multipartPlugin } from '../../lib/multipart';
import { dataReply, ErrorReply, MessageReply, recordErrors } from '../../lib/replies';
import { DOCUMENT_LINK_MINUTES, FILE_LINK_MINUTES, fileUrl } from '../../lib/storage';
import { userUploadRoom } from '../../lib/upload-quota';
import type { filesService } from './files-service';

/** Sandboxed: an SVG opened on its own can run nothing and load nothing (its inline styles may apply). */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const UploadBody = inputSchema({ file: { type: 'image', label: 'File', upload: 'file', required: true } });

/**
 * The files routes (filesService): stored files served to whoever holds their unguessable server-made names (an <img> cannot send a
 * bearer token); documents (PDFs) only to a user whose data scope reaches their scan or quote, exports only to their
 * maker, by bearer token or signed link; uploaded by signed-in users (`file/upload`, e.g. images in rich text),
 * deleted by their uploader.
 */
export async function fileRoutes(app: FastifyInstance, opts: { files: ReturnType<typeof filesService> }) {
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
          `(valid ${DOCUMENT_LINK_MINUTES} minutes); never cached. Images and videos: \`Cache-Control: private, max-age=31536000, immutable\`. ` +
          `With \`w\` (${IMAGE_WIDTHS.join(', ')}) a PNG, JPEG or WebP image is sent as its WebP copy that wide (at most the original ` +
          'width) when the Accept header takes WebP, and never for a download. A browser tab (`Sec-Fetch-Dest: document`, or an ' +
          'Accept naming text/html) refused a file (401, 403, 404) gets a short HTML page in its language (Accept-Language) instead of the JSON.',
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
          w: fromDecimalText(
            z
              .number()
              .pipe(z.literal(IMAGE_WIDTHS, { error: `W must be one of ${IMAGE_WIDTHS.join(', ')}` }))
              .optional(),
          ),
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
      const { download, w: width, ...link } = req.query;
      const file = await opts.files
        .read({ actor: req.user, scope: req.scope }, key, {
          download,
          link,
          rangeHeader: req.headers.range,
          width,
          accept: req.headers.accept,
        })
        .catch((error: unknown) => {
          // A tab sends no bearer token: an old or incomplete link opened there gets a page, not the JSON reply.
          if (error instanceof AppError && [401, 403, 404].includes(error.statusCode) && isPageRequest(req.headers)) return error;
          throw error;
        });
      if (file instanceof AppError)
        return reply
          .status(file.statusCode as 401 | 403 | 404)
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(Buffer.from(linkPage(file.statusCode === 404 ? 'gone' : 'refused', req.headers)));
      // Range requests (the scan page's video player seeks with them): one byte range, 206; an unsatisfiable one, 416.
      if (file.unsatisfiable)
        return reply
          .status(416)
          .header('accept-ranges', 'bytes')
          .header('content-range', `bytes */${file.size}`)
          .send({ error: 'Range Not Satisfiable' });
      const { bytes, range, size, contentType } = file;
      if (file.varies) reply.header('vary', 'accept');
      reply
        .header('content-type', contentType)
        .header('accept-ranges', 'bytes')
        .header('x-content-type-options', 'nosniff')
        // Names are never reused, so the bytes behind one never change, but no shared cache keeps any (a proxy would hand
        // them to whoever asks); exports and documents are for their users only and must not linger in caches.
        .header('cache-control', file.restricted ? 'private, no-store' : 'private, max-age=31536000, immutable')
        .header('content-disposition', download ? `attachment; filename="${download}"` : `inline; filename="${file.name}"`);
      if (contentType === 'image/svg+xml') reply.header('content-security-policy', SVG_CSP);
      if (range) return reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`).send(bytes);
      return reply.send(bytes);
    },
  );

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
      const key = await opts.files.upload(callerOf(req), await checkImage(req.body.file, 'file', 'File'));
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
      await opts.files.remove(callerOf(req), req.body.key);
      return { data: { message: 'Deleted Successfully' } };
    },
  );
}
