import { api } from '@/api/client';
import type { RequestBody, ResponseBody, Schema } from '@/api';

export type StudentAffairs = Schema<'StudentAffairs'>;

export type StudentAffairsInput = RequestBody<'/settings/student-affairs', 'put'>;

export type TestKind =
  | 'bad_url' | 'dns' | 'refused' | 'timeout' | 'tls' | 'network' | 'not_http' | 'local' | 'unauthorized' | 'forbidden'
  | 'not_found' | 'http_status' | 'not_json' | 'wrong_shape' | 'not_configured';

/** The outcome of "Test connection"; `error` is in the UI language and never quotes the remote side. */
export type StudentAffairsTest = Schema<'StudentAffairsTest'>;

/** The paper warning letters print on. */
export type PaperSize = 'A4' | 'F4';

export type SchoolProfile = Schema<'SchoolProfile'>;

/** GET /school/public: what the sign-in page may show before anyone signs in. */
export type PublicSchool = ResponseBody<'/school/public', 'get'>;

export const settingsApi = {
  publicSchool: (signal?: AbortSignal) => api.get<PublicSchool>('/school/public', undefined, signal),
  studentAffairs: (signal?: AbortSignal) => api.get<StudentAffairs>('/settings/student-affairs', undefined, signal),
  saveStudentAffairs: (input: StudentAffairsInput) => api.put<StudentAffairs>('/settings/student-affairs', input),
  /** Tests the given URL/token (an absent token means the stored one). */
  testStudentAffairs: (input: { url: string; token?: string }) => api.post<StudentAffairsTest>('/settings/student-affairs/test', input),
  school: (signal?: AbortSignal) => api.get<SchoolProfile>('/settings/school', undefined, signal),
  saveSchool: (p: SchoolProfile) => api.put<SchoolProfile>('/settings/school', p),
};
