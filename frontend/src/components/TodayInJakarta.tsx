import { useEffect, useState } from 'react';
import { Text, type TextProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatDate } from '@/lib/useFormatDate';

/** "Minggu, 22 November 2026": today in Jakarta, updated when the day changes. */
export function TodayInJakarta(props: TextProps) {
  const { t } = useTranslation();
  const fmt = useFormatDate();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(id);
  }, []);
  return (
    <Text size="sm" c="dimmed" aria-label={t('shell.today', { date: fmt(now, 'weekdayDate') })} data-testid="today" {...props}>
      {fmt(now, 'weekdayDate')}
    </Text>
  );
}
