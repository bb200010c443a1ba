import { apiDownload, API_BASE } from '@/api/client';
import type { Platform } from './types';

async function toBlob(source: Blob | string): Promise<{ blob: Blob; serverName?: string }> {
  if (typeof source !== 'string') return { blob: source };
  if (!source.startsWith(`${API_BASE}/`)) {
    throw new Error(`saveFile: only relative API URLs (${API_BASE}/…) can be downloaded, got ${source}`);
  }
  const url = new URL(source, 'http://relative.invalid');
  const query = Object.fromEntries(url.searchParams.entries());
  const file = await apiDownload(url.pathname.slice(API_BASE.length), query);
  return { blob: file.blob, serverName: file.fileName };
}

export const browserPlatform: Platform = {
  kind: 'browser',

  async saveFile(source, suggestedName) {
    const { blob } = await toBlob(source);
    const href = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = href;
    a.download = suggestedName;
    a.rel = 'noopener';
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
    // Give the browser time to start the download before the URL goes away.
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
  },

  pickFile(accept) {
    return new Promise<File | null>((resolve) => {
      const input = document.createElement('input');
      input.type = 'file';
      if (accept) input.accept = accept;
      input.style.display = 'none';
      const done = (file: File | null) => {
        input.remove();
        resolve(file);
      };
      input.addEventListener('change', () => done(input.files?.[0] ?? null), { once: true });
      input.addEventListener('cancel', () => done(null), { once: true });
      document.body.appendChild(input);
      input.click();
    });
  },

  async notify(title, body, onClick, tag) {
    // Only when already allowed: asking without a click is ignored or held against the site.
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    const n = new Notification(title, { body, tag });
    n.onclick = () => {
      window.focus();
      onClick?.();
      n.close();
    };
  },

  notifyPermission() {
    return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
  },

  async requestNotifyPermission() {
    if (typeof Notification === 'undefined') return 'unsupported';
    try {
      return await Notification.requestPermission();
    } catch {
      return Notification.permission;
    }
  },
};
