import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { faceApi, type FaceConsentInput, type FaceEnrolmentInput, type FaceStatus } from './api';

export const faceKeys = {
  all: ['face'] as const,
  status: (studentId: number) => ['face', 'status', studentId] as const,
};

/** A student's consent, its history and what is enrolled. */
export function useFaceStatus(studentId: number, enabled = true) {
  return useQuery({
    queryKey: faceKeys.status(studentId),
    queryFn: ({ signal }) => faceApi.status(studentId, signal),
    enabled: enabled && studentId > 0,
  });
}

/** Every change answers with the new status: put it in the cache, and refetch to be sure. */
function useStatusMutation<I>(studentId: number, fn: (input: I) => Promise<FaceStatus>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (st) => {
      qc.setQueryData(faceKeys.status(studentId), st);
      void qc.invalidateQueries({ queryKey: faceKeys.status(studentId) });
    },
  });
}

export function useRecordConsent(studentId: number) {
  return useStatusMutation(studentId, (input: FaceConsentInput) => faceApi.recordConsent(studentId, input));
}

export function useWithdrawConsent(studentId: number) {
  return useStatusMutation(studentId, (reason: string) => faceApi.withdrawConsent(studentId, reason));
}

export function useEnrol(studentId: number) {
  return useStatusMutation(studentId, (input: FaceEnrolmentInput) => faceApi.enrol(studentId, input));
}

export function useDeleteSamples(studentId: number) {
  return useStatusMutation(studentId, () => faceApi.deleteSamples(studentId));
}
