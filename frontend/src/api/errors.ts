/** Error codes the server sends in {"error":{"code",...}}, plus two of our own. */
export type ApiErrorCode =
  | 'invalid'
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  /** 405: the path exists, the method does not (a client older or newer than the server). */
  | 'method_not_allowed'
  | 'conflict'
  | 'too_large'
  /** 415: the body's Content-Type is not one the route takes. */
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal'
  | 'unavailable'
  /** The server could not be reached at all (no HTTP answer, or a gateway answering for it). */
  | 'network'
  /** An answer we cannot make sense of. */
  | 'unknown';

const serverCodes: ReadonlySet<string> = new Set([
  'invalid',
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal',
  'unavailable',
]);

/** Field name → message, as the server sends them (already in Indonesian). */
export type FieldErrors = Record<string, string>;

/** An API call that did not succeed. `message` is the server's text, or '' when it sent none. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly fields: FieldErrors;
  /** Seconds to wait, from Retry-After (429). */
  readonly retryAfter?: number;
  /** The message's stable catalogue key ("attendance.confirm_required"), when the server sent one. */
  messageCode?: string;

  constructor(init: { status: number; code: ApiErrorCode; message?: string; fields?: FieldErrors; retryAfter?: number; messageCode?: string }) {
    super(init.message ?? '');
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields ?? {};
    this.retryAfter = init.retryAfter;
    if (init.messageCode) this.messageCode = init.messageCode;
  }

  /** Whether the server sent field errors to show at form fields. */
  get hasFieldErrors(): boolean {
    return Object.keys(this.fields).length > 0;
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** True when the server could not be reached: show the "server cannot be reached" state with a retry. */
export function isUnreachable(err: unknown): boolean {
  return isApiError(err) && err.code === 'network';
}

export function codeForStatus(status: number): ApiErrorCode {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 409:
      return 'conflict';
    case 413:
      return 'too_large';
    case 415:
      return 'unsupported_media_type';
    case 422:
      return 'invalid';
    case 429:
      return 'rate_limited';
    case 503:
      return 'unavailable';
    default:
      return status >= 500 ? 'internal' : 'unknown';
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseRetryAfter(header: string | null | undefined): number | undefined {
  if (!header) return undefined;
  const n = Number(header);
  return Number.isFinite(n) && n >= 0 ? Math.ceil(n) : undefined;
}

/**
 * Builds an ApiError from a failed answer's status and parsed body. `body` is the JSON
 * value, or undefined when the body was empty or not JSON.
 *
 * A gateway error (502/504) without our JSON shape means the server behind the proxy
 * (the desktop app's proxy, a reverse proxy) is unreachable: it becomes a network error.
 */
export function parseErrorBody(status: number, body: unknown, retryAfterHeader?: string | null): ApiError {
  const retryAfter = parseRetryAfter(retryAfterHeader);
  const err = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (!err) {
    if (status === 502 || status === 504) {
      return new ApiError({ status, code: 'network' });
    }
    return new ApiError({ status, code: codeForStatus(status), retryAfter });
  }
  const code = typeof err.code === 'string' && serverCodes.has(err.code) ? (err.code as ApiErrorCode) : codeForStatus(status);
  const message = typeof err.message === 'string' ? err.message : '';
  const messageCode = typeof err.message_code === 'string' ? err.message_code : undefined;
  const fields: FieldErrors = {};
  if (isRecord(err.fields)) {
    for (const [k, v] of Object.entries(err.fields)) {
      if (typeof v === 'string') fields[k] = v;
    }
  }
  return new ApiError({ status, code, message, fields, retryAfter, messageCode });
}

/** Reads a failed Response into an ApiError; never throws. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  let body: unknown;
  try {
    const text = await res.text();
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return parseErrorBody(res.status, body, res.headers.get('Retry-After'));
}

/** The error for a fetch that never got an answer (server down, network gone). */
export function networkError(cause?: unknown): ApiError {
  const e = new ApiError({ status: 0, code: 'network' });
  if (cause !== undefined) (e as { cause?: unknown }).cause = cause;
  return e;
}
