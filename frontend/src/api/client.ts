import { errorFromResponse, networkError } from './errors';

/**
 * The one way the app talks to the server. Paths are RELATIVE (`/api/v1/...`) and the
 * session rides on the same-origin cookie, so the same build works in a browser and inside
 * the desktop app (origin wails://wails), whose Go side proxies /api and adds the bearer
 * token. Never build absolute http URLs here and never read cookies.
 */
export const API_BASE = '/api/v1';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON; a FormData body is sent as multipart with the browser's own boundary. */
  body?: unknown;
  /** Added to the URL; null, undefined and '' are left out. */
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** Do not send the app to sign-in on 401 (the sign-in form itself). */
  ignoreUnauthorized?: boolean;
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler | null = null;

/** The app registers what a 401 means (go to sign-in); the API layer knows no router. */
export function setUnauthorizedHandler(fn: UnauthorizedHandler | null): void {
  onUnauthorized = fn;
}

/** `/users`, {q: 'x'} → `/api/v1/users?q=x`. */
export function apiUrl(path: string, query?: Record<string, QueryValue>): string {
  if (!path.startsWith('/')) throw new Error(`api path must start with "/": ${path}`);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    params.append(k, String(v));
  }
  const qs = params.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

async function send(path: string, opts: RequestOptions, accept: string): Promise<Response> {
  // The server renders its messages in the UI's language; i18n keeps <html lang> current.
  const lang = typeof document !== 'undefined' ? document.documentElement.lang : '';
  const headers: Record<string, string> = { Accept: accept, 'Accept-Language': lang || 'id' };
  let body: string | FormData | undefined;
  if (opts.body instanceof FormData) {
    // No Content-Type: the browser writes multipart/form-data with its boundary. (Inside
    // the desktop app a fetch shim turns FormData into bytes: WebKitGTK crashes on it.)
    body = opts.body;
  } else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(apiUrl(path, opts.query), {
      method: opts.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw networkError(cause);
  }
  if (!res.ok) {
    const err = await errorFromResponse(res);
    if (err.status === 401 && !opts.ignoreUnauthorized) onUnauthorized?.();
    throw err;
  }
  return res;
}

/** Calls the API and returns the parsed JSON (undefined for 204). Throws ApiError. */
export async function apiRequest<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await send(path, opts, 'application/json');
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal) =>
    apiRequest<T>(path, { query, signal }),
  post: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...opts, method: 'POST', body }),
  put: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PATCH', body }),
  delete: <T>(path: string) => apiRequest<T>(path, { method: 'DELETE' }),
};

/** A downloaded file (export, PDF) with the name the server suggested, if any. */
export interface DownloadedFile {
  blob: Blob;
  fileName?: string;
}

export function fileNameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through to the plain form */
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim();
}

/**
 * Calls the API and hands back the Response itself, for a body read as a stream (a backup).
 * Errors, 401 included, are handled as for JSON calls.
 */
export function apiResponse(path: string, opts: RequestOptions = {}, accept = '*/*'): Promise<Response> {
  return send(path, opts, accept);
}

/** Fetches a file from the API (with the same error handling as JSON calls). */
export async function apiDownload(path: string, query?: Record<string, QueryValue>): Promise<DownloadedFile> {
  const res = await send(path, { query }, '*/*');
  return { blob: await res.blob(), fileName: fileNameFromDisposition(res.headers.get('Content-Disposition')) };
}
