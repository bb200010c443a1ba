import { describe, expect, it } from 'vitest';
import { validateFollowUp, type AttendanceFollowUp } from './followUp';

const ok: AttendanceFollowUp = { owner: 'homeroom_teacher', absent_streak_days: 3, late_times: 5, late_school_days: 10 };

describe('attendance follow-up setting', () => {
  it('accepts the defaults and the bounds', () => {
    expect(validateFollowUp(ok)).toEqual({});
    expect(validateFollowUp({ ...ok, absent_streak_days: 20, late_times: 30, late_school_days: 30 })).toEqual({});
    expect(validateFollowUp({ ...ok, absent_streak_days: 2, late_times: 2, late_school_days: 2 })).toEqual({});
  });

  it('names each field out of its range, and a window shorter than its count', () => {
    expect(validateFollowUp({ ...ok, absent_streak_days: 1, late_times: 31, late_school_days: 0 })).toEqual({
      absent_streak_days: 'range',
      late_times: 'range',
      late_school_days: 'range',
    });
    expect(validateFollowUp({ ...ok, late_times: 6, late_school_days: 5 })).toEqual({ late_school_days: 'windowShort' });
    // An empty input is not a number.
    expect(validateFollowUp({ ...ok, absent_streak_days: '' as unknown as number, late_times: 2.5 })).toEqual({ absent_streak_days: 'range', late_times: 'range' });
  });
});
