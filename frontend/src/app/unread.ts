/**
 * The unread-notification count shown on the bell. The notifications issue replaces this
 * body with a TanStack query (GET the unread count) kept live by the server's push; the
 * bell only needs the number.
 */
export function useUnreadCount(): number {
  return 0;
}

/** Where the bell leads once the notifications feature registers this route. */
export const NOTIFICATIONS_PATH = '/notifications';
