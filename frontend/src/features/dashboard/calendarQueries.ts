import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/api/client';
import type { Page } from '@/api/types';
import type { Violation } from '@/features/violations/types';
import type { ViolationCalendar } from './types';

/** How many of a day's violations the calendar's panel lists (the rest: through its link). */
export const DAY_LIST_SIZE = 20;

export const calendarKeys = {
  /** One key per month: moving the calendar fetches only that month. */
  month: (month: string) => ['dashboard', 'violation-calendar', month] as const,
  day: (date: string) => ['dashboard', 'violation-day', date] as const,
};

export function useViolationCalendar(month: string) {
  return useQuery({
    queryKey: calendarKeys.month(month),
    queryFn: ({ signal }) => api.get<ViolationCalendar>('/dashboard/violation-calendar', { month }, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** One day's violations from the list API (from = to = day), newest first. */
export function useDayViolations(date: string | null) {
  return useQuery({
    queryKey: calendarKeys.day(date ?? ''),
    queryFn: ({ signal }) => api.get<Page<Violation>>('/violations', { from: date, to: date, per_page: DAY_LIST_SIZE, sort: '-occurred_at' }, signal),
    enabled: !!date,
  });
}
