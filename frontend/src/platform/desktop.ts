import { apiDownload, API_BASE } from '@/api/client';
import type { Platform } from './types';

/**
 * The desktop (Wails) platform: native save/open dialogs and OS notifications through the
 * Go services bound in desktop/ (window.go.main.Files, window.go.main.App). The wrappers are
 * written by hand so the build does not depend on the generated (git-ignored) wailsjs folder.
 */

/** A file dialog filter, as desktop/services.go's FileFilter. */
interface FileFilter {
  displayName: string;
  pattern: string;
}

/** A file picked in the native dialog, as desktop/files.go's PickedFile. */
interface PickedFile {
  name: string;
  size: number;
  data: string; // base64
}

/** What the desktop app says about itself, as desktop/app.go's Info. */
export interface DesktopInfo {
  version: string;
  serverUrl: string;
  signedIn: boolean;
  realtime: { state: string; detail?: string; attempts: number };
  /** The app's own page for changing the server address. */
  setupPath: string;
}

interface DesktopBindings {
  main: {
    Files: {
      SaveFile(suggestedName: string, dataBase64: string): Promise<string>;
      OpenFile(filters: FileFilter[]): Promise<PickedFile | null>;
    };
    App: {
      Info(): Promise<DesktopInfo>;
      Notify(n: { id: string; title: string; body: string; url?: string }): Promise<void>;
      SignOut(): Promise<void>;
    };
  };
}

interface WailsRuntime {
  EventsOn(name: string, callback: (...data: unknown[]) => void): () => void;
}

function bindings(): DesktopBindings {
  const go = (window as unknown as { go?: DesktopBindings }).go;
  if (!go?.main) throw new Error('Tatib desktop: the Wails bindings are missing');
  return go;
}

function wailsRuntime(): WailsRuntime | undefined {
  return (window as unknown as { runtime?: WailsRuntime }).runtime;
}

/** Events the Go side sends (desktop/services.go). */
export const DesktopEvents = {
  /** A real-time message from the server: { id, title, body, url }. */
  notification: 'tatib:notification',
  /** Several at once (a catch-up, a journal push): { count, title, body, url, last_id }. */
  summary: 'tatib:summary',
  /** The unread count changed: { count }. */
  unread: 'tatib:unread',
  /** Open a page of the app (a popup was clicked): the path. */
  navigate: 'tatib:navigate',
  /** A popup was clicked: its id. */
  notificationClick: 'tatib:notification-click',
  /** The session ended (401 or sign out). */
  signedOut: 'tatib:signed-out',
  /** The real-time channel's state. */
  realtime: 'tatib:realtime',
} as const;

/** Subscribes to a desktop event; returns the unsubscribe function (a no-op outside Wails). */
export function onDesktopEvent(name: string, callback: (...data: unknown[]) => void): () => void {
  return wailsRuntime()?.EventsOn(name, callback) ?? (() => {});
}

/** The desktop app's version, server and connection state. */
export function desktopInfo(): Promise<DesktopInfo> {
  return bindings().main.App.Info();
}

async function toBlob(source: Blob | string): Promise<Blob> {
  if (typeof source !== 'string') return source;
  if (!source.startsWith(`${API_BASE}/`)) {
    throw new Error(`saveFile: only relative API URLs (${API_BASE}/…) can be downloaded, got ${source}`);
  }
  const url = new URL(source, 'http://relative.invalid');
  const file = await apiDownload(url.pathname.slice(API_BASE.length), Object.fromEntries(url.searchParams.entries()));
  return file.blob;
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  const chunk = 0x8000; // String.fromCharCode takes a bounded number of arguments
  for (let i = 0; i < bytes.length; i += chunk) {
    bin += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(bin);
}

function fromBase64(data: string): Uint8Array<ArrayBuffer> {
  const bin = atob(data);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const MIME_PATTERNS: Record<string, string[]> = {
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['*.xlsx'],
  'application/pdf': ['*.pdf'],
  'text/csv': ['*.csv'],
  'image/*': ['*.png', '*.jpg', '*.jpeg', '*.gif', '*.webp'],
  'image/png': ['*.png'],
  'image/jpeg': ['*.jpg', '*.jpeg'],
};

const EXT_TYPES: Record<string, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  csv: 'text/csv',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Turns an <input accept> string (".xlsx,image/*") into one native dialog filter. */
export function filtersFromAccept(accept?: string): FileFilter[] {
  const patterns = (accept ?? '')
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean)
    .flatMap((a) => (a.startsWith('.') ? [`*${a}`] : (MIME_PATTERNS[a] ?? [])));
  const unique = [...new Set(patterns)];
  if (unique.length === 0) return [{ displayName: 'Semua berkas', pattern: '*' }];
  return [{ displayName: `Berkas (${unique.join(', ')})`, pattern: unique.join(';') }];
}

let notificationSeq = 0;
const clickHandlers = new Map<string, () => void>();
let listening = false;

function listen(): void {
  if (listening || !wailsRuntime()) return;
  listening = true;
  onDesktopEvent(DesktopEvents.notificationClick, (id) => {
    const handler = clickHandlers.get(String(id));
    clickHandlers.delete(String(id));
    handler?.();
  });
  // A clicked server notification opens its page: react-router follows popstate.
  onDesktopEvent(DesktopEvents.navigate, (path) => {
    if (typeof path !== 'string' || !path.startsWith('/') || path === window.location.pathname) return;
    window.history.pushState(null, '', path);
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
}

export const desktopPlatform: Platform = {
  kind: 'desktop',

  async saveFile(source, suggestedName) {
    const blob = await toBlob(source);
    const data = toBase64(new Uint8Array(await blob.arrayBuffer()));
    // Resolves with the path written, or "" when the user cancelled: both are fine here.
    await bindings().main.Files.SaveFile(suggestedName, data);
  },

  async pickFile(accept) {
    const picked = await bindings().main.Files.OpenFile(filtersFromAccept(accept));
    if (!picked) return null;
    const ext = picked.name.split('.').pop()?.toLowerCase() ?? '';
    return new File([fromBase64(picked.data)], picked.name, { type: EXT_TYPES[ext] ?? 'application/octet-stream' });
  },

  async notify(title, body, onClick) {
    listen();
    const id = `page-${Date.now()}-${++notificationSeq}`;
    if (onClick) clickHandlers.set(id, onClick);
    try {
      await bindings().main.App.Notify({ id, title, body });
    } catch {
      clickHandlers.delete(id); // no notification service: nothing to show, as in the browser
    }
  },

  // The app raises OS popups itself (desktop/realtime.go); nothing to ask.
  notifyPermission: () => 'granted',
  requestNotifyPermission: () => Promise.resolve('granted'),
};

if (typeof window !== 'undefined') listen();
