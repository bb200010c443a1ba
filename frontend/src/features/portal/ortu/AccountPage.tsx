import './pageStyles';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import { portalApi, pushApi } from '../api';
import { enablePush, forgetPortalData, pushSupported } from './install';
import { NotificationsCard } from './NotificationsCard';
import { PORTAL_BASE, portalKeys } from './paths';

/** The guardian's account: consent, sign out here or everywhere, withdraw consent. */
export function AccountPage() {
  const { t } = useTranslation('portal');
  const fmt = useFormatDate();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const me = useQuery({ queryKey: portalKeys.me, queryFn: ({ signal }) => portalApi.me(signal) });
  const [confirm, setConfirm] = useState(false);
  const leave = async (fn: () => Promise<void>) => {
    try {
      await fn();
      await forgetPortalData();
      qc.removeQueries({ queryKey: portalKeys.all });
      void navigate(`${PORTAL_BASE}/masuk`, { replace: true });
    } catch (err) {
      notifyError(err, t);
    }
  };
  const g = me.data;
  const [pushing, setPushing] = useState(false);
  const turnOnPush = async () => {
    setPushing(true);
    try {
      const key = await pushApi.key();
      if (await enablePush(key.public_key, pushApi.subscribe)) notifySuccess(t('ortu.account.pushOn'));
    } catch (err) {
      notifyError(err, t);
    } finally {
      setPushing(false);
    }
  };
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('ortu.account.title')}
      </Title>
      {g && (
        <Paper withBorder p="md" radius="md">
          <Text fw={600}>{g.name}</Text>
          <Text size="sm" c="dimmed">+{g.phone}</Text>
          {g.consent_at && (
            <Text size="sm" mt="xs">
              {t('ortu.account.consent', { at: fmt(g.consent_at, 'dateTime'), channel: t(`ortu.channel.${g.consent_channel || 'whatsapp_code'}`) })}
            </Text>
          )}
        </Paper>
      )}
      {g && !g.student_id && <NotificationsCard />}
      {pushSupported() && !g?.student_id && (
        <Button variant="light" onClick={() => void turnOnPush()} loading={pushing}>
          {t('ortu.account.push')}
        </Button>
      )}
      <Button variant="default" onClick={() => void leave(portalApi.logout)}>
        {t('ortu.account.signOut')}
      </Button>
      <Button variant="default" onClick={() => void leave(portalApi.logoutAll)} data-testid="portal-sign-out-all">
        {t('ortu.account.signOutAll')}
      </Button>
      <Button color="red" variant="light" onClick={() => setConfirm(true)} hidden={!!g?.student_id}>
        {t('ortu.account.withdraw')}
      </Button>
      <Modal opened={confirm} onClose={() => setConfirm(false)} title={t('ortu.account.withdraw')}>
        <Stack>
          <Text size="sm">{t('ortu.account.withdrawHelp')}</Text>
          <Button color="red" onClick={() => void leave(portalApi.withdraw)}>
            {t('ortu.account.withdrawConfirm')}
          </Button>
        </Stack>
      </Modal>
    </Stack>
  );
}
