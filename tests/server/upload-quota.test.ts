import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, formData, type TestContext } from './helper';
import { pngImage } from './image-fixtures';

let t: TestContext;
let admin: string;
let agentId: number;
let otherAgentId: number;
let deviceId: number;
let otherDeviceId: number;
let key: string;
let otherKey: string;

const MB = 1024 * 1024;
const SIX_TENTHS = Math.round(0.6 * MB);
/** A video the server takes as MP4 (an ftyp box first), of the given size. */
const mp4 = (bytes: number) => {
  const data = Buffer.alloc(bytes, 7);
  data.writeUInt32BE(24, 0);
  data.write('ftypisom', 4, 'latin1');
  return { data, filename: 'v.mp4', type: 'video/mp4' };
};
const setQuota = async (mb: string) => {
  const row = await t.db.selectFrom('options').select('id').where('option_name', '=', 'UPLOAD_QUOTA_MB').executeTakeFirstOrThrow();
  const res = await t.as(admin, { method: 'PUT', url: `/api/user/options/${row.id}`, payload: { option_value: mb } });
  expect(res.statusCode, res.body).toBe(200);
};
async function apiKeyFor(agent: number) {
  const user = await t.build.user({ roles: ['Agent'], agents: [agent] });
  return (await t.as(admin, { method: 'GET', url: `/api/user/users/${user.id}/apikey` })).json().data.token as string;
}
let seq = 0;
async function newScan(apiKey: string, device: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/scan/ingest/scans',
    headers: { authorization: `Bearer ${apiKey}` },
    payload: { scan_id: `quota-${++seq}`, device_id: device, type: 'arch', timestamp: '2024-05-31T07:30:00Z' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as number;
}
async function uploadVideo(apiKey: string, scanId: number, videoId: string, bytes: number) {
  const form = await formData({ video_id: videoId, file: mp4(bytes) });
  return t.app.inject({
    method: 'POST',
    url: `/api/scan/ingest/scans/${scanId}/videos`,
    payload: form.payload,
    headers: { ...form.headers, authorization: `Bearer ${apiKey}` },
  });
}

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  const client = await t.build.client();
  agentId = (await t.build.agent({ default_client_id: client.id })).id;
  otherAgentId = (await t.build.agent({ default_client_id: client.id })).id;
  const site = await t.build.location({ agent_id: agentId });
  const otherSite = await t.build.location({ agent_id: otherAgentId });
  deviceId = (await t.build.device({ location_id: site.id, agent_id: agentId, default_client_id: client.id, serial: '7100000001' })).id;
  otherDeviceId = (
    await t.build.device({ location_id: otherSite.id, agent_id: otherAgentId, default_client_id: client.id, serial: '7100000002' })
  ).id;
  key = await apiKeyFor(agentId);
  otherKey = await apiKeyFor(otherAgentId);
});

describe('upload quota (UPLOAD_QUOTA_MB)', () => {
  it('is an application setting, 500 MB by default, a whole number of megabytes', async () => {
    const row = await t.db
      .selectFrom('options')
      .select(['id', 'option_value'])
      .where('option_name', '=', 'UPLOAD_QUOTA_MB')
      .executeTakeFirstOrThrow();
    expect(row.option_value).toBe('500');
    for (const bad of ['-1', '1.5', 'lots', '2000000']) {
      const res = await t.as(admin, { method: 'PUT', url: `/api/user/options/${row.id}`, payload: { option_value: bad } });
      expect(res.statusCode, bad).toBe(422);
      expect(res.json()).toEqual({ error: { option_value: 'Upload Quota MB must be a whole number from 0 to 1000000' } });
    }
  });

  it("holds each agent's stored uploads to the quota (422 on the file, nothing kept); other agents are not held", async () => {
    await setQuota('1');
    const scan = await newScan(key, deviceId);
    expect((await uploadVideo(key, scan, 'v-1', SIX_TENTHS)).statusCode).toBe(200);
    const files = await t.db.selectFrom('agent_uploads').select(['agent_id', 'size']).where('agent_id', '=', agentId).execute();
    expect(files.map((f) => Number(f.size))).toEqual([SIX_TENTHS]);

    const over = await uploadVideo(key, scan, 'v-2', SIX_TENTHS);
    expect(over.statusCode).toBe(422);
    expect(over.json()).toEqual({
      error: { file: 'The upload quota of 1 MB of this agent is used up. Delete files or ask for a larger quota.' },
    });
    expect(await t.db.selectFrom('scan_videos').select('video_id').where('scan_id', '=', scan).execute()).toEqual([{ video_id: 'v-1' }]);

    const otherScan = await newScan(otherKey, otherDeviceId);
    expect((await uploadVideo(otherKey, otherScan, 'v-1', SIX_TENTHS)).statusCode).toBe(200);

    // Deleting the scan frees its files and the agent's quota.
    expect((await t.as(admin, { method: 'DELETE', url: `/api/scan/scans/${scan}` })).statusCode).toBe(200);
    expect(await t.db.selectFrom('agent_uploads').select('key').where('agent_id', '=', agentId).execute()).toEqual([]);
    const again = await newScan(key, deviceId);
    expect((await uploadVideo(key, again, 'v-2', SIX_TENTHS)).statusCode).toBe(200);
  });

  it('counts parallel uploads one after another: they cannot all slip under the quota', async () => {
    await setQuota('2');
    const scan = await newScan(otherKey, otherDeviceId);
    // 0.6 MB already stored for this agent by the test above: room for two more, not six.
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => uploadVideo(otherKey, scan, `p-${i}`, SIX_TENTHS)));
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(2);
    expect(replies.filter((r) => r.statusCode === 422)).toHaveLength(4);
  });

  it("holds a user's own uploads (file/upload) to the same quota", async () => {
    await setQuota('0');
    const user = await t.login((await t.build.user({ permissions: ['scan'] })).email);
    const form = await formData({ file: { data: await pngImage(), filename: 'a.png', type: 'image/png' } });
    const res = await t.as(user, { method: 'POST', url: '/api/user/file/upload', payload: form.payload, headers: form.headers });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: { file: 'The upload quota of 0 MB of your account is used up. Delete files or ask for a larger quota.' },
    });
    await setQuota('1');
    const ok = await t.as(user, { method: 'POST', url: '/api/user/file/upload', payload: form.payload, headers: form.headers });
    expect(ok.statusCode, ok.body).toBe(201);
  });
});
