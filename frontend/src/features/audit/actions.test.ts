import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import id from './i18n/id.json';
import en from './i18n/en.json';
import { ACTION_KEYS, ENTITIES, actionKey, actionLabel, entityLabel, formatAuditTime, hasDetails, permissionDiff } from './actions';

/** A t() over one catalogue, like i18next's: nested keys, the key itself when missing. */
function tOf(catalogue: Record<string, unknown>) {
  return (key: string) => {
    const v = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], catalogue);
    return typeof v === 'string' ? v : key;
  };
}

describe('actionLabel', () => {
  it('maps the known codes to phrases in both languages', () => {
    expect(actionLabel('user.create', tOf(id))).toBe('Membuat pengguna');
    expect(actionLabel('user.create', tOf(en))).toBe('Created a user');
    expect(actionLabel('role.permissions.update', tOf(id))).toBe('Mengubah hak akses peran');
    expect(actionLabel('students.sync', tOf(id))).toBe('Sinkronisasi data siswa');
    expect(actionLabel('students.sync.failed', tOf(en))).toBe('Student data sync failed');
    expect(actionLabel('settings.student_affairs.update', tOf(id))).toBe('Mengubah koneksi data kesiswaan');
  });

  it('shows an unknown code as it is', () => {
    expect(actionKey('report.export')).toBeNull();
    expect(actionLabel('report.export', tOf(id))).toBe('report.export');
    expect(actionLabel('', tOf(id))).toBe('');
    // Not fooled by names every object has.
    expect(actionLabel('toString', tOf(id))).toBe('toString');
    expect(actionLabel('user', tOf(id))).toBe('user');
  });

  it('has a phrase for every mapped code in both catalogues', () => {
    for (const code of Object.keys(ACTION_KEYS)) {
      const key = actionKey(code)!;
      for (const [lang, cat] of [['id', id], ['en', en]] as const) {
        expect(tOf(cat)(key), `${lang}:${code}`).not.toBe(key);
      }
    }
  });

  it('knows every action and entity the server records', () => {
    const serverDir = path.resolve(__dirname, '../../../../server/internal');
    if (!existsSync(serverDir)) return; // the front end alone, without the monorepo
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const n of readdirSync(dir)) {
        const p = path.join(dir, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (n.endsWith('.go') && !n.endsWith('_test.go')) files.push(p);
      }
    };
    walk(serverDir);
    const actions = new Set<string>();
    const entities = new Set<string>();
    // audit.Record(ctx, q, actor, "action.code", "entity", …): the action is the first
    // dotted string literal, the entity the literal right after it.
    const re = /audit\.Record(?:Each)?\([^;]*?"([a-z_]+(?:\.[a-z_]+)+)",\s*"([a-z_]+)"/g;
    // Codes chosen before the call: `action := "…"`, `action = "…"`, a map of them.
    const assigned = /\baction :?= "([a-z_]+(?:\.[a-z_]+)+)"/g;
    const mapped = /\baction := map\[[^\]]+\]string\{([^}]*)\}/g;
    for (const f of files) {
      const src = readFileSync(f, 'utf8');
      for (const m of src.matchAll(re)) {
        actions.add(m[1]!);
        entities.add(m[2]!);
      }
      for (const m of src.matchAll(assigned)) actions.add(m[1]!);
      for (const m of src.matchAll(mapped)) for (const q of m[1]!.matchAll(/"([a-z_]+(?:\.[a-z_]+)+)"/g)) actions.add(q[1]!);
    }
    // Built from a request's choice: "attendance.journal_conflicts." + keep | use_journal.
    for (const choice of ['keep', 'use_journal']) expect(actionKey(`attendance.journal_conflicts.${choice}`)).not.toBeNull();
    expect(actions).toContain('warning_letter.print');
    expect(actions).toContain('warning_letter.raise');
    expect(actions.size).toBeGreaterThan(20);
    expect([...actions].filter((a) => !actionKey(a)).sort()).toEqual([]);
    expect([...entities].filter((e) => !(ENTITIES as readonly string[]).includes(e)).sort()).toEqual([]);
  });
});

describe('entityLabel', () => {
  it('labels known kinds, shows others as they are', () => {
    expect(entityLabel('user', tOf(id))).toBe('Pengguna');
    expect(entityLabel('setting', tOf(en))).toBe('Setting');
    expect(entityLabel('letter', tOf(id))).toBe('letter');
  });
});

describe('permissionDiff', () => {
  it('lists granted and revoked permissions, sorted, and counts the rest', () => {
    expect(
      permissionDiff({
        before: ['dashboard.view', 'students.view', 'users.view'],
        after: ['users.view', 'audit.view', 'dashboard.view', 'roles.manage'],
      }),
    ).toEqual({ added: ['audit.view', 'roles.manage'], removed: ['students.view'], kept: 2 });
  });

  it('treats null, missing and odd values as an empty set', () => {
    expect(permissionDiff({ before: null, after: ['users.view'] })).toEqual({ added: ['users.view'], removed: [], kept: 0 });
    expect(permissionDiff({ before: ['users.view'] })).toEqual({ added: [], removed: ['users.view'], kept: 0 });
    expect(permissionDiff(null)).toEqual({ added: [], removed: [], kept: 0 });
    expect(permissionDiff({ before: 'x', after: [1, 'a.b'] })).toEqual({ added: ['a.b'], removed: [], kept: 0 });
  });

  it('finds no change when the sets are equal in another order', () => {
    expect(permissionDiff({ before: ['b', 'a'], after: ['a', 'b'] })).toEqual({ added: [], removed: [], kept: 2 });
  });
});

describe('hasDetails', () => {
  it('is false for {} and null only', () => {
    expect(hasDetails({})).toBe(false);
    expect(hasDetails(null)).toBe(false);
    expect(hasDetails({ username: 'x' })).toBe(true);
    expect(hasDetails([])).toBe(false);
    expect(hasDetails([1])).toBe(true);
  });
});

describe('formatAuditTime', () => {
  it('shows the Jakarta time to the second', () => {
    // 03:04:05 UTC is 10:04:05 in Jakarta (tests run TZ=UTC).
    expect(formatAuditTime('2026-11-22T03:04:05Z')).toBe('22 Nov 2026 10.04.05');
    expect(formatAuditTime('2026-11-22T03:04:05Z', 'en')).toBe('22 Nov 2026 10:04:05');
    // Late evening UTC is already the next day in Jakarta.
    expect(formatAuditTime('2026-11-21T18:30:00.123456Z')).toBe('22 Nov 2026 01.30.00');
    expect(formatAuditTime('nonsense')).toBe('');
  });
});
