import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, setUnauthorizedHandler } from './client';

function stubFetch(status = 200, body = '{"ok":true}') {
  const fn = vi.fn(async (_url: string, _init: RequestInit) =>
    new Response(body, { status, headers: { 'Content-Type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fn);
  return fn;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(null);
});

describe('api client', () => {
  it('sends JSON with a JSON Content-Type to a relative path', async () => {
    const fetch = stubFetch();
    await api.post('/users', { username: 'a' });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/v1/users');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{"username":"a"}');
    expect(init.credentials).toBe('same-origin');
  });

  it('sends FormData untouched, leaving the multipart Content-Type to the browser', async () => {
    const fetch = stubFetch();
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.xlsx');
    await api.post('/violation-types/import', form);
    const [, init] = fetch.mock.calls[0]!;
    expect(init.body).toBe(form);
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it('calls the unauthorized handler on 401, for uploads too', async () => {
    stubFetch(401, '{"error":{"code":"unauthorized","message":"Silakan masuk"}}');
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    await expect(api.post('/violation-types/import', new FormData())).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledOnce();
  });
});
