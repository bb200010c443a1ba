import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Alert, Badge, Button, Card, Center, Group, Loader, Modal, MultiSelect, Select, SimpleGrid, Stack, Stepper, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconEyeOff, IconUserPlus } from '@tabler/icons-react';
import { PageHeader } from '@/components/PageHeader';
import { errorMessage, notifyError, notifySuccess } from '@/components/serverErrors';
import { useFormatDate } from '@/lib/useFormatDate';
import { CASE_STAGES, nextStage, type Case, type CaseParticipant, type CaseStage } from '../api';
import { RoleBadge, StageBadge } from '../components/Badges';
import { AccessLog } from '../components/AccessLog';
import { AddParticipant } from '../components/AddParticipant';
import { CaseDocuments } from '../components/Documents';
import { ReportThread } from '../components/ReportThread';
import { CaseAgreements, CaseRecovery, CaseSessions, CaseViolations } from '../components/Handling';
import { useCase, useMoveStage, useTeamOptions, useUpdateCase } from '../hooks';
import '@/app/pageStyles';

/** One case: its facts, people, stages and team, as much of it as the reader may see. */
export default function CasePage() {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const id = Number(useParams().id);
  const q = useCase(Number.isInteger(id) ? id : 0);
  if (q.isPending) {
    return (
      <Center p="xl">
        <Loader aria-label={tc('loading')} />
      </Center>
    );
  }
  if (q.isError || !q.data) {
    return <Alert color="red">{errorMessage(q.error, tc)}</Alert>;
  }
  const c = q.data;
  return (
    <>
      <PageHeader title={c.title || t('untitled', { category: c.category_name })} description={c.category_name} actions={<StageBadge stage={c.stage} />} />
      <Stack gap="md" data-testid="case-page" data-level={c.level}>
        {c.level !== 'full' && (
          <Alert color="gray" icon={<IconEyeOff size={18} aria-hidden />} data-testid="case-limited">
            {t(`limited.${c.level}`)}
          </Alert>
        )}
        <Facts c={c} />
        <ReportThread c={c} />
        <Stages c={c} />
        <People c={c} />
        {c.level !== 'homeroom' && <CaseViolations c={c} />}
        {c.level === 'full' && (
          <>
            <CaseSessions c={c} />
            <CaseAgreements c={c} />
            <CaseRecovery c={c} />
            <CaseDocuments c={c} />
          </>
        )}
        <Team c={c} />
        <AccessLog caseId={c.id} />
      </Stack>
    </>
  );
}

