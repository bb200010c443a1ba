import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { schoolKeys } from '@/features/students/hooks';
import { classesApi } from './api';

export function useHomeroomTeachers(enabled: boolean) {
  return useQuery({
    queryKey: ['users', 'homeroom-teachers'],
    queryFn: ({ signal }) => classesApi.homeroomTeachers(signal),
    enabled,
    staleTime: 30_000,
  });
}

export function useSetHomeroomTeacher() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, teacherId }: { id: number; teacherId: number | null }) => classesApi.setHomeroomTeacher(id, teacherId),
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: schoolKeys.classes }), qc.invalidateQueries({ queryKey: schoolKeys.students })]),
  });
}
