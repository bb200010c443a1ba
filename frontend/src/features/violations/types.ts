import type { Schema } from '@/api';

/** Wire types of violations and their handling: mirrors shared/api/violations.go. */
export const HANDLING_STATUSES = ['unhandled', 'in_progress', 'resolved'] as const;
export type HandlingStatus = (typeof HANDLING_STATUSES)[number];

export type ViolationPhoto = Schema<'ViolationPhoto'>;

export type HandlingParticipant = Schema<'HandlingParticipant'>;

export type Handling = Schema<'Handling'>;

/** One violation a shared handling record covers. */
export type HandlingViolation = Schema<'HandlingViolation'>;

/** PATCH /violations/{id}: only what changes (shared/api CorrectViolationRequest). */
export type CorrectViolationRequest = Schema<'CorrectViolationRequest'>;

/** A letter a correction issued, raised, lowered or withdrew. */
export type CorrectedLetter = Schema<'LetterChange'>;

export type CorrectViolationResponse = Schema<'CorrectViolationResponse'>;

export type Violation = Schema<'Violation'>;

export type CreateViolationsRequest = Schema<'CreateViolationsRequest'>;

export type StudentPoints = Schema<'StudentPoints'>;

export type WarningLetter = Schema<'WarningLetter'>;

export type CreateViolationsResponse = Schema<'CreateViolationsResponse'>;

export type CreateHandlingRequest = Schema<'CreateHandlingRequest'>;

/** One handling record for several violations (POST /handlings); no follow-up date. */
export type CreateSharedHandlingRequest = Schema<'CreateSharedHandlingRequest'>;

export const ATTENDANCE_KINDS = ['late', 'alpha', 'all'] as const;
export type AttendanceKind = (typeof ATTENDANCE_KINDS)[number];

/** A class's open automatic attendance violations of a range: what a bulk resolve would cover. */
export type OpenAttendanceViolations = Schema<'OpenAttendanceViolations'>;

export type ResolveAttendanceRequest = Schema<'ResolveAttendanceRequest'>;

export type ResolveAttendanceResponse = Schema<'ResolveAttendanceResponse'>;
