import { describe, expect, it } from 'vitest';
import { IconHome } from '@tabler/icons-react';
import type { NavItem } from '@/app/feature';
import { hasFigures, landingPath, needsClasses } from './landing';

const icon = IconHome;
const items: NavItem[] = [
  { labelKey: 'dashboard:nav', icon, path: '/dashboard', permission: 'dashboard.view', order: 10 },
  { labelKey: 'students:nav', icon, path: '/students', permission: 'students.view', order: 20 },
  { labelKey: 'classes:nav', icon, path: '/classes', permission: 'students.view', order: 30 },
  { labelKey: 'users:nav', icon, path: '/users', permission: 'users.view', order: 900 },
];
const base = { userId: 7, items };

describe('landingPath', () => {
  it('sends a homeroom teacher to the students of their class', () => {
    const classes = [
      { id: 3, homeroom_teacher: { id: 9 } },
      { id: 5, homeroom_teacher: { id: 7 } },
    ];
    expect(landingPath({ ...base, role: 'wali_kelas', permissions: ['dashboard.view', 'students.view'], classes })).toBe('/students?class_id=5');
  });

  it('sends a homeroom teacher without a class to the students list', () => {
    expect(landingPath({ ...base, role: 'wali_kelas', permissions: ['students.view'], classes: [] })).toBe('/students');
    expect(landingPath({ ...base, role: 'wali_kelas', permissions: ['students.view'] })).toBe('/students');
  });

  it('sends a counselor to the students list', () => {
    expect(landingPath({ ...base, role: 'bk', permissions: ['dashboard.view', 'users.view', 'students.view'] })).toBe('/students');
  });

  it('sends others to their first page that is not the empty dashboard', () => {
    expect(landingPath({ ...base, role: 'admin', permissions: ['dashboard.view', 'students.view', 'users.view'] })).toBe('/students');
    expect(landingPath({ ...base, role: 'staff', permissions: ['dashboard.view', 'users.view'] })).toBe('/users');
    // A counselor whose role lost students.view still lands somewhere they may go.
    expect(landingPath({ ...base, role: 'bk', permissions: ['users.view'] })).toBe('/users');
  });

  it('has no landing page for someone who may only see the dashboard', () => {
    expect(landingPath({ ...base, role: 'other', permissions: ['dashboard.view'] })).toBeNull();
  });
});

describe('needsClasses', () => {
  it('only for a homeroom teacher who may see students', () => {
    expect(needsClasses('wali_kelas', ['students.view'])).toBe(true);
    expect(needsClasses('wali_kelas', [])).toBe(false);
    expect(needsClasses('bk', ['students.view'])).toBe(false);
  });
});

describe('hasFigures', () => {
  it('shows figures with any summarised list', () => {
    expect(hasFigures(['dashboard.view', 'violations.view'])).toBe(true);
    expect(hasFigures(['dashboard.view', 'attendance.view'])).toBe(true);
    expect(hasFigures(['dashboard.view', 'early_warnings.view'])).toBe(true);
  });
  it('lands elsewhere without one', () => {
    expect(hasFigures(['dashboard.view', 'users.view', 'students.view'])).toBe(false);
  });
});
