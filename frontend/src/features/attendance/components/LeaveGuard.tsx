import { useTranslation } from 'react-i18next';
import { LeaveGuard as Guard } from '@/components/LeaveGuard';

/**
 * The attendance form's unsaved-changes guard: the form's class and date are in the path, so
 * moving to another class, date or page asks first.
 */
export function LeaveGuard({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation('attendance');
  return (
    <Guard
      dirty={dirty}
      title={t('leave.title')}
      body={t('leave.body')}
      stay={t('leave.stay')}
      leave={t('leave.leave')}
      testId="attendance-leave-dialog"
      stayTestId="leave-stay"
      leaveTestId="leave-go"
    />
  );
}
