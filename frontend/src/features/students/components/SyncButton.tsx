import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDisclosure } from '@mantine/hooks';
import { Anchor, Button, Group, Modal, Text } from '@mantine/core';
import { IconInfoCircle, IconRefresh } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { useSyncReadiness } from '../hooks';
import { SyncPanel } from './SyncPanel';

/**
 * "Sync from student affairs" on the Students page, for students.sync (e.g. BK) without Settings
 * access. With no student-affairs URL set there is nothing to run: instead of a button that can
 * only fail, it says what to do — an admin gets the way to Settings → Integrations, anyone else
 * is told to ask the admin (they cannot open that page).
 */
export function SyncButton() {
  const { t } = useTranslation('students');
  const { can } = useSession();
  const status = useSyncReadiness();
  const [opened, { open, close }] = useDisclosure(false);
  if (!status.data) return null;
  if (!status.data.configured) {
    return (
      <Group gap={6} wrap="nowrap" maw={360} data-testid="sync-not-configured">
        <IconInfoCircle size={18} aria-hidden style={{ flexShrink: 0 }} />
        <Text size="sm">
          {can('settings.manage') ? (
            <>
              {t('sync.notConfiguredAdmin')}{' '}
              <Anchor component={Link} to="/settings/integrations" size="sm">
                {t('sync.openSettings')}
              </Anchor>
            </>
          ) : (
            t('sync.notConfiguredAsk')
          )}
        </Text>
      </Group>
    );
  }
  return (
    <>
      <Button variant="light" leftSection={<IconRefresh size={18} />} onClick={open} data-testid="open-sync">
        {t('sync.open')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('sync.title')} size="xl">
        <SyncPanel withHistory />
      </Modal>
    </>
  );
}
