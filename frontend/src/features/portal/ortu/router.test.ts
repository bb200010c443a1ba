import { describe, expect, it } from 'vitest';
import { matchPath } from './router';

// The portal build's router (router.tsx) must match the portal's routes as React Router did.
describe('matchPath', () => {
  it('matches the portal splat with and without a trailing part', () => {
    expect(matchPath('/ortu/*', '/ortu')).toEqual({ params: { '*': '' }, base: '/ortu' });
    expect(matchPath('/ortu/*', '/ortu/')).toEqual({ params: { '*': '' }, base: '/ortu' });
    expect(matchPath('/ortu/*', '/ortu/anak/5')).toEqual({ params: { '*': 'anak/5' }, base: '/ortu' });
    expect(matchPath('/ortu/*', '/ortugal')).toBeNull();
    expect(matchPath('/ortu/*', '/')).toBeNull();
  });

  it('matches nested paths, params, the index and the catch-all', () => {
    expect(matchPath('anak/:id', '/anak/12')).toEqual({ params: { id: '12' }, base: '/anak/12' });
    expect(matchPath('anak/:id', '/anak/12/x')).toBeNull();
    expect(matchPath('anak/:id', '/anak/a%20b')?.params.id).toBe('a b');
    expect(matchPath('', '/')).toEqual({ params: {}, base: '/' });
    expect(matchPath('', '')).toEqual({ params: {}, base: '/' });
    expect(matchPath('', '/masuk')).toBeNull();
    expect(matchPath('*', '/anything/at/all')?.params['*']).toBe('anything/at/all');
  });

  it('ignores case and a trailing slash, as React Router does', () => {
    expect(matchPath('masuk', '/MASUK/')).not.toBeNull();
    expect(matchPath('masuk', '/masukan')).toBeNull();
  });
});
