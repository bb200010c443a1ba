/** Where the portal lives in the app, and its query keys. */
export const PORTAL_BASE = '/ortu';

export const portalKeys = {
  all: ['portal'] as const,
  me: ['portal', 'me'] as const,
  children: ['portal', 'children'] as const,
  child: (id: number) => ['portal', 'child', id] as const,
  attendance: (id: number, month: string) => ['portal', 'attendance', id, month] as const,
  messages: ['portal', 'messages'] as const,
};
