import { useTranslation } from 'react-i18next';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { User } from '@/api/types';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { useDeleteUser } from '../hooks';

/** Confirms, then deletes; the server deactivates instead when the user has recorded data. */
export function DeleteUserModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const remove = useDeleteUser();
  return (
    <Modal opened={!!user} onClose={onClose} title={t('delete.title')}>
      {user && (
        <Stack gap="md">
          <Text>{t('delete.confirm', { name: user.name, username: user.username })}</Text>
          <Text size="sm" c="dimmed">
            {t('delete.explain')}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {tc('actions.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(user.id, {
                  onSuccess: (res) => {
                    notifySuccess(res.deleted ? t('delete.deleted', { name: user.name }) : t('delete.deactivated', { name: user.name }));
                    onClose();
                  },
                  onError: (err) => notifyError(err, tc),
                })
              }
            >
              {t('delete.submit')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
