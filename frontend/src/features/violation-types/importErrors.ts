import { isApiError } from '@/api/errors';

/** The header row the template has (Indonesian); English headers are accepted too. */
export const EXPECTED_HEADERS = ['kategori', 'nama', 'poin', 'sanksi', 'deskripsi'] as const;
export const EXPECTED_HEADERS_EN = ['category', 'name', 'points', 'sanction', 'description'] as const;

export type ImportProblem =
  | { kind: 'too_large'; message: string }
  | { kind: 'headers'; message: string }
  | { kind: 'file'; message: string }
  | { kind: 'other'; error: unknown };

/**
 * Sorts a failed import into what the screen explains: a file over the limit (413), a wrong
 * header row (422 with field `headers`, the message names the expected headers), another
 * refusal of the file (422/400: not an xlsx, corrupt, empty, too many rows) with the server's
 * message, or anything else (network, 403, 409 …).
 */
export function classifyImportError(err: unknown): ImportProblem {
  if (!isApiError(err)) return { kind: 'other', error: err };
  if (err.status === 413) return { kind: 'too_large', message: err.message };
  if (err.status === 422 && err.fields.headers) return { kind: 'headers', message: err.fields.headers };
  if (err.status === 422 || err.status === 400) {
    const message = err.fields.file || err.message || Object.values(err.fields)[0] || '';
    return { kind: 'file', message };
  }
  return { kind: 'other', error: err };
}

/** Whether a picked or dropped file looks like an .xlsx (by name; the server checks the content). */
export function looksLikeXlsx(file: { name: string }): boolean {
  return /\.xlsx$/i.test(file.name.trim());
}
