import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Button, Group, Image, Input, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCamera, IconPhotoPlus, IconX } from '@tabler/icons-react';
import { pickFile, platform } from '@/platform';
import { MAX_PHOTOS } from '../api';
import { addPhotos } from '../record';

/**
 * Up to five evidence photos with previews. Phones get "take a photo" (the back camera) beside
 * "choose"; the desktop app picks through its native dialog (src/platform).
 */
export function PhotoPicker({
  value,
  onChange,
  onRefused,
  narrow,
  error,
}: {
  value: File[];
  onChange: (files: File[]) => void;
  onRefused: (n: number) => void;
  narrow: boolean;
  error?: string;
}) {
  const { t } = useTranslation('violations');
  const camera = useRef<HTMLInputElement>(null);
  const gallery = useRef<HTMLInputElement>(null);
  const previews = useMemo(() => value.map((f) => URL.createObjectURL(f)), [value]);
  useEffect(() => () => previews.forEach((u) => URL.revokeObjectURL(u)), [previews]);
  const full = value.length >= MAX_PHOTOS;

  const take = (list: FileList | null) => {
    const { files, refused } = addPhotos(value, [...(list ?? [])]);
    onChange(files);
    if (refused > 0) onRefused(refused);
  };
  const choose = async () => {
    if (platform.kind === 'desktop') {
      const f = await pickFile('image/*');
      if (f) {
        const { files, refused } = addPhotos(value, [f]);
        onChange(files);
        if (refused > 0) onRefused(refused);
      }
      return;
    }
    gallery.current?.click();
  };

  return (
    <Input.Wrapper label={t('form.photos')} description={t('form.photosHint', { max: MAX_PHOTOS })} error={error}>
      <Stack gap="xs" mt={4}>
        <Group gap="sm">
          {narrow && platform.kind !== 'desktop' && (
            <Button variant="light" leftSection={<IconCamera size={18} aria-hidden />} onClick={() => camera.current?.click()} disabled={full} data-testid="photo-camera">
              {t('form.takePhoto')}
            </Button>
          )}
          <Button variant="default" leftSection={<IconPhotoPlus size={18} aria-hidden />} onClick={() => void choose()} disabled={full} data-testid="photo-choose">
            {t('form.choosePhoto')}
          </Button>
          <Text size="sm" c="dimmed">
            {t('form.photoCount', { n: value.length, max: MAX_PHOTOS })}
          </Text>
        </Group>
        <input
          ref={camera}
          type="file"
          accept="image/*"
          capture="environment"
          hidden
          onChange={(e) => {
            take(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
        <input
          ref={gallery}
          type="file"
          accept="image/*"
          multiple
          hidden
          data-testid="photo-input"
          onChange={(e) => {
            take(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
        {value.length > 0 && (
          <SimpleGrid cols={{ base: 3, sm: 5 }} spacing="xs" data-testid="photo-previews">
            {value.map((f, i) => (
              <div key={`${f.name}-${i}`} style={{ position: 'relative' }}>
                <Image src={previews[i]} alt={t('photos.preview', { n: i + 1 })} radius="sm" h={88} fit="cover" />
                <ActionIcon
                  variant="filled"
                  color="dark"
                  size={32}
                  radius="xl"
                  aria-label={t('form.removePhoto', { n: i + 1 })}
                  onClick={() => onChange(value.filter((_, j) => j !== i))}
                  style={{ position: 'absolute', top: 4, right: 4 }}
                >
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              </div>
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
