import { describe, expect, it } from 'vitest';
import type { NavItem } from './feature';
import { AUTHENTICATED } from './feature';
import { allowed, homePath, visibleNav } from './nav';

const icon = (() => null) as unknown as NavItem['icon'];
const items: NavItem[] = [
  { labelKey: 'roles:nav', icon, path: '/roles', permission: 'roles.manage', order: 910 },
  { labelKey: 'users:nav', icon, path: '/users', permission: 'users.view', order: 900 },
  { labelKey: 'dashboard:nav', icon, path: '/dashboard', permission: 'dashboard.view', order: 10 },
  { labelKey: 'help:nav', icon, path: '/help', permission: AUTHENTICATED, order: 1000 },
];

describe('visibleNav', () => {
  it('shows only what the permissions allow, in order', () => {
    expect(visibleNav(items, ['dashboard.view']).map((i) => i.path)).toEqual(['/dashboard', '/help']);
    expect(visibleNav(items, ['users.view', 'roles.manage', 'dashboard.view']).map((i) => i.path)).toEqual([
      '/dashboard',
      '/users',
      '/roles',
      '/help',
    ]);
  });

  it('shows items open to everyone signed in even with no permissions', () => {
    expect(visibleNav(items, []).map((i) => i.path)).toEqual(['/help']);
  });

  it('does not confuse similar names', () => {
    expect(visibleNav(items, ['users.view_all', 'roles']).map((i) => i.path)).toEqual(['/help']);
  });

  it('does not reorder its input', () => {
    const copy = [...items];
    visibleNav(items, ['users.view']);
    expect(items).toEqual(copy);
  });

  it('breaks order ties by path', () => {
    const tie: NavItem[] = [
      { labelKey: 'b', icon, path: '/b', permission: AUTHENTICATED, order: 5 },
      { labelKey: 'a', icon, path: '/a', permission: AUTHENTICATED, order: 5 },
    ];
    expect(visibleNav(tie, []).map((i) => i.path)).toEqual(['/a', '/b']);
  });
});

describe('allowed / homePath', () => {
  it('checks one permission', () => {
    expect(allowed('users.view', ['users.view'])).toBe(true);
    expect(allowed('users.manage', ['users.view'])).toBe(false);
    expect(allowed(AUTHENTICATED, [])).toBe(true);
  });

  it('sends a user to their first page, else to the profile', () => {
    expect(homePath(items.filter((i) => i.permission !== AUTHENTICATED), ['users.view'])).toBe('/users');
    expect(homePath(items, ['dashboard.view'])).toBe('/dashboard');
    expect(homePath([], [])).toBe('/profile');
  });
});
