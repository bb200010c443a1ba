import { api } from '@/api/client';
import type { Page, User } from '@/api/types';
import type { SchoolClass } from '@/features/students/types';

export const classesApi = {
  /** Active homeroom-teacher users, for the assign control (needs users.view). */
  homeroomTeachers: (signal?: AbortSignal) =>
    api.get<Page<User>>('/users', { role: 'wali_kelas', active: true, per_page: 100 }, signal),
  /** null releases the class's homeroom teacher. */
  setHomeroomTeacher: (id: number, teacherId: number | null) => api.patch<SchoolClass>(`/classes/${id}`, { homeroom_teacher_id: teacherId }),
};
