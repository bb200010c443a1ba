import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Card, Checkbox, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { saveFile } from '@/platform';
import { todayInJakarta } from '@/lib/dates';
import { useFormatDate } from '@/lib/useFormatDate';
import { casesApi, type Case } from '../api';
import { useRecordReferral } from '../hooks';

/** The case's PDFs: the referral to the Pokja (suspected breach of law) and the closing report. */
export function CaseDocuments({ c }: { c: Case }) {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const { me } = useSession();
  const fmt = useFormatDate();
  const [busy, setBusy] = useState<string | null>(null);
  const [identities, setIdentities] = useState(false);
  const [sentTo, setSentTo] = useState('');
  const [sentOn, setSentOn] = useState(todayInJakarta().format('YYYY-MM-DD'));
  const record = useRecordReferral(c.id);
  const owner = c.stages.some((s) => s.owner_id === me?.user.id);
  const law = c.classification === 'suspected_law';
  const download = async (kind: 'referral' | 'report') => {
    setBusy(kind);
    try {
      const { blob, fileName } = kind === 'referral' ? await casesApi.referralPdf(c.id, identities) : await casesApi.reportPdf(c.id);
      await saveFile(blob, fileName ?? `kasus-${c.id}-${kind}.pdf`);
      notifySuccess(t('documents.saved'));
    } catch (err) {
      notifyError(err, tc);
    } finally {
      setBusy(null);
    }
  };
  const saveSent = async () => {
    try {
      await record.mutateAsync({ sent_to: sentTo, sent_on: sentOn, notes: '' });
      notifySuccess(t('documents.sentRecorded'));
      setSentTo('');
    } catch (err) {
      notifyError(err, tc);
    }
  };
  return (
    <Card withBorder data-testid="case-documents">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('documents.title')}
        </Title>
        <Group gap="sm" wrap="wrap">
          <Button variant="light" leftSection={<IconFileTypePdf size={16} aria-hidden />} loading={busy === 'report'} onClick={() => void download('report')} data-testid="case-report-pdf">
            {t('documents.report')}
          </Button>
          {law && (
            <Button variant="light" color="red" leftSection={<IconFileTypePdf size={16} aria-hidden />} loading={busy === 'referral'} onClick={() => void download('referral')} data-testid="case-referral-pdf">
              {t('documents.referral')}
            </Button>
          )}
        </Group>
        {law && owner && (
          <Checkbox label={t('documents.identities')} description={t('documents.identitiesHint')} checked={identities} onChange={(e) => setIdentities(e.currentTarget.checked)} data-testid="case-referral-identities" />
        )}
        {law &&
          c.referrals.map((r) => (
            <Text key={r.id} size="sm" data-testid="case-referral">
              {t('documents.sentRow', { to: r.sent_to, date: fmt(r.sent_on, 'shortDate') })}
            </Text>
          ))}
        {law && c.can_edit && c.stage !== 'closed' && (
          <Group gap="sm" align="flex-end" wrap="wrap">
            <TextInput label={t('documents.sentTo')} value={sentTo} onChange={(e) => setSentTo(e.currentTarget.value)} maxLength={200} w={{ base: '100%', sm: 260 }} data-testid="case-referral-to" />
            <TextInput type="date" label={t('documents.sentOn')} value={sentOn} onChange={(e) => setSentOn(e.currentTarget.value)} w={{ base: '100%', sm: 160 }} />
            <Button onClick={() => void saveSent()} disabled={!sentTo.trim()} loading={record.isPending} data-testid="case-referral-save">
              {t('documents.recordSent')}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
