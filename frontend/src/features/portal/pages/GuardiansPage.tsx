import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Checkbox, Group, Modal, NumberInput, Select, Stack, Table, Tabs, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/auth/session';
import { PageHeader } from '@/components/PageHeader';
import { applyServerErrors, notifyError, notifySuccess } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import { guardiansApi, registrationApi, studentPortalApi, RELATIONS, type ActivationCode, type Guardian, type GuardianInput, type GuardianLink } from '../api';
import { CodeRequestsList, RegistrationsList, SessionsList } from './QueueLists';
import '@/app/pageStyles';

const keys = { list: (studentId: number | null, pending: boolean) => ['guardians', studentId, pending] as const };

function AddGuardian({ studentId, onClose }: { studentId: number | null; onClose: () => void }) {
  const { t } = useTranslation('portal');
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<GuardianInput>({ initialValues: { student_id: studentId ?? 0, name: '', phone: '', relation: 'ibu' } });
  const save = useMutation({
    mutationFn: guardiansApi.add,
    onSuccess: () => {
      notifySuccess(t('guardians.added'));
      void qc.invalidateQueries({ queryKey: ['guardians'] });
      onClose();
    },
    onError: (err) => setError(applyServerErrors(form, err, t)),
  });
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack>
        {error && <Text c="red">{error}</Text>}
        <NumberInput label={t('guardians.studentId')} min={1} {...form.getInputProps('student_id')} />
        <TextInput label={t('guardians.name')} {...form.getInputProps('name')} />
        <TextInput label={t('guardians.phone')} type="tel" {...form.getInputProps('phone')} />
        <Select
          label={t('guardians.relation')}
          data={RELATIONS.map((r) => ({ value: r, label: t(`ortu.relation.${r}`) }))}
          allowDeselect={false}
          {...form.getInputProps('relation')}
        />
        <Button type="submit" loading={save.isPending}>
          {t('guardians.save')}
        </Button>
      </Stack>
    </form>
  );
}

function ActivationSheet({ code, guardian }: { code: ActivationCode; guardian: Guardian }) {
  const { t } = useTranslation('portal');
  const fmt = useFormatDate();
  return (
    <Stack data-testid="activation-sheet">
      <Text size="sm">
        {t('guardians.activationHelp', { name: guardian.name, url: `${window.location.origin}/ortu/`, phone: code.phone, until: fmt(code.expires_at, 'dateTime') })}
      </Text>
      <Title order={2} ta="center" ff="monospace" data-testid="activation-code">
        {code.code}
      </Title>
      <Button variant="default" onClick={() => window.print()}>
        {t('guardians.print')}
      </Button>
    </Stack>
  );
}

