import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PresenceBody } from '../../src/domain/versions';
import { can } from '../../src/domain/permissions';
import { ForbiddenError, NotFoundError } from '../errors';
import { dataReply, recordErrors } from '../lib/replies';
import { visibleScan } from '../lib/scan-scope';
import { editingChannel, PRESENCE_EVENT } from './channels';

/**
 * `POST /api/broadcasting/presence`: a page editing a scan or its quote says the user is here (every few seconds) or
 * gone; the server tells the scan's `private-editing.{scanId}` channel who, so the other editors see it live. Only
 * someone who may change the record is an editor (`scan_edit` for a scan, `quote_edit` for its quote): a reader
 * announcing themselves would tell the editors of an edit that cannot happen.
 */
export function presenceRoute(app: FastifyInstance, publish: (channel: string, event: string, data: string) => Promise<void>) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/broadcasting/presence',
    {
      config: { access: { permission: 'scan' } },
      schema: {
        tags: ['Real time'],
        summary: 'Tell the other editors of a scan or its quote that this user is editing it (here) or has left (gone)',
        description:
          'Body `{scan_id, record: scan | quote, state: here | gone}`. Publishes `presence` `{record, user: {id, name}, state}` on ' +
          '`private-editing.{scan_id}`, which a user may subscribe to when they may see the scan. Pages send `here` every 1.5 s while open. ' +
          'Only an editor: `scan_edit` for a scan, `quote_edit` for its quote (else 403).',
        body: PresenceBody,
        response: { 200: dataReply(z.object({ channel: z.string() })), ...recordErrors },
      },
    },
    async (req) => {
      const user = req.user!;
      const { scan_id: scanId, record, state } = req.body;
      if (!can(user, record === 'scan' ? 'scan_edit' : 'quote_edit')) throw new ForbiddenError();
      if (!(await visibleScan(app.db, req.scope, scanId))) throw new NotFoundError('Scan', scanId);
      const name = `${user.first_name} ${user.last_name}`.trim() || user.email;
      const channel = editingChannel(scanId);
      await publish(channel, PRESENCE_EVENT, JSON.stringify({ record, user: { id: user.id, name }, state }));
      return { data: { channel } };
    },
  );
}
