import { describe, expect, it } from 'vitest';
import { thisWeek } from './bulkResolve';

describe('thisWeek', () => {
  it('runs from Monday to today in Jakarta', () => {
    // Wednesday 5 Nov 2025, 10:00 in Jakarta.
    expect(thisWeek(new Date('2025-11-05T03:00:00Z'))).toEqual({ from: '2025-11-03', to: '2025-11-05' });
    // Sunday evening UTC is already Monday in Jakarta: a new week of one day.
    expect(thisWeek(new Date('2025-11-09T18:30:00Z'))).toEqual({ from: '2025-11-10', to: '2025-11-10' });
    // Sunday in Jakarta belongs to the week that began the Monday before.
    expect(thisWeek(new Date('2025-11-09T03:00:00Z'))).toEqual({ from: '2025-11-03', to: '2025-11-09' });
  });
});
