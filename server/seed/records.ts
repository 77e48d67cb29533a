import type { z } from 'zod';
import { ROLE_SUPER_ADMIN } from '../../src/domain/permissions';
import { definition as agents } from '../../src/resources/agents/definition';
import { definition as clients } from '../../src/resources/clients/definition';
import { definition as devices } from '../../src/resources/devices/definition';
import { definition as emailTemplates } from '../../src/resources/email-templates/definition';
import { definition as locations } from '../../src/resources/locations/definition';
import { definition as panelgroups } from '../../src/resources/panelgroups/definition';
import { definition as panels } from '../../src/resources/panels/definition';
import { definition as parts } from '../../src/resources/parts/definition';
import { definition as products } from '../../src/resources/products/definition';
import { definition as roles } from '../../src/resources/roles/definition';
import { definition as users } from '../../src/resources/users/definition';
import type { Database } from '../db/database';
import type { Caller, CallLog } from '../lib/caller';
import { describeDefinition, type ResourcePart } from '../lib/definitions';
import { recordDescription, type ResourceDescription, writeBody } from '../lib/resource-description';
import type { UploadedFile } from '../lib/images';
import type { ResourceDefinition } from '../../src/resources/define';
import { resourceService } from '../lib/resource-service';
import type { FileStorage } from '../lib/storage';
import { agentsPart } from '../services/agent/agents-service';
import { devicesPart } from '../services/agent/devices';
import { locationsPart } from '../services/agent/locations';
import { webhooksResource } from '../services/agent/webhooks-service';
import { emailTemplatesPart } from '../services/email/templates';
import { panelsPart, partsPart } from '../services/quote/catalogue';
import { clientsPart } from '../services/quote/clients';
import { panelGroupsPart } from '../services/quote/panel-groups';
import { rolesPart } from '../services/user/roles-service';
import { usersPart } from '../services/user/users-service';

const RESOURCES = {
  agents: [agents, agentsPart],
  clients: [clients, clientsPart],
  devices: [devices, devicesPart],
  'email-templates': [emailTemplates, emailTemplatesPart],
  locations: [locations, locationsPart],
  panelgroups: [panelgroups, panelGroupsPart],
  panels: [panels, panelsPart],
  parts: [parts, partsPart],
  products: [products, {}],
  roles: [roles, rolesPart],
  users: [users, usersPart],
} satisfies Record<string, [ResourceDefinition, ResourcePart]>;

export type SeededResource = keyof typeof RESOURCES | 'webhooks';

/**
 * The installation itself, acting as a Super Admin before any user exists: it sees every row, and a user it creates
 * may hold any role.
 */
const installer = (log: CallLog): Caller => ({
  actor: {
    id: 0,
    first_name: 'Demo',
    last_name: 'data',
    email: '',
    consent: 1,
    roles: [ROLE_SUPER_ADMIN],
    permissions: [],
    agents: [],
    clients: [],
    tokenId: null,
    impersonatorId: null,
    tokenExpiresAt: null,
  },
  scope: { agents: null, clients: null },
  log,
  revokeLive: () => {},
});

/** An image as a multipart upload hands it to a service. */
export const uploaded = (data: Buffer, filename: string): UploadedFile => ({ data, filename, mimetype: 'image/png', truncated: false });

/**
 * Writes demo records as the API writes them: each body parsed by the resource's own create (or update) schema, then
 * the resource's service (references checked, secrets hashed, rich text sanitised, uploads stored, hooks run: a
 * user's roles, agents and clients).
 */
export function seedRecords(deps: { db: Database; storage: FileStorage; log: CallLog }) {
  const caller = installer(deps.log);
  const descriptions = {
    ...Object.fromEntries(Object.entries(RESOURCES).map(([name, [definition, part]]) => [name, describeDefinition(definition, part)])),
    // The demo's endpoints are placeholders under .test, public names that resolve nowhere.
    webhooks: webhooksResource({ allowPrivate: false }),
  } as Record<SeededResource, ResourceDescription>;
  // A write's references are checked against the resource they name, found by path as the app's routes record them.
  for (const description of Object.values(descriptions)) recordDescription(description);
  const serviceOf = (name: SeededResource) => resourceService(descriptions[name], { db: deps.db, storage: deps.storage });
  const parse = (schema: z.ZodType, body: Record<string, unknown>, name: string) => {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new Error(`demo ${name} refused: ${JSON.stringify(parsed.error.issues)}`);
    return parsed.data as Record<string, unknown>;
  };
  return {
    async create(name: SeededResource, body: Record<string, unknown>) {
      const row = await serviceOf(name).create(caller, parse(writeBody(descriptions[name], 'create'), body, name));
      return Number(row.id);
    },
    /** Changes the named fields of a record, keeping the others. */
    async change(name: SeededResource, id: number, body: Record<string, unknown>) {
      await serviceOf(name).update(caller, id, parse(writeBody(descriptions[name], 'update', Object.keys(body)), body, name));
    },
  };
}
