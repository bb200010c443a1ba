import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { FaceScan, ScanAttendance, ScanOutcome } from '../api';
import { attendanceColor, attendanceKey, formatPercent, outcomeColor } from '../display';

/** formatPercent bound to the current language. */
export function usePercent() {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return useCallback((v: number | null | undefined) => formatPercent(v, lang), [lang]);
}

export function OutcomeBadge({ outcome }: { outcome: ScanOutcome }) {
  const { t } = useTranslation('face-scans');
  return (
    <Badge color={outcomeColor[outcome] ?? 'gray'} variant="light" style={{ flexShrink: 0 }} data-testid="face-scan-outcome">
      {t(`outcome.${outcome}`, { defaultValue: outcome })}
    </Badge>
  );
}

export function AttendanceBadge({ attendance }: { attendance: ScanAttendance | null | undefined }) {
  const { t } = useTranslation('face-scans');
  const k = attendanceKey(attendance);
  if (k === 'none')
    return (
      <Text size="xs" c="dimmed" data-testid="face-scan-attendance" data-attendance="none">
        {t('attendance.none')}
      </Text>
    );
  return (
    <Badge color={attendanceColor[k]} variant="outline" style={{ flexShrink: 0 }} data-testid="face-scan-attendance" data-attendance={k}>
      {t(`attendance.${k}`)}
    </Badge>
  );
}

/** "Berkedip ✓" / "Menoleh ke kiri ✗": the challenge asked and whether it was passed. */
export function ChallengeText({ s }: { s: Pick<FaceScan, 'challenge_kind' | 'challenge_passed'> }) {
  const { t } = useTranslation('face-scans');
  if (!s.challenge_kind)
    return (
      <Text size="xs" c="dimmed">
        —
      </Text>
    );
  return (
    <Text size="xs" c={s.challenge_passed ? 'teal.9' : 'red.8'} span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }} data-testid="face-scan-challenge" data-passed={String(s.challenge_passed)}>
      {s.challenge_passed ? <IconCheck size={14} aria-hidden /> : <IconX size={14} aria-hidden />}
      {t(`challenge.${s.challenge_kind}`, { defaultValue: s.challenge_kind })} · {s.challenge_passed ? t('challengePassed') : t('challengeFailed')}
    </Text>
  );
}
