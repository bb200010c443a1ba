import { describe, expect, it } from 'vitest';
import { participantsToSend, shownRole, storedRole, type RoleKey } from './participants';

const en: Record<RoleKey, string> = { homeroom: 'Homeroom teacher', counselor: 'Counselor', parent: 'Parent', student: 'Student', witness: 'Witness' };
const label = (k: RoleKey) => en[k];

describe('handling participants', () => {
  it('stores known roles in Indonesian whatever the interface language; others as typed', () => {
    expect(storedRole('parent', label)).toBe('Orang Tua');
    expect(storedRole(' orang  tua ', label)).toBe('Orang Tua');
    expect(storedRole('Kepala  Sekolah', label)).toBe('Kepala Sekolah');
    expect(shownRole('Orang Tua', label)).toBe('Parent');
    expect(shownRole('Kepala Sekolah', label)).toBe('Kepala Sekolah');
  });

  it('links a name to a user only when exactly one user has it; empty rows are dropped', () => {
    const users = [
      { id: 1, name: 'Bu Sari' },
      { id: 2, name: 'Pak Budi' },
      { id: 3, name: 'Pak Budi' },
    ];
    expect(
      participantsToSend(
        [
          { name: 'bu sari', role: 'Counselor' },
          { name: 'Pak Budi', role: 'Saksi' },
          { name: 'Ibu Wati', role: 'Orang Tua' },
          { name: '  ', role: 'Siswa' },
        ],
        users,
        label,
      ),
    ).toEqual([
      { user_id: 1, name: 'bu sari', role: 'Guru BK' },
      { user_id: null, name: 'Pak Budi', role: 'Saksi' },
      { user_id: null, name: 'Ibu Wati', role: 'Orang Tua' },
    ]);
  });
});
