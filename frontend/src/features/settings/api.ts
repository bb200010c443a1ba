import { api } from '@/api/client';

export interface StudentAffairs {
  url: string;
  token: string;
  /** Daily "HH:MM" in Asia/Jakarta, or "" for none. */
  schedule: string;
  updated_at?: string;
}

export interface StudentAffairsInput {
  url: string;
  /** Absent keeps the stored token. */
  token?: string;
  schedule: string;
}

export type TestKind =
  | 'bad_url' | 'dns' | 'refused' | 'timeout' | 'tls' | 'network' | 'not_http' | 'local' | 'unauthorized' | 'forbidden'
  | 'not_found' | 'http_status' | 'not_json' | 'wrong_shape' | 'not_configured';

/** The outcome of "Test connection"; `error` is in the UI language and never quotes the remote side. */
export interface StudentAffairsTest {
  ok: boolean;
  count?: number;
  error?: string;
  error_code?: string;
  kind?: TestKind;
  /** The HTTP status the source answered, when it answered one. */
  status?: number;
}

/** The paper warning letters print on. */
export type PaperSize = 'A4' | 'F4';

export interface SchoolProfile {
  name: string;
  address: string;
  phone: string;
  logo_path: string;
  principal_name: string;
  principal_nip: string;
  bk_coordinator_name: string;
  /** 18 digits or "": printed under the BK coordinator's signature on a letter. */
  bk_coordinator_nip: string;
  /** Where letters are written from: "Bandung" in "Bandung, 27 November 2026". */
  city: string;
  /** "MM-DD". */
  academic_year_start: string;
  lesson_hours_per_day: number;
  paper_size: PaperSize;
  /** Early warnings list a student within this many points of their next SP level (1..1000, default 10). */
  early_warning_points: number;
  /** Academic years before the current one the journal may still send (0..5, default 1). */
  journal_previous_years?: number;
  updated_at?: string;
}

/** GET /school/public: what the sign-in page may show before anyone signs in. */
export interface PublicSchool {
  name: string;
  logo_url: string | null;
}

export const settingsApi = {
  publicSchool: (signal?: AbortSignal) => api.get<PublicSchool>('/school/public', undefined, signal),
  studentAffairs: (signal?: AbortSignal) => api.get<StudentAffairs>('/settings/student-affairs', undefined, signal),
  saveStudentAffairs: (input: StudentAffairsInput) => api.put<StudentAffairs>('/settings/student-affairs', input),
  /** Tests the given URL/token (an absent token means the stored one). */
  testStudentAffairs: (input: { url: string; token?: string }) => api.post<StudentAffairsTest>('/settings/student-affairs/test', input),
  school: (signal?: AbortSignal) => api.get<SchoolProfile>('/settings/school', undefined, signal),
  saveSchool: (p: SchoolProfile) => api.put<SchoolProfile>('/settings/school', p),
};
