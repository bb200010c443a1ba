import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Badge, Button, Card, Group, Modal, MultiSelect, Select, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { useTypes } from '@/features/violation-types/hooks';
import { useHandlingTypeList } from '@/features/violations/hooks';
import { todayInJakarta } from '@/lib/dates';
import { useFormatDate } from '@/lib/useFormatDate';
import { RECOVERY_KINDS, type AgreementStatus, type Case, type CaseParticipant, type RecoveryKind } from '../api';
import { useAddAgreement, useAddRecovery, useAddSession, useCheckAgreement, useRecordCaseViolation, useTeamOptions } from '../hooks';
import { RoleBadge } from './Badges';

const named = (p: CaseParticipant) => ({ value: String(p.id), label: p.name ?? '—' });

function Section({ title, action, children, testId }: { title: string; action?: React.ReactNode; children: React.ReactNode; testId: string }) {
  return (
    <Card withBorder data-testid={testId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {title}
          </Title>
          {action}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

/** Violations recorded inside the case: only for a student who is more than a victim or witness. */
export function CaseViolations({ c }: { c: Case }) {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const fmt = useFormatDate();
  const allowed = c.can_edit && c.stage !== 'closed' && can('violations.record');
  const types = useTypes({ active: 'true' });
  const record = useRecordCaseViolation(c.id);
  const [student, setStudent] = useState<string | null>(null);
  const [type, setType] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  // A student may hold several roles; one other than victim or witness is enough.
  const eligible = new Map<number, string>();
  for (const p of c.people) {
    if (p.kind === 'student' && p.student_id && p.name && p.role !== 'korban' && p.role !== 'saksi') eligible.set(p.student_id, p.name);
  }
  const save = async () => {
    try {
      const res = await record.mutateAsync({ student_id: Number(student), type_ids: [Number(type)], description });
      const letters = res.letters?.length ?? 0;
      notifySuccess(t('violations.recorded', { total: res.points.total }) + (letters > 0 ? ` ${t('violations.letter')}` : ''));
      setType(null);
      setDescription('');
    } catch (err) {
      notifyError(err, tc);
    }
  };
  return (
    <Section title={t('violations.title')} testId="case-violations">
      {c.violations.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('violations.none')}
        </Text>
      )}
      {c.violations.map((v) => (
        <Text key={v.id} size="sm" data-testid="case-violation">
          {t('violations.row', { student: v.student_name, type: v.type_name, points: v.points, date: fmt(v.occurred_at, 'shortDate') })}
        </Text>
      ))}
      {allowed && (
        <Stack gap="xs">
          <Text size="xs" c="dimmed">
            {t('violations.hint')}
          </Text>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Select label={t('violations.student')} data={[...eligible].map(([id, name]) => ({ value: String(id), label: name }))} value={student} onChange={setStudent} w={{ base: '100%', sm: 220 }} data-testid="case-violation-student" />
            <Select
              label={t('violations.type')}
              searchable
              data={(types.data?.data ?? []).filter((x) => x.active && !x.is_system).map((x) => ({ value: String(x.id), label: `${x.name} (${x.points})` }))}
              value={type}
              onChange={setType}
              w={{ base: '100%', sm: 280 }}
              data-testid="case-violation-type"
            />
            <TextInput label={t('violations.description')} value={description} onChange={(e) => setDescription(e.currentTarget.value)} maxLength={5000} w={{ base: '100%', sm: 240 }} />
            <Button onClick={() => void save()} disabled={!student || !type} loading={record.isPending} data-testid="case-violation-save">
              {t('violations.record')}
            </Button>
          </Group>
        </Stack>
      )}
    </Section>
  );
}

export function CaseSessions({ c }: { c: Case }) {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const { can } = useSession();
  const fmt = useFormatDate();
  const [open, setOpen] = useState(false);
  const users = useTeamOptions(open);
  // The violations' handling types (master data under the violation types); active ones only.
  const handlingTypes = useHandlingTypeList(open && can('violation_types.view'));
  const add = useAddSession(c.id);
  const [heldAt, setHeldAt] = useState(todayInJakarta().format('YYYY-MM-DDTHH:mm'));
  const [handlingType, setHandlingType] = useState<string | null>(null);
  const [people, setPeople] = useState<string[]>([]);
  const [staff, setStaff] = useState<string[]>([]);
  const [notes, setNotes] = useState('');
  const save = async () => {
    try {
      await add.mutateAsync({
        held_at: heldAt,
        handling_type_id: handlingType ? Number(handlingType) : null,
        participant_ids: people.map(Number),
        staff_ids: staff.map(Number),
        notes,
      });
      notifySuccess(t('sessions.added'));
      setOpen(false);
      setHandlingType(null);
      setPeople([]);
      setStaff([]);
      setNotes('');
    } catch (err) {
      notifyError(err, tc);
    }
  };
  return (
    <Section
      title={t('sessions.title')}
      testId="case-sessions"
      action={
        c.can_edit &&
        c.stage !== 'closed' && (
          <Button size="xs" variant="light" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => setOpen(true)} data-testid="session-add">
            {t('sessions.add')}
          </Button>
        )
      }
    >
      {c.sessions.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('sessions.none')}
        </Text>
      )}
      {c.sessions.map((s) => (
        <Stack key={s.id} gap={2} data-testid="case-session" style={{ borderTop: '1px solid var(--mantine-color-gray-2)', paddingTop: 6 }}>
          <Text size="sm" fw={600}>
            {fmt(s.held_at, 'dateTime')} · {[...s.people, ...s.staff].join(', ')}
          </Text>
          {s.handling_type_name && (
            <Text size="sm" c="dimmed" data-testid="case-session-type">
              {t('sessions.handlingType')}: {s.handling_type_name}
            </Text>
          )}
          {s.notes && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {s.notes}
            </Text>
          )}
        </Stack>
      ))}
      <Modal opened={open} onClose={() => setOpen(false)} title={t('sessions.add')} centered closeButtonProps={{ 'aria-label': t('close') }}>
        <Stack gap="md">
          <TextInput type="datetime-local" label={t('sessions.heldAt')} required value={heldAt} onChange={(e) => setHeldAt(e.currentTarget.value)} data-testid="session-held-at" />
          <Select
            label={t('sessions.handlingType')}
            description={t('sessions.handlingTypeHint')}
            clearable
            data={(handlingTypes.data?.data ?? []).filter((h) => h.active).map((h) => ({ value: String(h.id), label: h.name }))}
            value={handlingType}
            onChange={setHandlingType}
            data-testid="session-handling-type"
          />
          <MultiSelect label={t('sessions.people')} required data={c.people.filter((p) => p.name).map(named)} value={people} onChange={setPeople} data-testid="session-people" />
          <MultiSelect label={t('sessions.staff')} searchable data={(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))} value={staff} onChange={setStaff} data-testid="session-staff" />
          <Textarea label={t('sessions.notes')} description={t('stages.notesHint')} autosize minRows={3} maxLength={5000} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} data-testid="session-notes" />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('cancel')}
            </Button>
            <Button onClick={() => void save()} disabled={people.length === 0} loading={add.isPending} data-testid="session-save">
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Section>
  );
}

