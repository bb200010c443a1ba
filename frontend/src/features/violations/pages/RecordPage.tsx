import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { Alert, Anchor, Button, Card, Divider, Group, MultiSelect, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { DatePickerInput, TimePicker } from '@mantine/dates';
import { IconAlertCircle, IconAlertTriangle, IconCalendar, IconCircleCheck, IconMail } from '@tabler/icons-react';
import { notifications } from '@mantine/notifications';
import { useSession } from '@/auth/session';
import { PageHeader } from '@/components/PageHeader';
import { applyServerErrors } from '@/components/serverErrors';
import { useStudent } from '@/features/students/hooks';
import type { Student } from '@/features/students/types';
import { groupByCategory } from '@/features/violation-types/grouping';
import { yearLabel } from '@/features/warning-letters/academicYear';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import { CategoryBadge, PointsBadge } from '../components/Badges';
import { PhotoPicker } from '../components/PhotoPicker';
import { PointsProgress } from '../components/PointsProgress';
import { StudentPicker } from '../components/StudentPicker';
import { useRecordViolations, useStudentPoints, useThresholdList, useTypeList } from '../hooks';
import { paths } from '../paths';
import { previewPoints, standingToPoints } from '../preview';
import { nowInJakarta, occurredAt, prefilledSanction } from '../record';
import type { CreateViolationsResponse } from '../types';
import '@/app/pageStyles';

interface FormValues {
  student_id: number | null;
  type_ids: string[];
  /** The date part (YYYY-MM-DD, Jakarta); server errors on occurred_at land here. */
  occurred_at: string | null;
  time: string;
  location: string;
  sanction: string;
  description: string;
  photos: File[];
}

function Done({ result, onAgain }: { result: CreateViolationsResponse; onAgain: () => void }) {
  const { t } = useTranslation('violations');
  const num = useFormatNumber();
  const letters = result.letters ?? [];
  const first = result.violations[0];
  return (
    <Card withBorder data-testid="record-done">
      <Stack gap="md">
        <Group gap="xs">
          <IconCircleCheck size={24} color="var(--mantine-color-teal-8)" aria-hidden />
          <Title order={2} size="h3">
            {t('done.title', { count: result.violations.length })}
          </Title>
        </Group>
        {letters.map((l) => (
          <Alert key={l.id} color="orange" icon={<IconMail size={18} aria-hidden />} title={t('done.letter', { name: l.name || `SP ${l.level}` })} data-testid="letter-issued">
            {t('done.letterText', { name: l.name || `SP ${l.level}`, points: num(l.points || result.points.total) })}
          </Alert>
        ))}
        <Stack gap={6} data-testid="created-violations">
          {result.violations.map((v) => (
            <Group key={v.id} gap="xs" wrap="wrap">
              <Anchor component={Link} to={paths.detail(v.id)} size="sm" fw={500}>
                {v.type_name}
              </Anchor>
              <CategoryBadge name={v.category_name} colour={v.category_colour} />
              <PointsBadge points={v.points} />
            </Group>
          ))}
        </Stack>
        <PointsProgress points={result.points} label={first?.student_name} testId="points-after" />
        <Group gap="sm">
          {first && (
            <Button component={Link} to={paths.detail(first.id)} data-testid="open-violation">
              {t('done.open')}
            </Button>
          )}
          <Button component={Link} to={paths.list} variant="default">
            {t('done.list')}
          </Button>
          <Button variant="subtle" onClick={onAgain}>
            {t('done.again')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export default function RecordPage() {
  const { t } = useTranslation('violations');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const num = useFormatNumber();
  const fmt = useFormatDate();
  const navigate = useNavigate();
  const narrow = !!useMediaQuery('(max-width: 48em)');
  const [sp] = useSearchParams();
  const presetId = Number(sp.get('student_id')) || 0;
  const preset = useStudent(presetId);

  const [student, setStudent] = useState<Student | null>(null);
  useEffect(() => {
    if (preset.data && !student) {
      setStudent(preset.data);
      form.setFieldValue('student_id', preset.data.id);
    }
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when what it shows changes
  }, [preset.data]);

  const types = useTypeList('true');
  const thresholds = useThresholdList(can('violation_types.view'));
  const points = useStudentPoints(student?.id ?? null);
  const record = useRecordViolations();
  const [formError, setFormError] = useState<string | null>(null);
  const [result, setResult] = useState<CreateViolationsResponse | null>(null);
  const lastPrefill = useRef('');

  const start = nowInJakarta();
  const form = useForm<FormValues>({
    initialValues: { student_id: null, type_ids: [], occurred_at: start.date, time: start.time, location: '', sanction: '', description: '', photos: [] },
    validate: {
      student_id: (v) => (v ? null : tc('validation.required')),
      type_ids: (v) => (v.length > 0 ? null : t('form.typeRequired')),
      occurred_at: (v) => (v ? null : tc('validation.required')),
      time: (v) => (v ? null : tc('validation.required')),
    },
  });

  // Types a person may record: active, not the attendance (system) ones.
  const recordable = useMemo(() => (types.data?.data ?? []).filter((ty) => ty.active && !ty.is_system), [types.data]);
  const groups = useMemo(() => groupByCategory(recordable, types.data?.categories ?? []), [recordable, types.data]);
  const chosen = recordable.filter((ty) => form.values.type_ids.includes(String(ty.id)));

  useEffect(() => {
    const next = prefilledSanction(chosen, form.values.sanction, lastPrefill.current);
    lastPrefill.current = chosen.length === 1 ? next : '';
    if (next !== form.values.sanction) form.setFieldValue('sanction', next);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- Mantine's form object is new on every render; this runs when the chosen types change
  }, [form.values.type_ids.join(',')]);

  const preview = points.data
    ? previewPoints(
        points.data,
        chosen.map((ty) => ty.points),
        thresholds.data?.data,
      )
    : null;

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    const at = occurredAt(values.occurred_at ?? '', values.time);
    try {
      const res = await record.mutateAsync({
        input: {
          student_id: values.student_id!,
          type_ids: values.type_ids.map(Number),
          occurred_at: at ?? undefined,
          location: values.location.trim(),
          sanction: values.sanction.trim(),
          description: values.description.trim(),
        },
        photos: values.photos,
      });
      setResult(res);
      window.scrollTo({ top: 0 });
    } catch (err) {
      setFormError(applyServerErrors(form, err, tc));
    }
  });

  const again = () => {
    setResult(null);
    const now = nowInJakarta();
    form.setValues({ type_ids: [], occurred_at: now.date, time: now.time, location: '', sanction: '', description: '', photos: [] });
    lastPrefill.current = '';
  };

  // On a phone the standing comes right before the save button, where the decision is made.
  const previewCard = (
    <Card withBorder data-testid="points-preview" style={narrow ? undefined : { alignSelf: 'start', position: 'sticky', top: 76 }}>
      <Stack gap="md">
        <Stack gap={0}>
          <Title order={2} size="h4">
            {t('preview.title')}
          </Title>
          {points.data && (
            <Text size="sm" c="dimmed" data-testid="points-year">
              {t('preview.year', { year: yearLabel(points.data.academic_year_start) })}
            </Text>
          )}
        </Stack>
        {!student && (
          <Text size="sm" c="dimmed">
            {t('preview.pickStudent')}
          </Text>
        )}
        {student && points.isPending && (
          <Text size="sm" c="dimmed">
            {tc('loading')}
          </Text>
        )}
        {student && points.isError && (
          <Text size="sm" c="dimmed">
            {t('preview.unavailable')}
          </Text>
        )}
        {preview && points.data && (
          <>
            <PointsProgress points={points.data} label={t('preview.now')} testId="points-now" />
            <Text size="xs" c="dimmed">
              {t('preview.lifetime', { n: num(points.data.lifetime_total), year: yearLabel(points.data.academic_year_start), date: fmt(points.data.academic_year_start, 'date') })}
            </Text>
            {preview.added > 0 && (
              <>
                <PointsProgress points={standingToPoints(preview.after, points.data)} label={t('preview.after')} testId="points-after-preview" />
                {preview.newLevels.length > 0 && (
                  <Alert color="orange" icon={<IconAlertTriangle size={18} aria-hidden />} data-testid="preview-letters">
                    {t('preview.letters', { names: preview.newLevels.map((l) => l.name || `SP ${l.level}`).join(', ') })}
                  </Alert>
                )}
              </>
            )}
          </>
        )}
      </Stack>
    </Card>
  );

  if (result) {
    return (
      <>
        <PageHeader title={t('recordTitle')} />
        <Done result={result} onAgain={again} />
      </>
    );
  }

  return (
    <>
      <PageHeader title={t('recordTitle')} description={t('recordDescription')} />
      <form onSubmit={submit} noValidate>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          <Card withBorder style={{ gridColumn: narrow ? undefined : 'span 2' }}>
            <Stack gap="md">
              {formError && (
                <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} data-testid="form-error">
                  {formError}
                </Alert>
              )}
              <StudentPicker
                value={student}
                onChange={(s) => {
                  setStudent(s);
                  form.setFieldValue('student_id', s?.id ?? null);
                }}
                error={form.errors.student_id}
                required
              />
              <MultiSelect
                label={t('form.types')}
                description={t('form.typesHint')}
                placeholder={form.values.type_ids.length ? undefined : t('form.typesPlaceholder')}
                required
                searchable
                hidePickedOptions
                data={groups.map((g) => ({
                  group: g.category.name,
                  items: g.types.map((ty) => ({ value: String(ty.id), label: t('form.typeOption', { name: ty.name, n: num(ty.points) }) })),
                }))}
                nothingFoundMessage={t('form.noType')}
                {...form.getInputProps('type_ids')}
                data-testid="type-picker"
              />
              {chosen.length > 0 && (
                <Stack gap={4} data-testid="chosen-types">
                  {chosen.map((ty) => (
                    <Group key={ty.id} gap="xs" wrap="wrap">
                      <Text size="sm">{ty.name}</Text>
                      <CategoryBadge name={ty.category.name} colour={ty.category.colour} />
                      <PointsBadge points={ty.points} />
                    </Group>
                  ))}
                  <Text size="sm" fw={600}>
                    {t('form.chosenTotal', { n: num(chosen.reduce((s, ty) => s + ty.points, 0)) })}
                  </Text>
                </Stack>
              )}
              <SimpleGrid cols={2} spacing="sm">
                <DatePickerInput
                  label={t('form.date')}
                  leftSection={<IconCalendar size={16} aria-hidden />}
                  valueFormat={narrow ? 'D MMM YYYY' : 'D MMMM YYYY'}
                  maxDate={start.date}
                  required
                  {...form.getInputProps('occurred_at')}
                  data-testid="date-input"
                />
                <TimePicker label={t('form.time')} format="24h" required {...form.getInputProps('time')} data-testid="time-input" />
              </SimpleGrid>
              <TextInput label={t('form.location')} placeholder={t('form.locationPlaceholder')} maxLength={200} {...form.getInputProps('location')} />
              <Textarea
                label={t('form.sanction')}
                description={chosen.length > 1 ? t('form.sanctionMany') : t('form.sanctionHint')}
                autosize
                minRows={2}
                maxLength={1000}
                {...form.getInputProps('sanction')}
                data-testid="sanction-input"
              />
              <Textarea label={t('form.description')} autosize minRows={3} maxLength={5000} {...form.getInputProps('description')} />
              <PhotoPicker
                value={form.values.photos}
                onChange={(files) => form.setFieldValue('photos', files)}
                onRefused={(n) => notifications.show({ color: 'orange', message: t('form.photosRefused', { count: n }), withBorder: true })}
                narrow={narrow}
                error={form.errors.photos as string | undefined}
              />
              {narrow && previewCard}
              <Divider />
              <Group gap="sm">
                <Button type="submit" loading={record.isPending} data-testid="record-submit">
                  {t('form.submit')}
                </Button>
                <Button variant="default" onClick={() => navigate(-1)}>
                  {tc('actions.cancel')}
                </Button>
              </Group>
            </Stack>
          </Card>
          {!narrow && previewCard}
        </SimpleGrid>
      </form>
    </>
  );
}
