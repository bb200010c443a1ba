import { useTranslation } from 'react-i18next';
import { Card, Title } from '@mantine/core';
import { useSession } from '@/auth/session';
import { AttendanceCalendar } from './AttendanceCalendar';

/** The student page's attendance: their month calendar, for those with attendance.view. */
export function StudentAttendanceSection({ studentId }: { studentId: number }) {
  const { t } = useTranslation('attendance-recap');
  const { can } = useSession();
  if (!can('attendance.view')) return null;
  return (
    <Card withBorder padding="md" data-testid="student-attendance">
      <Title order={2} size="h5" mb="sm">
        {t('student.title')}
      </Title>
      <div style={{ maxWidth: 520 }}>
        <AttendanceCalendar kind="student" id={studentId} />
      </div>
    </Card>
  );
}
