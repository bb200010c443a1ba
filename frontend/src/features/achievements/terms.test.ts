import { describe, expect, it } from 'vitest';
import { parseTerm, recentTerms, termValue } from './terms';

describe('recentTerms', () => {
  it('starts at the semester holding today and goes back across years', () => {
    expect(recentTerms('2026-07-01', '2026-11-28', 3).map(termValue)).toEqual(['2026-1', '2025-2', '2025-1']);
    expect(recentTerms('2026-07-01', '2027-01-01', 2).map(termValue)).toEqual(['2026-2', '2026-1']);
    // A year starting on 31 August: semester 2 starts on the last day of February.
    expect(recentTerms('2027-08-31', '2028-02-28', 1).map(termValue)).toEqual(['2027-1']);
    expect(recentTerms('2027-08-31', '2028-02-29', 1).map(termValue)).toEqual(['2027-2']);
  });
  it('reads back a value', () => {
    expect(parseTerm('2025-2')).toEqual({ year: 2025, semester: 2 });
    expect(parseTerm('2025-3')).toBeNull();
  });
});
