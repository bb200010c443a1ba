import { useQuery } from '@tanstack/react-query';
import { Badge, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatDate } from '@/lib/useFormatDate';
import { registrationApi } from '../api';
import '@/app/pageStyles';

const OUTCOME_COLOURS = { verified: 'teal', approved: 'teal', pending: 'yellow', no_match: 'gray', refused: 'red' } as const;

/** Recent self-registrations with their outcome. */
export function RegistrationsList() {
  const { t } = useTranslation('portal');
  const fmt = useFormatDate();
  const q = useQuery({ queryKey: ['guardians', 'registrations'], queryFn: ({ signal }) => registrationApi.registrations(signal) });
  if (q.data?.data.length === 0) return <Text c="dimmed">{t('queue.none')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped>
        <Table.Tbody>
          {q.data?.data.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{fmt(r.created_at, 'dateTime')}</Table.Td>
              <Table.Td>
                {r.name} (+{r.phone}) · {t(`ortu.relation.${r.relation}`)}
              </Table.Td>
              <Table.Td>
                {r.student_name || '—'} · NISN {r.nisn}
              </Table.Td>
              <Table.Td>
                <Badge color={OUTCOME_COLOURS[r.outcome]}>{t(`queue.outcome.${r.outcome}`)}</Badge> {r.reason}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Recent sign-in code requests (codes are never shown). */
export function CodeRequestsList() {
  const { t } = useTranslation('portal');
  const fmt = useFormatDate();
  const q = useQuery({ queryKey: ['guardians', 'code-requests'], queryFn: ({ signal }) => registrationApi.codeRequests(signal) });
  if (q.data?.data.length === 0) return <Text c="dimmed">{t('queue.none')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped data-testid="code-requests">
        <Table.Tbody>
          {q.data?.data.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{fmt(r.created_at, 'dateTimeSeconds')}</Table.Td>
              <Table.Td>+{r.phone}</Table.Td>
              <Table.Td>{r.guardian_name || t('queue.unknownPhone')}</Table.Td>
              <Table.Td>{t(`queue.kind.${r.kind}`)}</Table.Td>
              <Table.Td>{r.address}</Table.Td>
              <Table.Td>{r.used ? t('queue.used') : t('queue.tries', { count: r.tries })}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Active portal sessions. */
export function SessionsList() {
  const { t } = useTranslation('portal');
  const fmt = useFormatDate();
  const q = useQuery({ queryKey: ['guardians', 'sessions'], queryFn: ({ signal }) => registrationApi.sessions(signal) });
  if (q.data?.data.length === 0) return <Text c="dimmed">{t('queue.none')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped>
        <Table.Tbody>
          {q.data?.data.map((r, i) => (
            <Table.Tr key={`${r.guardian_id}-${i}`}>
              <Table.Td>{r.guardian_name}</Table.Td>
              <Table.Td>{t('queue.since', { at: fmt(r.created_at, 'dateTime') })}</Table.Td>
              <Table.Td>{t('queue.lastSeen', { at: fmt(r.last_seen_at, 'dateTime') })}</Table.Td>
              <Table.Td>
                <Text size="xs" lineClamp={1}>
                  {r.user_agent}
                </Text>
              </Table.Td>
              <Table.Td>{r.address}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
