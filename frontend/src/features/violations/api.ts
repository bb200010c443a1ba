import { api } from '@/api/client';
import type { Page } from '@/api/types';
import { listQuery, type ViolationFilters } from './filters';
import type {
  AttendanceKind,
  CorrectViolationRequest,
  CorrectViolationResponse,
  CreateHandlingRequest,
  CreateSharedHandlingRequest,
  CreateViolationsRequest,
  CreateViolationsResponse,
  Handling,
  OpenAttendanceViolations,
  ResolveAttendanceRequest,
  ResolveAttendanceResponse,
  StudentPoints,
  Violation,
} from './types';

/** At most this many evidence photos per recording (the server's limit too). */
export const MAX_PHOTOS = 5;
/** The server's limit on one photo before it is re-encoded: 10 MB. */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;

export const violationsApi = {
  list: (f: ViolationFilters, perPage: number, signal?: AbortSignal) => api.get<Page<Violation>>('/violations', listQuery(f, perPage), signal),
  get: (id: number, signal?: AbortSignal) => api.get<Violation>(`/violations/${id}`, undefined, signal),
  /** JSON when there are no photos; else multipart: the request as JSON in "data", the images in "photos". */
  create: (input: CreateViolationsRequest, photos: readonly File[]) => {
    if (photos.length === 0) return api.post<CreateViolationsResponse>('/violations', input);
    const form = new FormData();
    form.append('data', JSON.stringify(input));
    for (const p of photos) form.append('photos', p, p.name);
    return api.post<CreateViolationsResponse>('/violations', form);
  },
  /** Corrects type, time, place, description or sanction: only the fields sent change. */
  correct: (id: number, input: CorrectViolationRequest) => api.patch<CorrectViolationResponse>(`/violations/${id}`, input),
  remove: (id: number) => api.delete<void>(`/violations/${id}`),
  verify: (id: number) => api.post<Violation>(`/violations/${id}/verify`),
  resolve: (id: number) => api.post<Violation>(`/violations/${id}/resolve`),
  reopen: (id: number) => api.post<Violation>(`/violations/${id}/reopen`),
  addHandling: (id: number, input: CreateHandlingRequest) => api.post<Handling>(`/violations/${id}/handlings`, input),
  removeHandling: (handlingId: number) => api.delete<void>(`/handlings/${handlingId}`),
  /** One record for several violations (the list's selection). */
  addSharedHandling: (input: CreateSharedHandlingRequest) => api.post<Handling>('/handlings', input),
  /** Resolves every violation a record covers. */
  resolveHandling: (handlingId: number) => api.post<Handling>(`/handlings/${handlingId}/resolve`),
  openAttendance: (classId: number, from: string, to: string, kind: AttendanceKind, signal?: AbortSignal) =>
    api.get<OpenAttendanceViolations>(`/classes/${classId}/attendance-violations/open`, { from, to, kind }, signal),
  resolveAttendance: (classId: number, input: ResolveAttendanceRequest) =>
    api.post<ResolveAttendanceResponse>(`/classes/${classId}/attendance-violations/resolve`, input),
  studentPoints: (studentId: number, signal?: AbortSignal) => api.get<StudentPoints>(`/students/${studentId}/points`, undefined, signal),
  /** Users to pick as handling participants (needs users.view). */
  users: (q: string, signal?: AbortSignal) =>
    api.get<Page<{ id: number; name: string; username: string; role: string }>>('/users', { q, per_page: 20, active: 'true' }, signal),
};