const STATUS_COLOUR: Record<AgreementStatus, string> = { open: 'gray', done: 'teal', not_done: 'red' };

interface ItemDraft {
  participant: string | null;
  action: string;
  due: string;
}

export function CaseAgreements({ c }: { c: Case }) {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const [open, setOpen] = useState(false);
  const add = useAddAgreement(c.id);
  const check = useCheckAgreement(c.id);
  const today = todayInJakarta().format('YYYY-MM-DD');
  const [agreedOn, setAgreedOn] = useState(today);
  const [notes, setNotes] = useState('');
  const [items, setItems] = useState<ItemDraft[]>([{ participant: null, action: '', due: today }]);
  const editable = c.can_edit && c.stage !== 'closed';
  const setItem = (i: number, patch: Partial<ItemDraft>) => setItems(items.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  const save = async () => {
    try {
      await add.mutateAsync({ agreed_on: agreedOn, notes, items: items.map((x) => ({ participant_id: Number(x.participant), action: x.action, due_on: x.due })) });
      notifySuccess(t('agreements.added'));
      setOpen(false);
      setItems([{ participant: null, action: '', due: today }]);
      setNotes('');
    } catch (err) {
      notifyError(err, tc);
    }
  };
  const mark = (agreementId: number, id: number, status: AgreementStatus) =>
    check.mutate({ agreementId, items: [{ id, status, notes: '' }] }, { onSuccess: () => notifySuccess(t('agreements.checked')), onError: (e) => notifyError(e, tc) });
  return (
    <Section
      title={t('agreements.title')}
      testId="case-agreements"
      action={
        editable && (
          <Button size="xs" variant="light" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => setOpen(true)} data-testid="agreement-add">
            {t('agreements.add')}
          </Button>
        )
      }
    >
      <Text size="xs" c="dimmed">
        {t('agreements.hint')}
      </Text>
      {c.agreements.map((a) => (
        <Stack key={a.id} gap={4} data-testid="case-agreement">
          <Text size="sm" fw={600}>
            {t('agreements.agreedOn', { date: fmt(a.agreed_on, 'shortDate') })}
          </Text>
          {a.items.map((it) => (
            <Group key={it.id} justify="space-between" gap="xs" wrap="wrap" data-testid="agreement-item" data-status={it.status} style={{ borderTop: '1px solid var(--mantine-color-gray-2)', paddingTop: 4 }}>
              <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
                <Group gap={6}>
                  <Text size="sm" fw={500}>
                    {it.party_name}
                  </Text>
                  <RoleBadge role={it.party_role} />
                </Group>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {t('agreements.itemText', { action: it.action, date: fmt(it.due_on, 'shortDate') })}
                </Text>
                {it.checked_at && (
                  <Text size="xs" c="dimmed">
                    {t('agreements.checkedBy', { name: it.checked_by_name, date: fmt(it.checked_at, 'dateTime') })}
                  </Text>
                )}
              </Stack>
              <Group gap={4}>
                <Badge color={STATUS_COLOUR[it.status]} variant="light" tt="none">
                  {t(`agreements.status.${it.status}`)}
                </Badge>
                {editable && it.status === 'open' && (
                  <>
                    <Button size="compact-xs" color="teal" variant="light" onClick={() => mark(a.id, it.id, 'done')} data-testid="agreement-done">
                      {t('agreements.markDone')}
                    </Button>
                    <Button size="compact-xs" color="red" variant="light" onClick={() => mark(a.id, it.id, 'not_done')} data-testid="agreement-not-done">
                      {t('agreements.markNotDone')}
                    </Button>
                  </>
                )}
              </Group>
            </Group>
          ))}
        </Stack>
      ))}
      <Modal opened={open} onClose={() => setOpen(false)} title={t('agreements.add')} size="lg" centered closeButtonProps={{ 'aria-label': t('close') }}>
        <Stack gap="md">
          <TextInput type="date" label={t('agreements.date')} required value={agreedOn} onChange={(e) => setAgreedOn(e.currentTarget.value)} />
          {items.map((x, i) => (
            <Group key={i} gap="xs" align="flex-end" wrap="wrap" data-testid="agreement-row">
              <Select label={t('agreements.party')} required data={c.people.filter((p) => p.name).map(named)} value={x.participant} onChange={(v) => setItem(i, { participant: v })} w={{ base: '100%', sm: 180 }} data-testid="agreement-party" />
              <TextInput label={t('agreements.action')} required value={x.action} onChange={(e) => setItem(i, { action: e.currentTarget.value })} maxLength={1000} style={{ flex: 1, minWidth: 160 }} data-testid="agreement-action" />
              <TextInput type="date" label={t('agreements.due')} required value={x.due} onChange={(e) => setItem(i, { due: e.currentTarget.value })} w={{ base: '100%', sm: 160 }} data-testid="agreement-due" />
              {items.length > 1 && (
                <ActionIcon variant="subtle" color="red" aria-label={t('agreements.removeItem')} onClick={() => setItems(items.filter((_, j) => j !== i))}>
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              )}
            </Group>
          ))}
          <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => setItems([...items, { participant: null, action: '', due: x0(items) }])} data-testid="agreement-more">
            {t('agreements.addItem')}
          </Button>
          <Textarea label={t('agreements.notes')} autosize minRows={2} maxLength={5000} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('cancel')}
            </Button>
            <Button onClick={() => void save()} loading={add.isPending} disabled={items.some((x) => !x.participant || !x.action.trim())} data-testid="agreement-save">
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Section>
  );
}

