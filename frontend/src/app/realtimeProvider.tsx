import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { refreshMe, useSession } from '@/auth/session';
import { isDesktop, notify } from '@/platform';
import { DesktopEvents, onDesktopEvent } from '@/platform/desktop';
import { RealtimeClient, browserSocketURL, localLastSeen, type RealtimeMessage, type SocketLike } from './realtime';
import { NOTIFICATIONS_KEY, UNREAD_COUNT_KEY } from './unread';

/** Only app paths are followed ("/violations/7"), never another site. */
function safePath(url: string | undefined): string {
  return url && url.startsWith('/') && !url.startsWith('//') ? url : '/notifications';
}

/**
 * What every message does on screen: the badge, the cached lists, a toast, and an OS popup
 * while the tab is hidden (the desktop app raises its own, so it passes showOS false).
 */
export function handleRealtimeMessage(
  m: RealtimeMessage,
  qc: QueryClient,
  open: (path: string) => void,
  showOS: boolean,
): void {
  if (m.type === 'unread') {
    qc.setQueryData(UNREAD_COUNT_KEY, { count: m.count });
    return;
  }
  // New ones: the list pages and the count (when no "unread" message beats it) are refetched.
  void qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
  const path = safePath(m.url);
  const key = m.type === 'notification' ? `notification-${m.id}` : `summary-${m.last_id ?? Date.now()}`;
  notifications.show({
    id: key,
    title: m.title,
    message: m.body,
    color: m.type === 'summary' ? 'orange' : 'blue',
    autoClose: 8000,
    withBorder: true,
    style: { cursor: 'pointer' },
    onClick: (e: { target: unknown }) => {
      // The close button sits inside the toast: closing is not opening.
      if ((e.target as Element | null)?.closest?.('button')) return;
      notifications.hide(key);
      open(path);
    },
    'data-testid': 'notification-toast',
  } as Parameters<typeof notifications.show>[0]);
  if (showOS && typeof document !== 'undefined' && document.visibilityState === 'hidden') {
    void notify(m.title, m.body, () => open(path), `tatib-${key}`);
  }
}

/**
 * Keeps the real-time channel open while someone is signed in (mounted once, in the shell).
 * In a browser it owns a WebSocket; in the desktop app the Go side owns the socket
 * (desktop/realtime.go, which also raises the OS popups) and hands each message over as a
 * Wails event, so the page opens none of its own.
 */
export function RealtimeProvider() {
  const { me } = useSession();
  const { i18n } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  const userId = me?.user.id;
  const lang = i18n.resolvedLanguage ?? i18n.language ?? 'id';

  useEffect(() => {
    if (userId === undefined) return;
    const open = (path: string) => void navigateRef.current(path);
    if (isDesktop()) {
      const offs = [
        onDesktopEvent(DesktopEvents.notification, (n) => handleRealtimeMessage({ ...(n as object), type: 'notification' } as RealtimeMessage, qc, open, false)),
        onDesktopEvent(DesktopEvents.summary, (n) => handleRealtimeMessage({ ...(n as object), type: 'summary' } as RealtimeMessage, qc, open, false)),
        onDesktopEvent(DesktopEvents.unread, (n) => handleRealtimeMessage({ ...(n as object), type: 'unread' } as RealtimeMessage, qc, open, false)),
        onDesktopEvent(DesktopEvents.realtime, (s) => {
          if ((s as { state?: string } | undefined)?.state === 'connected') void qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
        }),
      ];
      return () => offs.forEach((off) => off());
    }
    if (typeof WebSocket === 'undefined') return;
    let opened = false;
    const client = new RealtimeClient({
      url: (after) => browserSocketURL(window.location, after, lang),
      // The client uses only the handlers and close() of a WebSocket (SocketLike).
      open: (url) => new WebSocket(url) as unknown as SocketLike,
      lastSeen: localLastSeen(userId),
      onMessage: (m) => handleRealtimeMessage(m, qc, open, true),
      onState: (s) => {
        if (s === 'connecting') opened = false;
        // Whatever happened while disconnected: the badge and the lists are read again.
        if (s === 'open') {
          opened = true;
          void qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
        }
        // A browser hides why an upgrade failed; a signed-out or deactivated user's session is
        // gone, and /auth/me answering 401 sends the app to sign-in (or shows "unreachable").
        if (s === 'waiting' && !opened) void refreshMe(qc).catch(() => {});
      },
    });
    client.start();
    const again = () => {
      if (document.visibilityState === 'visible') client.reconnectNow();
    };
    window.addEventListener('online', again);
    document.addEventListener('visibilitychange', again);
    return () => {
      window.removeEventListener('online', again);
      document.removeEventListener('visibilitychange', again);
      client.stop();
    };
  }, [userId, lang, qc]);

  return null;
}
