import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { listQuery, messagingApi, parentMessagesApi, type LogFilters, type MessagingPreviewRequest, type MessagingSettings, type MessagingTestRequest } from './api';
import { hasQueued } from './display';

/** Refresh while something waits to go out: the worker sends on its own. */
const QUEUED_REFRESH_MS = 10_000;

export const parentMessageKeys = {
  all: ['parent-messages'] as const,
  list: (f: LogFilters, perPage: number) => ['parent-messages', 'list', f, perPage] as const,
  detail: (id: number) => ['parent-messages', 'detail', id] as const,
  settings: ['parent-messages', 'settings'] as const,
  preview: (r: MessagingPreviewRequest) => ['parent-messages', 'preview', r] as const,
};

export function useParentMessages(f: LogFilters, perPage: number) {
  return useQuery({
    queryKey: parentMessageKeys.list(f, perPage),
    queryFn: ({ signal }) => parentMessagesApi.list(listQuery(f, perPage), signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (q) => (hasQueued(q.state.data) ? QUEUED_REFRESH_MS : false),
  });
}

export function useParentMessage(id: number | null) {
  return useQuery({
    queryKey: parentMessageKeys.detail(id ?? 0),
    queryFn: ({ signal }) => parentMessagesApi.detail(id!, signal),
    enabled: id !== null,
    staleTime: 0,
    throwOnError: false,
    refetchInterval: (q) => (q.state.data?.status === 'queued' ? QUEUED_REFRESH_MS : false),
  });
}

function useLogMutation<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: parentMessageKeys.all }) });
}

export const useRetryMessage = () => useLogMutation((id: number) => parentMessagesApi.retry(id));
export const useCancelMessage = () => useLogMutation((id: number) => parentMessagesApi.cancel(id));
export const useRetryFailed = () => useLogMutation(() => parentMessagesApi.retryFailed());

export function useMessagingSettings() {
  return useQuery({ queryKey: parentMessageKeys.settings, queryFn: ({ signal }) => messagingApi.settings(signal), staleTime: 0 });
}

export function useSaveMessagingSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (s: MessagingSettings) => messagingApi.save(s),
    onSuccess: (saved) => qc.setQueryData(parentMessageKeys.settings, saved),
  });
}

export function useTestMessaging() {
  return useMutation({ mutationFn: (r: MessagingTestRequest) => messagingApi.test(r) });
}

/** The template rendered with a real student's data; runs when a student is chosen. */
export function useMessagingPreview(r: MessagingPreviewRequest | null) {
  return useQuery({
    queryKey: parentMessageKeys.preview(r ?? { event: 'violation', template: '', student_id: 0 }),
    queryFn: ({ signal }) => messagingApi.preview(r!, signal),
    enabled: r !== null && r.student_id > 0 && r.template.trim() !== '',
    placeholderData: keepPreviousData,
    throwOnError: false,
    retry: false,
  });
}
