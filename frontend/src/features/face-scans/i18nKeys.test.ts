import { describe, expect, it } from 'vitest';
import { allResources } from '@/i18n/features';

/**
 * Every literal key the face-ID screens ask for exists in both languages: the catalogue test
 * checks the two languages agree, this one that the code does not name a key nobody wrote.
 */
const sources = {
  'face-scans': import.meta.glob<string>('./**/*.tsx', { eager: true, query: '?raw', import: 'default' }),
  settings: import.meta.glob<string>('../settings/components/Face*.tsx', { eager: true, query: '?raw', import: 'default' }),
};

function lookup(ns: string, lang: string, key: string): unknown {
  return key.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown> | undefined)?.[p], allResources[lang]?.[ns]);
}

describe('face-ID screens name only keys that exist', () => {
  for (const [ns, files] of Object.entries(sources)) {
    it(`${ns}: every t('…') key is in id and en`, () => {
      expect(Object.keys(files).length).toBeGreaterThan(0);
      const keys = new Set<string>();
      for (const text of Object.values(files)) {
        // t('a.b') and t(`a.b.${x}`) (the latter checked for its fixed part).
        for (const m of text.matchAll(/\bt\((['`])([a-zA-Z0-9_.]+)(\$\{)?/g)) keys.add(m[3] ? `${m[2]}*` : m[2]!);
      }
      expect(keys.size).toBeGreaterThan(5);
      for (const lang of ['id', 'en']) {
        for (const k of keys) {
          if (k.endsWith('*')) {
            const parent = k.slice(0, -1).replace(/\.$/, '');
            expect(typeof lookup(ns, lang, parent), `${lang}:${ns}:${parent}`).toBe('object');
          } else expect(typeof lookup(ns, lang, k), `${lang}:${ns}:${k}`).toBe('string');
        }
      }
    });
  }
});
