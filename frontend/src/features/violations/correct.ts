import { SCHOOL_TZ } from '@/lib/dates';
import dayjs from 'dayjs';
import { occurredAt } from './record';
import type { CorrectViolationRequest, Violation } from './types';

/** The correction form's values: the violation as it is, in the school's clock. */
export interface CorrectionValues {
  type_id: string;
  /** YYYY-MM-DD, Jakarta. */
  date: string;
  /** HH:mm, Jakarta. */
  time: string;
  location: string;
  sanction: string;
  description: string;
}

/** The form's start: the stored violation. */
export function correctionValues(v: Violation): CorrectionValues {
  const at = dayjs(v.occurred_at).tz(SCHOOL_TZ);
  return {
    type_id: String(v.type_id),
    date: at.format('YYYY-MM-DD'),
    time: at.format('HH:mm'),
    location: v.location,
    sanction: v.sanction,
    description: v.description,
  };
}

/**
 * What PATCH /violations/{id} gets: only what changed (an absent field stays as it is), texts
 * trimmed; the time only when its minute changed (the stored one may carry seconds).
 */
export function correctionPayload(v: Violation, values: CorrectionValues): CorrectViolationRequest {
  const before = correctionValues(v);
  const out: CorrectViolationRequest = {};
  if (values.type_id !== before.type_id) out.type_id = Number(values.type_id);
  if (values.date !== before.date || values.time !== before.time) {
    const at = occurredAt(values.date, values.time);
    if (at) out.occurred_at = at;
  }
  for (const k of ['location', 'sanction', 'description'] as const) {
    if (values[k].trim() !== v[k]) out[k] = values[k].trim();
  }
  return out;
}
