import { describe, expect, it } from 'vitest';
import { apiUrl } from '@/api/client';
import { changeFilters, readFilters, writeFilters } from '@/lib/urlFilters';
import { DEFAULT_FILTERS, studentFilters, studentsQuery, type StudentFilters } from './api';

const filtersFromSearch = (sp: URLSearchParams) => readFilters(studentFilters, sp);
const filtersToSearch = (f: StudentFilters) => writeFilters(studentFilters, f);
import { gradeLabel, gradesOf } from './types';
import { initials } from '@/lib/names';

describe('student filters', () => {
  it('reads the URL, falling back to defaults for anything unreadable', () => {
    expect(filtersFromSearch(new URLSearchParams(''))).toEqual(DEFAULT_FILTERS);
    expect(filtersFromSearch(new URLSearchParams('q=budi&department_id=2&grade=XI&class_id=7&active=all&page=3'))).toEqual({
      q: 'budi',
      departmentId: 2,
      grade: 11,
      classId: 7,
      active: '',
      page: 3,
    });
    expect(filtersFromSearch(new URLSearchParams('grade=12&active=false'))).toMatchObject({ grade: 12, active: 'false' });
    expect(filtersFromSearch(new URLSearchParams('department_id=-1&grade=13&class_id=abc&page=0&active=maybe'))).toEqual(DEFAULT_FILTERS);
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(filtersToSearch(DEFAULT_FILTERS).toString()).toBe('');
    const f = { q: ' 0012 ', departmentId: 1, grade: 10 as const, classId: 4, active: '' as const, page: 2 };
    const sp = filtersToSearch(f);
    expect(sp.toString()).toBe('q=0012&department_id=1&grade=10&class_id=4&active=all&page=2');
    expect(filtersFromSearch(sp)).toEqual({ ...f, q: '0012' });
  });

  it('builds the GET /students query, leaving out empty filters', () => {
    expect(apiUrl('/students', studentsQuery(DEFAULT_FILTERS, 25))).toBe('/api/v1/students?active=true&page=1&per_page=25');
    const all = { ...DEFAULT_FILTERS, q: 'siti ', classId: 9, grade: 11 as const, active: '' as const, page: 4 };
    expect(apiUrl('/students', studentsQuery(all, 25))).toBe('/api/v1/students?q=siti&grade=11&class_id=9&page=4&per_page=25');
  });

  it('goes back to page 1 when a filter changes, not when the page does', () => {
    const on3 = { ...DEFAULT_FILTERS, page: 3 };
    expect(changeFilters(on3, { q: 'x' }).page).toBe(1);
    expect(changeFilters(on3, { page: 5 }).page).toBe(5);
  });

  it('makes initials', () => {
    expect(initials('Budi Santoso')).toBe('BS');
    expect(initials('  siti  nur  aisyah ')).toBe('SA');
    expect(initials('Ahmad')).toBe('A');
    expect(initials('')).toBe('?');
  });
});

describe('grades of every school level', () => {
  it('reads junior high and primary grades, as numbers or Roman numerals', () => {
    expect(filtersFromSearch(new URLSearchParams('grade=VII')).grade).toBe(7);
    expect(filtersFromSearch(new URLSearchParams('grade=9')).grade).toBe(9);
    expect(filtersFromSearch(new URLSearchParams('grade=1')).grade).toBe(1);
    expect(gradeLabel(8)).toBe('VIII');
    expect(gradeLabel(12)).toBe('XII');
    expect(gradeLabel(0)).toBe('');
  });
  it('offers only the grades the school has', () => {
    expect(gradesOf([{ grade: 9 }, { grade: 7 }, { grade: 7 }, { grade: 8 }])).toEqual([7, 8, 9]);
  });
});
