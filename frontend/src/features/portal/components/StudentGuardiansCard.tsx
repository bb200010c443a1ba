import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Anchor, Button, Card, Modal, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/auth/session';
import { notifyError } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import { studentPortalApi, type ActivationCode } from '../api';

/**
 * On the student page: where staff see the student's guardians and print activation codes, and,
 * when the school lets students in, print the student's own portal code.
 */
export function StudentGuardiansCard({ studentId }: { studentId: number }) {
  const { t } = useTranslation('portal');
  const fmt = useFormatDate();
  const { can } = useSession();
  const config = useQuery({ queryKey: ['portal', 'config'], queryFn: ({ signal }) => studentPortalApi.config(signal), enabled: can('guardians.manage') });
  const [code, setCode] = useState<ActivationCode | null>(null);
  const print = useMutation({ mutationFn: () => studentPortalApi.printCode(studentId), onSuccess: setCode, onError: (err) => notifyError(err, t) });
  if (!can('guardians.view')) return null;
  return (
    <Card withBorder radius="md" p="md">
      <Text fw={600} size="sm">
        {t('guardians.onStudent')}
      </Text>
      <Anchor component={Link} to={`/guardians?student_id=${studentId}`} size="sm" data-testid="student-guardians-link">
        {t('guardians.open')}
      </Anchor>
      {config.data?.students && can('guardians.manage') && (
        <Button size="xs" variant="light" mt="xs" onClick={() => print.mutate()} loading={print.isPending}>
          {t('guardians.studentCode')}
        </Button>
      )}
      <Modal opened={code !== null} onClose={() => setCode(null)} title={t('guardians.studentCodeTitle')}>
        {code && (
          <Stack>
            <Text size="sm">
              {t('guardians.studentCodeHelp', { url: `${window.location.origin}/ortu/`, nisn: code.phone, until: fmt(code.expires_at, 'dateTime') })}
            </Text>
            <Title order={2} ta="center" ff="monospace">
              {code.code}
            </Title>
            <Button variant="default" onClick={() => window.print()}>
              {t('guardians.print')}
            </Button>
          </Stack>
        )}
      </Modal>
    </Card>
  );
}
