import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Alert, Badge, Button, Card, Center, Group, Loader, NumberInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconAlertCircle, IconInfoCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { useSession } from '@/auth/session';
import { PageHeader } from '@/components/PageHeader';
import { ViewOnlyField, ViewOnlyList, ViewOnlyNotice } from '@/components/ViewOnly';
import { errorMessage, notifySuccess } from '@/components/serverErrors';
import { WhatIfPanel } from '@/features/achievements/components/WhatIfPanel';
import { ColourSelect } from '../components/ColourSelect';
import { cssColour, MANTINE_COLOURS, mantineColour } from '../grouping';
import { useSaveThresholds, useThresholds } from '../hooks';
import { useTouchSize } from '../touch';
import {
  hasErrors,
  nextRow,
  rowsFromThresholds,
  strictlyIncreasing,
  thresholdErrorsFromFields,
  thresholdsInput,
  validateThresholdRows,
  type ThresholdErrors,
  type ThresholdRow,
} from '../thresholds';
import '@/app/pageStyles';

const MAX_LEVELS = 10;
const noErrors: ThresholdErrors = { rows: {}, general: [] };

export default function ThresholdsPage() {
  const { t } = useTranslation('violation-types');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const canManage = can('violation_types.manage');
  const touch = useTouchSize();
  const query = useThresholds();
  const save = useSaveThresholds();

  const [rows, setRows] = useState<ThresholdRow[]>([]);
  const [dirty, setDirty] = useState(false);
  const [errors, setErrors] = useState<ThresholdErrors>(noErrors);

  useEffect(() => {
    if (query.data && !dirty) setRows(rowsFromThresholds(query.data.data));
  }, [query.data, dirty]);

  const change = (i: number, patch: Partial<ThresholdRow>) => {
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
    setDirty(true);
    // The edited field's error goes; the others stay until the next save.
    setErrors((e) => {
      const row = e.rows[i];
      if (!row) return e;
      const rest = { ...row };
      for (const k of Object.keys(patch)) delete rest[k as keyof typeof rest];
      return { ...e, rows: { ...e.rows, [i]: rest } };
    });
  };

  const add = () => {
    setRows((rs) => [...rs, nextRow(rs)]);
    setDirty(true);
  };
  const remove = (i: number) => {
    setRows((rs) => rs.filter((_, j) => j !== i));
    setErrors(noErrors);
    setDirty(true);
  };
  const reset = () => {
    setDirty(false);
    setErrors(noErrors);
    if (query.data) setRows(rowsFromThresholds(query.data.data));
  };

  const submit = () => {
    const local = validateThresholdRows(rows, { required: tc('validation.required'), positive: t('thresholds.validation.positive') });
    if (hasErrors(local)) {
      setErrors(local);
      return;
    }
    setErrors(noErrors);
    save.mutate(thresholdsInput(rows), {
      onSuccess: (res) => {
        setRows(rowsFromThresholds(res.data));
        setDirty(false);
        notifySuccess(t('thresholds.saved'));
      },
      onError: (err) => {
        if (isApiError(err) && err.hasFieldErrors) {
          const e = thresholdErrorsFromFields(err.fields);
          setErrors(Object.keys(e.rows).length ? e : { ...e, general: e.general.length ? e.general : [err.message] });
        } else {
          setErrors({ rows: {}, general: [errorMessage(err, tc)] });
        }
      },
    });
  };

  const rowErrorCount = Object.values(errors.rows).filter((r) => Object.keys(r).length > 0).length;

  if (!canManage) return <ThresholdsView />;

  return (
    <>
      <PageHeader title={t('thresholds.title')} description={t('thresholds.description')} />
      <Alert variant="light" color="blue" icon={<IconInfoCircle />} mb="md" data-testid="thresholds-rule">
        {t('thresholds.rule')}
      </Alert>
      {query.isPending && (
        <Center p="xl">
          <Loader aria-label={tc('loading')} />
        </Center>
      )}
      {query.isError && (
        <Text c="red" role="alert">
          {errorMessage(query.error, tc)}
        </Text>
      )}
      <Stack gap="md" data-testid="thresholds">
        {rows.map((r, i) => {
          const e = errors.rows[i] ?? {};
          return (
            <Card
              key={r.key}
              withBorder
              data-testid={`threshold-row-${i}`}
              style={{ borderLeft: `6px solid ${cssColour(r.colour)}` }}
            >
              <Stack gap="sm">
                <Group justify="space-between" wrap="nowrap">
                  <Badge size="lg" color={mantineColour(r.colour)}>
                    {t('thresholds.level', { level: i + 1 })}
                  </Badge>
                  {canManage && (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size={touch}
                      aria-label={t('thresholds.remove', { level: i + 1 })}
                      onClick={() => remove(i)}
                      disabled={rows.length <= 1}
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  )}
                </Group>
                {e.level && (
                  <Text size="sm" c="red">
                    {e.level}
                  </Text>
                )}
                <Group grow align="flex-start" wrap="wrap" gap="sm">
                  <TextInput
                    label={t('thresholds.fields.name')}
                    value={r.name}
                    onChange={(ev) => change(i, { name: ev.currentTarget.value })}
                    error={e.name}
                    readOnly={!canManage}
                    maxLength={50}
                    miw={140}
                    required
                  />
                  <NumberInput
                    label={t('thresholds.fields.minPoints')}
                    value={r.min_points}
                    onChange={(v) => change(i, { min_points: typeof v === 'number' ? v : v === '' ? '' : Number(v) })}
                    error={e.min_points}
                    readOnly={!canManage}
                    allowDecimal={false}
                    clampBehavior="none"
                    miw={140}
                    required
                  />
                  <ColourSelect
                    label={t('thresholds.fields.colour')}
                    value={r.colour}
                    onChange={(v) => change(i, { colour: v })}
                    error={e.colour}
                    readOnly={!canManage}
                    miw={140}
                  />
                </Group>
                <Textarea
                  label={t('thresholds.fields.text')}
                  value={r.default_text}
                  onChange={(ev) => change(i, { default_text: ev.currentTarget.value })}
                  error={e.default_text}
                  readOnly={!canManage}
                  autosize
                  minRows={2}
                  maxRows={8}
                  maxLength={5000}
                />
              </Stack>
            </Card>
          );
        })}
      </Stack>
      {canManage && query.data && (
        <Stack gap="sm" mt="md">
          {rows.length > 1 && !strictlyIncreasing(rows) && (
            <Text size="sm" c="orange.9" data-testid="thresholds-not-increasing">
              {t('thresholds.notIncreasing')}
            </Text>
          )}
          {(errors.general.length > 0 || rowErrorCount > 0) && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="thresholds-error">
              {[...errors.general, ...(rowErrorCount > 0 ? [t('thresholds.fixErrors')] : [])].join(' ')}
            </Alert>
          )}
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Group gap="xs">
              <Button variant="default" leftSection={<IconPlus size={18} />} onClick={add} disabled={rows.length >= MAX_LEVELS}>
                {t('thresholds.add')}
              </Button>
              {rows.length >= MAX_LEVELS && (
                <Text size="xs" c="dimmed">
                  {t('thresholds.max', { max: MAX_LEVELS })}
                </Text>
              )}
            </Group>
            <Group gap="sm">
              {dirty && (
                <Button variant="subtle" color="gray" onClick={reset}>
                  {t('thresholds.reset')}
                </Button>
              )}
              <Button onClick={submit} loading={save.isPending} disabled={!dirty || rows.length === 0}>
                {t('thresholds.save')}
              </Button>
            </Group>
          </Group>
          {dirty && (
            <Text size="xs" c="dimmed" ta="right">
              {t('thresholds.unsaved')}
            </Text>
          )}
          {can('points_policy.manage') && (
            <WhatIfPanel thresholds={thresholdsInput(rows).map((r) => ({ level: r.level, name: r.name, min_points: r.min_points }))} />
          )}
        </Stack>
      )}
    </>
  );
}

