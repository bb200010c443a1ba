import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Card, FileInput, Group, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconAlertCircle, IconShieldCheck } from '@tabler/icons-react';
import { errorMessage } from '@/components/serverErrors';
import { isApiError } from '@/api/errors';
import { LACAK_PATH, publicReportsApi, type ReportReceipt } from './api';
import { PublicFrame } from './PublicFrame';

/** /lapor: anyone reports what happened, without signing in, and keeps a code and a PIN. */
export default function ReportPage() {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation();
  const categories = useQuery({ queryKey: ['public-report-categories'], queryFn: ({ signal }) => publicReportsApi.categories(signal) });
  const [category, setCategory] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const [when, setWhen] = useState('');
  const [place, setPlace] = useState('');
  const [name, setName] = useState('');
  const [photos, setPhotos] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [receipt, setReceipt] = useState<ReportReceipt | null>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    setFieldErrors({});
    if (!category || !description.trim()) {
      setFieldErrors({ ...(category ? {} : { category_id: tc('validation.required') }), ...(description.trim() ? {} : { description: tc('validation.required') }) });
      return;
    }
    setBusy(true);
    try {
      setReceipt(await publicReportsApi.file({ category_id: Number(category), description, occurred_at: when, place, name }, photos));
    } catch (err) {
      if (isApiError(err) && err.hasFieldErrors) setFieldErrors(err.fields);
      setError(errorMessage(err, tc));
    } finally {
      setBusy(false);
    }
  };

  if (receipt) {
    return (
      <PublicFrame title={t('public.title')}>
        <Card withBorder data-testid="lapor-receipt">
          <Stack gap="sm">
            <Group gap="xs">
              <IconShieldCheck size={22} color="var(--mantine-color-teal-6)" aria-hidden />
              <Text fw={600}>{t('public.received')}</Text>
            </Group>
            <Text size="sm">{t('public.keep')}</Text>
            <Text size="sm" c="dimmed">
              {t('public.code')}
            </Text>
            <Text ff="monospace" fz={26} fw={700} data-testid="lapor-code" style={{ letterSpacing: 2, overflowWrap: 'anywhere' }}>
              {receipt.code}
            </Text>
            <Text size="sm" c="dimmed">
              {t('public.pin')}
            </Text>
            <Text ff="monospace" fz={26} fw={700} data-testid="lapor-pin" style={{ letterSpacing: 4 }}>
              {receipt.pin}
            </Text>
            <Text size="xs" c="dimmed">
              {t('public.pinOnce')}
            </Text>
            <Button component={Link} to={LACAK_PATH} variant="light">
              {t('public.track')}
            </Button>
          </Stack>
        </Card>
      </PublicFrame>
    );
  }

  return (
    <PublicFrame title={t('public.title')}>
      <Text size="sm">{t('public.intro')}</Text>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="md">
          {error && (
            <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} data-testid="lapor-error">
              {error}
            </Alert>
          )}
          <Select
            label={t('public.category')}
            required
            data={(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
            value={category}
            onChange={setCategory}
            error={fieldErrors.category_id}
            data-testid="lapor-category"
          />
          <Textarea
            label={t('public.what')}
            required
            autosize
            minRows={4}
            maxLength={10000}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={fieldErrors.description}
            data-testid="lapor-description"
          />
          <TextInput type="datetime-local" label={t('public.when')} value={when} onChange={(e) => setWhen(e.currentTarget.value)} error={fieldErrors.occurred_at} data-testid="lapor-when" />
          <TextInput label={t('public.where')} maxLength={200} value={place} onChange={(e) => setPlace(e.currentTarget.value)} error={fieldErrors.place} data-testid="lapor-where" />
          <FileInput
            label={t('public.photos')}
            description={t('public.photosHint')}
            multiple
            accept="image/jpeg,image/png,image/gif"
            value={photos}
            onChange={(f) => setPhotos(f.slice(0, 3))}
            error={fieldErrors.photos}
            clearable
            data-testid="lapor-photos"
          />
          <TextInput label={t('public.name')} description={t('public.nameHint')} maxLength={150} value={name} onChange={(e) => setName(e.currentTarget.value)} data-testid="lapor-name" />
          <Text size="xs" c="dimmed">
            {t('public.privacy')}
          </Text>
          <Button type="submit" loading={busy} fullWidth data-testid="lapor-submit">
            {t('public.submit')}
          </Button>
          <Anchor component={Link} to={LACAK_PATH} size="sm" ta="center">
            {t('public.haveCode')}
          </Anchor>
        </Stack>
      </form>
    </PublicFrame>
  );
}
