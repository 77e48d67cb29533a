import type { ImageWidth } from '../../../src/domain/images';
import { can, type DataScope, dataScope, isSuperAdmin, type Principal } from '../../../src/domain/permissions';
import { RESOURCES } from '../../../src/domain/resources';
import type { Database } from '../../db/database';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../errors';
import type { Caller } from '../../lib/caller';
import { findAccessByUserId } from '../../lib/access';
import { getSizedCopy } from '../../lib/images';
import type { Signer } from '../../lib/signing';
import { FILE_KEY, type FileStorage, isDocumentKey, isPrivateKey, isSizableKey, keyOfUrl, signedFileUser } from '../../lib/storage';
import { checkUserUploadQuota } from '../../lib/upload-quota';
import type { AuthUser } from '../../plugins/auth';
import { deleteUploadedFile, documentReached, exportOwner, findUploadedFile, insertUploadedFile } from './files-repository';

/** A signed link whose user is gone or no longer reaches the document. */
export const LINK_NO_LONGER_VALID = 'The download link is no longer valid for its user';

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

/** Browsers that send an Accept header without WebP get the original; no header at all takes anything. */
const acceptsWebp = (accept: string | undefined) => !accept || /image\/webp|image\/\*|\*\/\*/.test(accept);

/**
 * Which copy of stored file `key` a request for width `w` with this Accept header gets: `width` null is the original.
 * Only PNG, JPEG and WebP images have sized copies, and not for a download; `varies` says the answer turns on Accept.
 */
export function sizedChoice(key: string, w: ImageWidth | undefined, accept: string | undefined, download?: string) {
  if (w === undefined || download !== undefined || !isSizableKey(key)) return { width: null, varies: false };
  return { width: acceptsWebp(accept) ? w : null, varies: true };
}

/** A signed link's parts, as the query string gives them. */
export interface FileLink {
  expires?: string;
  uid?: string;
  sig?: string;
}

/** Who reads a file: the signed-in user and their scope, or nobody (no bearer token: an image, or a signed link). */
export interface FileReader {
  actor: AuthUser | null;
  scope: DataScope;
}

/**
 * Stored files: images and videos go to whoever holds their unguessable server-made names; documents (PDFs) only to a
 * user whose data scope reaches their scan or quote, exports only to their maker, by bearer token or signed link;
 * uploads by signed-in users (e.g. images in rich text), deleted by their uploader.
 */
