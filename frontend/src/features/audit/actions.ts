import { formatDate, type DateInput } from '@/lib/dates';

/**
 * Every action code the server records (grep server/ for `audit.Record(`), mapped to its
 * key under "actions" in this feature's catalogues. Codes nest ("students.sync" and
 * "students.sync.failed"), so the keys are flat rather than the codes themselves.
 */
export const ACTION_KEYS: Readonly<Record<string, string>> = {
  'user.create': 'userCreate',
  'user.update': 'userUpdate',
  'user.delete': 'userDelete',
  'user.deactivate': 'userDeactivate',
  'user.password.reset': 'userPasswordReset',
  'user.password.change': 'userPasswordChange',
  'role.permissions.update': 'rolePermissionsUpdate',
  'settings.school.update': 'settingsSchoolUpdate',
  'settings.student_affairs.update': 'settingsStudentAffairsUpdate',
  'students.sync': 'studentsSync',
  'students.sync.failed': 'studentsSyncFailed',
  'class.homeroom_teacher.update': 'classHomeroomTeacherUpdate',
  'demo.load': 'demoLoad',
  'demo.violations': 'demoViolations',
  'violation_category.create': 'violationCategoryCreate',
  'violation_category.update': 'violationCategoryUpdate',
  'violation_category.delete': 'violationCategoryDelete',
  'violation_type.create': 'violationTypeCreate',
  'violation_type.update': 'violationTypeUpdate',
  'violation_type.delete': 'violationTypeDelete',
  'violation_type.import': 'violationTypeImport',
  'sp_threshold.replace': 'spThresholdReplace',
  'handling_type.create': 'handlingTypeCreate',
  'handling_type.update': 'handlingTypeUpdate',
  'handling_type.delete': 'handlingTypeDelete',
  'settings.school.logo.update': 'settingsSchoolLogoUpdate',
  'settings.school.logo.delete': 'settingsSchoolLogoDelete',
  'violation.record': 'violationRecord',
  'violation.delete': 'violationDelete',
  'violation.verify': 'violationVerify',
  'violation.resolve': 'violationResolve',
  'violation.reopen': 'violationReopen',
  'handling.create': 'handlingCreate',
  'handling.delete': 'handlingDelete',
  'handling.resolve': 'handlingResolve',
  'handling.bulk_resolve': 'handlingBulkResolve',
  'warning_letter.issue': 'warningLetterIssue',
  'warning_letter.status': 'warningLetterStatus',
  'attendance.record': 'attendanceRecord',
  'attendance.sync': 'attendanceSync',
  'settings.journal_token.regenerate': 'journalTokenRegenerate',
  'settings.messaging.update': 'settingsMessagingUpdate',
  'settings.messaging.test': 'settingsMessagingTest',
  'parent_message.retry': 'parentMessageRetry',
  'parent_message.retry_failed': 'parentMessageRetryFailed',
  'parent_message.cancel': 'parentMessageCancel',
  'student.parent_contact.update': 'studentParentContactUpdate',
  'backup.create': 'backupCreate',
  'backup.restore': 'backupRestore',
  'data.reset': 'dataReset',
  'face.consent_record': 'faceConsentRecord',
  'face.consent_withdraw': 'faceConsentWithdraw',
  'face.enrol': 'faceEnrol',
  'face.enrolment_delete': 'faceEnrolmentDelete',
  'face.scan_match': 'faceScanMatch',
  'face.scan_resolve': 'faceScanResolve',
  'face.retention_delete': 'faceRetentionDelete',
  'face.settings_update': 'faceSettingsUpdate',
  'kiosk.create': 'kioskCreate',
  'kiosk.revoke': 'kioskRevoke',
  'attendance.face': 'attendanceFace',
  'settings.attendance_day_rule.update': 'settingsAttendanceDayRuleUpdate',
  'settings.attendance_follow_up.update': 'settingsAttendanceFollowUpUpdate',
  'settings.letters.update': 'settingsLettersUpdate',
  'violation.correct': 'violationCorrect',
  'warning_letter.send': 'warningLetterSend',
  'warning_letter.raise': 'warningLetterRaise',
  'warning_letter.lower': 'warningLetterLower',
  'warning_letter.withdraw': 'warningLetterWithdraw',
  'warning_letter.number': 'warningLetterNumber',
  'warning_letter.print': 'warningLetterPrint',
  'violation.auto_delete': 'violationAutoDelete',
  'attendance.journal_conflicts.keep': 'attendanceJournalConflictsKeep',
  'attendance.journal_conflicts.use_journal': 'attendanceJournalConflictsUseJournal',
  'face.kiosk_alarm': 'faceKioskAlarm',
  'case.create': 'caseCreate',
  'case.update': 'caseUpdate',
  'case.stage': 'caseStage',
  'case.participant.add': 'caseParticipantAdd',
  'case.session.create': 'caseSessionCreate',
  'case.agreement.create': 'caseAgreementCreate',
  'case.agreement.check': 'caseAgreementCheck',
  'case.recovery.create': 'caseRecoveryCreate',
  'case.violation.record': 'caseViolationRecord',
  'case.referral.identities': 'caseReferralIdentities',
  'case.referral.sent': 'caseReferralSent',
  'case.report.create': 'caseReportCreate',
  'case.report.reply': 'caseReportReply',
  'case_category.save': 'caseCategorySave',
  'settings.cases.update': 'settingsCasesUpdate',
  'achievement.create': 'achievementCreate',
  'achievement.verify': 'achievementVerify',
  'achievement_category.create': 'achievementCategoryCreate',
  'achievement_category.update': 'achievementCategoryUpdate',
  'achievement_category.delete': 'achievementCategoryDelete',
  'achievement_type.create': 'achievementTypeCreate',
  'achievement_type.update': 'achievementTypeUpdate',
  'achievement_type.delete': 'achievementTypeDelete',
  'achievement_type.import': 'achievementTypeImport',
  'points_policy.update': 'pointsPolicyUpdate',
  'points_policy.amnesty': 'pointsPolicyAmnesty',
  'excuse.submit': 'excuseSubmit',
  'excuse.approve': 'excuseApprove',
  'excuse.refuse': 'excuseRefuse',
  'guardian.activation_code': 'guardianActivationCode',
  'guardian.link': 'guardianLink',
  'guardian.revoke_sessions': 'guardianRevokeSessions',
  'guardian.verify': 'guardianVerify',
  'portal.consent': 'portalConsent',
  'portal.consent_withdrawn': 'portalConsentWithdrawn',
  'portal.preferences': 'portalPreferences',
  'portal.register': 'portalRegister',
  'portal.sign_in': 'portalSignIn',
  'settings.portal': 'settingsPortal',
  'student.portal_code': 'studentPortalCode',
  'warning_letter.acknowledge': 'warningLetterAcknowledge',
  // Recorded without the area's prefix by the violations feature (to be renamed there).
  record: 'violationRecord',
  delete: 'violationDelete',
  verify: 'violationVerify',
  issue: 'warningLetterIssue',
};

