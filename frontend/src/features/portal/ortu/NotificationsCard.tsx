import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notifyError } from '@/components/serverErrors';
import { prefsApi, type NotificationPrefs, type NotifyKind, type NotifyMode } from '../api';
import { portalKeys } from './paths';

/**
 * The guardian's notification preferences: per kind of message, at once, in
 * the daily digest, or off (the modes the server allows for each kind:
 * warning letters and summons are never off, "belum hadir" has no digest).
 */
export function NotificationsCard() {
  const { t } = useTranslation('portal');
  const qc = useQueryClient();
  const key = [...portalKeys.all, 'preferences'];
  const prefs = useQuery({ queryKey: key, queryFn: ({ signal }) => prefsApi.get(signal) });
  const change = async (kind: NotifyKind, mode: NotifyMode) => {
    try {
      const out = await prefsApi.save({ [kind]: mode });
      qc.setQueryData<NotificationPrefs>(key, out);
    } catch (err) {
      notifyError(err, t);
    }
  };
  const p = prefs.data;
  if (!p) return null;
  return (
    <Paper withBorder p="md" radius="md" data-testid="portal-preferences">
      <Title order={2} size="h5" mb="xs">
        {t('ortu.prefs.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('ortu.prefs.help', { at: p.digest_at })}
      </Text>
      <Stack gap="sm">
        {p.preferences
          .filter((k) => k.kind !== 'absent_notice' || p.absent_notice)
          .map((k) => (
            <div key={k.kind}>
              <Text size="sm" fw={500} id={`pref-${k.kind}`}>
                {t(`ortu.prefs.kind.${k.kind}`)}
              </Text>
              <SegmentedControl
                fullWidth
                size="xs"
                aria-labelledby={`pref-${k.kind}`}
                value={k.mode}
                onChange={(v) => void change(k.kind, v as NotifyMode)}
                data={k.modes.map((m) => ({ value: m, label: t(`ortu.prefs.mode.${m}`) }))}
                data-testid={`pref-${k.kind}`}
              />
            </div>
          ))}
      </Stack>
    </Paper>
  );
}
