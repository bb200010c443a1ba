import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Anchor, Badge, Card, Grid, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconBrandWhatsapp, IconPhone } from '@tabler/icons-react';
import { NotFoundPage } from '@/components/errors';
import { StudentAttendanceSection } from '@/features/attendance-recap/components';
import { StudentDisciplineSection } from '@/features/warning-letters/components/StudentDisciplineSection';
import { StudentAchievements } from '@/features/achievements/components/StudentAchievements';
import { FaceCard } from '@/features/face/components';
import { StudentGuardiansCard } from '@/features/portal/components/StudentGuardiansCard';
import { PageLoader } from '@/components/PageLoader';
import { useFormatDate } from '@/lib/useFormatDate';
import { ParentContactCard } from '../components/ParentContactCard';
import { StudentAvatar } from '../components/StudentAvatar';
import { YearHistory } from '../components/YearHistory';
import { useClass, useStudent } from '../hooks';
import { phoneLinks } from '../phone';
import { gradeLabel } from '../types';
import '@/app/pageStyles';

function Field({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  const empty = value === null || value === undefined || value === '';
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {empty ? '—' : value}
      </Text>
    </Stack>
  );
}

function Section({ title, children, fill = false }: { title: string; children: ReactNode; fill?: boolean }) {
  return (
    <Card withBorder padding="md" h={fill ? '100%' : undefined}>
      <Title order={2} size="h5" mb="sm">
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
        {children}
      </SimpleGrid>
    </Card>
  );
}

/** A phone number as tap-to-call, with a WhatsApp link for mobile numbers. */
function Phone({ number, testId }: { number: string; testId?: string }) {
  const { t } = useTranslation('students');
  const links = phoneLinks(number);
  if (!links) return <>{number}</>;
  return (
    <Group gap="xs" wrap="wrap" component="span" data-testid={testId}>
      <Anchor href={links.tel} size="sm" fw={500} aria-label={t('phone.call', { number })}>
        <Group gap={4} component="span" wrap="nowrap">
          <IconPhone size={14} aria-hidden />
          {number}
        </Group>
      </Anchor>
      {links.whatsapp && (
        <Anchor href={links.whatsapp} target="_blank" rel="noopener noreferrer" size="sm" c="teal.9" aria-label={t('phone.whatsapp', { number })}>
          <Group gap={4} component="span" wrap="nowrap">
            <IconBrandWhatsapp size={14} aria-hidden />
            WhatsApp
          </Group>
        </Anchor>
      )}
    </Group>
  );
}

/**
 * A student's profile, then their violations, points and warning letters (for those who may
 * see them). Attendance joins in its own issue.
 */
export default function StudentPage() {
  const { t } = useTranslation('students');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const student = useStudent(valid ? id : 0);
  const cls = useClass(student.data?.class_id ?? null);
  if (!valid) return <NotFoundPage />;
  if (!student.data) return <PageLoader />;
  const s = student.data;
  const birth = [s.place_of_birth, fmt(s.date_of_birth, 'date')].filter(Boolean).join(', ');
  const teacher = cls.data?.homeroom_teacher;

  return (
    <Stack gap="md" data-testid="student-page">
      <Anchor component={Link} to="/students" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={16} />
          {t('backToList')}
        </Group>
      </Anchor>
      <Card withBorder padding="md">
        <Group gap="md" wrap="nowrap" align="center">
          <StudentAvatar name={s.full_name} gender={s.gender} size={72} data-testid="student-avatar" />
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }} data-testid="student-name">
              {s.full_name}
            </Title>
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {s.class_name ?? t('noClass')}
                {s.department_name ? ` · ${s.department_name}` : ''}
              </Text>
              <Badge variant="dot" color={s.active ? 'teal' : 'gray'}>
                {s.active ? tc('status.active') : tc('status.inactive')}
              </Badge>
            </Group>
          </Stack>
        </Group>
      </Card>

      <StudentDisciplineSection studentId={s.id} />
      <StudentAchievements studentId={s.id} />
      <YearHistory studentId={s.id} />
      <StudentAttendanceSection studentId={s.id} />
      <FaceCard studentId={s.id} />

      <Grid gutter="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Section title={t('sections.identity')} fill>
            <Field label={t('fields.nisn')} value={s.nisn} testId="student-nisn" />
            <Field label={t('fields.nis')} value={s.nis} testId="student-nis" />
            <Field label={t('fields.gender')} value={s.gender ? t(`gender.${s.gender}`) : ''} />
            <Field label={t('fields.birth')} value={birth} testId="student-birth" />
            <Field label={t('fields.address')} value={s.address} />
            <Field label={t('fields.phone')} value={s.phone && <Phone number={s.phone} testId="student-phone" />} />
            <Field label={t('fields.email')} value={s.email} />
          </Section>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            <Section title={t('sections.class')}>
              <Field
                label={t('fields.class')}
                value={
                  s.class_id ? (
                    <Anchor component={Link} to={`/students?class_id=${s.class_id}`} size="sm">
                      {s.class_name}
                    </Anchor>
                  ) : (
                    ''
                  )
                }
              />
              <Field label={t('fields.grade')} value={gradeLabel(s.grade)} />
              <Field label={t('fields.department')} value={s.department_name ? `${s.department_code} — ${s.department_name}` : ''} />
              <Field label={t('fields.homeroomTeacher')} value={teacher ? teacher.name : s.class_id && cls.isSuccess ? t('noTeacher') : ''} testId="student-teacher" />
            </Section>
            <ParentContactCard student={s} />
            <StudentGuardiansCard studentId={s.id} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={12}>
          <Section title={t('sections.source')}>
            <Field label={t('fields.syncedAt')} value={fmt(s.synced_at, 'dateTime')} testId="student-synced" />
            <Field label={t('fields.sourceId')} value={<span style={{ fontFamily: 'monospace' }}>{s.source_id}</span>} />
          </Section>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
