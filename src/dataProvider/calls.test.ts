import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aUser } from '../test/builders';
import { callOf, stubFetch } from '../test/stubFetch';
import { setCurrentUser } from '../session';
import { apiRoutesOf } from './apiRoutes';
import { createDataProvider, type AppDataProvider } from './dataProvider';
import { createRequest } from './http';
import { KioskRequiredError, PortalNotFoundError, PortalScanNotFoundError, PortalThrottledError } from './calls/portal';

const provider = () => createDataProvider({ routes: apiRoutesOf(async () => undefined), request: createRequest('/api') });

beforeEach(() => {
  localStorage.clear();
  setCurrentUser(aUser({ token: 'secret' }));
});
afterEach(() => vi.unstubAllGlobals());

type Case = [name: string, call: (dp: AppDataProvider) => Promise<unknown>, method: string, url: string, body?: unknown];

const passwords = { password: 'Secret123!', password_confirmation: 'Secret123!' };
const mail = { scan_id: 7, recipients: ['a@b.co'], subject: 'Scan', message: '<p>Hi</p>', attachments: ['report.pdf'] };
const damage = { scan_id: 7, car_panel: 'bonnet', dents: { small: 1 }, scratchs: { small: 0 } };
const answer = { decisions: [], terms_accepted: true, signer_name: 'A', signature: 'data:image/png;base64,AA' };

const quote = { scan_id: 7, total: 120 };
const options = [{ option_name: 'email_header', option_value: '<p>Top</p>' }];
const profile = { first_name: 'Ann', last_name: 'Lee', email: 'ann@b.co' };

