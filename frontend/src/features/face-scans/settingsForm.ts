import { CHALLENGES, type ChallengeKind, type FaceSettings } from './api';

/** Pure helpers of Settings → Face-ID (unit-tested); the rules mirror the server's. */

/** The form's values: the wire's names (so the server's field errors land at the fields). */
export interface FaceSettingsFormValues {
  school_start: string;
  /** NumberInput gives '' while a field is empty. */
  late_grace_minutes: number | string;
  threshold: number | string;
  margin: number | string;
  retention_days: number | string;
  challenges: string[];
}

export type FaceSettingsField = keyof FaceSettingsFormValues;
export const FACE_SETTINGS_FIELDS: readonly FaceSettingsField[] = [
  'school_start',
  'late_grace_minutes',
  'threshold',
  'margin',
  'retention_days',
  'challenges',
];

/** The limits, as the server checks them (shared/api FaceSettings). */
export const LIMITS = {
  graceMax: 120,
  retentionMax: 365,
} as const;

/** What is wrong with a field: an i18n key under settings `face.settings.errors.`. */
export type FaceSettingsProblem = 'time' | 'grace' | 'threshold' | 'margin' | 'retention' | 'challenges';

/** "HH:MM" 24-hour. */
export function isTime(v: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(v);
}

/** A number typed into a field, or NaN for an empty or unreadable one ("0,5" reads as 0.5). */
export function toNumber(v: number | string): number {
  if (typeof v === 'number') return v;
  const s = v.trim().replace(',', '.');
  return s === '' ? NaN : Number(s);
}

function wholeIn(v: number | string, min: number, max: number): boolean {
  const n = toNumber(v);
  return Number.isInteger(n) && n >= min && n <= max;
}

/** The challenges in their canonical order, known kinds only, each once. */
export function normaliseChallenges(list: readonly string[]): ChallengeKind[] {
  return CHALLENGES.filter((k) => list.includes(k));
}

/** Every problem of the form, field by field (empty: fine to send). */
export function validateFaceSettings(v: FaceSettingsFormValues): Partial<Record<FaceSettingsField, FaceSettingsProblem>> {
  const out: Partial<Record<FaceSettingsField, FaceSettingsProblem>> = {};
  if (!isTime(v.school_start.trim())) out.school_start = 'time';
  if (!wholeIn(v.late_grace_minutes, 0, LIMITS.graceMax)) out.late_grace_minutes = 'grace';
  const t = toNumber(v.threshold);
  if (!(Number.isFinite(t) && t > 0 && t < 1)) out.threshold = 'threshold';
  const m = toNumber(v.margin);
  if (!(Number.isFinite(m) && m >= 0 && m < 1)) out.margin = 'margin';
  if (!wholeIn(v.retention_days, 0, LIMITS.retentionMax)) out.retention_days = 'retention';
  if (normaliseChallenges(v.challenges).length === 0) out.challenges = 'challenges';
  return out;
}

export function formFromSettings(s: FaceSettings): FaceSettingsFormValues {
  return {
    // The server may answer "07:00:00" from a time column; the form speaks HH:MM.
    school_start: (s.school_start ?? '').slice(0, 5),
    late_grace_minutes: s.late_grace_minutes ?? 0,
    threshold: s.threshold,
    margin: s.margin,
    retention_days: s.retention_days ?? 0,
    challenges: normaliseChallenges(s.challenges ?? []),
  };
}

/** What PUT /settings/face gets (call after validateFaceSettings found nothing). */
export function settingsPayload(v: FaceSettingsFormValues): FaceSettings {
  return {
    school_start: v.school_start.trim(),
    late_grace_minutes: toNumber(v.late_grace_minutes),
    // Two decimals are what the inputs offer; floating noise (0.1 + 0.2) is not sent.
    threshold: Math.round(toNumber(v.threshold) * 1000) / 1000,
    margin: Math.round(toNumber(v.margin) * 1000) / 1000,
    retention_days: toNumber(v.retention_days),
    challenges: normaliseChallenges(v.challenges),
  };
}

/**
 * Splits the server's 422 field errors: those at a form field (a challenge's own entry,
 * "challenges[1]" or "challenges.1", goes to the checkbox group), and the rest (shown above).
 */
export function splitFieldErrors(fields: Record<string, string>): { form: Partial<Record<FaceSettingsField, string>>; rest: string[] } {
  const form: Partial<Record<FaceSettingsField, string>> = {};
  const rest: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    const base = k.replace(/(\[\d+\]|\.\d+)$/, '') as FaceSettingsField;
    if (FACE_SETTINGS_FIELDS.includes(base)) {
      const had = form[base];
      form[base] = !had ? v : had.includes(v) ? had : `${had} ${v}`;
    } else rest.push(v);
  }
  return { form, rest };
}
