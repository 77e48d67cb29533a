import multipart, { type Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PayloadTooLargeError, ValidationError } from '../errors';
import { IMAGE_MAX_BYTES, type UploadedFile } from './images';

const MB = 1024 * 1024;
/** Text parts together, as a JSON body (app.ts's bodyLimit): the parser builds each as a string, which costs the loop. */
const TEXT_MAX_BYTES = MB;
const FIELD_MAX_BYTES = MB;
const LINGER_MS = 5000;

/** How large one uploaded file and one multipart request may be (UPLOAD_FILE_MAX_MB, UPLOAD_REQUEST_MAX_MB). */
export interface UploadLimits {
  fileBytes: number;
  requestBytes: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { fileBytes: 50 * MB, requestBytes: 60 * MB };

export const uploadLimitsOf = (c: { UPLOAD_FILE_MAX_MB: number; UPLOAD_REQUEST_MAX_MB: number }): UploadLimits => ({
  fileBytes: c.UPLOAD_FILE_MAX_MB * MB,
  requestBytes: c.UPLOAD_REQUEST_MAX_MB * MB,
});

declare module 'fastify' {
  interface FastifyInstance {
    /** The multipart limits of the validated configuration (app.ts). */
    uploadLimits: UploadLimits;
  }
}

const limitsOf = (app: FastifyInstance): UploadLimits => (app.hasDecorator('uploadLimits') ? app.uploadLimits : DEFAULT_UPLOAD_LIMITS);

/**
 * multipart/form-data for a service's routes (app.ts mounts the services without it). Registering it
 * twice in one context, or under a parent that has it, is a no-op, so every service may register it.
 */
export const multipartPlugin = fp(async (app: FastifyInstance) => {
  if (app.hasContentTypeParser('multipart/form-data')) return;
  await app.register(multipart, {
    throwFileSizeLimit: false,
    // One byte over the limit, so the reader sees the limit crossed (and refuses) rather than a file cut short.
    limits: { fileSize: limitsOf(app).fileBytes + 1, fieldSize: FIELD_MAX_BYTES, fields: 200, parts: 220 },
  });
});

/** Bytes the upload quota still allows for this request's files, and the refusal once they are passed. */
export interface UploadRoom {
  bytes: number;
  refuse: (field: string) => Error;
}

export interface MultipartOptions {
  /** Part name -> body member of the files kept (e.g. logoFile -> logo); other file parts are read and dropped. */
  uploads: Record<string, string>;
  /** Bytes kept of each file part before it counts as `truncated` (the route's own cap); IMAGE_MAX_BYTES unless named. */
  maxBytes?: Record<string, number>;
  /** The quota room of the request's files, asked when the first kept file part starts; null for no quota. */
  room?: (req: FastifyRequest) => Promise<UploadRoom | null>;
}

/**
 * Reads a multipart request part by part, without ever holding more than the limits: the whole request is cut at
 * `requestBytes`, any file at `fileBytes` and the text parts together at 1 MB (413 as soon as one is crossed; the
 * rest is dropped unread), a kept file at its route's cap (kept up to one byte more: `truncated`), and the kept files
 * together at the quota's room (its refusal, thrown as soon as the bytes pass it).
 */
export async function readMultipart(req: FastifyRequest, opts: MultipartOptions) {
  const limits = limitsOf(req.server);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.requestBytes) throw tooLarge(limits);
  const fields: Record<string, unknown> = {};
  const files: Record<string, UploadedFile> = {};
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
  };
  // One file part more than the route takes reaches the loop, to be refused there: by its name when a kept file comes twice.
  const takes = Math.max(1, Object.keys(opts.uploads).length);
  const parts = req.parts({ limits: { files: takes + 1 } });
  const iterator = parts[Symbol.asyncIterator]() as AsyncIterator<Multipart>;
  // The first next() pipes the request into the parser; counting starts with it so no chunk is read before.
  let next = iterator.next();
  req.raw.on('data', count);
  const check = () => {
    if (received > limits.requestBytes) throw tooLarge(limits);
  };
  let room: UploadRoom | null | undefined;
  let kept = 0;
  let text = 0;
  let fileParts = 0;
  try {
    for (let step = await next; !step.done; step = await next) {
      const part = step.value;
      check();
      if (part.type === 'file') {
        const target = opts.uploads[part.fieldname];
        if (target && files[target]) throw new ValidationError({ [part.fieldname]: ONE_FILE_AT_A_TIME });
        if (++fileParts > takes) throw new ValidationError({ file: ONE_FILE_AT_A_TIME });
        if (target && room === undefined) room = opts.room ? await opts.room(req) : null;
        const cap = opts.maxBytes?.[part.fieldname] ?? IMAGE_MAX_BYTES;
        const chunks: Buffer[] = [];
        let size = 0;
        let held = 0;
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          size += chunk.length;
          check();
          if (size > limits.fileBytes) throw tooLarge(limits);
          if (!target || held > cap) continue;
          const take = chunk.subarray(0, cap + 1 - held);
          chunks.push(take);
          held += take.length;
          kept += take.length;
          if (room && kept > room.bytes) throw room.refuse(part.fieldname);
        }
        if (target)
          files[target] = { filename: part.filename, mimetype: part.mimetype, data: Buffer.concat(chunks), truncated: held > cap };
      } else {
        if (part.valueTruncated)
          throw new ValidationError({ [part.fieldname]: `${part.fieldname} must be less than ${FIELD_MAX_BYTES / 1024} KB` });
        text += typeof part.value === 'string' ? part.value.length : 0;
        if (text > TEXT_MAX_BYTES)
          throw new PayloadTooLargeError(`The text parts are too large: at most ${TEXT_MAX_BYTES / MB} MB together`);
        const prior = fields[part.fieldname];
        fields[part.fieldname] =
          prior === undefined ? part.value : Array.isArray(prior) ? [...(prior as unknown[]), part.value] : [prior, part.value];
      }
      next = iterator.next();
    }
    check();
  } catch (e) {
    req.raw.off('data', count);
    discardRest(req);
    // The parser's own complaints (a body cut short, a broken boundary) carry no status: the client's fault, not ours.
    if (e instanceof Error && !('statusCode' in e)) throw new ValidationError({ body: `The multipart body is malformed: ${e.message}` });
    throw e;
  }
  req.raw.off('data', count);
  return { fields, files };
}

