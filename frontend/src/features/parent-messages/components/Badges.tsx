import { useTranslation } from 'react-i18next';
import { Badge } from '@mantine/core';
import type { Outcome, ParentMessageStatus } from '../api';

// Whole words on narrow columns: the badge grows a line instead of cutting its text.
const wrap = { root: { height: 'auto', minHeight: 20, paddingBlock: 2 }, label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', lineHeight: 1.3 } } as const;
import { outcomeColor, statusColor } from '../display';

export function StatusBadge({ status }: { status: ParentMessageStatus }) {
  const { t } = useTranslation('parent-messages');
  return (
    <Badge color={statusColor[status] ?? 'gray'} variant="light" styles={wrap} style={{ textTransform: 'none', flexShrink: 0 }} data-testid="pm-status" data-status={status}>
      {t(`status.${status}`)}
    </Badge>
  );
}

export function OutcomeBadge({ outcome }: { outcome: Outcome | '' }) {
  const { t } = useTranslation('parent-messages');
  if (!outcome) return null;
  return (
    <Badge color={outcomeColor[outcome] ?? 'gray'} variant="light" styles={wrap} style={{ textTransform: 'none' }} data-testid="pm-outcome" data-outcome={outcome}>
      {t(`outcome.${outcome}`)}
    </Badge>
  );
}
