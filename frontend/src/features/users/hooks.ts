import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { usersApi, type ResetPasswordInput, type UserCreateInput, type UserListParams, type UserUpdateInput } from './api';

export const usersKeys = {
  all: ['users'] as const,
  list: (p: UserListParams) => ['users', 'list', p] as const,
};

export function useUsers(params: UserListParams) {
  return useQuery({
    queryKey: usersKeys.list(params),
    queryFn: ({ signal }) => usersApi.list(params, signal),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateUsers() {
  const qc = useQueryClient();
  // A change may release a class's homeroom teacher: the classes screens ('classes' keys) refetch.
  return () => Promise.all([qc.invalidateQueries({ queryKey: usersKeys.all }), qc.invalidateQueries({ queryKey: ['classes'] })]);
}

export function useCreateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({ mutationFn: (input: UserCreateInput) => usersApi.create(input), onSuccess: invalidate });
}

export function useUpdateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: UserUpdateInput }) => usersApi.update(id, input),
    onSuccess: invalidate,
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ id, releaseClass }: { id: number; releaseClass?: boolean }) => usersApi.remove(id, releaseClass),
    onSuccess: invalidate,
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: ResetPasswordInput }) => usersApi.resetPassword(id, input),
  });
}