/** Each named call: the verb, the URL with its query, and the JSON body it sends. */
const CASES: Case[] = [
  // user service: the account
  ['acceptTerms', (dp) => dp.acceptTerms(), 'POST', '/api/user/auth/consent'],
  ['forgotPassword', (dp) => dp.forgotPassword('a@b.co'), 'POST', '/api/user/auth/forgot-password', { email: 'a@b.co' }],
  [
    'resetPassword',
    (dp) => dp.resetPassword({ token: 't0k', ...passwords }),
    'POST',
    '/api/user/auth/reset-password',
    { token: 't0k', ...passwords },
  ],
  ['currentUser', (dp) => dp.currentUser(), 'GET', '/api/user/auth/user'],
  ['updateProfile', (dp) => dp.updateProfile(profile), 'PUT', '/api/user/auth/profile', profile],
  ['impersonate', (dp) => dp.impersonate('a/b'), 'GET', '/api/user/auth/impersonate/take/a%2Fb'],
  ['leaveImpersonation', (dp) => dp.leaveImpersonation(2), 'GET', '/api/user/auth/impersonate/2/leave'],
  ['newApiKey', (dp) => dp.newApiKey('a/b'), 'GET', '/api/user/users/a%2Fb/apikey'],
  // user service: stored settings
  ['saveEmailDefaults', (dp) => dp.saveEmailDefaults(options), 'POST', '/api/user/options/bulksave', options],
  [
    'searchOptions',
    (dp) => dp.searchOptions(['email_header', 'email_footer']),
    'POST',
    '/api/user/options/search',
    { option_name: ['email_header', 'email_footer'] },
  ],
  // agent service
  ['agentBranding', (dp) => dp.agentBranding(3), 'GET', '/api/agent/agents/3/branding'],
  ['webhookDeliveries', (dp) => dp.webhookDeliveries(3), 'GET', '/api/agent/webhooks/deliveries?agent_id=3'],
  ['webhookEvents', (dp) => dp.webhookEvents(), 'GET', '/api/agent/webhooks/events'],
  // scan service: the dashboard
  [
    'statisticsByAgent',
    (dp) => dp.statisticsByAgent({ from: '2026-01-01', to: '2026-01-31' }),
    'GET',
    '/api/scan/scans/agent-statistics?from=2026-01-01&to=2026-01-31',
  ],
  [
    'statisticsByLocation',
    (dp) => dp.statisticsByLocation({ from: '2026-01-01' }),
    'GET',
    '/api/scan/scans/location-statistics?from=2026-01-01',
  ],
  [
    'approvalStatistics',
    (dp) => dp.approvalStatistics({ ts: '2026-01-01', td: '2026-01-31' }),
    'GET',
    '/api/quote/quotes/approval-statistics?ts=2026-01-01&td=2026-01-31',
  ],
  // scan service: a scan
  ['scan', (dp) => dp.scan('7 x'), 'GET', '/api/scan/scans/7%20x'],
  ['saveScan', (dp) => dp.saveScan(7, { licensePlate: 'ABC123' }), 'PUT', '/api/scan/scans/7', { licensePlate: 'ABC123', noLoading: true }],
  ['refreshScan', (dp) => dp.refreshScan(7), 'POST', '/api/scan/scans/7/refresh'],
  ['evaluateScan', (dp) => dp.evaluateScan('7 x'), 'GET', '/api/scan/scans/7%20x/evaluate'],
  ['tyreWear', (dp) => dp.tyreWear(7), 'GET', '/api/scan/scans/7/tyre-wear'],
  ['evaluateScan new damage only', (dp) => dp.evaluateScan(7, true), 'GET', '/api/scan/scans/7/evaluate?new_damage_only=1'],
  [
    'tyreRepairs',
    (dp) => dp.tyreRepairs(7, { row: 1, direction: 'L', repair_type: null }),
    'PUT',
    '/api/scan/scans/7/tyre-repairs',
    { row: 1, direction: 'L', repair_type: null },
  ],
  ['deleteAnnotate', (dp) => dp.deleteAnnotate(7, 12), 'DELETE', '/api/scan/scans/7/annotates/12'],
  ['editDamageCount', (dp) => dp.editDamageCount(damage), 'POST', '/api/scan/scans/arch/edit-damage-count', damage],
  ['archData', (dp) => dp.archData(7), 'GET', '/api/scan/archData/search?scan_id=7'],
  ['searchPlates', (dp) => dp.searchPlates('AB'), 'POST', '/api/scan/license-plates/search', { number: 'AB' }],
  ['fetchPlate', (dp) => dp.fetchPlate('AB 1', 'VIC'), 'GET', '/api/scan/license-plates/fetch/AB%201?state=VIC'],
  ['fetchPlate without a state', (dp) => dp.fetchPlate('AB1', null), 'GET', '/api/scan/license-plates/fetch/AB1'],
  // scan service: vehicles
  [
    'vehicles',
    (dp) => dp.vehicles({ q: 'ab', sort: 'registration', order: 'asc', page: 2 }),
    'GET',
    '/api/scan/vehicles?q=ab&sort=registration&order=asc&page=2',
  ],
  [
    'exportVehicles',
    (dp) => dp.exportVehicles({ q: 'ab', sort: 'make', order: 'asc', format: 'xlsx' }),
    'GET',
    '/api/scan/vehicles/export-vehicle-report?q=ab&sort=make&order=asc&format=xlsx',
  ],
  ['vehicle', (dp) => dp.vehicle('4 x'), 'GET', '/api/scan/vehicles/4%20x'],
  ['scanComparison', (dp) => dp.scanComparison(7), 'GET', '/api/scan/scans/7/comparison'],
  // scan service: the list's export
  [
    'exportScans',
    (dp) => dp.exportScans({ q: 'ab', status: 'ready', format: 'xlsx' }),
    'GET',
    '/api/scan/scans/export-scan-report?q=ab&status=ready&format=xlsx',
  ],
  // quote service
  ['exportQuotes', (dp) => dp.exportQuotes({ ts: '2026-05-01' }), 'GET', '/api/quote/quotes/export-quote-report?ts=2026-05-01'],
  ['panelGroupPositions', (dp) => dp.panelGroupPositions(), 'GET', '/api/quote/panelGroups/positions'],
  ['searchQuote', (dp) => dp.searchQuote(7), 'POST', '/api/quote/quotes/search', { scan_id: 7 }],
  ['saveQuote', (dp) => dp.saveQuote(quote), 'POST', '/api/quote/quotes', quote],
  ['deleteQuoteVehiclePhoto', (dp) => dp.deleteQuoteVehiclePhoto(5), 'PUT', '/api/quote/quotes/5/delete_vehicle_photo'],
  ['setQuoteManualCheck on', (dp) => dp.setQuoteManualCheck(5, true), 'PUT', '/api/quote/quotes/5/manual_check', { manual_check: 1 }],
  ['setQuoteManualCheck off', (dp) => dp.setQuoteManualCheck(5, false), 'PUT', '/api/quote/quotes/5/manual_check', { manual_check: 0 }],
  ['quoteInvoice', (dp) => dp.quoteInvoice('5 x'), 'GET', '/api/quote/quotes/5%20x'],
  ['quoteInvoice of a revision', (dp) => dp.quoteInvoice(5, 0), 'GET', '/api/quote/quotes/5?revision=0'],
  ['quoteRevisions', (dp) => dp.quoteRevisions(5), 'GET', '/api/quote/quotes/5/revisions'],
  [
    'sendQuoteForApproval',
    (dp) => dp.sendQuoteForApproval(5, 'a@b.test'),
    'POST',
    '/api/quote/quotes/5/approval',
    { recipient: 'a@b.test' },
  ],
  ['revokeQuoteApproval', (dp) => dp.revokeQuoteApproval(5), 'DELETE', '/api/quote/quotes/5/approval'],
  ['approvalPage', (dp) => dp.approvalPage('tok-en'), 'GET', '/api/quote/approvals/tok-en'],
  ['answerApproval', (dp) => dp.answerApproval('tok', answer), 'POST', '/api/quote/approvals/tok', answer],
  // e-mail service
  ['sendScanEmail', (dp) => dp.sendScanEmail(mail), 'POST', '/api/email/emails', mail],
  ['previewScanEmail', (dp) => dp.previewScanEmail(mail), 'POST', '/api/email/emails/preview', mail],
  ['emailTemplatesForMail', (dp) => dp.emailTemplatesForMail(), 'GET', '/api/email/emailTemplates?page=1&per_page=100'],
  // the customer portal
  ['portalAgent', (dp) => dp.portalAgent('3'), 'GET', '/api/agent/agents/3/portal'],
  // scan and quote services: the history
  ['history scan', (dp) => dp.history('scan', '7 x'), 'GET', '/api/scan/scans/7%20x/history'],
  ['historyCsv scan', (dp) => dp.historyCsv('scan', 7), 'GET', '/api/scan/scans/7/history?format=csv'],
  ['history quote', (dp) => dp.history('quote', 5), 'GET', '/api/quote/quotes/5/history'],
  ['historyCsv quote', (dp) => dp.historyCsv('quote', 5), 'GET', '/api/quote/quotes/5/history?format=csv'],
  ['portalScans', (dp) => dp.portalScans('3'), 'GET', '/api/scan/portal/3/scans'],
  ['portalScan', (dp) => dp.portalScan('3', 'a b'), 'GET', '/api/scan/portal/3/scans/a%20b'],
  ['portalCreateScan', (dp) => dp.portalCreateScan('3'), 'POST', '/api/scan/portal/3/scans', {}],
  ['portalEnrol', (dp) => dp.portalEnrol('3', '1234'), 'POST', '/api/agent/agents/3/portal/enrol', { pincode: '1234' }],
  ['portalValidatePin', (dp) => dp.portalValidatePin('3', '1234'), 'POST', '/api/agent/agents/3/validate-pin', { pin: '1234' }],
];

