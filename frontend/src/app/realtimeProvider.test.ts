import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';

const notify = vi.fn(() => Promise.resolve());
vi.mock('@/platform', () => ({ isDesktop: () => false, notify: (...a: unknown[]) => notify(...(a as [])) }));

const { handleRealtimeMessage } = await import('./realtimeProvider');
const { UNREAD_COUNT_KEY } = await import('./unread');

function hidden(v: boolean) {
  vi.stubGlobal('document', { visibilityState: v ? 'hidden' : 'visible' });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  notify.mockClear();
});

describe('handleRealtimeMessage', () => {
  it('sets the badge from an unread message, nothing else', () => {
    const qc = new QueryClient();
    const show = vi.spyOn(notifications, 'show');
    handleRealtimeMessage({ type: 'unread', count: 4 }, qc, () => {}, true);
    expect(qc.getQueryData(UNREAD_COUNT_KEY)).toEqual({ count: 4 });
    expect(show).not.toHaveBeenCalled();
  });

  it('shows a toast for a notification, refetches the lists, and a click opens its page', () => {
    hidden(false);
    const qc = new QueryClient();
    const invalidate = vi.spyOn(qc, 'invalidateQueries');
    const show = vi.spyOn(notifications, 'show').mockReturnValue('x');
    vi.spyOn(notifications, 'hide').mockReturnValue('x');
    const open = vi.fn();
    handleRealtimeMessage({ type: 'notification', id: '9', title: 'Pelanggaran baru', body: 'Budi', url: '/violations/9' }, qc, open, true);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['notifications'] });
    const toast = show.mock.calls[0]![0] as unknown as { title: string; onClick: (e: { target: unknown }) => void };
    expect(toast.title).toBe('Pelanggaran baru');
    toast.onClick({ target: { closest: (sel: string) => (sel === 'button' ? {} : null) } }); // the close button
    expect(open).not.toHaveBeenCalled();
    toast.onClick({ target: { closest: () => null } });
    expect(open).toHaveBeenCalledWith('/violations/9');
    expect(notify).not.toHaveBeenCalled(); // the tab is visible: the toast is enough
  });

  it('raises one OS popup while the tab is hidden, never for another site', () => {
    hidden(true);
    vi.spyOn(notifications, 'show').mockReturnValue('x');
    const open = vi.fn();
    handleRealtimeMessage({ type: 'summary', count: 48, title: 'Jurnal', body: '48 alpha', url: 'https://evil.example/', last_id: '70' }, new QueryClient(), open, true);
    expect(notify).toHaveBeenCalledTimes(1);
    const onClick = (notify.mock.calls[0] as unknown[])[2] as () => void;
    onClick();
    expect(open).toHaveBeenCalledWith('/notifications');
  });

  it('leaves OS popups to the desktop app', () => {
    hidden(true);
    vi.spyOn(notifications, 'show').mockReturnValue('x');
    handleRealtimeMessage({ type: 'notification', id: '1', title: 't', body: 'b', url: '/violations/1' }, new QueryClient(), () => {}, false);
    expect(notify).not.toHaveBeenCalled();
  });
});
