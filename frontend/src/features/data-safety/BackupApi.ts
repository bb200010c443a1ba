import { useCallback, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiResponse, fileNameFromDisposition } from '@/api/client';
import { saveFile } from '@/platform';
import type { Schema } from '@/api';

/** One backup as GET /admin/backups lists it (shared/api Backup). */
export type Backup = Schema<'Backup'>;

/** GET /admin/backups. */
export type BackupList = Schema<'BackupList'>;

export const backupKeys = { list: ['data-safety', 'backups'] as const };

export function useBackups() {
  return useQuery({
    queryKey: backupKeys.list,
    queryFn: ({ signal }) => api.get<BackupList>('/admin/backups', undefined, signal),
    staleTime: 0,
  });
}

/**
 * POST /admin/backups: the server streams the dump; it is read here chunk by chunk (so the
 * screen can say how much has arrived) and handed to the platform's saveFile — a browser
 * download, or the desktop app's native save dialog. A download that breaks off rejects:
 * the server never sends a complete-looking file when pg_dump fails half-way.
 */
export async function downloadBackup(onProgress: (bytes: number) => void, signal?: AbortSignal): Promise<string> {
  const res = await apiResponse('/admin/backups', { method: 'POST', signal }, 'application/octet-stream, application/json');
  const name = fileNameFromDisposition(res.headers.get('Content-Disposition')) ?? 'tatib.dump';
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  try {
    if (res.body) {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.byteLength;
        onProgress(received);
      }
    } else {
      const buf = new Uint8Array(await res.arrayBuffer());
      chunks.push(buf);
      onProgress(buf.byteLength);
    }
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new BackupBrokenError(cause);
  }
  await saveFile(new Blob(chunks, { type: 'application/octet-stream' }), name);
  return name;
}

/** The download broke off: the file is incomplete and was not saved. */
export class BackupBrokenError extends Error {
  constructor(cause: unknown) {
    super('backup download broke off', { cause });
    this.name = 'BackupBrokenError';
  }
}

/**
 * The "download a backup now" action with its progress, for BackupPanel and for the reset
 * screen's "back up first" button. `bytes` is how much has arrived while `running`.
 */
export function useBackupDownload() {
  const qc = useQueryClient();
  const [running, setRunning] = useState(false);
  const [bytes, setBytes] = useState(0);
  const abort = useRef<AbortController | null>(null);
  const start = useCallback(async () => {
    abort.current = new AbortController();
    setRunning(true);
    setBytes(0);
    try {
      return await downloadBackup(setBytes, abort.current.signal);
    } finally {
      setRunning(false);
      abort.current = null;
      void qc.invalidateQueries({ queryKey: backupKeys.list });
      void qc.invalidateQueries({ queryKey: ['data-safety', 'reset'] });
    }
  }, [qc]);
  const cancel = useCallback(() => abort.current?.abort(), []);
  return { start, cancel, running, bytes };
}
