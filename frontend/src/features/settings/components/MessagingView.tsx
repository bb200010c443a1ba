import { useTranslation } from 'react-i18next';
import { Badge, Card, Stack, Text, Title } from '@mantine/core';
import { ViewOnlyList } from '@/components/ViewOnly';
import { EVENTS, type MessagingSettings } from '@/features/parent-messages/api';
import { credentialsOf } from '@/features/parent-messages/settingsForm';

/** Settings → Parent messaging for someone who may look (settings.view) but not change it. */
export function MessagingView({ s }: { s: MessagingSettings }) {
  const { t } = useTranslation('settings');
  const g = s.gateway;
  const creds = credentialsOf(g.kind);
  const setText = (set?: boolean) => (set ? t('messaging.secret.saved') : t('messaging.secret.notSet'));
  return (
    <Stack gap="md" data-testid="messaging-view">
      <ViewOnlyList
        fields={[
          { label: t('messaging.gateway.kind'), value: t(`messaging.gateway.kinds.${g.kind || 'none'}`) },
          ...(g.kind
            ? [
                { label: t('messaging.gateway.baseUrl'), value: g.base_url },
                ...(creds === 'token' ? [{ label: t('messaging.gateway.token'), value: setText(g.token_set) }] : []),
                ...(creds === 'basic'
                  ? [
                      { label: t('messaging.gateway.username'), value: g.username },
                      { label: t('messaging.gateway.password'), value: setText(g.password_set) },
                    ]
                  : []),
                { label: t('messaging.gateway.timeout'), value: `${g.timeout_seconds} ${t('messaging.gateway.seconds')}` },
              ]
            : []),
          {
            label: t('messaging.quiet.title'),
            value: s.quiet_hours ? t('messaging.quiet.range', { from: s.quiet_hours.from, to: s.quiet_hours.to }) : t('messaging.quiet.off'),
          },
        ]}
      />
      {EVENTS.map((e) => {
        const ev = s.events[e];
        return (
          <Card key={e} withBorder padding="sm">
            <Stack gap={6}>
              <Title order={3} size="h6">
                {t(`messaging.events.${e}.label`)}{' '}
                <Badge variant="light" color={ev.enabled ? 'teal' : 'gray'} style={{ textTransform: 'none' }}>
                  {ev.enabled ? t('messaging.events.on') : t('messaging.events.off')}
                </Badge>
              </Title>
              {e === 'violation' && ev.enabled && (
                <Text size="sm">
                  {t('messaging.events.violation.minPointsView', { n: ev.min_points })}
                  {' · '}
                  {ev.include_automatic ? t('messaging.events.violation.automaticOn') : t('messaging.events.violation.automaticOff')}
                </Text>
              )}
              {ev.template && (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {ev.template}
                </Text>
              )}
            </Stack>
          </Card>
        );
      })}
    </Stack>
  );
}
