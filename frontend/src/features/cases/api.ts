import { api, apiDownload, type DownloadedFile } from '@/api/client';
import type { Page } from '@/api/types';
import type { CreateViolationsResponse } from '@/features/violations/types';
import type { Schema } from '@/api';

/** Wire types: shared/api/cases.go. */

export type CaseStageName = 'identification' | 'handling' | 'conclusions' | 'closed';
export const CASE_STAGES: CaseStageName[] = ['identification', 'handling', 'conclusions', 'closed'];
export type CaseRole = 'terduga_pelaku' | 'korban' | 'saksi' | 'pelapor';
export const CASE_ROLES: CaseRole[] = ['terduga_pelaku', 'korban', 'saksi', 'pelapor'];
export type CaseSource = 'staff_finding' | 'report' | 'anonymous_report';
export const CASE_SOURCES: CaseSource[] = ['staff_finding', 'report', 'anonymous_report'];
export type CaseClassification = '' | 'school_rule' | 'suspected_law';
/** What the reader may see: full (team, admin), managed (a case manager outside the team), homeroom. */
export type CaseLevel = 'full' | 'managed' | 'homeroom';

export type CaseSummary = Schema<'CaseSummary'>;

export type CaseStage = Schema<'CaseStage'>;

export type CaseParticipant = Schema<'CaseParticipant'>;

export type CaseSession = Schema<'CaseSession'>;

export type AgreementStatus = 'open' | 'done' | 'not_done';

export type CaseAgreementItem = Schema<'CaseAgreementItem'>;

export type CaseAgreement = Schema<'CaseAgreement'>;

export type RecoveryKind = 'counselling' | 'psychologist' | 'class_change' | 'other';
export const RECOVERY_KINDS: RecoveryKind[] = ['counselling', 'psychologist', 'class_change', 'other'];

export type CaseRecoveryAction = Schema<'CaseRecoveryAction'>;

export type CaseReferral = Schema<'CaseReferral'>;

export type CaseViolation = Schema<'CaseViolation'>;

export type Case = Schema<'Case'>;

export type CaseCounts = Schema<'CaseCounts'>;

export type CaseSettings = Schema<'CaseSettings'>;

export type CaseCategory = Schema<'CaseCategory'>;

export type CaseUserOption = Schema<'CaseUserOption'>;

export type ParticipantInput = Schema<'CaseParticipantInput'>;

export type CreateCaseInput = Schema<'CreateCaseRequest'>;

export type UpdateCaseInput = Schema<'UpdateCaseRequest'>;

export interface CaseListFilters {
  stage: CaseStageName | null;
  categoryId: number | null;
  overdue: boolean;
  page: number;
}

export const CASES_PER_PAGE = 20;

export const casesApi = {
  list: (f: CaseListFilters, signal?: AbortSignal) =>
    api.get<Page<CaseSummary>>(
      '/cases',
      { stage: f.stage, category_id: f.categoryId, overdue: f.overdue ? true : undefined, page: f.page, per_page: CASES_PER_PAGE },
      signal,
    ),
  get: (id: number, signal?: AbortSignal) => api.get<Case>(`/cases/${id}`, undefined, signal),
  create: (input: CreateCaseInput) => api.post<Case>('/cases', input),
  update: (id: number, input: UpdateCaseInput) => api.patch<Case>(`/cases/${id}`, input),
  addParticipant: (id: number, input: ParticipantInput) => api.post<Case>(`/cases/${id}/participants`, input),
  moveStage: (id: number, to: CaseStageName, notes: string) => api.post<Case>(`/cases/${id}/stage`, { to, notes }),
  addSession: (id: number, input: { held_at: string; handling_type_id: number | null; participant_ids: number[]; staff_ids: number[]; notes: string }) =>
    api.post<Case>(`/cases/${id}/sessions`, input),
  addAgreement: (id: number, input: { agreed_on: string; notes: string; items: { participant_id: number; action: string; due_on: string }[] }) =>
    api.post<Case>(`/cases/${id}/agreements`, input),
  checkAgreement: (id: number, agreementId: number, items: { id: number; status: AgreementStatus; notes: string }[]) =>
    api.patch<Case>(`/cases/${id}/agreements/${agreementId}`, { items }),
  addRecovery: (id: number, input: { participant_id: number; kind: RecoveryKind; description: string; planned_on: string }) =>
    api.post<Case>(`/cases/${id}/recovery-actions`, input),
  recordViolation: (id: number, input: { student_id: number; type_ids: number[]; description: string }) =>
    api.post<CreateViolationsResponse>(`/cases/${id}/violations`, input),
  referralPdf: (id: number, includeIdentities: boolean): Promise<DownloadedFile> =>
    apiDownload(`/cases/${id}/referral.pdf`, { include_identities: includeIdentities ? true : undefined }),
  reportPdf: (id: number): Promise<DownloadedFile> => apiDownload(`/cases/${id}/report.pdf`),
  recordReferral: (id: number, input: { sent_to: string; sent_on: string; notes: string }) => api.post<Case>(`/cases/${id}/referrals`, input),
  accessLog: (id: number, signal?: AbortSignal) =>
    api.get<{ id: number; user_id: number | null; user_name: string; at: string; what: string; level: string }[]>(`/cases/${id}/access-log`, undefined, signal),
  reply: (id: number, text: string) => api.post<Case>(`/cases/${id}/report-messages`, { text }),
  saveCategory: (id: number | null, input: { name?: string; active?: boolean }) =>
    id ? api.patch<CaseCategory>(`/case-categories/${id}`, input) : api.post<CaseCategory>('/case-categories', input),
  settings: (signal?: AbortSignal) => api.get<CaseSettings>('/settings/cases', undefined, signal),
  saveSettings: (input: CaseSettings) => api.put<CaseSettings>('/settings/cases', input),
  categories: (signal?: AbortSignal) => api.get<CaseCategory[]>('/case-categories', undefined, signal),
  teamOptions: (signal?: AbortSignal) => api.get<CaseUserOption[]>('/cases/team-options', undefined, signal),
};

/** The stage after s, or null after closed. */
export function nextStage(s: CaseStageName): CaseStageName | null {
  const i = CASE_STAGES.indexOf(s);
  return i >= 0 && i + 1 < CASE_STAGES.length ? CASE_STAGES[i + 1]! : null;
}
