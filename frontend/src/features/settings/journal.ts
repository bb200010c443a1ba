import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api/client';
import type { Page } from '@/api/types';

/** GET/POST /settings/journal-token: token is "" (created_at null) until one is generated. */
export interface JournalToken {
  token: string;
  created_at: string | null;
  created_by: string;
}

/** The counts a push (or a form save) answered. */
export interface AttendanceResult {
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  unmatched: number;
  violations_created: number;
  violations_updated: number;
  violations_removed: number;
  violations_kept: number;
  letters_issued: number;
  letters_withdrawn: number;
  /** Entries not stored because a person had set the cell with another status. */
  kept_by_person: number;
}

/** An entry of a push kept out because a person had set the cell ("kept: set by … at …"). */
export interface JournalKept {
  student_id: number;
  student_name: string;
  date: string;
  lesson_hour: number;
  journal_status: string;
  /** The person's, stored. */
  status: string;
  set_by_name: string;
  set_at: string;
  /** "kept: set by <name> at <time> — <student>, <date> hour <n>: …", in the reader's language: shown as it is. */
  text: string;
}

export type JournalOutcome = 'applied' | 'rejected' | 'unauthorized' | 'too_large' | 'failed';

/** One push of the journal, as the push log keeps it. */
export interface JournalPush {
  id: number;
  received_at: string;
  address: string;
  outcome: JournalOutcome;
  entries: number;
  results: AttendanceResult;
  /** What went wrong, in the UI language ("" when applied). */
  error: string;
  error_code: string;
  /** The first bad entries: "attendances[3].status: …". */
  errors: string[];
  duration_ms: number;
  /** The first kept entries (results.kept_by_person counts them all). */
  kept: JournalKept[];
}

/** An entry waiting for its student (unknown to Tatib when the journal sent it). */
export interface ParkedAttendance {
  source_student_id: number;
  date: string;
  lesson_hour: number;
  status: string;
  notes: string;
  reason: string;
  reason_text: string;
  received_at: string;
}

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
