import { useTranslation } from 'react-i18next';
import { useDisclosure } from '@mantine/hooks';
import { Button, Modal } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { SyncPanel } from './SyncPanel';

/** "Sync from student affairs" on the Students page, for students.sync (e.g. BK) without Settings access. */
export function SyncButton() {
  const { t } = useTranslation('students');
  const [opened, { open, close }] = useDisclosure(false);
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
