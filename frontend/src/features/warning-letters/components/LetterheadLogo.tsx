import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Group, Image, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { settingsKeys, usePublicSchool } from '@/features/settings/hooks';
import { pickFile } from '@/platform';
import { lettersApi } from '../api';
import { useTouchButton } from '../touch';

export const LOGO_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';

/**
 * The letterhead logo in the school profile: a preview of what letters print, upload (checked
 * and re-encoded by the server) and remove. The sign-in page shows the same logo.
 */
export function LetterheadLogo({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('warning-letters');
  const { t: tc } = useTranslation();
  const touch = useTouchButton();
  const qc = useQueryClient();
  const school = usePublicSchool();
  const [confirm, setConfirm] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: settingsKeys.publicSchool });
  const upload = useMutation({ mutationFn: (f: File) => lettersApi.uploadLogo(f), onSuccess: refresh });
  const remove = useMutation({ mutationFn: () => lettersApi.removeLogo(), onSuccess: refresh });
  const url = school.data?.logo_url ?? null;

  const pick = async () => {
    const file = await pickFile(LOGO_ACCEPT);
    if (!file) return;
    upload.mutate(file, { onSuccess: () => notifySuccess(t('letterhead.uploaded')), onError: (err) => notifyError(err, tc) });
  };

  return (
    <Stack gap="xs" data-testid="letterhead-logo">
      <Text size="sm" fw={500}>
        {t('letterhead.logo')}
      </Text>
      <Group gap="md" align="center" wrap="wrap">
        <div
          style={{
            width: 96,
            height: 96,
            border: '1px solid var(--mantine-color-gray-3)',
            borderRadius: 8,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            background: 'var(--mantine-color-gray-0)',
            flexShrink: 0,
          }}
        >
          {url ? (
            <Image src={url} alt={t('letterhead.logoAlt')} maw={88} mah={88} fit="contain" data-testid="letterhead-logo-preview" />
          ) : (
            <Text size="xs" c="dimmed" ta="center" px={4}>
              {t('letterhead.noLogo')}
            </Text>
          )}
        </div>
        {canEdit && (
          <Stack gap="xs">
            <Group gap="xs" wrap="wrap">
              <Button variant="light" {...touch} leftSection={<IconPhotoUp size={16} aria-hidden />} loading={upload.isPending} onClick={() => void pick()} data-testid="letterhead-logo-upload">
                {url ? t('letterhead.replace') : t('letterhead.upload')}
              </Button>
              {url && (
                <Button variant="subtle" color="red" {...touch} leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setConfirm(true)} data-testid="letterhead-logo-remove">
                  {t('letterhead.remove')}
                </Button>
              )}
            </Group>
          </Stack>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {t('letterhead.logoHint')}
      </Text>
      <Modal opened={confirm} onClose={() => setConfirm(false)} title={t('letterhead.removeConfirm')} centered>
        <Stack gap="md">
          <Text size="sm">{t('letterhead.removeBody')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" {...touch} onClick={() => setConfirm(false)}>
              {tc('actions.cancel')}
            </Button>
            <Button
              color="red"
              {...touch}
              loading={remove.isPending}
              data-testid="letterhead-logo-remove-confirm"
              onClick={() =>
                remove.mutate(undefined, {
                  onSuccess: () => {
                    setConfirm(false);
                    notifySuccess(t('letterhead.removed'));
                  },
                  onError: (err) => notifyError(err, tc),
                })
              }
            >
              {t('letterhead.remove')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
