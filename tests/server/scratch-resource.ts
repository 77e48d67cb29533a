import type { FieldSpec } from '../../src/domain/fields';
import type { ResourceDefinition } from '../../src/resources/define';
import { scratchInsurers } from '../../src/test/scratchResource';

/**
 * The scratch resource (src/test/scratchResource.ts) and its table, served beside the real ones by the tests
 * that walk every route (access matrix, contract): a new definition is tried the day it lands, with no entry of its
 * own in those tests.
 */
export const scratch = {
  definitions: [scratchInsurers] as ResourceDefinition[],
  sql: `create table scratch_insurers (id bigint generated always as identity primary key, name text not null, email text,
    client_id bigint not null references clients(id) on delete cascade,
    created_at timestamptz not null default now(), updated_at timestamptz not null default now())`,
};

/** The rows a sample record names: its scope's agent and client, and the site and device it may reference. */
export interface SampleOwner {
  agent: number;
  client: number;
  location?: number;
  device?: number;
}

/** A value every rule of the field accepts; references name `owner`'s rows. Undefined: left out of the body. */
function sampleValue(spec: FieldSpec, owner: SampleOwner, unique: (prefix: string) => string): unknown {
  switch (spec.type) {
    case 'text':
      return spec.email ? `${unique('sample').toLowerCase()}@example.test` : spec.url ? 'https://example.test/' : unique('Sample');
    case 'number':
      return Math.max(spec.min ?? 1, 1);
    case 'choice':
      return spec.choices[0].id;
    case 'boolean':
      return spec.numeric ? 1 : true;
    case 'color':
      return '#123456';
    case 'reference': {
      const own: Record<string, number | undefined> = {
        agents: owner.agent,
        clients: owner.client,
        locations: owner.location,
        devices: owner.device,
      };
      return own[spec.reference] ?? (spec.required ? undefined : null);
    }
    default:
      return undefined;
  }
}

/** A create body of a plain definition: a value for every field it can fill, its references naming `owner`'s rows. */
export const sampleRecord = (d: ResourceDefinition, owner: SampleOwner, unique: (prefix: string) => string) =>
  Object.fromEntries(
    Object.entries(d.fields)
      .filter(([, spec]) => !spec.readOnly && !spec.virtual)
      .map(([name, spec]) => [name, sampleValue(spec, owner, unique)])
      .filter(([, v]) => v !== undefined),
  );
