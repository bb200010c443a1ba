import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api/client';
import type { Schema } from '@/api';

/** Who follows up the automatic alpha/late violations. */
export type FollowUpOwner = 'homeroom_teacher' | 'counselor';
export const FOLLOW_UP_OWNERS: FollowUpOwner[] = ['homeroom_teacher', 'counselor'];

/** GET/PUT /settings/attendance-follow-up (shared/api/followup.go). */
export type AttendanceFollowUp = Schema<'AttendanceFollowUp'>;

/** The server's bounds (followup.Validate). */
export const FOLLOW_UP_LIMITS = { streakMin: 2, streakMax: 20, lateMin: 2, daysMax: 30 } as const;

export type FollowUpProblem = 'range' | 'windowShort';

const whole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** What is wrong with each field (the server checks the same and answers 422 field by field). */
export function validateFollowUp(v: AttendanceFollowUp): Partial<Record<keyof AttendanceFollowUp, FollowUpProblem>> {
  const out: Partial<Record<keyof AttendanceFollowUp, FollowUpProblem>> = {};
  const { streakMin, streakMax, lateMin, daysMax } = FOLLOW_UP_LIMITS;
  if (!whole(v.absent_streak_days) || v.absent_streak_days < streakMin || v.absent_streak_days > streakMax) out.absent_streak_days = 'range';
  const lateOk = whole(v.late_times) && v.late_times >= lateMin && v.late_times <= daysMax;
  if (!lateOk) out.late_times = 'range';
  if (!whole(v.late_school_days) || v.late_school_days < lateMin || v.late_school_days > daysMax) out.late_school_days = 'range';
  else if (lateOk && v.late_school_days < v.late_times) out.late_school_days = 'windowShort';
  return out;
}

const key = ['settings', 'attendance-follow-up'] as const;

export function useAttendanceFollowUp() {
  return useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<AttendanceFollowUp>('/settings/attendance-follow-up', undefined, signal) });
}

export function useSaveAttendanceFollowUp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: AttendanceFollowUp) => api.put<AttendanceFollowUp>('/settings/attendance-follow-up', v),
    onSuccess: (saved) => {
      qc.setQueryData(key, saved);
      // The dashboards and everyone's default source follow the owner.
      void qc.invalidateQueries({ queryKey: ['dashboard'] });
      void qc.invalidateQueries({ queryKey: ['violation-source'] });
      void qc.invalidateQueries({ queryKey: ['early-warnings'] });
    },
  });
}
