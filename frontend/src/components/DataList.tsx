import { Fragment, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Center, Loader, Stack, Table } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle } from '@tabler/icons-react';
import type { PageMeta } from '@/api/types';
import { EmptyState } from './EmptyState';
import { ListPager } from './ListPager';
import { errorMessage } from './serverErrors';

/** Phone width: a list shows cards below it. */
export const PHONE_QUERY = '(max-width: 48em)';

/** Whether the screen is a phone's (cards rather than a table). */
export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY) ?? false;
}

export interface DataListProps<T> {
  /** The list's query: pending shows a loader; an error with nothing to show, its message. */
  query: { isPending: boolean; isError: boolean; error: unknown; data?: unknown };
  rows: readonly T[];
  rowKey: (row: T) => Key;
  /** The table's header cells (<Table.Th>…). */
  head?: ReactNode;
  /** One <Table.Tr> per row; without it (a list that is no table) the cards show on every screen. */
  row?: (row: T) => ReactNode;
  /** One card per row on a phone; without it the phone scrolls the table. */
  card?: (row: T) => ReactNode;
  /** The table's accessible name (a table needs one). */
  label?: string;
  /** On the table, and on the cards' list. */
  testId?: string;
  /** Below this width the table scrolls sideways (0 when not given). */
  minWidth?: number;
  striped?: boolean;
  highlightOnHover?: boolean;
  /** What an empty list says (with "clear filters" when the list is filtered). */
  empty: { message: ReactNode; onClearFilters?: () => void; testId?: string; children?: ReactNode };
  /** The pager's figures; no pager without them. */
  meta?: PageMeta;
  onPage?: (page: number) => void;
  summaryTestId?: string;
  /** The page's own phone test (useMediaQuery's) when it has one; else DataList asks. */
  narrow?: boolean;
}

/**
 * The body of a list page under its filters: a loader, an error, an empty state (offering to
 * clear filters), a table on wide screens or cards on a phone (cards everywhere for a list
 * without `row`), and the pager.
 */
export function DataList<T>(props: DataListProps<T>) {
  const { query, rows, rowKey, head, row, card, label, testId, minWidth, striped, highlightOnHover, empty, meta, onPage, summaryTestId } = props;
  const { t } = useTranslation();
  const phone = usePhone();
  const narrow = props.narrow ?? phone;
  const failed = query.isError && !query.data;
  // Cards on a phone, and on every screen for a list that is no table.
  const cards = narrow || !row ? card : undefined;
  return (
    <>
      {failed && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert" m="md">
          {errorMessage(query.error, t)}
        </Alert>
      )}
      {rows.length > 0 && cards && (
        <Stack gap={0} data-testid={testId} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          {rows.map((r) => (
            <div key={rowKey(r)} style={{ borderBottom: '1px solid var(--mantine-color-default-border)', minWidth: 0 }}>
              {cards(r)}
            </div>
          ))}
        </Stack>
      )}
      {rows.length > 0 && !cards && row && (
        <Table.ScrollContainer minWidth={minWidth ?? 0}>
          <Table striped={striped} highlightOnHover={highlightOnHover} verticalSpacing="sm" aria-label={label} data-testid={testId}>
            <Table.Thead>
              <Table.Tr>{head}</Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Fragment key={rowKey(r)}>{row(r)}</Fragment>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {query.isPending && (
        <Center p="xl">
          <Loader aria-label={t('loading')} />
        </Center>
      )}
      {!query.isPending && !failed && rows.length === 0 && (
        <EmptyState message={empty.message} onClearFilters={empty.onClearFilters} testId={empty.testId}>
          {empty.children}
        </EmptyState>
      )}
      {onPage && <ListPager meta={meta} onChange={onPage} narrow={narrow} summaryTestId={summaryTestId} />}
    </>
  );
}
