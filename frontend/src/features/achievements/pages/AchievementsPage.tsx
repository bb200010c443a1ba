import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMediaQuery } from '@mantine/hooks';
import { Alert, Badge, Button, Card, Group, Loader, Modal, SegmentedControl, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconCertificate, IconCircleCheck, IconFileSpreadsheet, IconPlus } from '@tabler/icons-react';
import { isApiError } from '@/api/errors';
import { useSession } from '@/auth/session';
import { EmptyState } from '@/components/EmptyState';
import { ListPager } from '@/components/ListPager';
import { PageHeader } from '@/components/PageHeader';
import { errorMessage, notifyError, notifySuccess } from '@/components/serverErrors';
import { todayInJakarta } from '@/lib/dates';
import { saveFile } from '@/platform';
import { useFormatDate } from '@/lib/useFormatDate';
import { PhotoPicker } from '@/features/violations/components/PhotoPicker';
import type { Student } from '@/features/students/types';
import { achievementsApi, type Achievement, type Level } from '../api';
import { StudentsPicker } from '../components/StudentsPicker';
import { applicableLevels } from '../levels';
import '@/app/pageStyles';

function RecordForm({ onClose, narrow }: { onClose: () => void; narrow: boolean }) {
  const { t } = useTranslation('achievements');
  const { t: tc } = useTranslation();
  const qc = useQueryClient();
  const types = useQuery({ queryKey: ['achievements', 'types'], queryFn: ({ signal }) => achievementsApi.types(signal) });
  const [students, setStudents] = useState<Student[]>([]);
  const [typeId, setTypeId] = useState<string | null>(null);
  const [level, setLevel] = useState<string | null>(null);
  const [day, setDay] = useState(todayInJakarta().format('YYYY-MM-DD'));
  const [description, setDescription] = useState('');
  const [photos, setPhotos] = useState<File[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const active = (types.data?.data ?? []).filter((ty) => ty.active);
  const type = active.find((ty) => String(ty.id) === typeId);
  const levels = type ? applicableLevels(type.points) : [];
  const save = useMutation({
    mutationFn: () =>
      achievementsApi.record(
        { student_ids: students.map((s) => s.id), type_id: Number(typeId), level: (level ?? '') as Level, achieved_on: day, description },
        photos,
      ),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['achievements'] });
      notifySuccess(t('record.saved'));
      onClose();
    },
    onError: (err) => {
      if (isApiError(err) && err.hasFieldErrors) {
        setErrors(err.fields);
        setProblem(null);
      } else setProblem(errorMessage(err, tc));
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
      data-testid="achievement-form"
    >
      <Stack>
        {problem && <Alert color="red">{problem}</Alert>}
        <StudentsPicker value={students} onChange={setStudents} error={errors.student_ids} />
        <Select
          label={t('record.type')}
          required
          searchable
          data={active.map((ty) => ({ value: String(ty.id), label: `${ty.name} (${ty.category_name})` }))}
          value={typeId}
          onChange={(v) => {
            setTypeId(v);
            setLevel(null);
          }}
          error={errors.type_id}
          data-testid="achievement-type"
        />
        <Select
          label={t('record.level')}
          required
          disabled={!type}
          data={levels.map((l) => ({ value: l, label: `${t(`level.${l}`)} · ${t('points', { count: type?.points[l] ?? 0 })}` }))}
          value={level}
          onChange={setLevel}
          error={errors.level}
          data-testid="achievement-level"
        />
        <TextInput type="date" label={t('record.date')} required value={day} onChange={(e) => setDay(e.currentTarget.value)} error={errors.achieved_on} data-testid="achievement-date" />
        <Textarea label={t('record.description')} autosize minRows={2} maxLength={2000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={errors.description} />
        <PhotoPicker value={photos} onChange={setPhotos} onRefused={() => undefined} narrow={narrow} error={errors.photos} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="achievement-save">
            {tc('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AchievementCard({ a, canVerify }: { a: Achievement; canVerify: boolean }) {
  const { t } = useTranslation('achievements');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const qc = useQueryClient();
  const verify = useMutation({
    mutationFn: () => achievementsApi.verify(a.id),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['achievements'] });
      notifySuccess(t('verify.done'));
    },
    onError: (err) => notifyError(err, tc),
  });
  const certificate = async () => {
    try {
      const { blob, fileName } = await achievementsApi.certificate(a.id);
      await saveFile(blob, fileName ?? `piagam-prestasi-${a.id}.pdf`);
    } catch (err) {
      notifyError(err, tc);
    }
  };
  return (
    <Card withBorder data-testid={`achievement-${a.id}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {a.type_name}
          </Text>
          <Badge color="teal" variant="filled" style={{ flexShrink: 0 }}>
            {t('points', { count: a.points })}
          </Badge>
        </Group>
        <Group gap={6}>
          <Badge variant="light">{t(`level.${a.level}`)}</Badge>
          <Text size="sm" c="dimmed">
            {fmt(a.achieved_on)} · {a.category_name}
          </Text>
        </Group>
        <Text size="sm" data-testid="achievement-students">
          {a.students.map((s) => `${s.name} (${s.class_name || '–'})`).join(', ')}
        </Text>
        {a.description && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {a.description}
          </Text>
        )}
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            {t('recordedBy', { name: a.recorded_by_name || '–' })}
            {a.photo_count > 0 && ` · ${t('photos', { count: a.photo_count })}`}
          </Text>
          {a.verified_at ? (
            <Group gap="xs">
              <Badge color="green" leftSection={<IconCircleCheck size={12} />} data-testid="achievement-verified">
                {t('verify.verifiedBy', { name: a.verified_by_name })}
              </Badge>
              <Button size="xs" variant="default" leftSection={<IconCertificate size={14} />} onClick={() => void certificate()} data-testid="achievement-certificate">
                {t('certificate')}
              </Button>
            </Group>
          ) : canVerify ? (
            <Button size="xs" loading={verify.isPending} onClick={() => verify.mutate()} data-testid="achievement-verify">
              {t('verify.action')}
            </Button>
          ) : (
            <Badge color="gray">{t('verify.waiting')}</Badge>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

export default function AchievementsPage() {
  const { t } = useTranslation('achievements');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const narrow = !!useMediaQuery('(max-width: 48em)');
  const [params] = useSearchParams();
  const initial = params.get('verified');
  const [verified, setVerified] = useState<'' | 'true' | 'false'>(initial === 'true' || initial === 'false' ? initial : '');
  const [page, setPage] = useState(1);
  const [recording, setRecording] = useState(false);
  const exportXlsx = async () => {
    try {
      const { blob, fileName } = await achievementsApi.exportXlsx({ verified });
      await saveFile(blob, fileName ?? 'prestasi.xlsx');
    } catch (err) {
      notifyError(err, tc);
    }
  };
  const list = useQuery({
    queryKey: ['achievements', 'list', verified, page],
    queryFn: ({ signal }) => achievementsApi.list({ verified, page }, signal),
  });
  return (
    <>
      <PageHeader
        title={t('list.title')}
        description={t('list.subtitle')}
        actions={
          <Group gap="xs">
            <Button variant="default" leftSection={<IconFileSpreadsheet size={16} />} onClick={() => void exportXlsx()} data-testid="achievement-export">
              {t('list.export')}
            </Button>
            {can('achievements.record') && (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setRecording(true)} data-testid="achievement-record">
                {t('record.open')}
              </Button>
            )}
          </Group>
        }
      />
      <Stack>
        <SegmentedControl
          fullWidth={narrow}
          value={verified}
          onChange={(v) => {
            setVerified(v as typeof verified);
            setPage(1);
          }}
          data={[
            { value: '', label: t('list.all') },
            { value: 'false', label: t('list.waiting') },
            { value: 'true', label: t('list.verified') },
          ]}
        />
        {list.isPending && <Loader />}
        {list.isError && <Alert color="red">{errorMessage(list.error, tc)}</Alert>}
        {list.data && list.data.data.length === 0 && <EmptyState message={t('list.empty')} />}
        {list.data?.data.map((a) => <AchievementCard key={a.id} a={a} canVerify={can('achievements.verify')} />)}
        <ListPager meta={list.data?.meta} onChange={setPage} narrow={narrow} />
      </Stack>
      <Modal opened={recording} onClose={() => setRecording(false)} title={t('record.title')} fullScreen={narrow} size="lg">
        {recording && <RecordForm onClose={() => setRecording(false)} narrow={narrow} />}
      </Modal>
    </>
  );
}
