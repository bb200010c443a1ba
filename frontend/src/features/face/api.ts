import { api, apiRequest } from '@/api/client';
import type { Schema } from '@/api';

/** Wire types: shared/api/face.go. */

export type Relationship = 'father' | 'mother' | 'guardian' | 'other';
export type ConsentMethod = 'paper' | 'digital' | 'in_person';

export const RELATIONSHIPS: readonly Relationship[] = ['father', 'mother', 'guardian', 'other'];
export const CONSENT_METHODS: readonly ConsentMethod[] = ['paper', 'digital', 'in_person'];

/** 3–5 samples per student (api.FaceMinSamples / FaceMaxSamples). */
export const MIN_SAMPLES = 3;
export const MAX_SAMPLES = 5;

export type FaceConsentInput = Schema<'FaceConsentInput'>;

export type FaceConsent = Schema<'FaceConsent'>;

export type FaceStatus = Schema<'FaceStatus'>;

export type FaceEnrolmentInput = Schema<'FaceEnrolmentInput'>;

export const faceApi = {
  status: (studentId: number, signal?: AbortSignal) => api.get<FaceStatus>(`/students/${studentId}/face`, undefined, signal),
  recordConsent: (studentId: number, input: FaceConsentInput) => api.put<FaceStatus>(`/students/${studentId}/face-consent`, input),
  withdrawConsent: (studentId: number, reason: string) =>
    apiRequest<FaceStatus>(`/students/${studentId}/face-consent`, { method: 'DELETE', body: { reason } }),
  enrol: (studentId: number, input: FaceEnrolmentInput) => api.post<FaceStatus>(`/students/${studentId}/face-enrolments`, input),
  deleteSamples: (studentId: number) => api.delete<FaceStatus>(`/students/${studentId}/face-enrolments`),
};