function x0(items: ItemDraft[]) {
  return items[items.length - 1]?.due ?? '';
}

export function CaseRecovery({ c }: { c: Case }) {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const add = useAddRecovery(c.id);
  const victims = c.people.filter((p) => p.role === 'korban' && p.name);
  const [victim, setVictim] = useState<string | null>(null);
  const [kind, setKind] = useState<RecoveryKind | null>(null);
  const [description, setDescription] = useState('');
  const [planned, setPlanned] = useState(todayInJakarta().format('YYYY-MM-DD'));
  const save = async () => {
    try {
      await add.mutateAsync({ participant_id: Number(victim), kind: kind!, description, planned_on: planned });
      notifySuccess(t('recovery.added'));
      setDescription('');
      setKind(null);
    } catch (err) {
      notifyError(err, tc);
    }
  };
  return (
    <Section title={t('recovery.title')} testId="case-recovery">
      {c.recovery.map((r) => (
        <Text key={r.id} size="sm" data-testid="case-recovery-row">
          {t('recovery.row', { name: r.party_name, kind: t(`recovery.kind.${r.kind}`), date: fmt(r.planned_on, 'shortDate') })}
          {r.description && ` — ${r.description}`}
        </Text>
      ))}
      {c.can_edit && c.stage !== 'closed' && victims.length > 0 && (
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select label={t('recovery.victim')} data={victims.map(named)} value={victim} onChange={setVictim} w={{ base: '100%', sm: 180 }} data-testid="recovery-victim" />
          <Select label={t('recovery.kindLabel')} data={RECOVERY_KINDS.map((k) => ({ value: k, label: t(`recovery.kind.${k}`) }))} value={kind} onChange={(v) => setKind(v as RecoveryKind | null)} w={{ base: '100%', sm: 200 }} data-testid="recovery-kind" />
          <TextInput label={t('recovery.description')} value={description} onChange={(e) => setDescription(e.currentTarget.value)} maxLength={1000} w={{ base: '100%', sm: 220 }} />
          <TextInput type="date" label={t('recovery.planned')} value={planned} onChange={(e) => setPlanned(e.currentTarget.value)} w={{ base: '100%', sm: 160 }} />
          <Button onClick={() => void save()} disabled={!victim || !kind} loading={add.isPending} data-testid="recovery-save">
            {t('recovery.add')}
          </Button>
        </Group>
      )}
    </Section>
  );
}
