import { Alert, List, Text } from '@mantine/core';
import { IconShieldX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '@/api/client';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import type { Schema } from '@/api';

/** Pushes refused for their token, per address and minute (GET /settings/journal-auth-failures). */
export type JournalAuthFailure = Schema<'JournalAuthFailure'>;

/**
 * Settings → Integrations: the journal pushes refused for a wrong or missing token in the last
 * day. They are counted apart from the push log, so a flood of them never hides a real push;
 * nothing is shown when there were none.
 */
export function JournalRefusedTokens() {
  const { t } = useTranslation('settings');
  const fmt = useFormatDate();
  const num = useFormatNumber();
  const q = useQuery({
    queryKey: ['settings', 'journal-auth-failures'],
    queryFn: ({ signal }) => api.get<JournalAuthFailure[]>('/settings/journal-auth-failures', undefined, signal),
    refetchInterval: 30_000,
  });
  const rows = q.data ?? [];
  if (rows.length === 0) return null;
  const total = rows.reduce((n, r) => n + r.attempts, 0);
  return (
    <Alert color="orange" icon={<IconShieldX />} title={t('journal.refused.title', { count: total, n: num(total) })} data-testid="journal-refused">
      <Text size="sm" mb={4}>
        {t('journal.refused.hint')}
      </Text>
      <List size="sm" spacing={2}>
        {rows.slice(0, 5).map((r) => (
          <List.Item key={`${r.address} ${r.minute}`}>
            {t('journal.refused.row', { address: r.address || '—', n: num(r.attempts), at: fmt(r.last_at, 'dateTime') })}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
