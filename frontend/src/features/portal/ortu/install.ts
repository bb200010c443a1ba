/** The data cache the service worker (public/ortu/sw.js) keeps the last portal answers in. */
export const DATA_CACHE = 'tatib-ortu-data';

/**
 * Makes /ortu installable: the manifest link (the staff app has none) and the service worker
 * that keeps the shell and the last data readable offline. Called once by the portal's chunk.
 */
export function installPortal(): void {
  if (typeof document === 'undefined') return;
  if (!document.querySelector('link[rel="manifest"]')) {
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = '/ortu/manifest.json';
    document.head.appendChild(link);
    const theme = document.createElement('meta');
    theme.name = 'theme-color';
    theme.content = '#0c8a7a';
    document.head.appendChild(theme);
  }
  if ('serviceWorker' in navigator && window.isSecureContext) {
    navigator.serviceWorker.register('/ortu/sw.js', { scope: '/ortu/' }).catch(() => {
      /* no offline copy: the portal still works online */
    });
  }
}

/** Forgets the cached portal answers (sign-out, withdrawal): the next person sees nothing. */
export async function forgetPortalData(): Promise<void> {
  if (typeof caches !== 'undefined') await caches.delete(DATA_CACHE).catch(() => false);
}

function keyBytes(b64url: string): Uint8Array<ArrayBuffer> {
  const b64 = b64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64url.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** Whether this browser can take Web Push for the portal. */
export function pushSupported(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window;
}

/**
 * Asks the browser for permission, subscribes with the server's VAPID key and hands the
 * subscription to `save`. Resolves false when the guardian said no.
 */
export async function enablePush(publicKey: string, save: (s: PushSubscriptionJSON) => Promise<void>): Promise<boolean> {
  if ((await Notification.requestPermission()) !== 'granted') return false;
  const reg = await navigator.serviceWorker.ready;
  const sub =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  await save(sub.toJSON());
  return true;
}
