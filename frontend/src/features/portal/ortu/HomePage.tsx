import './pageStyles';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { useFormatDate } from '@/lib/useFormatDate';
import { portalApi, portalViewsApi } from '../api';
import { PORTAL_BASE, portalKeys } from './paths';

/** The guardian's first screen: their children, then the school's messages to them. */
export function HomePage() {
  const { t } = useTranslation('portal');
  const fmt = useFormatDate();
  const me = useQuery({ queryKey: portalKeys.me, queryFn: ({ signal }) => portalApi.me(signal) });
  const children = useQuery({ queryKey: portalKeys.children, queryFn: ({ signal }) => portalViewsApi.children(signal) });
  const messages = useQuery({ queryKey: portalKeys.messages, queryFn: ({ signal }) => portalViewsApi.messages(signal) });
  return (
    <Stack>
      <Group justify="space-between" wrap="nowrap">
        <Title order={1} size="h3">
          {t('ortu.home.greeting', { name: me.data?.name ?? '' })}
        </Title>
        <Anchor component={Link} to={`${PORTAL_BASE}/akun`} size="sm">
          {t('ortu.account.title')}
        </Anchor>
      </Group>
      {children.data?.data.length === 0 && <EmptyState message={t('ortu.home.noChildren')} />}
      {children.data?.data.map((c) => (
        <Card key={c.id} withBorder radius="md" component={Link} to={`${PORTAL_BASE}/anak/${c.id}`} data-testid="portal-child">
          <Group justify="space-between" wrap="nowrap">
            <div>
              <Text fw={600}>{c.name}</Text>
              <Text size="sm" c="dimmed">
                {c.class_name} · {t(`ortu.relation.${c.relation}`)}
              </Text>
            </div>
            <Badge size="lg" variant="light" color={c.points > 0 ? 'orange' : 'teal'}>
              {t('ortu.points', { count: c.points })}
            </Badge>
          </Group>
        </Card>
      ))}
      <Title order={2} size="h5" mt="md">
        {t('ortu.messages.title')}
      </Title>
      {messages.data?.data.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('ortu.messages.none')}
        </Text>
      )}
      {messages.data?.data.map((m) => (
        <Card key={m.id} withBorder radius="md" p="sm">
          <Text size="xs" c="dimmed">
            {m.student_name} · {fmt(m.sent_at, 'dateTime')}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {m.body}
          </Text>
        </Card>
      ))}
    </Stack>
  );
}
