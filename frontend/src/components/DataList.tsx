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

/** A list's query as DataList reads it (TanStack's useQuery result fits). */
export interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data?: unknown;
}

/** What an empty list says (with "clear filters" when the list is filtered). */
export interface ListEmpty {
  message: ReactNode;
  onClearFilters?: () => void;
  testId?: string;
  children?: ReactNode;
}

/**
 * What a list shows besides its rows: the error of a load that left nothing to show, a loader
 * while loading, and the empty state once loaded with no rows. DataList uses it; a list drawn
 * its own way (grouped in cards) uses it alone.
 */
export function ListStatus({ query, count, empty }: { query: ListQuery; count: number; empty: ListEmpty }) {
  const { t } = useTranslation();
  const failed = query.isError && !query.data;
  return (
    <>
      {failed && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert" m="md">
          {errorMessage(query.error, t)}
        </Alert>
      )}
      {query.isPending && (
        <Center p="xl">
          <Loader aria-label={t('loading')} />
        </Center>
      )}
      {!query.isPending && !failed && count === 0 && (
        <EmptyState message={empty.message} onClearFilters={empty.onClearFilters} testId={empty.testId}>
          {empty.children}
        </EmptyState>
      )}
    </>
  );
}

export interface DataListProps<T> {
  /** The list's query: pending shows a loader; an error with nothing to show, its message. */
  query: ListQuery;
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
  empty: ListEmpty;
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
  const phone = usePhone();
  const narrow = props.narrow ?? phone;
  // Cards on a phone, and on every screen for a list that is no table.
  const cards = narrow || !row ? card : undefined;
  return (
    <>
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
      <ListStatus query={query} count={rows.length} empty={empty} />
      {onPage && <ListPager meta={meta} onChange={onPage} narrow={narrow} summaryTestId={summaryTestId} />}
    </>
  );
}