describe('named calls', () => {
  it.each(CASES)('%s: %s %s', async (_name, call, method, url, body) => {
    // Exports answer the file's url.
    const fetch = stubFetch({ body: { data: { url: '/api/user/files/x.csv' } } });
    await call(provider());
    expect(callOf(fetch)).toMatchObject({ url, method, body });
  });

  it('an export without a url in its reply fails', async () => {
    stubFetch({ body: { data: {} } });
    await expect(provider().exportScans({})).rejects.toThrow('app.error.server');
  });

  it('addAnnotate: POST scans/{id}/annotates with the multipart form as it is', async () => {
    const fetch = stubFetch({ body: { data: {} } });
    const form = new FormData();
    form.append('scan_id', '7');
    await provider().addAnnotate(7, form);
    expect(callOf(fetch)).toMatchObject({ url: '/api/scan/scans/7/annotates', method: 'POST' });
    expect(fetch.mock.calls[0][1]?.body).toBe(form);
  });

  it('saveQuote: a multipart form goes as it is', async () => {
    const fetch = stubFetch({ body: { data: { id: 9 } } });
    const form = new FormData();
    expect(await provider().saveQuote(form)).toEqual({ id: 9 });
    expect(fetch.mock.calls[0][1]?.body).toBe(form);
  });

  it('forgotPassword and resetPassword send no bearer token, even when signed in', async () => {
    const fetch = stubFetch({ body: { data: {} } }, { body: { data: {} } });
    await provider().forgotPassword('a@b.co');
    await provider().resetPassword({ token: 't0k', ...passwords });
    expect(callOf(fetch, 0).headers.has('Authorization')).toBe(false);
    expect(callOf(fetch, 1).headers.has('Authorization')).toBe(false);
  });

  it('covers every named call', () => {
    const generic = [
      'getList',
      'getOne',
      'getMany',
      'getManyReference',
      'create',
      'update',
      'updateMany',
      'delete',
      'deleteMany',
      'getSelectOptions',
    ];
    const named = Object.keys(provider()).filter((key) => !generic.includes(key));
    const tested = new Set([...CASES.map(([name]) => name.split(' ')[0]), 'addAnnotate']);
    expect(named.filter((name) => !tested.has(name))).toEqual([]);
  });
});

