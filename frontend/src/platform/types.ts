/**
 * Everything that touches files or the operating system goes through this interface.
 * The browser implements it with download links, a file input and the Notification API;
 * the desktop app (Wails) with native dialogs and OS notifications.
 */
export interface Platform {
  readonly kind: 'browser' | 'desktop';
  /**
   * Saves a file for the user: a Blob, or a relative API URL ("/api/v1/…") to download
   * with the user's session. Rejects with ApiError when the download fails.
   */
  saveFile(source: Blob | string, suggestedName: string): Promise<void>;
  /** Lets the user pick one file; null when they cancel. `accept` like ".xlsx,image/*". */
  pickFile(accept?: string): Promise<File | null>;
  /**
   * Shows an OS-level notification when allowed; does nothing otherwise (it never asks: see
   * requestNotifyPermission). `tag` lets several tabs raise one popup for the same thing.
   */
  notify(title: string, body: string, onClick?: () => void, tag?: string): Promise<void>;
  /** Whether OS notifications may be shown: 'default' means not asked yet. */
  notifyPermission(): NotifyPermission;
  /** Asks for OS notifications; call it from a user's click (browsers ignore it otherwise). */
  requestNotifyPermission(): Promise<NotifyPermission>;
}

export type NotifyPermission = 'granted' | 'denied' | 'default' | 'unsupported';
