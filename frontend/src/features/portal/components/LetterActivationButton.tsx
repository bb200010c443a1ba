import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { apiResponse, fileNameFromDisposition } from '@/api/client';
import { useSession } from '@/auth/session';
import { notifyError, notifySuccess } from '@/components/serverErrors';
import { saveFile } from '@/platform';
import { guardiansApi } from '../api';

/**
 * On a warning letter: its PDF with a verified guardian's one-time portal activation code (for
 * schools without a WhatsApp gateway: POST /warning-letters/{id}/activation-pdf).
 */
export function LetterActivationButton({ letterId, studentId, withdrawn }: { letterId: number; studentId: number; withdrawn: boolean }) {
  const { t } = useTranslation('portal');
  const { can } = useSession();
  const allowed = can('guardians.manage') && !withdrawn;
  const guardians = useQuery({
    queryKey: ['guardians', studentId, false],
    queryFn: ({ signal }) => guardiansApi.list({ student_id: studentId }, signal),
    enabled: allowed,
  });
  const [busy, setBusy] = useState(false);
  const verified = (guardians.data?.data ?? []).filter(
    (g) => !g.withdrawn_at && g.students.some((s) => s.student_id === studentId && s.status === 'verified'),
  );
  if (!allowed || verified.length === 0) return null;
  const download = async (guardianId: number) => {
    setBusy(true);
    try {
      const res = await apiResponse(
        `/warning-letters/${letterId}/activation-pdf`,
        { method: 'POST', body: { guardian_id: guardianId } },
        'application/pdf, application/json',
      );
      await saveFile(await res.blob(), fileNameFromDisposition(res.headers.get('Content-Disposition')) ?? `SP-${letterId}.pdf`);
      notifySuccess(t('guardians.letterCodeSaved'));
    } catch (err) {
      notifyError(err, t);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Menu position="bottom-start">
      <Menu.Target>
        <Button variant="default" loading={busy} data-testid="letter-activation-pdf">
          {t('guardians.letterCode')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {verified.map((g) => (
          <Menu.Item key={g.id} onClick={() => void download(g.id)}>
            {g.name} (+{g.phone})
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
