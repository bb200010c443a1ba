import { useState } from 'react';
import { Button, Modal, Stack, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import '@/app/pageStyles';

/**
 * The refusal dialog of a pending excuse, in its own chunk: the dashboard and the attendance
 * form show the list at once and download the dialog (Mantine's Modal) only when refusing.
 */
export default function RefuseExcuseModal({ onClose, onRefuse, pending }: { onClose: () => void; onRefuse: (reason: string) => void; pending: boolean }) {
  const { t } = useTranslation('portal');
  const [reason, setReason] = useState('');
  return (
    <Modal opened onClose={onClose} title={t('excuses.refuseTitle')}>
      <Stack>
        <Textarea label={t('excuses.refusalReason')} value={reason} onChange={(ev) => setReason(ev.currentTarget.value)} maxLength={500} autosize minRows={2} />
        <Button color="red" disabled={!reason.trim()} loading={pending} onClick={() => onRefuse(reason)}>
          {t('excuses.refuse')}
        </Button>
      </Stack>
    </Modal>
  );
}
