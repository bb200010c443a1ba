import { describe, expect, it } from 'vitest';
import type { Permission, RoleInfo } from './api';
import { cellLocked, changeCount, dirtyRoles, groupPermissions, isDirty, permissionAllows, permissionLabel, toggle } from './matrix';

const p = (name: string, group: string): Permission => ({ name, group, label: `L ${name}`, label_en: `E ${name}`, default_roles: [], sensitive: false, school_wide: false, admin_only: false });
const staff: RoleInfo = { role: 'staff', label: 'Staf', locked: false, permissions: ['dashboard.view'] };

describe('role matrix', () => {
  it('groups by area in catalogue order', () => {
    const g = groupPermissions([p('users.view', 'users'), p('dashboard.view', 'dashboard'), p('users.manage', 'users')]);
    expect(g.map((x) => [x.group, x.permissions.map((y) => y.name)])).toEqual([
      ['users', ['users.view', 'users.manage']],
      ['dashboard', ['dashboard.view']],
    ]);
  });

  it('tracks changes against the saved set', () => {
    let d = toggle({}, staff, 'users.view', true);
    expect(d.staff?.sort()).toEqual(['dashboard.view', 'users.view']);
    expect(isDirty(staff, d)).toBe(true);
    d = toggle(d, staff, 'users.view', false);
    expect(isDirty(staff, d)).toBe(false);
    expect(isDirty(staff, {})).toBe(false);
  });

  it('labels per language', () => {
    expect(permissionLabel(p('a', 'g'), 'id')).toBe('L a');
    expect(permissionLabel(p('a', 'g'), 'en')).toBe('E a');
  });

  it('counts unsaved cells over every role and lists the roles to save', () => {
    const bk: RoleInfo = { role: 'bk', label: 'BK', locked: false, permissions: ['students.view'] };
    let d = toggle({}, staff, 'users.view', true);
    d = toggle(d, staff, 'dashboard.view', false);
    d = toggle(d, bk, 'students.view', false);
    expect(changeCount([staff, bk], d)).toBe(3);
    expect(dirtyRoles([staff, bk], d).map((r) => r.role)).toEqual(['staff', 'bk']);
    d = toggle(d, bk, 'students.view', true);
    expect(changeCount([staff, bk], d)).toBe(2);
    expect(dirtyRoles([staff, bk], d).map((r) => r.role)).toEqual(['staff']);
    expect(changeCount([staff, bk], {})).toBe(0);
  });

  it('explains sensitive permissions only, per language', () => {
    const s: Permission = { ...p('roles.manage', 'users'), sensitive: true, allows: 'Mengubah', allows_en: 'Change' };
    expect(permissionAllows(s, 'id')).toBe('Mengubah');
    expect(permissionAllows(s, 'en')).toBe('Change');
    expect(permissionAllows({ ...s, sensitive: false }, 'en')).toBe('');
  });
  it('locks the admin column and every admin-only permission', () => {
    const reset = { ...p('data.reset', 'data'), admin_only: true };
    const admin: RoleInfo = { role: 'admin', label: 'Administrator', locked: true, permissions: [] };
    expect(cellLocked(staff, reset)).toBe(true);
    expect(cellLocked(staff, p('audit.view', 'settings'))).toBe(false);
    expect(cellLocked(admin, p('audit.view', 'settings'))).toBe(true);
  });
});
