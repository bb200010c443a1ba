import type { User } from '@/api/types';
import type { SchoolClass } from '@/features/students/types';

export interface TeacherOption {
  value: string;
  label: string;
  /** The other class this teacher already leads, if any. */
  otherClass: string | null;
}

/**
 * The homeroom-teacher choices for `forClass`: every active wali_kelas user, sorted by name,
 * each marked with the other class they already lead (the server refuses those with a 422
 * naming the class; they stay in the list so the reason is shown at the field).
 */
export function teacherOptions(teachers: readonly User[], classes: readonly SchoolClass[], forClass: SchoolClass): TeacherOption[] {
  const leads = new Map<number, string>();
  for (const c of classes) if (c.homeroom_teacher && c.id !== forClass.id) leads.set(c.homeroom_teacher.id, c.name);
  return [...teachers]
    .sort((a, b) => a.name.localeCompare(b.name, 'id'))
    .map((u) => ({ value: String(u.id), label: `${u.name} (${u.username})`, otherClass: leads.get(u.id) ?? null }));
}