export function filesService(deps: { db: Database; storage: FileStorage; signer: Signer }) {
  const { db, storage, signer } = deps;

  /** An export goes to its maker or a Super Admin (bearer token), or to whoever holds a valid signed link made for its maker. */
  async function checkExportAccess(key: string, user: AuthUser | null, link: FileLink) {
    const row = await exportOwner(db, key);
    if (user) {
      if (!row) throw new NotFoundError('File', key);
      if (row.user_id !== user.id && !isSuperAdmin(user)) throw new ForbiddenError();
      return;
    }
    if (link.expires === undefined && link.uid === undefined && link.sig === undefined) throw new UnauthorizedError();
    if (!link.expires || !link.uid || !link.sig) throw new ForbiddenError('The download link is incomplete');
    const uid = signedFileUser(signer, key, { expires: link.expires, uid: link.uid, sig: link.sig });
    if (uid === null) throw new ForbiddenError('The download link has expired or is not valid');
    if (!row) throw new NotFoundError('File', key);
    if (row.user_id !== uid) throw new ForbiddenError();
  }

  /**
   * A document goes to a user whose data scope reaches its scan (with the scans' read permission) or its quote (with
   * the quotes'; a quote's PDF also through its scan, as the scan page shows it): the signed-in reader, or the user a
   * valid signed link was made for, as that user is now (a link outlives neither the user nor their access to the
   * document, though the services sign one only in a reply to a user whose scope reached it).
   */
  async function checkDocumentAccess(key: string, reader: FileReader, link: FileLink) {
    if (reader.actor) {
      if (!(await reaches(key, reader.actor, reader.scope))) throw new NotFoundError('File', key);
      return;
    }
    if (link.expires === undefined && link.uid === undefined && link.sig === undefined) throw new UnauthorizedError();
    if (!link.expires || !link.uid || !link.sig) throw new ForbiddenError('The download link is incomplete');
    const uid = signedFileUser(signer, key, { expires: link.expires, uid: link.uid, sig: link.sig });
    if (uid === null) throw new ForbiddenError('The download link has expired or is not valid');
    const user = await findAccessByUserId(db, uid);
    if (!user || !(await reaches(key, user, dataScope(user)))) throw new ForbiddenError(LINK_NO_LONGER_VALID);
  }

  /** Whether the user's permissions and scope reach the document. */
  const reaches = (key: string, user: Principal, scope: DataScope) =>
    documentReached(db, key, scope, { scans: can(user, RESOURCES.scans.permission), quotes: can(user, RESOURCES.quotes.permission) });

  return {
    /**
     * A stored file's bytes, or the one byte range `rangeHeader` asks for; 'unsatisfiable' with the file's size for a
     * range outside it. `restricted` files (exports, documents) are for their readers only. With `width` (and an `accept`
     * taking WebP) an image is its WebP copy that wide, reached only through the original's name so it has the same readers;
     * `varies` tells caches the reply depends on Accept.
     */
    async read(
      reader: FileReader,
      key: string,
      opts: { download?: string; link: FileLink; rangeHeader?: string; width?: ImageWidth; accept?: string },
    ) {
      const exported = FILE_KEY.test(key) && isPrivateKey(key);
      const document = FILE_KEY.test(key) && isDocumentKey(key);
      if (exported) await checkExportAccess(key, reader.actor, opts.link);
      if (document) await checkDocumentAccess(key, reader, opts.link);
      const missing = new NotFoundError('File', key);
      if (!FILE_KEY.test(key)) throw missing;
      const sized = sizedChoice(key, opts.width, opts.accept, opts.download);
      if (sized.width !== null) {
        const bytes = await getSizedCopy(storage, key, sized.width);
        if (!bytes) throw missing;
        return {
          unsatisfiable: false as const,
          bytes,
          size: bytes.length,
          contentType: 'image/webp',
          range: null,
          restricted: false,
          varies: true,
          name: `${key}.w${sized.width}.webp`,
        };
      }
      // The store reads only the range when it can (the local disk); otherwise the file is read whole and sliced.
      const partial = opts.rangeHeader && storage.stat && storage.getRange ? await storage.stat(key) : null;
      const whole = partial ? null : await storage.get(key);
      const head = partial ?? (whole && { size: whole.data.length, contentType: whole.contentType });
      if (!head) throw missing;
      const extension = (name: string) => name.slice(name.lastIndexOf('.'));
      if (opts.download !== undefined && extension(opts.download) !== extension(key)) {
        throw new ValidationError({ download: `Download must end in ${extension(key)}` });
      }
      const range = byteRange(opts.rangeHeader, head.size);
      if (range === 'unsatisfiable') return { unsatisfiable: true as const, size: head.size };
      const bytes = range
        ? whole
          ? whole.data.subarray(range.start, range.end + 1)
          : await storage.getRange!(key, range.start, range.end)
        : (whole ?? (await storage.get(key)))?.data;
      if (!bytes) throw missing;
      return {
        unsatisfiable: false as const,
        bytes,
        size: head.size,
        contentType: head.contentType,
        range,
        restricted: exported || document,
        varies: sized.varies,
        name: key,
      };
    },

    /** Stores a checked image as the caller's upload, within their upload quota; its key. */
    async upload(caller: Pick<Caller, 'actor'>, image: { data: Buffer; contentType: string }) {
      return db.transaction().execute(async (trx) => {
        await checkUserUploadQuota(trx, caller.actor.id, image.data.length, 'file');
        const stored = await storage.put(image.data, image.contentType);
        try {
          await insertUploadedFile(trx, { key: stored, userId: caller.actor.id, contentType: image.contentType, size: image.data.length });
        } catch (e) {
          await storage.delete(stored).catch(() => {});
          throw e;
        }
        return stored;
      });
    },

    /** Deletes an upload (by its key, or the URL that holds it) of the caller's, or any for a Super Admin. */
    async remove(caller: Pick<Caller, 'actor'>, keyOrUrl: string) {
      const key = keyOfUrl(keyOrUrl) ?? keyOrUrl;
      const row = await findUploadedFile(db, key);
      if (!row || (row.user_id !== caller.actor.id && !isSuperAdmin(caller.actor))) throw new NotFoundError('File', key);
      await deleteUploadedFile(db, key);
      await storage.delete(key);
    },
  };
}
