import { api, apiRequest } from '@/api/client';

/** Wire types: shared/api/face.go. */

export type Relationship = 'father' | 'mother' | 'guardian' | 'other';
export type ConsentMethod = 'paper' | 'digital' | 'in_person';

export const RELATIONSHIPS: readonly Relationship[] = ['father', 'mother', 'guardian', 'other'];
export const CONSENT_METHODS: readonly ConsentMethod[] = ['paper', 'digital', 'in_person'];

/** 3–5 samples per student (api.FaceMinSamples / FaceMaxSamples). */
export const MIN_SAMPLES = 3;
export const MAX_SAMPLES = 5;

export interface FaceConsentInput {
  guardian_name: string;
  relationship: Relationship | '';
  method: ConsentMethod | '';
  /** YYYY-MM-DD, not after today (Jakarta). */
  given_on: string;
  reference: string;
}

export interface FaceConsent {
  id: number;
  guardian_name: string;
  relationship: Relationship | string;
  method: ConsentMethod | string;
  given_on: string;
  reference: string;
  recorded_by_name: string;
  recorded_at: string;
  withdrawn_at: string | null;
  withdrawn_by_name: string;
  withdrawal_reason: string;
}

export interface FaceStatus {
  student_id: number;
  student_name: string;
  /** The active consent, null when none. */
  consent: FaceConsent | null;
  /** Newest first, the active one included. */
  history: FaceConsent[] | null;
  samples: number;
  model: string;
  enrolled_at: string | null;
}

export interface FaceEnrolmentInput {
  model: string;
  embeddings: number[][];
}

export const faceApi = {
  status: (studentId: number, signal?: AbortSignal) => api.get<FaceStatus>(`/students/${studentId}/face`, undefined, signal),
  recordConsent: (studentId: number, input: FaceConsentInput) => api.put<FaceStatus>(`/students/${studentId}/face-consent`, input),
  withdrawConsent: (studentId: number, reason: string) =>
    apiRequest<FaceStatus>(`/students/${studentId}/face-consent`, { method: 'DELETE', body: { reason } }),
  enrol: (studentId: number, input: FaceEnrolmentInput) => api.post<FaceStatus>(`/students/${studentId}/face-enrolments`, input),
  deleteSamples: (studentId: number) => api.delete<FaceStatus>(`/students/${studentId}/face-enrolments`),
};
