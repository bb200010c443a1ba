import { describe, expect, it } from 'vitest';
import type { Permission, RoleInfo } from './api';
import { groupPermissions, isDirty, permissionLabel, toggle } from './matrix';

const p = (name: string, group: string): Permission => ({ name, group, label: `L ${name}`, label_en: `E ${name}`, default_roles: [] });
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
});
