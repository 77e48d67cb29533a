import type { Request, Service } from '../http';

/** A list's search and filters as query parameters, and the file's format (CSV when absent). */
export type ExportQuery = Record<string, string | number> & { format?: 'csv' | 'xlsx' };

/** An export route answers `{url}` of the file it built; anything else is a server error. */
export async function exportCall(request: Request, service: Service, path: string, query: ExportQuery): Promise<string> {
  const reply = await request<unknown>(service, path, { query });
  const url = typeof reply === 'object' && reply !== null && 'url' in reply ? reply.url : null;
  if (typeof url !== 'string') throw new Error('app.error.server');
  return url;
}
