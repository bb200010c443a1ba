import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api/client';
import type { Page } from '@/api/types';
import type { Schema } from '@/api';

/** GET/POST /settings/journal-token: token is "" (created_at null) until one is generated. */
export type JournalToken = Schema<'JournalToken'>;

/** The counts a push (or a form save) answered. */
export type AttendanceResult = Schema<'AttendanceResult'>;

/** An entry of a push kept out because a person had set the cell ("kept: set by … at …"). */
export type JournalKept = Schema<'JournalKept'>;

export type JournalOutcome = 'applied' | 'rejected' | 'unauthorized' | 'too_large' | 'failed';

/** One push of the journal, as the push log keeps it. */
export type JournalPush = Schema<'JournalPushLog'>;

/** An entry waiting for its student (unknown to Tatib when the journal sent it). */
export type ParkedAttendance = Schema<'JournalParked'>;

export const journalApi = {
  token: (signal?: AbortSignal) => api.get<JournalToken>('/settings/journal-token', undefined, signal),
  regenerate: () => api.post<JournalToken>('/settings/journal-token'),
  pushes: (page: number, signal?: AbortSignal) => api.get<Page<JournalPush>>('/settings/journal-pushes', { page, per_page: 10 }, signal),
  parked: (page: number, signal?: AbortSignal) => api.get<Page<ParkedAttendance>>('/settings/journal-parked', { page, per_page: 10 }, signal),
};

export const journalKeys = {
  token: ['settings', 'journal-token'] as const,
  pushes: (page: number) => ['settings', 'journal-pushes', page] as const,
  parked: (page: number) => ['settings', 'journal-parked', page] as const,
};

export function useJournalToken() {
  return useQuery({ queryKey: journalKeys.token, queryFn: ({ signal }) => journalApi.token(signal), staleTime: 0 });
}

export function useRegenerateJournalToken() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: journalApi.regenerate, onSuccess: (tok) => qc.setQueryData(journalKeys.token, tok) });
}

/** The push log; refreshed while open, since the journal pushes on its own. */
export function useJournalPushes(page: number) {
  return useQuery({
    queryKey: journalKeys.pushes(page),
    queryFn: ({ signal }) => journalApi.pushes(page, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
}

export function useJournalParked(page: number) {
  return useQuery({
    queryKey: journalKeys.parked(page),
    queryFn: ({ signal }) => journalApi.parked(page, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

/** The sync and ping addresses the journal's operator enters, on this server's own origin. */
export function journalUrls(origin: string) {
  return { sync: `${origin}/api/v1/attendance/sync`, ping: `${origin}/api/v1/attendance/ping` };
}

/** The curl call the docs show, with the token (or a placeholder while it is hidden). */
export function curlExample(syncUrl: string, token: string): string {
  const body = `{"token":"${token}","attendances":[{"source_student_id":1234,"date":"2026-11-02","lesson_hour":1,"status":"hadir","notes":null}]}`;
  return `curl -X POST '${syncUrl}' \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'`;
}
