import { api, apiDownload, type DownloadedFile } from '@/api/client';
import type { Page } from '@/api/types';
import type { CreateViolationsResponse } from '@/features/violations/types';

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

export interface CaseSummary {
  id: number;
  level: CaseLevel;
  title: string;
  occurred_at: string;
  category_id: number;
  category_name: string;
  source: CaseSource;
  classification: CaseClassification;
  stage: CaseStageName;
  stage_owner_name: string;
  stage_due_on: string | null;
  overdue: boolean;
  participants: number;
}

export interface CaseStage {
  stage: Exclude<CaseStageName, 'closed'>;
  owner_id: number | null;
  owner_name: string;
  due_on: string;
  started_at: string | null;
  completed_at: string | null;
  overdue: boolean;
  notes: string | null;
}

export interface CaseParticipant {
  id: number;
  kind: 'student' | 'staff' | 'outsider';
  student_id: number | null;
  user_id: number | null;
  /** null: hidden from this reader. */
  name: string | null;
  class_name: string;
  role: CaseRole | '';
  relation: string;
}

export interface CaseSession {
  id: number;
  held_at: string;
  /** One of the violations' handling types; null when none was chosen or the type was deleted since. */
  handling_type_id: number | null;
  /** The type's name when the session was recorded; '' when none. */
  handling_type_name: string;
  people: string[];
  staff: string[];
  notes: string;
  created_by_name: string;
}

export type AgreementStatus = 'open' | 'done' | 'not_done';

export interface CaseAgreementItem {
  id: number;
  participant_id: number;
  party_name: string;
  party_role: CaseRole | '';
  action: string;
  due_on: string;
  status: AgreementStatus;
  checked_by_name: string;
  checked_at: string | null;
  check_notes: string;
}

export interface CaseAgreement {
  id: number;
  agreed_on: string;
  notes: string;
  created_by_name: string;
  items: CaseAgreementItem[];
}

export type RecoveryKind = 'counselling' | 'psychologist' | 'class_change' | 'other';
export const RECOVERY_KINDS: RecoveryKind[] = ['counselling', 'psychologist', 'class_change', 'other'];

export interface CaseRecoveryAction {
  id: number;
  participant_id: number;
  party_name: string;
  kind: RecoveryKind;
  description: string;
  planned_on: string;
  created_by_name: string;
}

export interface CaseReferral {
  id: number;
  sent_to: string;
  sent_on: string;
  notes: string;
  created_by_name: string;
}

export interface CaseViolation {
  id: number;
  student_id: number;
  student_name: string;
  type_name: string;
  points: number;
  occurred_at: string;
}

export interface Case extends CaseSummary {
  /** Empty unless level is full. */
  sessions: CaseSession[];
  agreements: CaseAgreement[];
  recovery: CaseRecoveryAction[];
  /** Empty for level homeroom. */
  violations: CaseViolation[];
  referrals: CaseReferral[];
  /** The anonymous report behind the case: the team and admins only. */
  report: {
    reporter_name: string;
    messages: { id: number; from_reporter: boolean; text: string; user_name: string; at: string }[];
    photo_ids: number[];
  } | null;
  place: string;
  description: string | null;
  stages: CaseStage[];
  team: { user_id: number; name: string }[];
  people: CaseParticipant[];
  created_at: string;
  created_by: string;
  can_edit: boolean;
}

export interface CaseCounts {
  total: number;
  open: number;
  overdue: number;
  by_category: { key: string; label: string; count: number }[];
  by_stage: { key: CaseStageName; label: string; count: number }[];
  by_class: { key: string; label: string; count: number }[];
}

export interface CaseSettings {
  identification_days: number;
  handling_days: number;
  conclusions_days: number;
}

export interface CaseCategory {
  id: number;
  name: string;
  active: boolean;
  sort_order: number;
}

export interface CaseUserOption {
  id: number;
  name: string;
  role: string;
}

export interface ParticipantInput {
  kind: 'student' | 'staff' | 'outsider';
  student_id?: number;
  user_id?: number;
  name?: string;
  role?: CaseRole;
  relation?: string;
}

export interface CreateCaseInput {
  title: string;
  occurred_at: string;
  place: string;
  description: string;
  category_id: number;
  source: CaseSource;
  participants: ParticipantInput[];
  team: number[];
}

export interface UpdateCaseInput {
  title?: string;
  place?: string;
  description?: string;
  classification?: Exclude<CaseClassification, ''>;
  team?: number[];
  stages?: { stage: string; owner_id?: number; due_on?: string }[];
}

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
