import { describe, expect, it } from 'vitest';
import { ApiError, errorFromResponse, isUnreachable, parseErrorBody } from './errors';
import { apiUrl, fileNameFromDisposition } from './client';

describe('parseErrorBody', () => {
  it('reads the server shape with field errors', () => {
    const e = parseErrorBody(422, {
      error: { code: 'invalid', message: 'Data tidak valid.', fields: { username: 'Nama pengguna sudah dipakai.', n: 3 } },
    });
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(422);
    expect(e.code).toBe('invalid');
    expect(e.message).toBe('Data tidak valid.');
    expect(e.fields).toEqual({ username: 'Nama pengguna sudah dipakai.' });
    expect(e.hasFieldErrors).toBe(true);
  });

  it('keeps the forbidden message for the 403 page', () => {
    const e = parseErrorBody(403, { error: { code: 'forbidden', message: 'Akses ditolak.' } });
    expect(e.code).toBe('forbidden');
    expect(e.message).toBe('Akses ditolak.');
    expect(e.hasFieldErrors).toBe(false);
  });

  it('keeps the message code, so a screen can tell one conflict from another', () => {
    const e = parseErrorBody(409, { error: { code: 'conflict', message: 'Perlu konfirmasi.', message_code: 'attendance.confirm_required' } });
    expect(e.code).toBe('conflict');
    expect(e.messageCode).toBe('attendance.confirm_required');
    expect(parseErrorBody(409, { error: { code: 'conflict', message: 'x' } }).messageCode).toBeUndefined();
  });

  it('derives the code from the status when the body is not ours', () => {
    expect(parseErrorBody(404, undefined).code).toBe('not_found');
    expect(parseErrorBody(409, 'text').code).toBe('conflict');
    expect(parseErrorBody(500, { message: 'x' }).code).toBe('internal');
    expect(parseErrorBody(418, null).code).toBe('unknown');
    expect(parseErrorBody(404, undefined).message).toBe('');
  });

  it('knows the server\'s 405 and 415 codes, from the body and from the status alone', () => {
    const m = parseErrorBody(405, { error: { code: 'method_not_allowed', message: 'Tindakan ini tidak tersedia di alamat ini.' } });
    expect(m.code).toBe('method_not_allowed');
    expect(m.message).toBe('Tindakan ini tidak tersedia di alamat ini.');
    expect(parseErrorBody(415, { error: { code: 'unsupported_media_type', message: 'x' } }).code).toBe('unsupported_media_type');
    expect(parseErrorBody(405, undefined).code).toBe('method_not_allowed');
    expect(parseErrorBody(415, 'text').code).toBe('unsupported_media_type');
  });

  it('ignores an unknown code and uses the status', () => {
    expect(parseErrorBody(403, { error: { code: 'nope', message: 'm' } }).code).toBe('forbidden');
  });

  it('reads Retry-After for rate limits', () => {
    const e = parseErrorBody(429, { error: { code: 'rate_limited', message: 'Tunggu.' } }, '120');
    expect(e.retryAfter).toBe(120);
    expect(parseErrorBody(429, undefined, 'soon').retryAfter).toBeUndefined();
  });

  it('treats a bare gateway error as an unreachable server', () => {
    expect(isUnreachable(parseErrorBody(502, undefined))).toBe(true);
    expect(isUnreachable(parseErrorBody(504, undefined))).toBe(true);
    expect(isUnreachable(parseErrorBody(502, { error: { code: 'internal', message: 'x' } }))).toBe(false);
    expect(isUnreachable(new Error('x'))).toBe(false);
  });
});

describe('errorFromResponse', () => {
  it('parses a JSON body', async () => {
    const res = new Response(JSON.stringify({ error: { code: 'unauthorized', message: 'Salah.' } }), { status: 401 });
    const e = await errorFromResponse(res);
    expect(e.code).toBe('unauthorized');
    expect(e.message).toBe('Salah.');
  });

  it('survives a body that is not JSON', async () => {
    const e = await errorFromResponse(new Response('<html>oops</html>', { status: 500 }));
    expect(e.code).toBe('internal');
    expect(e.message).toBe('');
  });
});

describe('apiUrl', () => {
  it('builds relative URLs only, leaving out empty query values', () => {
    expect(apiUrl('/users', { q: 'ani b', role: '', page: 2, active: undefined })).toBe('/api/v1/users?q=ani+b&page=2');
    expect(apiUrl('/auth/me')).toBe('/api/v1/auth/me');
    expect(() => apiUrl('users')).toThrow();
  });
});

describe('fileNameFromDisposition', () => {
  it('reads plain and RFC 5987 names', () => {
    expect(fileNameFromDisposition('attachment; filename="rekap.xlsx"')).toBe('rekap.xlsx');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''rekap%20kelas.pdf")).toBe('rekap kelas.pdf');
    expect(fileNameFromDisposition(null)).toBeUndefined();
  });
});