function Facts({ c }: { c: Case }) {
  const { t } = useTranslation('cases');
  const fmt = useFormatDate();
  const update = useUpdateCase(c.id);
  const { t: tc } = useTranslation();
  return (
    <Card withBorder>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Field label={t('fields.occurredAt')} value={fmt(c.occurred_at, 'dateTime')} />
          {c.level !== 'homeroom' && <Field label={t('fields.place')} value={c.place || '—'} />}
          <Field label={t('fields.source')} value={t(`source.${c.source}`)} />
          {c.can_edit && c.stage === 'identification' ? (
            <Select
              label={t('fields.classification')}
              placeholder={t('classification.none')}
              data={(['school_rule', 'suspected_law'] as const).map((k) => ({ value: k, label: t(`classification.${k}`) }))}
              value={c.classification || null}
              onChange={(v) => {
                if (v === 'school_rule' || v === 'suspected_law')
                  update.mutate({ classification: v }, { onSuccess: () => notifySuccess(t('classified')), onError: (e) => notifyError(e, tc) });
              }}
              allowDeselect={false}
              data-testid="case-classification"
            />
          ) : (
            <Field label={t('fields.classification')} value={t(`classification.${c.classification || 'none'}`)} testId="case-classification-text" />
          )}
        </SimpleGrid>
        {c.description !== null && (
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {t('fields.description')}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="case-description-text">
              {c.description || '—'}
            </Text>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

function Field({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

function Stages({ c }: { c: Case }) {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const fmt = useFormatDate();
  const phone = useMediaQuery('(max-width: 48em)');
  const move = useMoveStage(c.id);
  const [moving, setMoving] = useState(false);
  const [editing, setEditing] = useState<CaseStage | null>(null);
  const [notes, setNotes] = useState('');
  const next = nextStage(c.stage);
  const active = CASE_STAGES.indexOf(c.stage);
  const confirm = async () => {
    if (!next) return;
    try {
      await move.mutateAsync({ to: next, notes });
      notifySuccess(t('stages.moved', { stage: t(`stage.${next}`) }));
      setMoving(false);
      setNotes('');
    } catch (err) {
      notifyError(err, tc);
    }
  };
  return (
    <Card withBorder>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t('stages.title')}
          </Title>
          {c.can_edit && next && (
            <Button size="xs" onClick={() => setMoving(true)} data-testid="case-next-stage">
              {t('stages.moveTo', { stage: t(`stage.${next}`) })}
            </Button>
          )}
        </Group>
        <Stepper active={c.stage === 'closed' ? CASE_STAGES.length : active} orientation={phone ? 'vertical' : 'horizontal'} size="sm" allowNextStepsSelect={false} data-testid="case-stepper">
          {c.stages.map((s) => (
            <Stepper.Step
              key={s.stage}
              label={t(`stage.${s.stage}`)}
              description={
                <Stack gap={2} data-testid="case-step" data-stage={s.stage}>
                  <Text size="xs">{t('stages.owner', { name: s.owner_name || '—' })}</Text>
                  <Text size="xs" c={s.overdue ? 'red' : 'dimmed'}>
                    {t('stages.due', { date: fmt(s.due_on, 'shortDate') })}
                  </Text>
                  {s.overdue && (
                    <Badge color="red" size="xs">
                      {t('overdue')}
                    </Badge>
                  )}
                  {s.notes && (
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
                      {s.notes}
                    </Text>
                  )}
                </Stack>
              }
            />
          ))}
          <Stepper.Completed>{null}</Stepper.Completed>
        </Stepper>
        {/* Outside the stepper: its steps are buttons, and a button may not hold another. */}
        {c.can_edit && c.stages.some((s) => !s.completed_at) && (
          <Group gap="xs" wrap="wrap">
            {c.stages
              .filter((s) => !s.completed_at)
              .map((s) => (
                <Button key={s.stage} size="compact-xs" variant="subtle" onClick={() => setEditing(s)} data-testid="case-step-edit">
                  {t('stages.editStage', { stage: t(`stage.${s.stage}`) })}
                </Button>
              ))}
          </Group>
        )}
        {c.stage === 'identification' && !c.classification && c.can_edit && (
          <Text size="sm" c="dimmed">
            {t('stages.classifyFirst')}
          </Text>
        )}
      </Stack>
      <Modal opened={moving} onClose={() => setMoving(false)} title={next ? t('stages.moveTo', { stage: t(`stage.${next}`) }) : ''} centered closeButtonProps={{ 'aria-label': t('close') }}>
        <Stack gap="md">
          <Textarea label={t('stages.notes')} description={t('stages.notesHint')} autosize minRows={3} maxLength={5000} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} data-testid="stage-notes" />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setMoving(false)}>
              {t('cancel')}
            </Button>
            <Button onClick={() => void confirm()} loading={move.isPending} data-testid="stage-confirm">
              {t('stages.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      {editing && <StageEditor c={c} stage={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}

function StageEditor({ c, stage, onClose }: { c: Case; stage: CaseStage; onClose: () => void }) {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const users = useTeamOptions(true);
  const update = useUpdateCase(c.id);
  const [owner, setOwner] = useState<string | null>(stage.owner_id ? String(stage.owner_id) : null);
  const [due, setDue] = useState(stage.due_on);
  const save = async () => {
    try {
      await update.mutateAsync({ stages: [{ stage: stage.stage, owner_id: owner ? Number(owner) : undefined, due_on: due }] });
      notifySuccess(t('saved'));
      onClose();
    } catch (err) {
      notifyError(err, tc);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t(`stage.${stage.stage}`)} centered closeButtonProps={{ 'aria-label': t('close') }}>
      <Stack gap="md">
        <Select label={t('stages.ownerLabel')} searchable data={(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))} value={owner} onChange={setOwner} data-testid="stage-owner" />
        <TextInput type="date" label={t('stages.dueLabel')} value={due} onChange={(e) => setDue(e.currentTarget.value)} data-testid="stage-due" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button onClick={() => void save()} loading={update.isPending} data-testid="stage-save">
            {t('save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function People({ c }: { c: Case }) {
  const { t } = useTranslation('cases');
  const [adding, setAdding] = useState(false);
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t('people.title')}
          </Title>
          {c.can_edit && (
            <Button size="xs" variant="light" leftSection={<IconUserPlus size={14} aria-hidden />} onClick={() => setAdding(true)} data-testid="participant-add">
              {t('people.add')}
            </Button>
          )}
        </Group>
        {c.people.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('people.none')}
          </Text>
        )}
        {c.people.map((p) => (
          <Person key={p.id} p={p} />
        ))}
      </Stack>
      <AddParticipant caseId={c.id} opened={adding} onClose={() => setAdding(false)} />
    </Card>
  );
}

function Person({ p }: { p: CaseParticipant }) {
  const { t } = useTranslation('cases');
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" data-testid="case-person" data-kind={p.kind} data-role={p.role} style={{ borderTop: '1px solid var(--mantine-color-gray-2)', paddingTop: 6, minWidth: 0 }}>
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Text size="sm" fw={600} c={p.name === null ? 'dimmed' : undefined} fs={p.name === null ? 'italic' : undefined} style={{ overflowWrap: 'anywhere' }} data-testid="case-person-name">
          {p.name ?? t('people.hidden')}
        </Text>
        <Text size="xs" c="dimmed">
          {[p.kind === 'student' ? p.class_name : t(`people.kind.${p.kind}`), p.relation].filter(Boolean).join(' · ')}
        </Text>
      </Stack>
      <RoleBadge role={p.role} />
    </Group>
  );
}

function Team({ c }: { c: Case }) {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const [editing, setEditing] = useState(false);
  const users = useTeamOptions(editing);
  const update = useUpdateCase(c.id);
  const [value, setValue] = useState<string[]>([]);
  const start = () => {
    setValue(c.team.map((m) => String(m.user_id)));
    setEditing(true);
  };
  const save = async () => {
    try {
      await update.mutateAsync({ team: value.map(Number) });
      notifySuccess(t('saved'));
      setEditing(false);
    } catch (err) {
      notifyError(err, tc);
    }
  };
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t('team.title')}
          </Title>
          {c.can_edit && !editing && (
            <Button size="xs" variant="light" onClick={start} data-testid="team-edit">
              {t('team.edit')}
            </Button>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {t('team.hint')}
        </Text>
        {editing ? (
          <>
            <MultiSelect searchable data={(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))} value={value} onChange={setValue} data-testid="team-select" />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(false)}>
                {t('cancel')}
              </Button>
              <Button onClick={() => void save()} loading={update.isPending} disabled={value.length === 0} data-testid="team-save">
                {t('save')}
              </Button>
            </Group>
          </>
        ) : (
          <Group gap="xs" data-testid="case-team">
            {c.team.map((m) => (
              <Badge key={m.user_id} variant="outline" tt="none">
                {m.name}
              </Badge>
            ))}
          </Group>
        )}
      </Stack>
    </Card>
  );
}
