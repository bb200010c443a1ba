import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { useFormatDate } from '@/lib/useFormatDate';
import type { CaseSummary } from '../api';
import { paths } from '../paths';

/** In the early warnings: the overdue case stages the caller may see, or their school-wide count. */
export function CaseOverdueCard({ list, count }: { list: CaseSummary[]; count: number | null }) {
  const { t } = useTranslation('cases');
  const fmt = useFormatDate();
  if (list.length === 0 && !count) return null;
  return (
    <Alert color="orange" mb="sm" icon={<IconClockExclamation size={18} aria-hidden />} title={t('overdue_ew.title')} data-testid="ew-cases-overdue">
      <Stack gap={4}>
        {count !== null && <Text size="sm">{t('overdue_ew.count', { count })}</Text>}
        {list.map((c) => (
          <Anchor key={c.id} component={Link} to={paths.of(c.id)} size="sm" data-testid="ew-case-overdue">
            {(c.title || t('untitled', { category: c.category_name })) + ' — ' + t(`stage.${c.stage}`) + ' · ' + t('dueBy', { date: fmt(c.stage_due_on, 'shortDate'), owner: c.stage_owner_name || '—' })}
          </Anchor>
        ))}
      </Stack>
    </Alert>
  );
}
