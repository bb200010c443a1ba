import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert, Anchor, Badge, Button, Group, Pagination, Paper, ScrollArea, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { DatePickerInput, MonthPickerInput } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconPrinter } from '@tabler/icons-react';
import { useSession } from '@/auth/session';
import { EmptyState } from '@/components/EmptyState';
import { PageHeader } from '@/components/PageHeader';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage, notifyError, notifySuccess } from '@/components/serverErrors';
import { todayInJakarta } from '@/lib/dates';
import { useFormatNumber } from '@/lib/numbers';
import { useFormatDate } from '@/lib/useFormatDate';
import { saveFile } from '@/platform';
import { useClasses, useDepartments } from '@/features/students/hooks';
import { useScreenSource } from '@/features/violation-source/hooks';
import { SourceControl } from '@/features/violation-source/SourceControl';
import type { Source } from '@/features/violation-source/source';
import { reportsApi } from '../api';
import { useRecap } from '../hooks';
import { PERIOD_KINDS, SCOPE_KINDS, apiQuery, formFromParams, formToParams, type RecapForm } from '../query';
import type { RecapCases, ViolationRecap } from '../types';
import '@/app/pageStyles';

const DETAIL_PAGE = 50;

/** The period and scope form; a homeroom teacher's scope is their class, shown, not chosen. */
function FormBar({ form, homeroom, onChange, onSource }: { form: RecapForm; homeroom: boolean; onChange: (f: RecapForm) => void; onSource: (s: Source) => void }) {
  const { t } = useTranslation('reports');
  const classes = useClasses();
  const departments = useDepartments();
  const set = (p: Partial<RecapForm>) => onChange({ ...form, ...p });
  // Four periods do not fit side by side on a phone: stacked there.
  const narrow = useMediaQuery('(max-width: 36em)');
  const thisYear = Number(todayInJakarta().format('YYYY'));
  const years = Array.from({ length: 6 }, (_, i) => thisYear - 4 + i).map((y) => ({ value: String(y), label: `${y}/${y + 1}` }));
  const grades = [...new Set((classes.data?.data ?? []).map((c) => c.grade))].sort((a, b) => a - b);
  return (
    <Paper withBorder p="sm">
      <Stack gap="sm">
        <SourceControl value={form.source} onChange={onSource} />
        <SegmentedControl
          value={form.period}
          onChange={(v) => set({ period: v as RecapForm['period'] })}
          data={PERIOD_KINDS.map((p) => ({ value: p, label: t(`period.${p}`) }))}
          aria-label={t('period.label')}
          data-testid="report-period"
          orientation={narrow ? 'vertical' : 'horizontal'}
          fullWidth
        />
        <Group gap="sm" align="flex-end" wrap="wrap">
          {form.period === 'month' && (
            <MonthPickerInput
              label={t('month')}
              value={form.month + '-01'}
              onChange={(v) => v && set({ month: String(v).slice(0, 7) })}
              valueFormat="MMMM YYYY"
              w={{ base: '100%', xs: 200 }}
              data-testid="report-month"
            />
          )}
          {(form.period === 'semester' || form.period === 'academic_year') && (
            <Select
              label={t('academicYear')}
              data={years}
              value={String(form.academicYear)}
              onChange={(v) => v && set({ academicYear: Number(v) })}
              allowDeselect={false}
              w={{ base: '100%', xs: 160 }}
              data-testid="report-year"
            />
          )}
          {form.period === 'semester' && (
            <Select
              label={t('semester')}
              data={[
                { value: '1', label: t('semesterN', { n: 1 }) },
                { value: '2', label: t('semesterN', { n: 2 }) },
              ]}
              value={String(form.semester)}
              onChange={(v) => v && set({ semester: v === '2' ? 2 : 1 })}
              allowDeselect={false}
              w={{ base: '100%', xs: 160 }}
              data-testid="report-semester"
            />
          )}
          {form.period === 'range' && (
            <DatePickerInput
              type="range"
              label={t('range')}
              value={[form.from, form.to]}
              onChange={([a, b]) => a && b && set({ from: String(a).slice(0, 10), to: String(b).slice(0, 10) })}
              valueFormat="D MMM YYYY"
              w={{ base: '100%', xs: 280 }}
              data-testid="report-range"
            />
          )}
          {!homeroom && (
            <Select
              label={t('scope.label')}
              data={SCOPE_KINDS.map((s) => ({ value: s, label: t(`scope.${s}`) }))}
              value={form.scope}
              onChange={(v) => v && set({ scope: v as RecapForm['scope'] })}
              allowDeselect={false}
              w={{ base: '100%', xs: 180 }}
              data-testid="report-scope"
            />
          )}
          {!homeroom && form.scope === 'class' && (
            <Select
              label={t('scope.class')}
              placeholder={t('pick.class')}
              searchable
              data={(classes.data?.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
              value={form.classId ? String(form.classId) : null}
              onChange={(v) => set({ classId: Number(v) || 0 })}
              w={{ base: '100%', xs: 200 }}
              data-testid="report-class"
            />
          )}
          {!homeroom && form.scope === 'grade' && (
            <Select
              label={t('scope.grade')}
              placeholder={t('pick.grade')}
              data={grades.map((g) => ({ value: String(g), label: t('gradeN', { n: g }) }))}
              value={form.grade ? String(form.grade) : null}
              onChange={(v) => set({ grade: Number(v) || 0 })}
              w={{ base: '100%', xs: 160 }}
              data-testid="report-grade"
            />
          )}
          {!homeroom && form.scope === 'department' && (
            <Select
              label={t('scope.department')}
              placeholder={t('pick.department')}
              data={(departments.data?.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
              value={form.departmentId ? String(form.departmentId) : null}
              onChange={(v) => set({ departmentId: Number(v) || 0 })}
              w={{ base: '100%', xs: 240 }}
              data-testid="report-department"
            />
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

function PrintButton({ query }: { query: Record<string, string> }) {
  const { t } = useTranslation('reports');
  const { t: tc } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      // Saved through the platform: a download in the browser, the save dialog on the desktop.
      const file = await reportsApi.pdf(query);
      await saveFile(file.blob, file.fileName ?? 'rekap-pelanggaran.pdf');
      notifySuccess(t('pdfSaved'));
    } catch (err) {
      notifyError(err, tc);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button leftSection={<IconPrinter size={18} aria-hidden />} onClick={() => void run()} loading={busy} data-testid="report-pdf">
      {t('printPdf')}
    </Button>
  );
}

function Stat({ label, value, testId }: { label: string; value: number; testId: string }) {
  const num = useFormatNumber();
  return (
    <Paper withBorder p="xs">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" data-testid={testId}>
        {num(value)}
      </Text>
    </Paper>
  );
}

function useScopeLabel() {
  const { t } = useTranslation('reports');
  return (r: ViolationRecap) => {
    switch (r.scope.kind) {
      case 'class':
        return r.scope.class_name ? t('scopeText.class', { name: r.scope.class_name }) : t('noOwnClass');
      case 'grade':
        return t('gradeN', { n: r.scope.grade });
      case 'department':
        return r.scope.department_name ?? '';
      default:
        return t('scope.school');
    }
  };
}

function ClassesTable({ r }: { r: ViolationRecap }) {
  const { t } = useTranslation('reports');
  return (
    <ScrollArea type="auto" viewportProps={{ tabIndex: 0 }}>
      <Table striped withTableBorder miw={420} data-testid="report-classes">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('col.class')}</Table.Th>
            <Table.Th ta="right">{t('col.violations')}</Table.Th>
            <Table.Th ta="right">{t('col.students')}</Table.Th>
            <Table.Th ta="right">{t('col.points')}</Table.Th>
            {r.categories.map((c) => (
              <Table.Th key={c.id} ta="right">
                {c.name}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {r.classes.map((c) => (
            <Table.Tr key={`${c.class_id}-${c.class_name}`}>
              <Table.Td>{c.class_name || '–'}</Table.Td>
              <Table.Td ta="right">{c.violations}</Table.Td>
              <Table.Td ta="right">{c.students}</Table.Td>
              <Table.Td ta="right">{c.points}</Table.Td>
              {c.by_category.map((n, i) => (
                <Table.Td key={r.categories[i]?.id ?? i} ta="right">
                  {n}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/** The period's cases, counted only (no case, no name): the whole school's report for cases.view_counts. */
function CasesTable({ c }: { c: RecapCases }) {
  const { t } = useTranslation('reports');
  const { t: tk } = useTranslation('cases');
  const rows: { group: string; label: string; count: number; bold?: boolean }[] = [
    ...c.by_category.map((r) => ({ group: t('cases.byCategory'), label: r.label, count: r.count })),
    ...c.by_stage.map((r) => ({ group: t('cases.byStage'), label: tk(`stage.${r.key}`), count: r.count })),
    ...c.by_classification.map((r) => ({ group: t('cases.byClassification'), label: tk(`classification.${r.key || 'none'}`), count: r.count })),
    { group: t('cases.referral'), label: t('cases.referred'), count: c.referred },
    { group: t('cases.total'), label: t('cases.all'), count: c.total, bold: true },
  ];
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {t('cases.hint')}
      </Text>
      <ScrollArea type="auto" viewportProps={{ tabIndex: 0 }}>
        <Table striped withTableBorder miw={360} data-testid="report-cases">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('cases.by')}</Table.Th>
              <Table.Th>{t('cases.item')}</Table.Th>
              <Table.Th ta="right">{t('cases.count')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r, i) => (
              <Table.Tr key={i} fw={r.bold ? 700 : undefined}>
                <Table.Td>{r.group}</Table.Td>
                <Table.Td>{r.label}</Table.Td>
                <Table.Td ta="right">{r.count}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Stack>
  );
}

function StudentsTable({ r }: { r: ViolationRecap }) {
  const { t } = useTranslation('reports');
  return (
    <ScrollArea type="auto" mah={480} viewportProps={{ tabIndex: 0 }}>
      <Table striped withTableBorder stickyHeader miw={560} data-testid="report-students">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('col.student')}</Table.Th>
            <Table.Th>{t('col.class')}</Table.Th>
            <Table.Th ta="right">{t('col.violations')}</Table.Th>
            <Table.Th ta="right">{t('col.periodPoints')}</Table.Th>
            <Table.Th ta="right">{t('col.yearGross')}</Table.Th>
            <Table.Th ta="right">{t('col.yearNet')}</Table.Th>
            <Table.Th>{t('col.sp')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {r.students.map((s) => (
            <Table.Tr key={s.student_id}>
              <Table.Td>
                <Anchor component={Link} to={`/students/${s.student_id}`} size="sm">
                  {s.full_name}
                </Anchor>
              </Table.Td>
              <Table.Td>{s.class_name || '–'}</Table.Td>
              <Table.Td ta="right">{s.violations}</Table.Td>
              <Table.Td ta="right">{s.points}</Table.Td>
              <Table.Td ta="right">{s.year_gross}</Table.Td>
              <Table.Td ta="right" fw={600} data-testid="student-year-total">
                {s.year_total}
              </Table.Td>
              <Table.Td>{s.sp_level > 0 ? <Badge color="red" variant="light">{s.sp_name}</Badge> : '–'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

function DetailsTable({ r, page, onPage }: { r: ViolationRecap; page: number; onPage: (p: number) => void }) {
  const { t } = useTranslation('reports');
  const { t: tv } = useTranslation('violations');
  const fmt = useFormatDate();
  const pages = Math.max(1, Math.ceil(r.totals.violations / DETAIL_PAGE));
  return (
    <Stack gap="xs">
      <ScrollArea type="auto" viewportProps={{ tabIndex: 0 }}>
        <Table striped withTableBorder miw={640} data-testid="report-details">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('col.date')}</Table.Th>
              <Table.Th>{t('col.student')}</Table.Th>
              <Table.Th>{t('col.classThen')}</Table.Th>
              <Table.Th>{t('col.violation')}</Table.Th>
              <Table.Th ta="right">{t('col.points')}</Table.Th>
              <Table.Th>{t('col.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {r.details.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{fmt(d.occurred_on, 'shortDate')}</Table.Td>
                <Table.Td>{d.student_name}</Table.Td>
                <Table.Td>{d.class_name || '–'}</Table.Td>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {d.type_name}
                  </Text>
                  {d.description && (
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
                      {d.description}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">{d.points}</Table.Td>
                <Table.Td>{tv(`status.${d.handling_status}`)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {pages > 1 && (
        <Group justify="space-between" wrap="wrap">
          <Text size="xs" c="dimmed">
            {t('detailRange', { from: r.detail_offset + 1, to: r.detail_offset + r.details.length, total: r.totals.violations })}
          </Text>
          <Pagination total={pages} value={page} onChange={onPage} size="sm" siblings={0} data-testid="report-details-pages" />
        </Group>
      )}
    </Stack>
  );
}

/**
 * Violation recap report (/laporan): a period and a scope, the summary per class and per
 * student and the detail rows paged from the server, and "Cetak PDF" with every row.
 */
export default function RecapReportPage() {
  const { t } = useTranslation('reports');
  const { t: tc } = useTranslation();
  const { t: ts } = useTranslation('violation-source');
  const { me } = useSession();
  const homeroom = me?.user.role === 'wali_kelas';
  const [sp, setSp] = useSearchParams();
  const today = todayInJakarta().format('YYYY-MM-DD');
  // Sumber: the URL's, else the user's own; the report waits for it.
  const { source, remember } = useScreenSource(sp.get('source'));
  const form = { ...formFromParams(sp, today), source };
  const query = source ? apiQuery(form, homeroom) : null;
  const page = Math.max(1, Number(sp.get('page')) || 1);
  const recap = useRecap(query, (page - 1) * DETAIL_PAGE, DETAIL_PAGE);
  const r = recap.data;
  const scopeLabel = useScopeLabel();
  const fmt = useFormatDate();

  const change = (f: RecapForm) => setSp(new URLSearchParams(formToParams(f)), { replace: true });
  const setPage = (p: number) => {
    const next = new URLSearchParams(sp);
    next.set('page', String(p));
    setSp(next, { replace: true });
  };

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={query && r && r.totals.violations >= 0 ? <PrintButton query={query} /> : undefined} />
      <Stack gap="md">
        <FormBar
          form={form}
          homeroom={homeroom}
          onChange={change}
          onSource={(s) => {
            remember(s);
            change({ ...form, source: s });
          }}
        />
        {!query && source && <EmptyState message={t('pickScope')} testId="report-pick" />}
        {recap.isPending && query && <PageLoader />}
        {recap.isError && (
          <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} data-testid="report-error">
            {errorMessage(recap.error, tc)}
          </Alert>
        )}
        {r && query && (
          <>
            <Text fw={600} data-testid="report-heading">
              {scopeLabel(r)} · {fmt(r.period.from, 'date')} – {fmt(r.period.to, 'date')} · {ts(`source.${r.source}`)}
            </Text>
            <SimpleGrid cols={{ base: 3 }} spacing="xs">
              <Stat label={t('totals.violations')} value={r.totals.violations} testId="total-violations" />
              <Stat label={t('totals.students')} value={r.totals.students} testId="total-students" />
              <Stat label={t('totals.points')} value={r.totals.points} testId="total-points" />
            </SimpleGrid>
            {r.totals.violations === 0 ? (
              <EmptyState message={t('empty')} testId="report-empty" />
            ) : (
              <>
                <Title order={2} size="h4">
                  {t('section.classes')}
                </Title>
                <ClassesTable r={r} />
                <Title order={2} size="h4">
                  {t('section.students')}
                </Title>
                <StudentsTable r={r} />
                <Title order={2} size="h4">
                  {t('section.details')}
                </Title>
                <DetailsTable r={r} page={page} onPage={setPage} />
              </>
            )}
            {r.cases && (
              <>
                <Title order={2} size="h4">
                  {t('section.cases')}
                </Title>
                <CasesTable c={r.cases} />
              </>
            )}
          </>
        )}
      </Stack>
    </>
  );
}
