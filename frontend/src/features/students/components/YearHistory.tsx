import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Anchor, Badge, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useSession } from '@/auth/session';
import { LevelBadge } from '@/features/warning-letters/components/LevelBadge';
import { StatusBadge } from '@/features/warning-letters/components/StatusBadge';
import { useLevelColour, useStudentYears } from '@/features/warning-letters/hooks';
import { letterPath } from '@/features/warning-letters/paths';
import { useFormatNumber } from '@/lib/numbers';

/**
 * "Riwayat per tahun ajaran": a student's points, violations and warning letters per academic
 * year, newest first, the running year marked. Points and the SP ladder start again each year;
 * the years before stay readable here (GET /students/{id}/years, violations.view).
 */
export function YearHistory({ studentId }: { studentId: number }) {
  const { t } = useTranslation('students');
  const num = useFormatNumber();
  const { can } = useSession();
  const allowed = can('violations.view');
  const years = useStudentYears(studentId, allowed);
  const colourOf = useLevelColour();
  const seeLetters = can('warning_letters.view');
  const phone = useMediaQuery('(max-width: 48em)');
  if (!allowed) return null;
  const rows = years.data?.data ?? [];

  const yearName = (y: (typeof rows)[number]) => (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" fw={y.current ? 700 : 500} style={{ whiteSpace: 'nowrap' }}>
        {y.label}
      </Text>
      {y.current && (
        <Badge variant="light" color="blue" size="sm" style={{ flexShrink: 0 }}>
          {t('years.current')}
        </Badge>
      )}
    </Group>
  );
  const letters = (y: (typeof rows)[number]) =>
    y.letters.length === 0 ? (
      <Text size="sm" c="dimmed">
        —
      </Text>
    ) : (
      <Stack gap={4}>
        {y.letters.map((l) => {
          const badges = (
            <Group gap="xs" wrap="nowrap">
              <LevelBadge level={l.level} name={l.name} colour={colourOf(l)} size="sm" />
              <StatusBadge status={l.status} />
            </Group>
          );
          return seeLetters ? (
            <Anchor key={l.id} component={Link} to={letterPath(l.id)} size="sm" underline="never" data-testid={`student-year-letter-${l.id}`}>
              {badges}
            </Anchor>
          ) : (
            <div key={l.id}>{badges}</div>
          );
        })}
      </Stack>
    );

  return (
    <Card withBorder padding="md" data-testid="student-years">
      <Title order={2} size="h5" mb={4}>
        {t('years.title')}
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        {t('years.explain')}
      </Text>
      {years.isPending && <Loader size="sm" aria-label={t('years.title')} />}
      {years.data && rows.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="student-years-empty">
          {t('years.empty')}
        </Text>
      )}
      {rows.length > 0 && !phone && (
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="xs" aria-label={t('years.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('years.year')}</Table.Th>
                <Table.Th ta="right">{t('years.points')}</Table.Th>
                <Table.Th ta="right">{t('years.violations')}</Table.Th>
                <Table.Th>{t('years.letters')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((y) => (
                <Table.Tr key={y.start} data-testid={`student-year-${y.start}`} data-current={y.current} aria-current={y.current ? 'true' : undefined}>
                  <Table.Td>{yearName(y)}</Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm" fw={600} data-testid={`student-year-${y.start}-total`}>
                      {num(y.total)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text size="sm">{num(y.violations)}</Text>
                  </Table.Td>
                  <Table.Td>{letters(y)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {rows.length > 0 && phone && (
        <Stack gap={0}>
          {rows.map((y) => (
            <Stack
              key={y.start}
              gap={6}
              py="sm"
              style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
              data-testid={`student-year-${y.start}`}
              data-current={y.current}
              aria-current={y.current ? 'true' : undefined}
            >
              {yearName(y)}
              <Text size="sm">
                <Text span fw={600} data-testid={`student-year-${y.start}-total`}>
                  {num(y.total)}
                </Text>{' '}
                {t('years.pointsShort', { count: y.total })} · {t('years.violationsCount', { count: y.violations, n: num(y.violations) })}
              </Text>
              {y.letters.length > 0 && letters(y)}
            </Stack>
          ))}
        </Stack>
      )}
    </Card>
  );
}
