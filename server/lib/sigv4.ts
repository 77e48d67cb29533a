import { createHash, createHmac } from 'node:crypto';

/** AWS Signature Version 4 over plain requests, for S3-compatible storage without the AWS SDK. */
export interface SigV4Request {
  method: string;
  url: URL;
  /** Headers to sign (any case); `host` and `x-amz-date` are added when absent. */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body (or 'UNSIGNED-PAYLOAD'). */
  payloadHash: string;
}
export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
}

export const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** 20130524T000000Z */
export const amzDate = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

function canonicalUri(url: URL) {
  // S3 paths are encoded once: each segment decoded from the URL form, then RFC 3986-encoded.
  return (
    url.pathname
      .split('/')
      .map((seg) => encode(decodeURIComponent(seg)))
      .join('/') || '/'
  );
}

function canonicalQuery(url: URL) {
  return [...url.searchParams.entries()]
    .map(([k, v]) => [encode(k), encode(v)])
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** The signed headers (lower-cased, with `authorization`), ready to send. */
export function signV4(req: SigV4Request, creds: SigV4Credentials, now: Date = new Date()): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = v;
  headers.host ??= req.url.host;
  headers['x-amz-date'] ??= amzDate(now);
  const stamp = headers['x-amz-date'];
  const day = stamp.slice(0, 8);
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n].trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    req.method.toUpperCase(),
    canonicalUri(req.url),
    canonicalQuery(req.url),
    canonicalHeaders,
    signedHeaders,
    req.payloadHash,
  ].join('\n');
  const scope = `${day}/${creds.region}/${creds.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), creds.region), creds.service), 'aws4_request');
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
