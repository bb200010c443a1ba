import { describe, expect, it } from 'vitest';
import { buildResources, LANGUAGES } from './index';
import { allResources as resources } from './features';

function keys(v: unknown, prefix = ''): string[] {
  if (typeof v !== 'object' || v === null) return [prefix];
  return Object.entries(v).flatMap(([k, child]) => keys(child, prefix ? `${prefix}.${k}` : k));
}

describe('catalogues', () => {
  it('builds namespaces from file names', () => {
    const r = buildResources({
      './id.json': { a: 'x' },
      '../features/users/i18n/en.json': { b: 'y' },
      './notes.txt': {},
    });
    expect(r).toEqual({ id: { common: { a: 'x' } }, en: { users: { b: 'y' } } });
  });

  it('has the common namespace and the features in every language', () => {
    for (const lang of LANGUAGES) {
      expect(Object.keys(resources[lang] ?? {})).toContain('common');
    }
    expect(Object.keys(resources.en ?? {}).sort()).toEqual(Object.keys(resources.id ?? {}).sort());
  });

  it('has the same keys in Indonesian and English, none empty', () => {
    for (const ns of Object.keys(resources.id ?? {})) {
      const id = keys(resources.id?.[ns]).sort();
      const en = keys(resources.en?.[ns]).sort();
      expect({ ns, keys: en }).toEqual({ ns, keys: id });
      for (const lang of LANGUAGES) {
        for (const k of id) {
          const value = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)?.[p], resources[lang]?.[ns]);
          expect(typeof value === 'string' && value.trim() !== '', `${lang}:${ns}:${k}`).toBe(true);
        }
      }
    }
  });
});