/** The entity kinds the server records, in the filter's order (keys under "entities"). */
export const ENTITIES = [
  'user',
  'role',
  'setting',
  'class',
  'student_sync',
  'school',
  'violation_category',
  'violation_type',
  'sp_threshold',
  'handling_type',
  'violation',
  'handling',
  'warning_letter',
  'attendance',
  'student',
  'parent_message',
  'backup',
  'data',
  'kiosk',
  'face_scan',
  'face_embeddings',
  'case',
  'case_category',
  'achievement',
  'achievement_category',
  'achievement_type',
  'excuse',
  'guardian',
  'portal_registration',
] as const;

/** The feature's t (useTranslation('audit')), or any lookup by key. */
export type Translate = (key: string) => string;

/** The catalogue key for an action code, or null for a code this screen does not know. */
export function actionKey(action: string): string | null {
  return Object.hasOwn(ACTION_KEYS, action) ? `actions.${ACTION_KEYS[action]}` : null;
}

/** A readable phrase for an action code; an unknown code is shown as it is. */
export function actionLabel(action: string, t: Translate): string {
  const key = actionKey(action);
  return key ? t(key) : action;
}

/** The label of an entity kind; an unknown kind is shown as it is. */
export function entityLabel(entity: string, t: Translate): string {
  return (ENTITIES as readonly string[]).includes(entity) ? t(`entities.${entity}`) : entity;
}

export interface PermissionDiff {
  added: string[];
  removed: string[];
  /** How many permissions the role kept. */
  kept: number;
}

function names(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * What a role.permissions.update changed: details are {before: [...], after: [...]} (either
 * may be null for an empty set). Sorted by name.
 */
export function permissionDiff(details: unknown): PermissionDiff {
  const d = (typeof details === 'object' && details !== null ? details : {}) as Record<string, unknown>;
  const before = new Set(names(d.before));
  const after = new Set(names(d.after));
  const added = [...after].filter((p) => !before.has(p)).sort();
  const removed = [...before].filter((p) => !after.has(p)).sort();
  const kept = [...after].filter((p) => before.has(p)).length;
  return { added, removed, kept };
}

/** Whether the details say anything ({} and null do not). */
export function hasDetails(details: unknown): boolean {
  if (details === null || details === undefined) return false;
  if (typeof details === 'object') return Object.keys(details).length > 0;
  return true;
}

/** An audit time to the second, in Jakarta: "22 Nov 2026 14.05.09" (id) / "… 14:05:09" (en). */
export function formatAuditTime(value: DateInput, lang = 'id'): string {
  return formatDate(value, 'dateTimeSeconds', lang);
}
