import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { faceScansApi, faceSettingsApi, scanQuery, type FaceScanResolution, type FaceSettings, type KioskCreated, type ReviewFilters } from './api';

/** The queue fills while students arrive: look again this often while it is open. */
const QUEUE_REFRESH_MS = 15_000;

export const faceKeys = {
  all: ['face'] as const,
  scans: (f: ReviewFilters, perPage: number) => ['face', 'scans', f.outcome, f.period.from, f.period.to, f.page, perPage] as const,
  confirmations: ['face', 'confirmations'] as const,
  settings: ['face', 'settings'] as const,
  kiosks: ['face', 'kiosks'] as const,
};

export function useFaceScans(f: ReviewFilters, perPage: number, enabled = true) {
  return useQuery({
    queryKey: faceKeys.scans(f, perPage),
    queryFn: ({ signal }) => faceScansApi.scans(scanQuery(f, perPage), signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    enabled,
  });
}

export function useFaceConfirmations(enabled = true) {
  return useQuery({
    queryKey: faceKeys.confirmations,
    queryFn: ({ signal }) => faceScansApi.confirmations(signal),
    staleTime: 0,
    enabled,
    refetchInterval: QUEUE_REFRESH_MS,
  });
}

/** Confirms or rejects an uncertain scan; the queue and the log are fetched again either way. */
export function useResolveScan() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, r }: { id: number; r: FaceScanResolution }) => faceScansApi.resolve(id, r),
    onSettled: () => qc.invalidateQueries({ queryKey: ['face'] }),
  });
}

export function useFaceSettings() {
  return useQuery({ queryKey: faceKeys.settings, queryFn: ({ signal }) => faceSettingsApi.settings(signal), staleTime: 0 });
}

export function useSaveFaceSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: FaceSettings) => faceSettingsApi.save(s),
    onSuccess: (saved) => qc.setQueryData(faceKeys.settings, saved),
  });
}

export function useKiosks() {
  return useQuery({ queryKey: faceKeys.kiosks, queryFn: ({ signal }) => faceSettingsApi.kiosks(signal), staleTime: 0 });
}

export function useCreateKiosk() {
  const qc = useQueryClient();
  return useMutation<KioskCreated, Error, string>({
    mutationFn: (name: string) => faceSettingsApi.createKiosk(name),
    onSettled: () => qc.invalidateQueries({ queryKey: faceKeys.kiosks }),
  });
}

export function useRevokeKiosk() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => faceSettingsApi.revokeKiosk(id),
    onSettled: () => qc.invalidateQueries({ queryKey: faceKeys.kiosks }),
  });
}
