import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import type { UserRow } from '../api';
import { useDeleteUser } from '../hooks';

/**
 * Confirms, then deletes; the server deactivates instead when the user has recorded data. A
 * homeroom teacher's class is named, and deleting needs "release the class" ticked.
 */
export function DeleteUserModal({ user, onClose }: { user: UserRow | null; onClose: () => void }) {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const remove = useDeleteUser();
  const [release, setRelease] = useState(false);
  useEffect(() => setRelease(false), [user]);
  const cls = user?.homeroom_class;
  return (
    <Modal opened={!!user} onClose={onClose} title={t('delete.title')}>
      {user && (
        <Stack gap="md">
          <Text>{t('delete.confirm', { name: user.name, username: user.username })}</Text>
          <Text size="sm" c="dimmed">
            {t('delete.explain')}
          </Text>
          {cls && (
            <Alert color="orange" variant="light" icon={<IconAlertTriangle />} data-testid="homeroom-warning">
              <Stack gap="xs">
                <Text size="sm">{t('homeroom.deleteWarning', { name: user.name, class: cls.name })}</Text>
                <Checkbox
                  checked={release}
                  onChange={(e) => setRelease(e.currentTarget.checked)}
                  label={t('homeroom.release', { class: cls.name })}
                  data-testid="release-class"
                />
              </Stack>
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {tc('actions.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              disabled={!!cls && !release}
              onClick={() =>
                remove.mutate(
                  { id: user.id, releaseClass: release },
                  {
                    onSuccess: (res) => {
                      notifySuccess(res.deleted ? t('delete.deleted', { name: user.name }) : t('delete.deactivated', { name: user.name }));
                      onClose();
                    },
                    onError: (err) => notifyError(err, tc),
                  },
                )
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
