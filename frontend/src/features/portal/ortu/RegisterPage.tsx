import './pageStyles';
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/errors';
import { errorMessage } from '@/components/serverErrors';
import { RELATIONS, registrationApi, type PortalRegistration, type Relation } from '../api';
import { PORTAL_BASE } from './paths';

/** Self-registration: the child's NISN and date of birth, the guardian's phone and name. */
export function RegisterPage() {
  const { t } = useTranslation('portal');
  const [v, setV] = useState<PortalRegistration>({ nisn: '', date_of_birth: '', phone: '', name: '', relationship: 'ibu' });
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<'verified' | 'pending' | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof PortalRegistration) => (e: React.ChangeEvent<HTMLInputElement>) => setV({ ...v, [k]: e.currentTarget.value });
  const submit = async () => {
    setBusy(true);
    setError(null);
    setFields({});
    try {
      setDone((await registrationApi.register(v)).status);
    } catch (err) {
      if (isApiError(err) && err.hasFieldErrors) setFields(err.fields);
      else setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="md" radius="md" mt="md">
      <Stack>
        <Title order={1} size="h3">
          {t('ortu.register.title')}
        </Title>
        {done ? (
          <Alert color={done === 'verified' ? 'teal' : 'yellow'} data-testid="register-result" data-status={done}>
            {t(`ortu.register.${done}`)}
          </Alert>
        ) : (
          <form onSubmit={(e) => { e.preventDefault(); void submit(); }}>
            <Stack>
              {error && <Alert color="red">{error}</Alert>}
              <Text size="sm">{t('ortu.register.help')}</Text>
              <TextInput label={t('ortu.register.nisn')} inputMode="numeric" maxLength={10} value={v.nisn} onChange={set('nisn')} error={fields.nisn} />
              <TextInput label={t('ortu.register.dob')} type="date" value={v.date_of_birth} onChange={set('date_of_birth')} error={fields.date_of_birth} />
              <TextInput label={t('ortu.register.name')} value={v.name} onChange={set('name')} error={fields.name} />
              <Select
                label={t('ortu.register.relation')}
                data={RELATIONS.map((r) => ({ value: r, label: t(`ortu.relation.${r}`) }))}
                value={v.relationship}
                onChange={(r) => r && setV({ ...v, relationship: r as Relation })}
                allowDeselect={false}
              />
              <TextInput label={t('ortu.signIn.phone')} type="tel" value={v.phone} onChange={set('phone')} error={fields.phone} />
              <Button type="submit" loading={busy}>
                {t('ortu.register.submit')}
              </Button>
            </Stack>
          </form>
        )}
        <Anchor component={Link} to={`${PORTAL_BASE}/masuk`} size="sm">
          {t('ortu.register.toSignIn')}
        </Anchor>
      </Stack>
    </Paper>
  );
}
