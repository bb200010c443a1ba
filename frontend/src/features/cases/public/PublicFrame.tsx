// Every Mantine sheet, shared with the app shell's chunk: these pages run outside the shell.
import '@/app/shellStyles';
import '@/app/pageStyles';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Container, Group, Stack, Text, Title } from '@mantine/core';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import i18n from '@/i18n';
import en from '../i18n/en.json';
import id from '../i18n/id.json';

// Feature catalogues come with the app shell; these public pages have none, so their chunk
// adds the cases namespace itself.
i18n.addResourceBundle('id', 'cases', id, true, false);
i18n.addResourceBundle('en', 'cases', en, true, false);

/** The frame of /lapor and /lapor/lacak: phone first, no sign-in, ID/EN. */
export function PublicFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('cases');
  return (
    <Container size={560} px="md" py="lg">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2}>
            <Title order={1} size="h3">
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {t('public.tagline')}
            </Text>
          </Stack>
          <LanguageSwitch />
        </Group>
        {children}
      </Stack>
    </Container>
  );
}
