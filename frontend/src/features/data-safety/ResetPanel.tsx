import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useForm } from '@mantine/form';
import { Alert, Badge, Button, Card, Checkbox, Group, List, Modal, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconCircleCheck, IconDatabaseExport, IconInfoCircle, IconTrash } from '@tabler/icons-react';
import { applyServerErrors, errorMessage } from '@/components/serverErrors';
import { PageLoader } from '@/components/PageLoader';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import { useReset, useResetInfo, type ResetResult, type ResetSet, type ResetSetID } from './ResetApi';
import { requiredBy, toggle } from './ResetLogic';

interface ConfirmValues {
  school_name: string;
  password: string;
}

/**
 * Settings → Data: the selective reset (admin only; the section needs data.reset). The sets as
 * checkboxes with their row counts, what a set brings with it said before submitting, the
 * backup offer on top, and a confirmation asking for the school's name and the admin's password.
 */
export function ResetPanel() {
  const { t } = useTranslation('data-safety');
  const { t: tc } = useTranslation();
  const num = useFormatNumber();
  const fmt = useFormatDate();
  const info = useResetInfo();
  const reset = useReset();
  const self = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState<ResetSetID[]>([]);
  const [added, setAdded] = useState<{ set: ResetSetID; sets: ResetSetID[] } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [result, setResult] = useState<ResetResult | null>(null);
  const form = useForm<ConfirmValues>({ initialValues: { school_name: '', password: '' } });

  if (info.error) {
    return (
      <Alert color="red" icon={<IconAlertCircle />} role="alert">
        {errorMessage(info.error, tc)}
      </Alert>
    );
  }
  if (!info.data) return <PageLoader />;
  const { sets, school_name: schoolName, last_backup: lastBackup } = info.data;
  const byId = new Map(sets.map((s) => [s.id, s]));
  const label = (id: ResetSetID) => byId.get(id)?.label ?? id;
  const held = requiredBy(selected, sets);
  const chosen = sets.filter((s) => selected.includes(s.id));
  const total = chosen.reduce((n, s) => n + s.total, 0);

  const onToggle = (s: ResetSet) => {
    const next = toggle(selected, s.id, sets);
    const brought = next.filter((id) => id !== s.id && !selected.includes(id));
    setAdded(brought.length > 0 ? { set: s.id, sets: brought } : null);
    setSelected(next);
  };

  // The backup section is the one right above this one on the same tab.
  const toBackup = () => {
    const section = self.current?.parentElement?.previousElementSibling as HTMLElement | null;
    section?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    section?.querySelector<HTMLElement>('button, a[href]')?.focus({ preventScroll: true });
  };

  const openConfirm = () => {
    form.reset();
    setFormError(null);
    setConfirming(true);
  };

  const submit = (v: ConfirmValues) => {
    setFormError(null);
    reset.mutate(
      { sets: selected, school_name: v.school_name, password: v.password },
      {
        onSuccess: (r) => {
          setResult(r);
          setConfirming(false);
          setSelected([]);
          setAdded(null);
        },
        onError: (err) => setFormError(applyServerErrors(form, err, tc)),
      },
    );
  };

  const tableRows = (rows: Record<string, number>) =>
    Object.entries(rows)
      .filter(([, n]) => n > 0)
      .map(([table, n]) => `${t(`reset.tables.${table}`, { defaultValue: table })} ${num(n)}`)
      .join(' · ');

  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} ref={self} data-testid="reset-section">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            {t('reset.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('reset.description')}
          </Text>
        </div>

        <Alert color="yellow" icon={<IconAlertTriangle />} data-testid="reset-backup-offer">
          <Stack gap="xs" align="flex-start">
            <Text size="sm" fw={600} data-testid="reset-last-backup">
              {lastBackup ? t('reset.lastBackup', { at: fmt(lastBackup.finished_at ?? lastBackup.started_at, 'dateTime') }) : t('reset.noBackup')}
            </Text>
            <Text size="sm">{t('reset.backupAdvice')}</Text>
            <Button variant="white" color="dark" size="xs" leftSection={<IconDatabaseExport size={16} aria-hidden />} onClick={toBackup} data-testid="reset-backup-first">
              {t('reset.downloadFirst')}
            </Button>
          </Stack>
        </Alert>

        {result && (
          <Alert color="teal" icon={<IconCircleCheck />} title={t('reset.doneTitle')} role="status" data-testid="reset-result" withCloseButton onClose={() => setResult(null)}>
            <Stack gap="xs">
              <Text size="sm" fw={600}>
                {t('reset.doneRemoved')}
              </Text>
              {Object.values(result.removed).some((n) => n > 0) ? (
                <List size="sm" data-testid="reset-result-removed">
                  {Object.entries(result.removed)
                    .filter(([, n]) => n > 0)
                    .map(([table, n]) => (
                      <List.Item key={table}>
                        {t(`reset.tables.${table}`, { defaultValue: table })}: {t('reset.rows', { n: num(n) })}
                      </List.Item>
                    ))}
                </List>
              ) : (
                <Text size="sm">{t('reset.doneNothing')}</Text>
              )}
              {result.recreated.length > 0 && (
                <>
                  <Text size="sm" fw={600}>
                    {t('reset.doneRecreated')}
                  </Text>
                  <List size="sm" data-testid="reset-result-recreated">
                    {result.recreated.map((k) => (
                      <List.Item key={k}>{t(`reset.recreated.${k}`, { defaultValue: k })}</List.Item>
                    ))}
                  </List>
                </>
              )}
              <Group gap="xs">
                <Text size="sm">{t('reset.doneAudit')}</Text>
                <Button component={Link} to="/audit-log" variant="subtle" size="compact-sm" data-testid="reset-open-audit">
                  {t('reset.openAudit')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}

        <div role="group" aria-labelledby="reset-sets-label">
          <Text size="sm" fw={500} id="reset-sets-label">
            {t('reset.chooseLabel')}
          </Text>
          <Stack gap="sm" mt="xs">
            {sets.map((s) => {
              const holders = held[s.id];
              return (
                <Checkbox
                  key={s.id}
                  checked={selected.includes(s.id)}
                  disabled={!!holders?.length}
                  onChange={() => onToggle(s)}
                  data-testid={`reset-set-${s.id}`}
                  label={
                    <Group gap="xs" wrap="wrap">
                      <span>{s.label}</span>
                      <Badge variant="light" color={s.total > 0 ? 'red' : 'gray'} data-testid={`reset-count-${s.id}`}>
                        {t('reset.rows', { n: num(s.total) })}
                      </Badge>
                    </Group>
                  }
                  description={
                    <>
                      {s.description}
                      {s.requires.length > 0 && (
                        <>
                          <br />
                          {t('reset.requires', { sets: s.requires.map(label).join(', ') })}
                        </>
                      )}
                      {holders?.length ? (
                        <>
                          <br />
                          <Text span size="xs" fw={600} c="red.9">
                            {t('reset.heldBy', { sets: holders.map(label).join(', ') })}
                          </Text>
                        </>
                      ) : null}
                    </>
                  }
                />
              );
            })}
          </Stack>
        </div>

        {added && (
          <Alert color="blue" icon={<IconInfoCircle />} role="status" data-testid="reset-added">
            {t('reset.added', { set: label(added.set), sets: added.sets.map(label).join(', ') })}
          </Alert>
        )}

        <div data-testid="reset-summary">
          <Text size="sm" fw={600}>
            {t('reset.summaryTitle')}
          </Text>
          {chosen.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('reset.nothingChosen')}
            </Text>
          ) : (
            <>
              <List size="sm">
                {chosen.map((s) => (
                  <List.Item key={s.id}>
                    <b>{s.label}</b>: {t('reset.rows', { n: num(s.total) })}
                    {s.total > 0 && <Text span size="sm" c="dimmed">{` (${tableRows(s.rows)})`}</Text>}
                  </List.Item>
                ))}
              </List>
              <Text size="sm" mt={4}>
                {t('reset.summaryTotal', { n: num(total), sets: num(chosen.length) })}
              </Text>
            </>
          )}
          <Text size="xs" c="dimmed" mt="xs">
            {t('reset.recreateNote')}
          </Text>
        </div>

        <Group>
          <Button color="red" leftSection={<IconTrash size={16} aria-hidden />} disabled={selected.length === 0} onClick={openConfirm} data-testid="reset-open-confirm">
            {t('reset.submit')}
          </Button>
        </Group>
      </Stack>

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('reset.confirmTitle')} closeButtonProps={{ 'aria-label': tc('actions.close') }}>
        <form noValidate aria-label={t('reset.confirmTitle')} onSubmit={form.onSubmit(submit)} data-testid="reset-confirm">
          <Stack gap="md">
            <Text size="sm">{t('reset.confirmIntro')}</Text>
            <List size="sm">
              {chosen.map((s) => (
                <List.Item key={s.id}>
                  <b>{s.label}</b>: {t('reset.rows', { n: num(s.total) })}
                </List.Item>
              ))}
            </List>
            {formError && (
              <Alert color="red" icon={<IconAlertCircle />} role="alert" data-testid="reset-error">
                {formError}
              </Alert>
            )}
            <TextInput
              label={t('reset.schoolName')}
              description={t('reset.schoolNameHint', { name: schoolName })}
              autoComplete="off"
              required
              data-autofocus
              data-testid="reset-school-name"
              {...form.getInputProps('school_name')}
            />
            <PasswordInput label={t('reset.password')} autoComplete="current-password" required data-testid="reset-password" {...form.getInputProps('password')} />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setConfirming(false)}>
                {tc('actions.cancel')}
              </Button>
              <Button type="submit" color="red" loading={reset.isPending} data-testid="reset-submit">
                {t('reset.confirmSubmit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Card>
  );
}
