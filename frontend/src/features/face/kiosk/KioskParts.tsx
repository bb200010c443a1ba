import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, Box, Stack, Text } from '@mantine/core';
import { IconArrowBigLeftLines, IconArrowBigRightLines, IconEye } from '@tabler/icons-react';
import { useFormatDate } from '@/lib/useFormatDate';
import type { ChallengeKind } from '../engine/types';
import { formatSeconds } from './logic';
import { outcomeColour, type KioskScanResult } from './machine';

/** Big type for reading at a metre: scales with the screen, never below 2rem. */
export const big = (min: number, vw: number, max: number) => `clamp(${min}rem, ${vw}vmin, ${max}rem)`;

/** The time in Jakarta, large, and today's date under it. */
export function Clock() {
  const fmt = useFormatDate();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = window.setInterval(() => setNow(new Date()), 1000);
    return () => window.clearInterval(id);
  }, []);
  return (
    <Stack gap={0} align="flex-end" data-testid="kiosk-clock">
      <Text fw={700} lh={1} style={{ fontSize: big(2, 6, 3.5), fontVariantNumeric: 'tabular-nums' }}>
        {fmt(now, 'time')}
      </Text>
      <Text size="lg" c="gray.4">
        {fmt(now, 'weekdayDate')}
      </Text>
    </Stack>
  );
}

const challengeIcons: Record<ChallengeKind, typeof IconEye> = {
  blink: IconEye,
  // The picture is mirrored: the person's left is on the screen's left.
  turn_left: IconArrowBigLeftLines,
  turn_right: IconArrowBigRightLines,
};

/** The liveness prompt, as big as the panel allows. */
export function ChallengePrompt({ kind }: { kind: ChallengeKind }) {
  const { t } = useTranslation('face');
  const Icon = challengeIcons[kind];
  return (
    <Stack gap="sm" align="center" ta="center" data-testid="kiosk-challenge" data-kind={kind} role="alert">
      <Icon size={120} stroke={1.5} aria-hidden color="var(--mantine-color-blue-5)" />
      <Text fw={800} lh={1.1} style={{ fontSize: big(2.5, 7, 4.5) }}>
        {t(`kiosk.challenge.${kind}`)}
      </Text>
      <Text style={{ fontSize: big(1.25, 3, 1.75) }} c="gray.4">
        {t(`kiosk.challengeHint.${kind}`)}
      </Text>
    </Stack>
  );
}

/** A scan's answer: the server's greeting (in the kiosk's language), who and which class; no photo. */
export function ResultPanel({ result, millis }: { result: KioskScanResult; millis: number | null }) {
  const { t, i18n } = useTranslation('face');
  const colour = outcomeColour(result);
  const dark = colour === 'yellow';
  const matched = result.outcome === 'matched' && result.student;
  const headline = matched ? result.greeting || t('kiosk.outcome.matched') : t(`kiosk.outcome.${result.outcome}`);
  return (
    <Box
      p="xl"
      w="100%"
      style={{ borderRadius: 'var(--mantine-radius-lg)', background: dark ? `var(--mantine-color-${colour}-filled)` : `var(--mantine-color-${colour}-9)`, color: dark ? 'var(--mantine-color-dark-9)' : 'white' }}
      data-testid="kiosk-result"
      data-outcome={result.outcome}
      data-attendance={result.attendance}
      data-millis={millis ?? ''}
      role="alert"
    >
      <Stack gap="md" align="center" ta="center">
        <Text fw={800} lh={1.15} style={{ fontSize: big(2, 5.5, 3.5) }} data-testid="kiosk-greeting">
          {headline}
        </Text>
        {matched && result.student && (
          <Stack gap={4} align="center">
            <Text fw={700} style={{ fontSize: big(1.75, 4.5, 3) }} data-testid="kiosk-student">
              {result.student.name}
            </Text>
            {result.student.class_name && (
              <Text style={{ fontSize: big(1.5, 3.5, 2.25) }} data-testid="kiosk-class">
                {result.student.class_name}
              </Text>
            )}
          </Stack>
        )}
        {matched && result.attendance !== 'none' && (
          <Badge size="xl" h={48} px="lg" radius="md" variant="white" color={colour} style={{ fontSize: '1.5rem' }}>
            {t(`kiosk.attendance.${result.attendance}`)}
          </Badge>
        )}
        {millis !== null && (
          <Text style={{ fontSize: '1.5rem' }}>
            {t('kiosk.millis', { seconds: formatSeconds(millis, i18n.resolvedLanguage ?? 'id') })}
          </Text>
        )}
      </Stack>
    </Box>
  );
}
