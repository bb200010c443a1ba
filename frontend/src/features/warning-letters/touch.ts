import { useMediaQuery } from '@mantine/hooks';

/** Button props for a finger on phones: at least 44 px high; Mantine's "sm" elsewhere. */
export function useTouchButton(): { size: 'md' | 'sm'; mih?: number } {
  const phone = useMediaQuery('(max-width: 48em)');
  return phone ? { size: 'md', mih: 44 } : { size: 'sm' };
}
