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