/** Staff: guardians, their consent and sessions; add, print an activation code, revoke. */
export default function GuardiansPage() {
  const { t } = useTranslation('portal');
  const fmt = useFormatDate();
  const qc = useQueryClient();
  const { permissions } = useSession();
  const canManage = permissions.includes('guardians.manage');
  const [params, setParams] = useSearchParams();
  const studentId = Number(params.get('student_id')) || null;
  const pending = params.get('status') === 'pending';
  const list = useQuery({
    queryKey: keys.list(studentId, pending),
    queryFn: ({ signal }) => guardiansApi.list({ student_id: studentId ?? undefined, status: pending ? 'pending' : undefined }, signal),
  });
  const [adding, setAdding] = useState(false);
  const [code, setCode] = useState<{ code: ActivationCode; guardian: Guardian } | null>(null);
  const issue = useMutation({
    mutationFn: (g: Guardian) => guardiansApi.activationCode(g.id).then((c) => ({ code: c, guardian: g })),
    onSuccess: setCode,
    onError: (err) => notifyError(err, t),
  });
  const revoke = useMutation({
    mutationFn: (g: Guardian) => guardiansApi.revokeSessions(g.id),
    onSuccess: () => {
      notifySuccess(t('guardians.revoked'));
      void qc.invalidateQueries({ queryKey: ['guardians'] });
    },
    onError: (err) => notifyError(err, t),
  });
  const [refusing, setRefusing] = useState<{ g: Guardian; link: GuardianLink } | null>(null);
  const [reason, setReason] = useState('');
  const verify = useMutation({
    mutationFn: ({ g, link, approve, why }: { g: Guardian; link: GuardianLink; approve: boolean; why: string }) =>
      registrationApi.verify(g.id, link.student_id, approve, why),
    onSuccess: (_, v) => {
      notifySuccess(t(v.approve ? 'queue.approved' : 'queue.refused'));
      setRefusing(null);
      setReason('');
      void qc.invalidateQueries({ queryKey: ['guardians'] });
    },
    onError: (err) => notifyError(err, t),
  });
  const canSettings = permissions.includes('settings.manage');
  const settings = useQuery({ queryKey: ['portal', 'settings'], queryFn: ({ signal }) => studentPortalApi.settings(signal), enabled: canSettings });
  const saveSettings = useMutation({
    mutationFn: studentPortalApi.saveSettings,
    onSuccess: (s) => {
      qc.setQueryData(['portal', 'settings'], s);
      void qc.invalidateQueries({ queryKey: ['portal', 'config'] });
    },
    onError: (err) => notifyError(err, t),
  });
  const set = (k: string, v: string | null) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    setParams(next, { replace: true });
  };
  return (
    <>
      <PageHeader
        title={t('guardians.title')}
        description={t('guardians.description')}
        actions={canManage && <Button onClick={() => setAdding(true)}>{t('guardians.add')}</Button>}
      />
      {canSettings && settings.data && (
        <Group mb="md" gap="md" data-testid="portal-switches">
          {(['students', 'hide_violations', 'hide_letters', 'hide_attendance', 'hide_messages', 'hide_achievements', 'show_recorder', 'absent_notice'] as const).map((k) => (
            <Checkbox
              key={k}
              label={t(`guardians.switch.${k}`)}
              checked={!!settings.data[k]}
              onChange={(e) => saveSettings.mutate({ ...settings.data, [k]: e.currentTarget.checked })}
            />
          ))}
          {(['digest_at', 'absent_notice_at'] as const).map((k) => (
            <TextInput
              key={`${k}-${settings.data[k] ?? ''}`}
              type="time"
              size="xs"
              label={t(`guardians.switch.${k}`)}
              defaultValue={settings.data[k] || (k === 'digest_at' ? '18:00' : '08:00')}
              onBlur={(e) => {
                const v = e.currentTarget.value;
                if (v && v !== settings.data[k]) saveSettings.mutate({ ...settings.data, [k]: v });
              }}
            />
          ))}
        </Group>
      )}
      <Tabs defaultValue="guardians" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="guardians">{t('queue.tabs.guardians')}</Tabs.Tab>
          <Tabs.Tab value="registrations">{t('queue.tabs.registrations')}</Tabs.Tab>
          <Tabs.Tab value="codes">{t('queue.tabs.codes')}</Tabs.Tab>
          <Tabs.Tab value="sessions">{t('queue.tabs.sessions')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="registrations">
          <RegistrationsList />
        </Tabs.Panel>
        <Tabs.Panel value="codes">
          <CodeRequestsList />
        </Tabs.Panel>
        <Tabs.Panel value="sessions">
          <SessionsList />
        </Tabs.Panel>
        <Tabs.Panel value="guardians">
          <Group mb="md">
            <NumberInput
              label={t('guardians.studentId')}
              value={studentId ?? ''}
              min={1}
              onChange={(v) => set('student_id', v ? String(v) : null)}
              w={160}
            />
            <Checkbox label={t('guardians.pendingOnly')} checked={pending} onChange={(e) => set('status', e.currentTarget.checked ? 'pending' : null)} mt="lg" />
          </Group>
          {list.data?.data.length === 0 && <Text c="dimmed">{t('guardians.none')}</Text>}
          {!!list.data?.data.length && (
            <Table.ScrollContainer minWidth={720}>
              <Table striped data-testid="guardians-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('guardians.name')}</Table.Th>
                    <Table.Th>{t('guardians.students')}</Table.Th>
                    <Table.Th>{t('guardians.consent')}</Table.Th>
                    <Table.Th>{t('guardians.sessions')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data.data.map((g) => (
                    <Table.Tr key={g.id}>
                      <Table.Td>
                        <Text size="sm" fw={600}>
                          {g.name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          +{g.phone}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {g.students.map((s) => (
                          <Text key={s.student_id} size="sm">
                            {s.student_name} ({s.class_name}) · {t(`ortu.relation.${s.relation}`)}{' '}
                            {s.status === 'pending' && <Badge color="yellow">{t('guardians.pending')}</Badge>}
                            {s.status === 'pending' && canManage && (
                              <>
                                {' '}
                                <Button size="compact-xs" color="teal" onClick={() => verify.mutate({ g, link: s, approve: true, why: '' })} data-testid="verify-approve">
                                  {t('queue.approve')}
                                </Button>{' '}
                                <Button size="compact-xs" variant="default" onClick={() => setRefusing({ g, link: s })}>
                                  {t('queue.refuse')}
                                </Button>
                              </>
                            )}
                          </Text>
                        ))}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {g.withdrawn_at
                            ? t('guardians.withdrawn', { at: fmt(g.withdrawn_at, 'dateTime') })
                            : g.consent_at
                              ? `${fmt(g.consent_at, 'dateTime')} · ${t(`ortu.channel.${g.consent_channel}`)}`
                              : t('guardians.notActivated')}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {g.sessions}
                          {g.last_seen_at ? ` · ${fmt(g.last_seen_at, 'dateTime')}` : ''}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {canManage && (
                          <Group gap="xs" wrap="nowrap">
                            <Button size="xs" variant="light" onClick={() => issue.mutate(g)} data-testid="activation-button">
                              {t('guardians.activationCode')}
                            </Button>
                            {g.sessions > 0 && (
                              <Button size="xs" color="red" variant="subtle" onClick={() => revoke.mutate(g)}>
                                {t('guardians.revoke')}
                              </Button>
                            )}
                          </Group>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Tabs.Panel>
      </Tabs>
      <Modal opened={refusing !== null} onClose={() => setRefusing(null)} title={t('queue.refuseTitle')}>
        <Stack>
          <Textarea label={t('queue.reason')} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={500} autosize minRows={2} />
          <Button color="red" disabled={!reason.trim()} loading={verify.isPending} onClick={() => refusing && verify.mutate({ ...refusing, approve: false, why: reason })}>
            {t('queue.refuse')}
          </Button>
        </Stack>
      </Modal>
      <Modal opened={adding} onClose={() => setAdding(false)} title={t('guardians.addTitle')}>
        <AddGuardian studentId={studentId} onClose={() => setAdding(false)} />
      </Modal>
      <Modal opened={code !== null} onClose={() => setCode(null)} title={t('guardians.activationTitle')}>
        {code && <ActivationSheet code={code.code} guardian={code.guardian} />}
      </Modal>
    </>
  );
}
