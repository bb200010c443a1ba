import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Anchor, Badge, Button, Card, Group, Select, Stack, Table, Text } from '@mantine/core';
import { IconUserEdit } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { DataList, usePhone } from '@/components/DataList';
import { PageHeader } from '@/components/PageHeader';
import { useFormatNumber } from '@/lib/numbers';
import { useClasses, useDepartments } from '@/features/students/hooks';
import { gradeLabel, gradesOf, type Grade, type SchoolClass } from '@/features/students/types';
import { AssignTeacherModal } from '../components/AssignTeacherModal';
import '@/app/pageStyles';

export default function ClassesPage() {
  const { t } = useTranslation('classes');
  const navigate = useNavigate();
  const { can } = useSession();
  const canManage = can('classes.manage');
  const classes = useClasses();
  const departments = useDepartments();
  const [departmentId, setDepartmentId] = useState<number | null>(null);
  const [grade, setGrade] = useState<Grade | null>(null);
  const [assigning, setAssigning] = useState<SchoolClass | null>(null);
  const narrow = usePhone();
  const num = useFormatNumber();

  const all = classes.data?.data ?? [];
  const rows = all.filter((c) => (!departmentId || c.department_id === departmentId) && (!grade || c.grade === grade));
  const filtered = !!(departmentId || grade);
  const clearFilters = () => {
    setDepartmentId(null);
    setGrade(null);
  };
  const studentsOf = (c: SchoolClass) => `/students?class_id=${c.id}`;

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Card withBorder padding={0}>
        {all.length > 1 && (
          <Group p="md" gap="sm" align="flex-end" wrap={narrow ? 'nowrap' : 'wrap'}>
            <Select
              label={t('filters.department')}
              placeholder={t('filters.allDepartments')}
              data={(departments.data?.data ?? []).map((d) => ({ value: String(d.id), label: `${d.code} — ${d.name}` }))}
              value={departmentId ? String(departmentId) : null}
              onChange={(v) => setDepartmentId(v ? Number(v) : null)}
              clearable
              style={{ flex: '1 1 200px', minWidth: 0 }}
            />
            <Select
              label={t('filters.grade')}
              placeholder={t('filters.allGrades')}
              data={gradesOf(all).map((g) => ({ value: String(g), label: gradeLabel(g) }))}
              value={grade ? String(grade) : null}
              onChange={(v) => setGrade(v ? (Number(v) as Grade) : null)}
              clearable
              style={{ flex: '0 0 110px' }}
            />
          </Group>
        )}
        <DataList
          query={classes}
          rows={rows}
          rowKey={(c) => c.id}
          narrow={narrow}
          label={t('title')}
          testId="classes-table"
          minWidth={canManage ? 720 : 600}
          striped
          highlightOnHover
          head={
            <>
              <Table.Th>{t('fields.name')}</Table.Th>
              <Table.Th>{t('fields.grade')}</Table.Th>
              <Table.Th>{t('fields.department')}</Table.Th>
              <Table.Th ta="right">{t('fields.students')}</Table.Th>
              <Table.Th>{t('fields.teacher')}</Table.Th>
              {canManage && <Table.Th w={1} />}
            </>
          }
          row={(c) => (
            <Table.Tr data-testid={`class-row-${c.name}`} style={{ cursor: 'pointer' }} onClick={() => navigate(studentsOf(c))}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Anchor component={Link} to={studentsOf(c)} fw={600} size="sm" onClick={(e) => e.stopPropagation()}>
                  {c.name}
                </Anchor>
              </Table.Td>
              <Table.Td fz="sm">{c.grade_label}</Table.Td>
              <Table.Td fz="sm">
                {c.department_code ? (
                  <>
                    <Text span fw={500} size="sm">
                      {c.department_code}
                    </Text>
                    <Text span size="xs" c="dimmed" visibleFrom="md">
                      {' '}
                      {c.department_name}
                    </Text>
                  </>
                ) : (
                  '—'
                )}
              </Table.Td>
              <Table.Td fz="sm" ta="right">
                {num(c.student_count)}
              </Table.Td>
              <Table.Td fz="sm" data-testid="class-teacher">
                {c.homeroom_teacher ? (
                  c.homeroom_teacher.name
                ) : (
                  <Text span size="sm" c="dimmed">
                    {t('noTeacher')}
                  </Text>
                )}
              </Table.Td>
              {canManage && (
                <Table.Td onClick={(e) => e.stopPropagation()}>
                  <Button size="xs" variant="light" leftSection={<IconUserEdit size={14} />} onClick={() => setAssigning(c)} aria-label={t('assign.action', { name: c.name })}>
                    {t('assign.short')}
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
          )}
          card={(c) => (
            <Group data-testid={`class-row-${c.name}`} p="sm" gap="sm" wrap="nowrap" justify="space-between">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Group gap="xs">
                  <Anchor component={Link} to={studentsOf(c)} fw={600} size="sm">
                    {c.name}
                  </Anchor>
                  <Badge size="sm" variant="light" color="gray">
                    {t('studentCount', { n: num(c.student_count) })}
                  </Badge>
                </Group>
                <Text size="xs" c="dimmed" truncate>
                  {c.department_name ?? '—'}
                </Text>
                <Text size="xs" data-testid="class-teacher" truncate>
                  {t('fields.teacher')}: {c.homeroom_teacher ? c.homeroom_teacher.name : t('noTeacher')}
                </Text>
              </Stack>
              {canManage && (
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconUserEdit size={14} />}
                  onClick={() => setAssigning(c)}
                  aria-label={t('assign.action', { name: c.name })}
                  style={{ flexShrink: 0 }}
                >
                  {t('assign.short')}
                </Button>
              )}
            </Group>
          )}
          empty={{
            message: all.length === 0 ? t('empty') : t('emptyFiltered'),
            onClearFilters: all.length > 0 && filtered ? clearFilters : undefined,
            testId: 'classes-empty',
          }}
        />
        {classes.isSuccess && all.length > 0 && (
          <Text size="xs" c="dimmed" ta="center" p="md">
            {t('summary', { classes: num(rows.length), students: num(rows.reduce((n, c) => n + c.student_count, 0)) })}
          </Text>
        )}
      </Card>
      <AssignTeacherModal cls={assigning} classes={all} onClose={() => setAssigning(null)} />
    </>
  );
}
