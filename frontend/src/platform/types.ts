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
  /** Shows an OS-level notification when allowed (asks once); does nothing otherwise. */
  notify(title: string, body: string, onClick?: () => void): Promise<void>;
}
