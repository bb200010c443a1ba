import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Anchor, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/errors';
import { errorMessage } from '@/components/serverErrors';
import { portalApi, studentPortalApi } from '../api';
import { PORTAL_BASE, portalKeys } from './paths';

/**
 * Sign-in by one-time code: the phone first, then the code that came by WhatsApp (or the
 * activation code the school printed). The answer to the phone step never says whether the
 * phone is known.
 */
export function SignInPage() {
  const { t } = useTranslation('portal');
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [phone, setPhone] = useState('');
  const [step, setStep] = useState<'phone' | 'code' | 'student'>('phone');
  const [nisn, setNisn] = useState('');
  const config = useQuery({ queryKey: ['portal', 'config'], queryFn: ({ signal }) => studentPortalApi.config(signal), staleTime: 60_000 });
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [phoneError, setPhoneError] = useState<string | null>(null);

  const ask = async () => {
    setBusy(true);
    setError(null);
    setPhoneError(null);
    try {
      await portalApi.requestCode(phone);
      setStep('code');
    } catch (err) {
      if (isApiError(err) && err.fields.phone) setPhoneError(err.fields.phone);
      else setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };
  const verify = async (value = code) => {
    setBusy(true);
    setError(null);
    try {
      const out = step === 'student' ? await studentPortalApi.signIn(nisn, value) : await portalApi.verify(phone, value);
      qc.setQueryData(portalKeys.me, out.guardian);
      void navigate(`${PORTAL_BASE}/`, { replace: true });
    } catch (err) {
      setError(errorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="md" radius="md" mt="md">
      <Stack>
        <Title order={1} size="h3">
          {t('ortu.signIn.title')}
        </Title>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {step === 'student' ? (
          <form onSubmit={(e) => { e.preventDefault(); void verify(); }}>
            <Stack>
              <Text size="sm">{t('ortu.signIn.studentHelp')}</Text>
              <TextInput label={t('ortu.register.nisn')} inputMode="numeric" maxLength={10} value={nisn} onChange={(e) => setNisn(e.currentTarget.value)} />
              <TextInput label={t('ortu.signIn.code')} inputMode="numeric" maxLength={8} value={code} onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))} />
              <Button type="submit" loading={busy} fullWidth disabled={code.length !== 8}>
                {t('ortu.signIn.verify')}
              </Button>
              <Anchor component="button" type="button" size="sm" onClick={() => { setStep('phone'); setCode(''); }}>
                {t('ortu.signIn.asGuardian')}
              </Anchor>
            </Stack>
          </form>
        ) : step === 'phone' ? (
          <form onSubmit={(e) => { e.preventDefault(); void ask(); }}>
            <Stack>
              <Text size="sm">{t('ortu.signIn.phoneHelp')}</Text>
              <TextInput
                label={t('ortu.signIn.phone')}
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                placeholder="0812-3456-7890"
                value={phone}
                error={phoneError}
                onChange={(e) => setPhone(e.currentTarget.value)}
                data-testid="portal-phone"
              />
              <Button type="submit" loading={busy} fullWidth>
                {t('ortu.signIn.sendCode')}
              </Button>
              <Anchor component={Link} to={`${PORTAL_BASE}/daftar`} size="sm">
                {t('ortu.signIn.register')}
              </Anchor>
              {config.data?.students && (
                <Anchor component="button" type="button" size="sm" onClick={() => { setStep('student'); setCode(''); }}>
                  {t('ortu.signIn.asStudent')}
                </Anchor>
              )}
            </Stack>
          </form>
        ) : (
          <form onSubmit={(e) => { e.preventDefault(); void verify(); }}>
            <Stack>
              <Text size="sm">{t('ortu.signIn.codeHelp', { phone })}</Text>
              <TextInput
                label={t('ortu.signIn.code')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={8}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
                data-testid="portal-code"
              />
              <Button type="submit" loading={busy} fullWidth disabled={code.length < 6}>
                {t('ortu.signIn.verify')}
              </Button>
              <Anchor component="button" type="button" size="sm" onClick={() => { setStep('phone'); setCode(''); }}>
                {t('ortu.signIn.otherPhone')}
              </Anchor>
              <Text size="xs" c="dimmed">{t('ortu.signIn.consent')}</Text>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
