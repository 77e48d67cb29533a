/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base of the five services (`{base}/user`, `{base}/agent`, ...); defaults to the same origin's `/api`. */
  readonly VITE_API_URL?: string;
  /** Recipient of the 404 page's 'Report the problem' mail; empty leaves the address to the user. */
  readonly VITE_SUPPORT_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
