import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/api/client';
import type { Page } from '@/api/types';
import type { Source } from '@/features/violation-source/source';
import type { Violation } from '@/features/violations/types';
import type { ViolationCalendar } from './types';

/** How many of a day's violations the calendar's panel lists (the rest: through its link). */
export const DAY_LIST_SIZE = 20;

export const calendarKeys = {
  /** One key per month: moving the calendar fetches only that month. */
  month: (month: string, source: Source) => ['dashboard', 'violation-calendar', month, source] as const,
  day: (date: string, source: Source) => ['dashboard', 'violation-day', date, source] as const,
};

export function useViolationCalendar(month: string, source: Source) {
  return useQuery({
    queryKey: calendarKeys.month(month, source),
    queryFn: ({ signal }) => api.get<ViolationCalendar>('/dashboard/violation-calendar', { month, source }, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** One day's violations of the source from the list API (from = to = day), newest first. */
export function useDayViolations(date: string | null, source: Source) {
  return useQuery({
    queryKey: calendarKeys.day(date ?? '', source),
    queryFn: ({ signal }) =>
      api.get<Page<Violation>>('/violations', { from: date, to: date, per_page: DAY_LIST_SIZE, sort: '-occurred_at', source }, signal),
    enabled: !!date,
  });
}
