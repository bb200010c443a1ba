import { useTranslation } from 'react-i18next';
import { Pagination, Stack, Text } from '@mantine/core';
import type { PageMeta } from '@/api/types';
import { useFormatNumber } from '@/lib/numbers';

/**
 * The foot of a paged list: page buttons (when there is more than one page) and
 * "1–20 of 57". Renders nothing for an empty list.
 */
export function ListPager({
  meta,
  onChange,
  narrow = false,
  summaryTestId,
}: {
  meta: PageMeta | undefined;
  onChange: (page: number) => void;
  /** Phone width: fewer page buttons. */
  narrow?: boolean;
  summaryTestId?: string;
}) {
  const { t } = useTranslation();
  const num = useFormatNumber();
  if (!meta || meta.total === 0) return null;
  return (
    <Stack p="md" gap="xs" align="center">
      {meta.last_page > 1 && (
        <Pagination
          total={meta.last_page}
          value={meta.page}
          onChange={onChange}
          size="sm"
          siblings={narrow ? 0 : 1}
          getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })}
        />
      )}
      <Text size="xs" c="dimmed" data-testid={summaryTestId}>
        {t('pagination.summary', {
          from: num((meta.page - 1) * meta.per_page + 1),
          to: num(Math.min(meta.page * meta.per_page, meta.total)),
          total: num(meta.total),
        })}
      </Text>
    </Stack>
  );
}
