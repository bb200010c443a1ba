import { useTranslation } from 'react-i18next';
import { LeaveGuard as Guard } from '@/components/LeaveGuard';

/** The role matrix's unsaved-changes guard. */
export function LeaveGuard({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation('roles');
  return (
    <Guard dirty={dirty} title={t('leave.title')} body={t('leave.body')} stay={t('leave.stay')} leave={t('leave.leave')} testId="roles-leave-dialog" />
  );
}