/**
 * After a refusal the parser holds no more of the body: the rest is read and dropped, so the client (still sending)
 * reads the reply rather than a reset connection; one still sending after LINGER_MS is cut off.
 *
 * A client that asked to close the connection gets a reply saying so, after which Node destroys the socket as soon as
 * the reply is written (`destroySoon`); with body bytes still arriving, that destroy is a TCP reset, which can
 * overtake the reply. So, for this socket alone, the close waits: the reply half-closes the connection, and it is
 * destroyed when the body has ended or after LINGER_MS.
 */
function discardRest(req: FastifyRequest) {
  const raw = req.raw;
  const socket = raw.socket;
  raw.unpipe();
  if (raw.readableEnded) return;
  raw.resume();
  // An injected request (tests) has a stand-in socket without destroySoon: nothing to hold back there.
  if (typeof socket.destroySoon !== 'function') return;
  const destroySoon = socket.destroySoon.bind(socket);
  socket.destroySoon = () => (raw.readableEnded ? destroySoon() : void socket.end());
  const done = () => {
    clearTimeout(timer);
    if (!socket.writable) destroySoon();
  };
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  raw.once('end', done);
  raw.once('close', () => clearTimeout(timer));
}

/** A request with more file parts than its route takes, or one of its files twice: refused on the part. */
export const ONE_FILE_AT_A_TIME = 'Send one file at a time';

const tooLarge = (limits: UploadLimits) =>
  new PayloadTooLargeError(
    `The upload is too large: at most ${Math.round(limits.fileBytes / MB)} MB per file and ${Math.round(limits.requestBytes / MB)} MB per request`,
  );

/**
 * A preValidation hook turning a multipart request into a plain body the route's zod schema validates:
 * text parts become strings (a repeated name becomes a list), the file parts named in `uploads`
 * (part name -> body member, e.g. logoFile -> logo) become UploadedFile values cut at their cap + 1
 * (`truncated` says so). Other file parts are read and dropped. JSON requests pass untouched.
 */
export function multipartBody(uploads: Record<string, string>, opts: Omit<MultipartOptions, 'uploads'> = {}) {
  return async (req: FastifyRequest) => {
    if (!req.isMultipart()) return;
    const { fields, files } = await readMultipart(req, { ...opts, uploads });
    // A file wins over a text value of the same member (the form may echo the current URL too).
    req.body = { ...fields, ...files };
  };
}
