import type { HandlingParticipant } from './types';

/**
 * The usual roles of people at a handling. They are stored in Indonesian (the school's words,
 * as the export prints them) and shown in the interface's language; any other role is free text.
 */
export const PARTICIPANT_ROLES = {
  homeroom: 'Wali Kelas',
  counselor: 'Guru BK',
  parent: 'Orang Tua',
  student: 'Siswa',
  witness: 'Saksi',
} as const;
export type RoleKey = keyof typeof PARTICIPANT_ROLES;
export const ROLE_KEYS = Object.keys(PARTICIPANT_ROLES) as RoleKey[];

function norm(s: string): string {
  return s.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The stored role for what was typed or picked: a known role's label (either language) → its Indonesian name. */
export function storedRole(typed: string, label: (k: RoleKey) => string): string {
  const n = norm(typed);
  for (const k of ROLE_KEYS) {
    if (n === norm(label(k)) || n === norm(PARTICIPANT_ROLES[k])) return PARTICIPANT_ROLES[k];
  }
  return typed.trim().replace(/\s+/g, ' ');
}

/** The role as shown: a known one in the interface's language, else as stored. */
export function shownRole(stored: string, label: (k: RoleKey) => string): string {
  const k = ROLE_KEYS.find((key) => norm(PARTICIPANT_ROLES[key]) === norm(stored));
  return k ? label(k) : stored;
}

export interface ParticipantRow {
  name: string;
  role: string;
}

/**
 * The participants to send: rows with a name; a name that is exactly one listed user's name
 * is linked to that user, any other stays a free name.
 */
export function participantsToSend(
  rows: readonly ParticipantRow[],
  users: readonly { id: number; name: string }[],
  label: (k: RoleKey) => string,
): HandlingParticipant[] {
  return rows
    .filter((r) => r.name.trim() !== '')
    .map((r) => {
      const name = r.name.trim().replace(/\s+/g, ' ');
      const same = users.filter((u) => norm(u.name) === norm(name));
      return { user_id: same.length === 1 ? same[0]!.id : null, name, role: storedRole(r.role, label) };
    });
}
