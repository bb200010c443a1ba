import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ActionIcon, Alert, Button, Card, Group, NumberInput, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconFlask, IconPlus, IconTrash } from '@tabler/icons-react';
import { api } from '@/api/client';
import { isApiError } from '@/api/errors';
import { errorMessage } from '@/components/serverErrors';
import { policyApi, simulateApi, type PointsPolicy, type PolicyMode, type SimulateRequest, type SimulateResponse } from '../api';

type PolicyNumbers = Record<Exclude<keyof PointsPolicy, 'mode' | 'updated_at'>, number | ''>;

interface TypeOption {
  id: number;
  name: string;
  points: number;
}

/**
 * "What if": replays a draft (the thresholds being edited, draft type points, a draft policy)
 * on this academic year's data and shows, before anything is saved, how many students hold
 * each level and who would cross or fall back, per class. It saves nothing.
 */
export function WhatIfPanel({ thresholds, withTypes = false }: { thresholds?: SimulateRequest['thresholds']; withTypes?: boolean }) {
  const { t } = useTranslation('achievements');
  const { t: tc } = useTranslation();
  const policy = useQuery({ queryKey: ['achievements', 'policy'], queryFn: ({ signal }) => policyApi.get(signal) });
  const types = useQuery({
    queryKey: ['achievements', 'violation-types-for-simulation'],
    queryFn: ({ signal }) => api.get<{ data: TypeOption[] }>('/violation-types', { active: true }, signal),
    enabled: withTypes,
  });
  const [mode, setMode] = useState<'' | PolicyMode>('');
  // The draft policy's own numbers: today's until the user edits one.
  const [edited, setEdited] = useState<PolicyNumbers | null>(null);
  const nums: PolicyNumbers = edited ?? {
    offset_cap_percent: policy.data?.offset_cap_percent ?? 50,
    amnesty_clean_school_days: policy.data?.amnesty_clean_school_days ?? 30,
    amnesty_points: policy.data?.amnesty_points ?? 10,
  };
  const setNum = (k: keyof PolicyNumbers) => (v: string | number) => setEdited({ ...nums, [k]: v === '' ? '' : Number(v) });
  const [typePoints, setTypePoints] = useState<{ type_id: number | null; points: number | '' }[]>([]);
  const [result, setResult] = useState<SimulateResponse | null>(null);
  const run = useMutation({
    mutationFn: () => {
      const draft: SimulateRequest = {};
      if (thresholds) draft.thresholds = thresholds;
      const tp = typePoints.filter((r) => r.type_id !== null && r.points !== '').map((r) => ({ type_id: r.type_id as number, points: Number(r.points) }));
      if (tp.length > 0) draft.type_points = tp;
      if (mode)
        draft.policy = {
          mode,
          offset_cap_percent: Number(nums.offset_cap_percent),
          amnesty_clean_school_days: Number(nums.amnesty_clean_school_days),
          amnesty_points: Number(nums.amnesty_points),
        };
      return simulateApi.run(draft);
    },
    onSuccess: setResult,
  });
  const fieldError = (k: keyof PolicyNumbers) => (isApiError(run.error) ? run.error.fields[`policy.${k}`] : undefined);
  const levelName = (n: number) => result?.levels.find((l) => l.level === n)?.name ?? String(n);
  return (
    <Card withBorder p={{ base: 'sm', sm: 'md' }} data-testid="what-if">
      <Stack gap="sm">
        <div>
          <Title order={3} size="h5">
            {t('whatIf.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('whatIf.description')}
          </Text>
        </div>
        {withTypes && (
          <Stack gap="xs">
            {typePoints.map((r, i) => (
              <Group key={i} gap="xs" wrap="nowrap" align="flex-end">
                <Select
                  style={{ flex: 1, minWidth: 0 }}
                  label={i === 0 ? t('whatIf.type') : undefined}
                  aria-label={t('whatIf.type')}
                  searchable
                  data={(types.data?.data ?? []).map((ty) => ({ value: String(ty.id), label: `${ty.name} (${ty.points})` }))}
                  value={r.type_id === null ? null : String(r.type_id)}
                  onChange={(v) => setTypePoints((rs) => rs.map((x, j) => (j === i ? { ...x, type_id: v ? Number(v) : null } : x)))}
                />
                <NumberInput
                  w={90}
                  label={i === 0 ? t('whatIf.points') : undefined}
                  aria-label={t('whatIf.points')}
                  min={0}
                  max={1000}
                  value={r.points}
                  onChange={(v) => setTypePoints((rs) => rs.map((x, j) => (j === i ? { ...x, points: v === '' ? '' : Number(v) } : x)))}
                />
                <ActionIcon variant="subtle" color="red" size="lg" aria-label={tc('actions.delete')} onClick={() => setTypePoints((rs) => rs.filter((_, j) => j !== i))}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
            <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} />} onClick={() => setTypePoints((rs) => [...rs, { type_id: null, points: '' }])} style={{ alignSelf: 'flex-start' }}>
              {t('whatIf.addType')}
            </Button>
          </Stack>
        )}
        <Select
          label={t('whatIf.policy')}
          data={[
            { value: '', label: t('whatIf.policyToday') },
            ...(['none', 'offset', 'amnesty'] as const).map((m) => ({ value: m, label: t(`policy.mode.${m}`) })),
          ]}
          value={mode}
          onChange={(v) => setMode((v ?? '') as '' | PolicyMode)}
          allowDeselect={false}
          data-testid="what-if-policy"
        />
        {mode === 'offset' && (
          <NumberInput
            label={t('policy.cap')}
            min={1}
            max={100}
            suffix=" %"
            value={nums.offset_cap_percent}
            onChange={setNum('offset_cap_percent')}
            error={fieldError('offset_cap_percent')}
            data-testid="what-if-cap"
          />
        )}
        {mode === 'amnesty' && (
          <Group grow wrap="wrap" align="flex-start">
            <NumberInput
              label={t('policy.days')}
              min={1}
              max={365}
              value={nums.amnesty_clean_school_days}
              onChange={setNum('amnesty_clean_school_days')}
              error={fieldError('amnesty_clean_school_days')}
              data-testid="what-if-days"
            />
            <NumberInput
              label={t('policy.points')}
              min={1}
              max={1000}
              value={nums.amnesty_points}
              onChange={setNum('amnesty_points')}
              error={fieldError('amnesty_points')}
              data-testid="what-if-amnesty-points"
            />
          </Group>
        )}
        <Button leftSection={<IconFlask size={16} />} variant="light" onClick={() => run.mutate()} loading={run.isPending} data-testid="what-if-run" style={{ alignSelf: 'flex-start' }}>
          {t('whatIf.run')}
        </Button>
        {run.isError && <Alert color="red">{errorMessage(run.error, tc)}</Alert>}
        {result && (
          <Stack gap="xs" data-testid="what-if-result">
            <Text size="sm" fw={600} data-testid="what-if-summary">
              {t('whatIf.summary', {
                crossed: result.changes.filter((c) => c.change === 'crossed').length,
                fell: result.changes.filter((c) => c.change === 'fell_back').length,
                students: result.students,
              })}
            </Text>
            <Table.ScrollContainer minWidth={280}>
              <Table striped withTableBorder fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('whatIf.level')}</Table.Th>
                    <Table.Th ta="right">{t('whatIf.today')}</Table.Th>
                    <Table.Th ta="right">{t('whatIf.draft')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {result.levels.map((l) => (
                    <Table.Tr key={l.level} data-testid={`what-if-level-${l.level}`}>
                      <Table.Td>{l.name}</Table.Td>
                      <Table.Td ta="right">{l.today}</Table.Td>
                      <Table.Td ta="right">{l.draft}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {result.classes.map((c) => (
              <Text key={c.class_name} size="sm">
                {t('whatIf.class', { name: c.class_name || '–', crossed: c.crossed, fell: c.fell_back })}
              </Text>
            ))}
            {result.changes.slice(0, 50).map((c) => (
              <Text key={c.student_id} size="xs" c="dimmed" data-testid="what-if-change">
                {t(c.change === 'crossed' ? 'whatIf.crossed' : 'whatIf.fellBack', {
                  name: c.name,
                  class: c.class_name || '–',
                  from: c.today_level === 0 ? levelName(0) : levelName(c.today_level),
                  to: levelName(c.draft_level),
                  today: c.today_total,
                  draft: c.draft_total,
                })}
              </Text>
            ))}
            <Alert color="blue" data-testid="what-if-note">
              {result.note}
            </Alert>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
