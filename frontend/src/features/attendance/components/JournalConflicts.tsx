import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { useFormatDate } from '@/lib/useFormatDate';
import { formatRanges, groupConflicts, type StudentConflicts } from '../conflicts';
import type { AttendanceForm, ConflictAction } from '../types';

/**
 * The journal sent other statuses for cells a person had set, and they were kept: per student,
 * what the journal sent for which hours against what the person entered, with "keep" (the
 * notice goes) and "use the journal's" (stored as the caller's own entry).
 */
export function JournalConflicts({
  form,
  myName,
  editable,
  busy,
  onResolve,
}: {
  form: AttendanceForm;
  /** The signed-in person's name: their own entries read "Anda mengisi". */
  myName: string;
  editable: boolean;
  /** The student whose answer is on its way. */
  busy: number | null;
  onResolve: (student: StudentConflicts, action: ConflictAction) => void;
}) {
  const { t } = useTranslation('attendance');
  const fmt = useFormatDate();
  const students = useMemo(() => groupConflicts(form), [form]);
  if (students.length === 0) return null;
  return (
    <Alert color="yellow" p="sm" icon={<IconPlugConnected size={18} aria-hidden />} title={t('conflicts.title')} data-testid="journal-conflicts">
      <Stack gap="xs">
        <Text size="sm">{t('conflicts.intro')}</Text>
        {students.map((st) => (
          <Group
            key={st.studentId}
            justify="space-between"
            align="center"
            gap="xs"
            wrap="wrap"
            py={4}
            style={{ borderTop: '1px solid var(--mantine-color-yellow-3)' }}
            data-testid={`conflict-${st.studentId}`}
          >
            <Stack gap={0} style={{ flex: '1 1 14rem', minWidth: 0 }}>
              <Text size="sm" fw={600}>
                {st.name}
              </Text>
              {st.groups.map((g) => (
                <Text key={`${g.journalStatus}${g.status}${g.setByName}`} size="sm" data-testid="conflict-line">
                  {t('conflicts.line', {
                    journal: g.journalStatus,
                    hours: t('conflicts.hours', { count: g.hours.length, list: formatRanges(g.hours) }),
                    who: g.setByName && g.setByName === myName ? t('conflicts.you') : g.setByName || t('info.unknown'),
                    status: g.status,
                  })}
                </Text>
              ))}
              <Text size="xs" c="dimmed">
                {t('conflicts.pushedAt', { at: fmt(st.pushedAt, 'dateTime') })}
              </Text>
            </Stack>
            {editable && (
              <Group gap="xs" wrap="nowrap">
                <Button size="xs" variant="default" onClick={() => onResolve(st, 'keep')} disabled={busy !== null} loading={busy === st.studentId} data-testid={`conflict-keep-${st.studentId}`}>
                  {t('conflicts.keep')}
                </Button>
                <Button size="xs" variant="light" color="dark" onClick={() => onResolve(st, 'use_journal')} disabled={busy !== null} data-testid={`conflict-use-${st.studentId}`}>
                  {t('conflicts.useJournal')}
                </Button>
              </Group>
            )}
          </Group>
        ))}
      </Stack>
    </Alert>
  );
}
