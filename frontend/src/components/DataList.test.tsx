import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider, Table } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { DataList, ListStatus, type DataListProps } from './DataList';

interface Row {
  id: number;
  name: string;
}

const meta = { page: 1, per_page: 2, total: 3, last_page: 2 };

function render(over: Partial<DataListProps<Row>>) {
  const props: DataListProps<Row> = {
    query: { isPending: false, isError: false, error: null, data: {} },
    rows: [],
    rowKey: (r) => r.id,
    head: <Table.Th>Name</Table.Th>,
    row: (r) => (
      <Table.Tr data-testid={`row-${r.id}`}>
        <Table.Td>{r.name}</Table.Td>
      </Table.Tr>
    ),
    card: (r) => <div data-testid={`card-${r.id}`}>{r.name}</div>,
    label: 'Students',
    testId: 'the-list',
    minWidth: 600,
    empty: { message: 'Nothing here', testId: 'the-empty' },
    ...over,
  };
  return renderToStaticMarkup(
    <MantineProvider>
      <DataList {...props} />
    </MantineProvider>,
  );
}

const rows = [
  { id: 1, name: 'Budi' },
  { id: 2, name: 'Siti' },
];

describe('DataList', () => {
  it('shows a table with the pager on a wide screen', () => {
    const html = render({ rows, meta, onPage: () => {}, summaryTestId: 'the-summary' });
    expect(html).toContain('data-testid="the-list"');
    expect(html).toContain('aria-label="Students"');
    expect(html).toContain('data-testid="row-1"');
    expect(html).toContain('data-testid="row-2"');
    expect(html).toContain('data-testid="the-summary"');
    expect(html).not.toContain('card-1');
    expect(html).not.toContain('the-empty');
  });

  it('shows cards on a phone', () => {
    const html = render({ rows, narrow: true });
    expect(html).toContain('data-testid="card-1"');
    expect(html).not.toContain('<table');
  });

  it('keeps the table on a phone when the page has no cards', () => {
    expect(render({ rows, narrow: true, card: undefined })).toContain('data-testid="row-1"');
  });

  it('shows cards on every screen for a list that is no table', () => {
    const html = render({ rows, head: undefined, row: undefined, narrow: false });
    expect(html).toContain('data-testid="card-2"');
    expect(html).toContain('data-testid="the-list"');
    expect(html).not.toContain('<table');
  });

  it('shows a loader while loading, and no empty state', () => {
    const html = render({ query: { isPending: true, isError: false, error: null } });
    expect(html).toContain('mantine-Loader');
    expect(html).not.toContain('the-empty');
  });

  it('says an empty list is empty, offering to clear filters when filtered', () => {
    const plain = render({});
    expect(plain).toContain('data-testid="the-empty"');
    expect(plain).toContain('Nothing here');
    expect(plain).not.toContain('clear-filters');
    expect(render({ empty: { message: 'None match', onClearFilters: () => {} } })).toContain('data-testid="clear-filters"');
  });

  it('shows an error rather than an empty list', () => {
    const html = render({ query: { isPending: false, isError: true, error: new Error('boom') } });
    expect(html).toContain('role="alert"');
    expect(html).not.toContain('the-empty');
  });

  it('has its loader, error and empty state on their own for a list drawn another way', () => {
    const status = (query: DataListProps<Row>['query'], count: number) =>
      renderToStaticMarkup(
        <MantineProvider>
          <ListStatus query={query} count={count} empty={{ message: 'No groups', testId: 'groups-empty' }} />
        </MantineProvider>,
      );
    const loaded = { isPending: false, isError: false, error: null, data: {} };
    expect(status(loaded, 0)).toContain('data-testid="groups-empty"');
    expect(status(loaded, 2)).not.toMatch(/groups-empty|mantine-Loader|role="alert"/);
    expect(status({ isPending: true, isError: false, error: null }, 0)).toContain('mantine-Loader');
    expect(status({ isPending: false, isError: true, error: new Error('boom') }, 0)).toContain('role="alert"');
  });
});
