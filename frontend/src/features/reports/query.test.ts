import { describe, expect, it } from 'vitest';
import { academicYearOf, apiQuery, formFromParams, formToParams } from './query';

const today = '2026-11-23';

describe('report query', () => {
  it('carries the source in the URL and the API query; none in the URL is the user’s own', () => {
    const f = formFromParams(new URLSearchParams('period=month&month=2026-10&source=attendance'), today);
    expect(f.source).toBe('attendance');
    expect(apiQuery(f, true)).toEqual({ period: 'month', month: '2026-10', source: 'attendance' });
    expect(formToParams(f)).toEqual({ period: 'month', scope: 'school', month: '2026-10', source: 'attendance' });
    expect(formFromParams(new URLSearchParams('source=manual'), today).source).toBe('behaviour');
    expect(formFromParams(new URLSearchParams(), today).source).toBeNull();
  });

  it('defaults to this month of the whole school', () => {
    const f = formFromParams(new URLSearchParams(), today);
    expect(apiQuery(f, false)).toEqual({ period: 'month', month: '2026-11' });
  });

  it('sends only the period’s own parameters and one scope', () => {
    const f = formFromParams(new URLSearchParams('period=semester&academic_year=2025&semester=2&month=2026-01&scope=grade&grade=10&class_id=4'), today);
    expect(apiQuery(f, false)).toEqual({ period: 'semester', academic_year: '2025', semester: '2', grade: '10' });
    expect(formToParams(f)).toEqual({ period: 'semester', scope: 'grade', academic_year: '2025', semester: '2', grade: '10' });
  });

  it('sends no scope for a homeroom teacher, whatever the URL says', () => {
    const f = formFromParams(new URLSearchParams('period=month&month=2026-10&scope=class&class_id=9'), today);
    expect(apiQuery(f, true)).toEqual({ period: 'month', month: '2026-10' });
  });

  it('waits for a class, grade or department to be picked', () => {
    expect(apiQuery(formFromParams(new URLSearchParams('scope=class'), today), false)).toBeNull();
    expect(apiQuery(formFromParams(new URLSearchParams('scope=department'), today), false)).toBeNull();
  });

  it('takes a date range and the academic year of a day', () => {
    const f = formFromParams(new URLSearchParams('period=range&from=2026-08-01&to=2026-09-30'), today);
    expect(apiQuery(f, false)).toEqual({ period: 'range', from: '2026-08-01', to: '2026-09-30' });
    expect(academicYearOf('2026-06-30')).toBe(2025);
    expect(academicYearOf('2026-07-01')).toBe(2026);
  });
});