/** What a user without violation_types.manage sees: the thresholds as text, one "view only" mark, no editing rules. */
function ThresholdsView() {
  const { t } = useTranslation('violation-types');
  const { t: tc } = useTranslation();
  const query = useThresholds();
  const colourName = (c: string) => ((MANTINE_COLOURS as readonly string[]).includes(c) ? t(`colours.${c}`) : t('colours.custom', { value: c }));
  return (
    <>
      <PageHeader title={t('thresholds.title')} description={t('thresholds.description')} />
      <Group gap="sm" mb="md" wrap="wrap">
        <ViewOnlyNotice />
        <Text size="sm" c="dimmed">
          {t('thresholds.viewOnlyHint')}
        </Text>
      </Group>
      {query.isPending && (
        <Center p="xl">
          <Loader aria-label={tc('loading')} />
        </Center>
      )}
      {query.isError && (
        <Text c="red" role="alert">
          {errorMessage(query.error, tc)}
        </Text>
      )}
      <Stack gap="md" data-testid="thresholds">
        {(query.data?.data ?? []).map((r, i) => (
          <Card key={r.level} withBorder data-testid={`threshold-row-${i}`} style={{ borderLeft: `6px solid ${cssColour(r.colour)}` }}>
            <Stack gap="sm">
              <Badge size="lg" color={mantineColour(r.colour)}>
                {t('thresholds.level', { level: r.level })}
              </Badge>
              <ViewOnlyList
                cols={3}
                fields={[
                  { label: t('thresholds.fields.name'), value: r.name },
                  { label: t('thresholds.fields.minPoints'), value: r.min_points },
                  { label: t('thresholds.fields.colour'), value: colourName(r.colour) },
                ]}
              />
              <ViewOnlyField label={t('thresholds.fields.text')} value={<span style={{ whiteSpace: 'pre-wrap' }}>{r.default_text}</span>} />
            </Stack>
          </Card>
        ))}
      </Stack>
    </>
  );
}
