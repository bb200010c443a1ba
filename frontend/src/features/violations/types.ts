/** Wire types of violations and their handling: mirrors shared/api/violations.go. */

export const HANDLING_STATUSES = ['unhandled', 'in_progress', 'resolved'] as const;
export type HandlingStatus = (typeof HANDLING_STATUSES)[number];

export interface ViolationPhoto {
  id: number;
  width: number;
  height: number;
  /** Relative API URLs ("/api/v1/violations/1/photos/2"): the session cookie (or the desktop proxy) carries access. */
  url: string;
  thumbnail_url: string;
}

export interface HandlingParticipant {
  user_id: number | null;
  name: string;
  role: string;
}

export interface Handling {
  id: number;
  violation_id: number;
  handling_type_id: number;
  handling_type_name: string;
  /** A Jakarta calendar day, YYYY-MM-DD. */
  handled_on: string;
  notes: string;
  follow_up_on: string | null;
  created_by: number | null;
  created_by_name: string;
  created_at: string;
  participants: HandlingParticipant[] | null;
  /** Made by POST /handlings: may cover several violations, listed in covers. */
  shared: boolean;
  /** How many violations the record covers (1 for a record made for one violation). */
  violation_count: number;
  /** The violations a shared record covers that the user may see, oldest first. */
  covers: HandlingViolation[] | null;
}

/** One violation a shared handling record covers. */
export interface HandlingViolation {
  id: number;
  student_id: number;
  student_name: string;
  class_name: string;
  type_name: string;
  occurred_on: string;
  handling_status: HandlingStatus;
}

/** PATCH /violations/{id}: only what changes (shared/api CorrectViolationRequest). */
export interface CorrectViolationRequest {
  type_id?: number;
  occurred_at?: string;
  location?: string;
  description?: string;
  sanction?: string;
}

/** A letter a correction issued, raised, lowered or withdrew. */
export interface CorrectedLetter {
  id: number;
  student_id: number;
  student_name: string;
  level: number;
  name: string;
  change: 'issued' | 'raised' | 'lowered' | 'withdrawn';
}

export interface CorrectViolationResponse {
  violation: Violation;
  letters: CorrectedLetter[];
  points: StudentPoints;
}

export interface Violation {
  id: number;
  student_id: number;
  student_name: string;
  student_nisn: string;
  student_nis: string;
  /** The class as it was on the day. */
  class_id: number | null;
  class_name: string;
  department_name: string;
  type_id: number;
  type_name: string;
  type_slug: string;
  category_id: number;
  category_name: string;
  category_colour: string;
  occurred_at: string;
  /** The Jakarta calendar day, YYYY-MM-DD. */
  occurred_on: string;
  points: number;
  sanction: string;
  location: string;
  description: string;
  /** null: the journal sync recorded it. */
  recorded_by: number | null;
  recorded_by_name: string;
  source: 'manual' | 'attendance' | string;
  verified_by: number | null;
  verified_by_name: string;
  verified_at: string | null;
  handling_status: HandlingStatus;
  handled_at: string | null;
  handled_by: number | null;
  handled_by_name: string;
  photo_count: number;
  created_at: string;
  updated_at: string;
  /** Detail only. */
  photos?: ViolationPhoto[] | null;
  handlings?: Handling[] | null;
}

export interface CreateViolationsRequest {
  student_id: number;
  type_ids: number[];
  /** RFC 3339; the server takes now when missing. */
  occurred_at?: string;
  location: string;
  description: string;
  /** Applies to every type; empty takes each type's default. */
  sanction: string;
}

export interface StudentPoints {
  student_id: number;
  total: number;
  lifetime_total: number;
  level: number;
  level_name: string;
  level_colour: string;
  next_level: number | null;
  next_level_name: string;
  next_level_min_points: number | null;
  points_to_next: number | null;
  academic_year_start: string;
}

export interface WarningLetter {
  id: number;
  student_id: number;
  student_name: string;
  level: number;
  name: string;
  min_points: number;
  points: number;
  status: string;
  issued_at: string;
}

export interface CreateViolationsResponse {
  violations: Violation[];
  letters: WarningLetter[] | null;
  points: StudentPoints;
}

export interface CreateHandlingRequest {
  handling_type_id: number;
  handled_on: string;
  notes: string;
  follow_up_on: string | null;
  participants: HandlingParticipant[];
}

/** One handling record for several violations (POST /handlings); no follow-up date. */
export interface CreateSharedHandlingRequest {
  violation_ids: number[];
  handling_type_id: number;
  handled_on: string;
  notes: string;
  participants: HandlingParticipant[];
}

export const ATTENDANCE_KINDS = ['late', 'alpha', 'all'] as const;
export type AttendanceKind = (typeof ATTENDANCE_KINDS)[number];

/** A class's open automatic attendance violations of a range: what a bulk resolve would cover. */
export interface OpenAttendanceViolations {
  count: number;
  students: number;
  max: number;
  handling_type_id: number;
  handling_type_name: string;
}

export interface ResolveAttendanceRequest {
  from: string;
  to: string;
  kind: AttendanceKind;
  /** 0: the server's default ("Lainnya"). */
  handling_type_id?: number;
  handled_on?: string;
  notes: string;
}

export interface ResolveAttendanceResponse {
  resolved: number;
  students: number;
  violation_ids: number[];
  handling: Handling | null;
}