describe('customer portal calls', () => {
  const kiosk = { token: 'k1', expires_at: '2999-01-01T00:00:00Z' };

  it('send the stored kiosk token, never the signed-in bearer token or the header selection', async () => {
    localStorage.setItem('kioskToken.3', JSON.stringify(kiosk));
    localStorage.setItem('selectedAgent', JSON.stringify(5));
    const fetch = stubFetch({ body: { items: [] } }, { body: { data: true } });
    await provider().portalScans('3');
    await provider().portalValidatePin('3', '1234');
    const scans = callOf(fetch, 0).headers;
    expect([scans.get('X-Kiosk-Token'), scans.has('Authorization'), scans.has('X_SNG_AGENTS')]).toEqual(['k1', false, false]);
    const pin = callOf(fetch, 1).headers;
    expect([pin.has('X-Kiosk-Token'), pin.has('Authorization')]).toEqual([false, false]);
  });

  it('a 401 forgets the kiosk token and asks to enrol; a 404 names the missing scan or portal; a 429 says how long to wait', async () => {
    localStorage.setItem('kioskToken.3', JSON.stringify(kiosk));
    stubFetch(
      { status: 401, body: { error: 'Unauthenticated.' } },
      { status: 404, body: { error: 'No query results for model [Scan] 9' } },
      { status: 404, body: { error: 'No query results for model [Agent] 3' } },
    );
    await expect(provider().portalScans('3')).rejects.toBeInstanceOf(KioskRequiredError);
    expect(localStorage.getItem('kioskToken.3')).toBeNull();
    await expect(provider().portalScan('3', '9')).rejects.toBeInstanceOf(PortalScanNotFoundError);
    await expect(provider().portalAgent('3')).rejects.toBeInstanceOf(PortalNotFoundError);

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: 'Too Many Attempts.' }), { status: 429, headers: { 'Retry-After': '120' } })),
    );
    const throttled = provider().portalCreateScan('3');
    await expect(throttled).rejects.toBeInstanceOf(PortalThrottledError);
    await expect(throttled).rejects.toHaveProperty('seconds', 120);
    await expect(provider().portalEnrol('3', '1')).rejects.toMatchObject({ key: 'app.portal.pincode_throttled', seconds: 120 });
  });

  it('a refused pincode is wrong (422); enrolling stores the kiosk token', async () => {
    stubFetch(
      { status: 422, body: { error: { pincode: ['Wrong'] } } },
      { body: { data: { kiosk_token: 'k2', expires_at: kiosk.expires_at } } },
    );
    await expect(provider().portalEnrol('3', '1')).rejects.toMatchObject({ key: 'app.portal.pincode_wrong' });
    await provider().portalEnrol('3', '1234');
    expect(JSON.parse(localStorage.getItem('kioskToken.3') ?? 'null')).toEqual({ token: 'k2', expires_at: kiosk.expires_at });
  });
});
