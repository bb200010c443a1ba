import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Card, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '@/auth/session';
import { useFormatDate } from '@/lib/useFormatDate';
import { casesApi } from '../api';

/** Who read the case, when and what: the administrator's alone (cases.access_log). */
export function AccessLog({ caseId }: { caseId: number }) {
  const { t } = useTranslation('cases');
  const { can } = useSession();
  const fmt = useFormatDate();
  const [open, setOpen] = useState(false);
  const log = useQuery({ queryKey: ['cases', 'access-log', caseId], queryFn: ({ signal }) => casesApi.accessLog(caseId, signal), enabled: open });
  if (!can('cases.access_log')) return null;
  return (
    <Card withBorder data-testid="case-access-log">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('accessLog.title')}
        </Title>
        {!open ? (
          <Button variant="light" size="xs" onClick={() => setOpen(true)} style={{ alignSelf: 'flex-start' }}>
            {t('accessLog.show')}
          </Button>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing={4} fz="sm">
              <Table.Tbody>
                {(log.data ?? []).map((e) => (
                  <Table.Tr key={e.id}>
                    <Table.Td>{fmt(e.at, 'dateTimeSeconds')}</Table.Td>
                    <Table.Td>{e.user_name}</Table.Td>
                    <Table.Td>{t(`accessLog.what.${e.what}`, { defaultValue: e.what })}</Table.Td>
                    <Table.Td>
                      <Text size="xs" c="dimmed">
                        {e.level}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}
