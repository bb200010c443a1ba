import { describe, expect, it } from 'vitest';
import id from './i18n/id.json';
import en from './i18n/en.json';
import { actorLabel, detailLines, fieldLabel, formatValue, targetName, type T } from './describe';
import { formatNumber } from '@/lib/numbers';

/** A t() over one catalogue with i18next's defaultValue and {{x}} interpolation. */
function tOf(catalogue: Record<string, unknown>): T {
  return (key, opts) => {
    const v = key.replace(':', '.').split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], catalogue);
    const s = typeof v === 'string' ? v : typeof opts?.defaultValue === 'string' ? opts.defaultValue : key;
    return s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(opts?.[k] ?? ''));
  };
}
const num = (n: number) => formatNumber(n, 'id');

describe('detailLines', () => {
  it('lists the changed fields of a before/after pair, not the unchanged or technical ones', () => {
    const lines = detailLines('user.update', {
      before: { id: 4, username: 'guru', name: 'Guru Lama', role: 'staff', active: true, updated_at: 'x' },
      after: { id: 4, username: 'guru', name: 'Guru Baru', role: 'bk', active: true, updated_at: 'y' },
    });
    expect(lines).toEqual([
      { field: 'name', before: 'Guru Lama', after: 'Guru Baru', changed: true },
      { field: 'role', before: 'staff', after: 'bk', changed: true },
    ]);
  });

  it('reads {from, to} changes and plain values', () => {
    const lines = detailLines('violation_type.update', { points: { from: 5, to: 10 }, name: { from: 'A', to: 'B' } });
    expect(lines.map((l) => [l.field, l.before, l.after])).toEqual([
      ['points', 5, 10],
      ['name', 'A', 'B'],
    ]);
    expect(detailLines('user.create', { username: 'x', role: 'staff' })).toEqual([
      { field: 'username', value: 'x', changed: false },
      { field: 'role', value: 'staff', changed: false },
    ]);
  });

  it('names a bare before/after by the action, and keeps the other keys', () => {
    expect(detailLines('class.homeroom_teacher.update', { before: null, after: 12 })).toEqual([
      { field: 'homeroom_teacher', before: null, after: 12, changed: true },
    ]);
    const sa = detailLines('settings.student_affairs.update', {
      before: { url: 'http://a', schedule: '' },
      after: { url: 'http://b', schedule: '' },
      token_changed: true,
    });
    expect(sa.map((l) => l.field)).toEqual(['url', 'token_changed']);
  });

  it('hides codes and ids meant for programs', () => {
    expect(detailLines('students.sync.failed', { error: 'Token ditolak', error_code: 'school.sync_unauthorized' }).map((l) => l.field)).toEqual([
      'error',
    ]);
    expect(detailLines('x', null)).toEqual([]);
  });
});

describe('formatValue', () => {
  it('speaks the reader’s language', () => {
    const t = tOf(id);
    expect(formatValue('active', true, t, num)).toBe('Ya');
    expect(formatValue('role', 'wali_kelas', tOf({ ...id, common: { role: { wali_kelas: 'Wali Kelas' } } }), num)).toBe('Wali Kelas');
    expect(formatValue('points', 1200, t, num)).toBe('1.200');
    expect(formatValue('colour', 'yellow', t, num)).toBe('Kuning');
    expect(formatValue('homeroom_teacher', 12, t, num)).toBe('pengguna no. 12');
    expect(formatValue('name', '', t, num)).toBe('—');
    expect(formatValue('thresholds', [{ level: 1, name: 'SP 1', min_points: 50 }], t, num)).toBe('Tingkat: 1, Nama: SP 1, Poin minimum: 50');
    expect(formatValue('active', false, tOf(en), num)).toBe('No');
  });

  it('labels known fields and humanizes unknown ones', () => {
    expect(fieldLabel('sort_order', tOf(id))).toBe('Urutan');
    expect(fieldLabel('brand_new_key', tOf(id))).toBe('Brand new key');
  });
});

describe('actorLabel', () => {
  const t = tOf(id);
  it('calls the demo loader and the schedule by what they are, not "demo"', () => {
    expect(actorLabel({ actor_id: null, actor_name: 'sistem (demo)' }, t)).toBe('Sistem (data contoh)');
    expect(actorLabel({ actor_id: null, actor_name: 'sistem (jadwal)' }, tOf(en))).toBe('System (scheduled sync)');
    expect(actorLabel({ actor_id: null, actor_name: '' }, t)).toBe('Sistem');
  });

  it('prefers the person’s name to the username', () => {
    expect(actorLabel({ actor_id: 3, actor_name: 'guru', actor_display_name: 'Bu Guru, S.Pd.' }, t)).toBe('Bu Guru, S.Pd.');
    expect(actorLabel({ actor_id: 3, actor_name: 'guru' }, t, { id: 3, name: 'Bu Guru' })).toBe('Bu Guru');
    expect(actorLabel({ actor_id: 3, actor_name: 'guru' }, t, { id: 4, name: 'Pak Lain' })).toBe('guru');
  });
});

describe('targetName', () => {
  it('finds the name in the details', () => {
    expect(targetName({ details: { username: 'guru.staf', role: 'staff' }, entity_id: '4' })).toBe('guru.staf');
    expect(targetName({ details: { name: { from: 'A', to: 'B' } }, entity_id: '4' })).toBe('B');
    expect(targetName({ details: { before: { name: 'SMK' }, after: { name: 'SMK 1' } }, entity_id: '' })).toBe('SMK 1');
    expect(targetName({ details: {}, entity_id: '4' })).toBe('');
  });
});
