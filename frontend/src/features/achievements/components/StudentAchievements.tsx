import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Anchor, Badge, Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconCertificate } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSession } from '@/auth/session';
import { notifyError } from '@/components/serverErrors';
import { todayInJakarta } from '@/lib/dates';
import { useFormatDate } from '@/lib/useFormatDate';
import { saveFile } from '@/platform';
import { useAcademicYear } from '@/features/warning-letters/hooks';
import { achievementsApi } from '../api';
import { parseTerm, recentTerms, termValue } from '../terms';

/** How many semesters the term certificate offers: this one and the five before it. */
const TERMS = 6;

/**
 * The term certificate: one PDF of the student's verified achievements of a chosen semester
 * (this one and the ones before it, as GET /academic-year places today).
 */
function TermCertificate({ studentId }: { studentId: number }) {
  const { t } = useTranslation('achievements');
  const { t: tc } = useTranslation();
  const year = useAcademicYear();
  const terms = year.data ? recentTerms(year.data.start, todayInJakarta().format('YYYY-MM-DD'), TERMS) : [];
  const [picked, setPicked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const first = terms[0];
  if (!first) return null;
  const value = picked ?? termValue(first);
  const download = async () => {
    const term = parseTerm(value);
    if (!term) return;
    setBusy(true);
    try {
      const { blob, fileName } = await achievementsApi.termCertificate(studentId, term.year, term.semester);
      await saveFile(blob, fileName ?? `piagam-semester-${studentId}-${value}.pdf`);
    } catch (err) {
      notifyError(err, tc);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group gap="xs" align="flex-end" wrap="wrap" data-testid="term-certificate">
      <Select
        size="xs"
        w={220}
        label={t('term.label')}
        data={terms.map((x) => ({ value: termValue(x), label: t('term.option', { semester: x.semester, year: `${x.year}/${x.year + 1}` }) }))}
        value={value}
        onChange={setPicked}
        allowDeselect={false}
        data-testid="term-certificate-term"
      />
      <Button size="xs" variant="default" leftSection={<IconCertificate size={14} />} loading={busy} onClick={() => void download()} data-testid="term-certificate-download">
        {t('term.download')}
      </Button>
    </Group>
  );
}

/** The student page's achievements, beside the violations (achievements.view). */
export function StudentAchievements({ studentId }: { studentId: number }) {
  const { t } = useTranslation('achievements');
  const { can } = useSession();
  const fmt = useFormatDate();
  const allowed = can('achievements.view');
  const list = useQuery({
    queryKey: ['achievements', 'student', studentId],
    queryFn: ({ signal }) => achievementsApi.list({ student_id: studentId }, signal),
    enabled: allowed,
  });
  if (!allowed) return null;
  const rows = list.data?.data ?? [];
  return (
    <Card withBorder padding="md" data-testid="student-achievements">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {t('student.title')}
        </Title>
        {list.data && list.data.meta.total > rows.length && (
          <Anchor component={Link} to="/achievements" size="sm">
            {t('student.all', { count: list.data.meta.total })}
          </Anchor>
        )}
      </Group>
      {list.data && rows.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('student.none')}
        </Text>
      )}
      {rows.some((a) => a.verified_at) && (
        <Stack gap={6} mb="sm">
          <TermCertificate studentId={studentId} />
        </Stack>
      )}
      <Stack gap={6}>
        {rows.map((a) => (
          <Group key={a.id} justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
              {a.type_name} · {t(`level.${a.level}`)} · {fmt(a.achieved_on)}
            </Text>
            <Badge color={a.verified_at ? 'teal' : 'gray'} variant={a.verified_at ? 'filled' : 'light'} style={{ flexShrink: 0 }}>
              {t('points', { count: a.points })}
            </Badge>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
