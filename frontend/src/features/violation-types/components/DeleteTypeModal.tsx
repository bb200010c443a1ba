import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { errorMessage, notifyError, notifySuccess } from '@/components/serverErrors';
import type { ViolationType } from '../api';
import { useDeleteType, useSaveType } from '../hooks';

/**
 * Confirms, then deletes. A type already used by recorded violations is refused (409): the
 * same dialog then shows the server's message and offers deactivation instead.
 */
export function DeleteTypeModal({ type, onClose }: { type: ViolationType | null; onClose: () => void }) {
  const { t } = useTranslation('violation-types');
  const { t: tc } = useTranslation();
  const remove = useDeleteType();
  const save = useSaveType();
  const [conflict, setConflict] = useState<string | null>(null);

  useEffect(() => setConflict(null), [type]);

  return (
    <Modal opened={!!type} onClose={onClose} title={t('types.delete.title')}>
      {type && (
        <Stack gap="md">
          <Text>{t('types.delete.confirm', { name: type.name })}</Text>
          {conflict && (
            <Alert color="orange" icon={<IconAlertTriangle />} role="alert" title={t('types.delete.inUse')} data-testid="delete-conflict">
              <Stack gap={6}>
                <Text size="sm">{conflict}</Text>
                {type.active && <Text size="sm">{t('types.delete.offerDeactivate')}</Text>}
              </Stack>
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {tc('actions.cancel')}
            </Button>
            {conflict ? (
              type.active && (
                <Button
                  color="orange"
                  loading={save.isPending}
                  onClick={() =>
                    save.mutate(
                      { id: type.id, input: { active: false } },
                      {
                        onSuccess: () => {
                          notifySuccess(t('types.deactivated', { name: type.name }));
                          onClose();
                        },
                        onError: (err) => notifyError(err, tc),
                      },
                    )
                  }
                >
                  {t('types.delete.deactivate')}
                </Button>
              )
            ) : (
              <Button
                color="red"
                loading={remove.isPending}
                onClick={() =>
                  remove.mutate(type.id, {
                    onSuccess: () => {
                      notifySuccess(t('types.deleted', { name: type.name }));
                      onClose();
                    },
                    onError: (err) => {
                      if (isApiError(err) && err.status === 409) setConflict(errorMessage(err, tc));
                      else notifyError(err, tc);
                    },
                  })
                }
              >
                {t('types.delete.submit')}
              </Button>
            )}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
