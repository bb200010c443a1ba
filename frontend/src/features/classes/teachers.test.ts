import { describe, expect, it } from 'vitest';
import type { User } from '@/api/types';
import type { SchoolClass } from '@/features/students/types';
import { teacherOptions } from './teachers';

const user = (id: number, name: string): User => ({
  id, name, username: `u${id}`, role: 'wali_kelas', email: '', phone: '', active: true, last_login_at: null, created_at: '', updated_at: '',
});
const cls = (id: number, name: string, teacher: User | null): SchoolClass => ({
  id, name, grade: 10, grade_label: 'X', level: 'sma', academic_year: '2026/2027', source_id: null, department_id: 1, department_code: 'TKJ',
  department_name: 'Teknik', student_count: 30, homeroom_teacher: teacher && { id: teacher.id, name: teacher.name, username: teacher.username },
});

describe('teacherOptions', () => {
  it('sorts by name and marks teachers who lead another class', () => {
    const a = user(1, 'Sri'), b = user(2, 'Agus'), c = user(3, 'Budi');
    const x1 = cls(10, 'X TKJ 1', a), x2 = cls(11, 'X TKJ 2', c);
    expect(teacherOptions([a, b, c], [x1, x2], x2)).toEqual([
      { value: '2', label: 'Agus (u2)', otherClass: null },
      { value: '3', label: 'Budi (u3)', otherClass: null },
      { value: '1', label: 'Sri (u1)', otherClass: 'X TKJ 1' },
    ]);
  });
});
