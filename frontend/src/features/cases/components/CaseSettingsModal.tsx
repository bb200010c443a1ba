import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Divider, Group, Modal, NumberInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '@/auth/session';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { casesApi, type CaseSettings } from '../api';
import { caseKeys, useCaseCategories } from '../hooks';

/** The school's case categories (cases.manage) and default stage durations (settings). */
export function CaseSettingsModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const qc = useQueryClient();
  const categories = useCaseCategories();
  const [name, setName] = useState('');
  const saveCategory = useMutation({
    mutationFn: (v: { id: number | null; name?: string; active?: boolean }) => casesApi.saveCategory(v.id, { name: v.name, active: v.active }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: caseKeys.categories }),
    onError: (e) => notifyError(e, tc),
  });
  const settings = useQuery({ queryKey: ['cases', 'settings'], queryFn: ({ signal }) => casesApi.settings(signal), enabled: opened && can('settings.view') });
  const [days, setDays] = useState<CaseSettings | null>(null);
  useEffect(() => {
    if (settings.data) setDays(settings.data);
  }, [settings.data]);
  const saveDays = useMutation({
    mutationFn: (v: CaseSettings) => casesApi.saveSettings(v),
    onSuccess: () => notifySuccess(t('saved')),
    onError: (e) => notifyError(e, tc),
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('settings.title')} size="lg" centered closeButtonProps={{ 'aria-label': t('close') }}>
      <Stack gap="md">
        <Title order={3} size="h5">
          {t('settings.categories')}
        </Title>
        {(categories.data ?? []).map((c) => (
          <Group key={c.id} justify="space-between" wrap="nowrap" data-testid="case-category-row">
            <Text size="sm" c={c.active ? undefined : 'dimmed'}>
              {c.name}
            </Text>
            <Switch label={t('settings.active')} checked={c.active} onChange={(e) => saveCategory.mutate({ id: c.id, active: e.currentTarget.checked })} />
          </Group>
        ))}
        <Group gap="sm" align="flex-end" wrap="nowrap">
          <TextInput label={t('settings.newCategory')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={100} style={{ flex: 1 }} />
          <Button
            disabled={!name.trim()}
            loading={saveCategory.isPending}
            onClick={() => saveCategory.mutate({ id: null, name }, { onSuccess: () => setName('') })}
          >
            {t('settings.add')}
          </Button>
        </Group>
        {can('settings.view') && days && (
          <>
            <Divider />
            <Title order={3} size="h5">
              {t('settings.durations')}
            </Title>
            <Text size="xs" c="dimmed">
              {t('settings.durationsHint')}
            </Text>
            <Group gap="sm" wrap="wrap">
              {(['identification_days', 'handling_days', 'conclusions_days'] as const).map((k) => (
                <NumberInput
                  key={k}
                  label={t(`settings.${k}`)}
                  min={1}
                  max={180}
                  value={days[k]}
                  onChange={(v) => setDays({ ...days, [k]: Number(v) || 0 })}
                  disabled={!can('settings.manage')}
                  w={150}
                />
              ))}
            </Group>
            {can('settings.manage') && (
              <Group justify="flex-end">
                <Button onClick={() => saveDays.mutate(days)} loading={saveDays.isPending}>
                  {t('save')}
                </Button>
              </Group>
            )}
          </>
        )}
      </Stack>
    </Modal>
  );
}
