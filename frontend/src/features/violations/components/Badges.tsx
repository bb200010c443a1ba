import { Badge } from '@mantine/core';
import { IconCircleCheck, IconClock, IconPhoto } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { mantineColour } from '@/features/violation-types/grouping';
import { useFormatNumber } from '@/lib/numbers';
import type { HandlingStatus } from '../types';

const STATUS_COLOUR: Record<HandlingStatus, string> = { unhandled: 'red', in_progress: 'yellow', resolved: 'teal' };

/** Belum ditangani / Sedang ditangani / Selesai. */
export function HandlingStatusBadge({ status }: { status: HandlingStatus }) {
  const { t } = useTranslation('violations');
  return (
    <Badge variant="light" color={STATUS_COLOUR[status] ?? 'gray'} data-testid="handling-status" data-status={status} style={{ textTransform: 'none' }}>
      {t(`status.${status}`)}
    </Badge>
  );
}

export function VerifiedBadge({ verified }: { verified: boolean }) {
  const { t } = useTranslation('violations');
  return (
    <Badge
      variant="outline"
      color={verified ? 'teal' : 'gray'}
      leftSection={verified ? <IconCircleCheck size={12} aria-hidden /> : <IconClock size={12} aria-hidden />}
      data-testid="verified-status"
      style={{ textTransform: 'none' }}
    >
      {verified ? t('verification.verified') : t('verification.unverified')}
    </Badge>
  );
}

/** The category's colour carries the type's weight at a glance. */
export function CategoryBadge({ name, colour }: { name: string; colour: string }) {
  return (
    <Badge variant="filled" color={mantineColour(colour)} data-testid="category-badge" style={{ textTransform: 'none', maxWidth: '100%' }}>
      {name}
    </Badge>
  );
}

export function PointsBadge({ points }: { points: number }) {
  const { t } = useTranslation('violations');
  const num = useFormatNumber();
  return (
    <Badge variant="light" color="dark" style={{ textTransform: 'none' }}>
      {t('pointsShort', { n: num(points) })}
    </Badge>
  );
}

export function PhotoCount({ count }: { count: number }) {
  const { t } = useTranslation('violations');
  if (count <= 0) return null;
  return (
    <Badge variant="default" leftSection={<IconPhoto size={12} aria-hidden />} aria-label={t('photos.count', { count })} data-testid="photo-count" style={{ textTransform: 'none' }}>
      {count}
    </Badge>
  );
}
