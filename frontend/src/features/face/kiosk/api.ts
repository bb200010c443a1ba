import { apiUrl } from '@/api/client';
import { networkError, parseErrorBody, type ApiError } from '@/api/errors';
import type { KioskChallenge, KioskScanResult } from './machine';
import type { Schema } from '@/api';

/**
 * The kiosk's calls. They carry the kiosk's device token (Authorization: Bearer) and never a
 * session cookie (credentials: 'omit'): a kiosk signs no one in, and a kiosk token opens
 * nothing but these routes.
 */

export const KIOSK_TOKEN_KEY = 'tatib.kiosk.token';

export function storedToken(): string | null {
  try {
    const v = globalThis.localStorage?.getItem(KIOSK_TOKEN_KEY);
    return v && v.trim() ? v.trim() : null;
  } catch {
    return null;
  }
}

export function storeToken(token: string | null): void {
  try {
    if (token) globalThis.localStorage?.setItem(KIOSK_TOKEN_KEY, token);
    else globalThis.localStorage?.removeItem(KIOSK_TOKEN_KEY);
  } catch {
    /* private mode: paired for this visit only */
  }
}

/** A kiosk token as Settings shows it: "kiosk_" and 43 base64url characters. */
export function looksLikeToken(v: string): boolean {
  return /^kiosk_[A-Za-z0-9_-]{43}$/.test(v.trim());
}

export type KioskInfo = Schema<'KioskInfo'>;

export type KioskChallengeResult = Schema<'FaceChallengeResult'>;

export type KioskScanInput = Schema<'FaceScanInput'>;

/** A failed kiosk call, with the server's message code (face.challenge_expired, …) when it sent one. */
export interface KioskError extends ApiError {
  messageCode?: string;
}

export function isKioskError(err: unknown): err is KioskError {
  return typeof err === 'object' && err !== null && 'status' in err && 'code' in err;
}

async function kioskFetch<T>(token: string, path: string, method: 'GET' | 'POST', body?: unknown, signal?: AbortSignal): Promise<T> {
  const lang = typeof document !== 'undefined' ? document.documentElement.lang : '';
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': lang || 'id', Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(apiUrl(path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
      signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw networkError(cause);
  }
  const text = await res.text().catch(() => '');
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const err = parseErrorBody(res.status, parsed, res.headers.get('Retry-After')) as KioskError;
    const detail = (parsed as { error?: { message_code?: unknown } } | undefined)?.error;
    if (typeof detail?.message_code === 'string') err.messageCode = detail.message_code;
    throw err;
  }
  return parsed as T;
}

export const kioskApi = {
  info: (token: string, signal?: AbortSignal) => kioskFetch<KioskInfo>(token, '/face/kiosk', 'GET', undefined, signal),
  challenge: (token: string, signal?: AbortSignal) => kioskFetch<KioskChallenge>(token, '/face/challenge', 'POST', undefined, signal),
  scan: (token: string, input: KioskScanInput, signal?: AbortSignal) => kioskFetch<KioskScanResult>(token, '/face/scan', 'POST', input, signal),
};
